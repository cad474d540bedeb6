//! `dopol topology`: the GatewayClass → Gateway → listener → route → rule tree with the policies
//! attached at each node, refused attachments with their Gateway API reason, and policies that
//! were not accepted. Four renderings of one graph: an indented tree, Graphviz DOT, Mermaid,
//! and the `Topology` document of `-o json`/`-o yaml`. The filters' [`Scope`] decides which
//! nodes the graph has.

use crate::model::Model;
use crate::policy::BlockKind;
use crate::policy::owned::OwnedNode;
use crate::report::topology::{
    GatewayNode, ListenerNode, ListenerSetNode, NotAcceptedNode, PolicyRef, RefusedNode, RouteNode,
    RuleNode, Scope, TopologyDocument,
};
use crate::topology::{Target, Topology};
use std::collections::BTreeMap;
use std::fmt::Write;
use std::io;

/// What one node of the graph is.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum NodeKind {
    Class,
    Gateway,
    ListenerSet,
    Listener,
    Route,
    Rule,
    Policy,
}

/// The model object a node stands for.
#[derive(Clone, Copy, Debug)]
enum Subject {
    /// A GatewayClass, by a Gateway of that class.
    Class(u32),
    Gateway(u32),
    /// A ListenerSet (its Gateway, index into `Model::listener_sets`).
    ListenerSet(u32, u32),
    Listener(u32, u32),
    Route(u32),
    Rule(u32, u32),
    /// A policy, and whether a route rule's ExtensionRef names it.
    Policy(u32, bool),
}

/// A node: what it stands for. Its stable id and one-line label are written from the model
/// when the graph is ([`Graph::id`], [`Graph::label`]): a cluster dump's graph has a node per
/// route rule, and an id and a label string each were about 30 MB on the 49 MB benchmark.
#[derive(Clone, Copy, Debug)]
struct Node {
    subject: Subject,
}

impl Node {
    fn kind(&self) -> NodeKind {
        match self.subject {
            Subject::Class(_) => NodeKind::Class,
            Subject::Gateway(_) => NodeKind::Gateway,
            Subject::ListenerSet(..) => NodeKind::ListenerSet,
            Subject::Listener(..) => NodeKind::Listener,
            Subject::Route(_) => NodeKind::Route,
            Subject::Rule(..) => NodeKind::Rule,
            Subject::Policy(..) => NodeKind::Policy,
        }
    }
}

/// What a rendering reads of the graph: the tree of children (the indented tree and the JSON
/// document) or the edge lists (DOT and Mermaid). A graph holds only the one asked for: on a
/// cluster dump each has an entry per route rule and per policy attachment (the edges were
/// about 5 MB on the 49 MB benchmark, at the peak of `topology`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Shape {
    Tree,
    Edges,
}

/// The graph shared by the three renderings.
#[derive(Debug)]
struct Graph<'m> {
    model: &'m Model,
    shape: Shape,
    nodes: Vec<Node>,
    /// Hierarchy edges parent → child (node indices).
    edges: Vec<(usize, usize)>,
    /// Policy → target edges.
    policy_edges: Vec<(usize, usize)>,
    /// Delegating rule → child route edges (a family's route link).
    delegation_edges: Vec<(usize, usize)>,
    /// Refused attachments.
    refused: Vec<Refusal>,
    /// Tree children (for the indented rendering and the document; routes are repeated
    /// under each listener).
    tree: BTreeMap<usize, Vec<TreeChild>>,
    roots: Vec<usize>,
    /// Policies not accepted: index into `Model::policies`, and the line for the tree.
    notes: Vec<(usize, String)>,
}

impl<'m> Graph<'m> {
    fn new(model: &'m Model, shape: Shape) -> Graph<'m> {
        Graph {
            model,
            shape,
            nodes: Vec::new(),
            edges: Vec::new(),
            policy_edges: Vec::new(),
            delegation_edges: Vec::new(),
            refused: Vec::new(),
            tree: BTreeMap::new(),
            roots: Vec::new(),
            notes: Vec::new(),
        }
    }

    /// Adds an edge to the list `edges` picks (when the graph keeps edges).
    fn edge(&mut self, edges: fn(&mut Self) -> &mut Vec<(usize, usize)>, from: usize, to: usize) {
        if self.shape == Shape::Edges {
            edges(self).push((from, to));
        }
    }

    /// Adds `child` under `parent` (when the graph keeps the tree). Most elements have one
    /// policy of a kind: a list grown from empty by a push would hold room for four.
    fn child(&mut self, parent: usize, child: TreeChild) {
        if self.shape == Shape::Tree {
            self.tree
                .entry(parent)
                .or_insert_with(|| Vec::with_capacity(1))
                .push(child);
        }
    }

    /// Node `n`'s stable id (`gateway:ns/name`, `route:HTTPRoute:ns/name#rule`, ...).
    fn id(&self, n: usize) -> String {
        let model = self.model;
        match self.nodes[n].subject {
            Subject::Class(g) => format!("class:{}", model.gateways[g as usize].class_name),
            Subject::Gateway(g) => {
                let gateway = &model.gateways[g as usize];
                format!("gateway:{}/{}", gateway.namespace, gateway.name)
            }
            Subject::ListenerSet(g, s) => {
                let gateway = &model.gateways[g as usize];
                let set = &model.listener_sets[s as usize];
                let gw = format!("{}/{}", gateway.namespace, gateway.name);
                format!("listenerset:{gw}>{}/{}", set.namespace, set.name)
            }
            Subject::Listener(g, l) => {
                let gateway = &model.gateways[g as usize];
                let listener = &gateway.listeners[l as usize];
                let key = gateway.listener_key(listener);
                format!("listener:{key}")
            }
            Subject::Route(r) => route_id(&model.routes[r as usize]),
            Subject::Rule(r, k) => {
                let route = &model.routes[r as usize];
                format!("{}#{}", route_id(route), route.rules[k as usize].name)
            }
            Subject::Policy(p, _) => format!("policy:{}", model.policies[p as usize].locator),
        }
    }

    /// Node `n`'s one-line label.
    fn label(&self, n: usize) -> String {
        let model = self.model;
        match self.nodes[n].subject {
            Subject::Class(g) => {
                format!("GatewayClass {}", model.gateways[g as usize].class_name)
            }
            Subject::Gateway(g) => {
                let gateway = &model.gateways[g as usize];
                let assumed = if gateway.assumed { " (assumed)" } else { "" };
                format!("Gateway {}/{}{assumed}", gateway.namespace, gateway.name)
            }
            Subject::ListenerSet(_, s) => model.listener_sets[s as usize].display(),
            Subject::Listener(g, l) => {
                let gateway = &model.gateways[g as usize];
                let listener = &gateway.listeners[l as usize];
                let mut label = format!("listener {}", listener.name);
                if !gateway.assumed {
                    let _ = write!(label, " ({}:{}", listener.protocol, listener.port);
                    if let Some(hostname) = &listener.hostname {
                        let _ = write!(label, " {hostname}");
                    }
                    label.push(')');
                }
                label
            }
            Subject::Route(r) => {
                let route = &model.routes[r as usize];
                route.display()
            }
            Subject::Rule(r, k) => {
                format!("rule {}", model.routes[r as usize].rules[k as usize].name)
            }
            Subject::Policy(p, by_extension) => policy_label(model, p, by_extension),
        }
    }
}

/// `route:<kind>:<ns>/<name>`.
fn route_id(route: &crate::model::gateway::Route) -> String {
    format!(
        "route:{}:{}/{}",
        route.kind.as_str(),
        route.namespace,
        route.name
    )
}

/// A route a Gateway refused.
#[derive(Debug)]
struct Refusal {
    /// The route's node.
    route: usize,
    /// Index into `Topology::rejections`.
    rejection: usize,
    /// The Gateway's node, when the Gateway exists.
    gateway: Option<usize>,
    /// The Gateway API reason.
    reason: &'static str,
    /// The whole line for the tree rendering.
    text: String,
}

#[derive(Clone, Debug)]
enum TreeChild {
    Node(usize),
    /// A route under one listener: route node, and the rules under it.
    RouteUnder(usize, Vec<usize>),
    /// A route a rule delegates to: route node, and its rules kept under that rule.
    Delegated(usize, Vec<usize>),
}

/// Output format of `dopol topology`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TopologyFormat {
    /// Indented tree.
    Tree,
    /// Graphviz DOT.
    Dot,
    /// Mermaid flowchart.
    Mermaid,
}

/// Writes the part of the topology `scope` keeps to `out`.
pub fn render(
    (model, topology): (&Model, &Topology),
    scope: &Scope,
    owned: &[&OwnedNode],
    format: TopologyFormat,
    out: &mut dyn io::Write,
) -> io::Result<()> {
    let shape = match format {
        TopologyFormat::Tree => Shape::Tree,
        TopologyFormat::Dot | TopologyFormat::Mermaid => Shape::Edges,
    };
    let graph = build(model, topology, scope, shape);
    let mut sink = Sink::new(out);
    let owned_graph = OwnedGraph::of(model, owned);
    match format {
        TopologyFormat::Tree => tree(&graph, !owned.is_empty(), &mut sink),
        TopologyFormat::Dot => dot(&graph, &owned_graph, &mut sink),
        TopologyFormat::Mermaid => mermaid(&graph, &owned_graph, &mut sink),
    }
    if format == TopologyFormat::Tree {
        let wrote = !graph.roots.is_empty() || !graph.refused.is_empty() || !graph.notes.is_empty();
        owned_tree(model, owned, wrote, &mut sink);
    }
    sink.finish()
}

/// The trees of the hierarchies families build themselves, after the Gateway API tree: each
/// node `Kind name`, with the policies attached to or selecting it.
fn owned_tree(model: &Model, roots: &[&OwnedNode], wrote: bool, out: &mut Sink<'_>) {
    fn node_line(model: &Model, node: &OwnedNode) -> String {
        let mut line = format!("{} {}", node.kind, node.name).trim().to_string();
        if !node.policies.is_empty() {
            let names: Vec<String> = (node.policies.iter())
                .map(|&p| model.policies[p as usize].display())
                .collect();
            line.push_str(&format!("  ◂ {}", names.join(", ")));
        }
        line
    }
    fn children(model: &Model, node: &OwnedNode, prefix: &str, out: &mut Sink<'_>) {
        for (i, child) in node.children.iter().enumerate() {
            let last = i + 1 == node.children.len();
            let (branch, indent) = if last {
                ("└─ ", "   ")
            } else {
                ("├─ ", "│  ")
            };
            let _ = writeln!(out, "{prefix}{branch}{}", node_line(model, child));
            children(model, child, &format!("{prefix}{indent}"), out);
        }
    }
    for (i, root) in roots.iter().enumerate() {
        if i > 0 || wrote {
            out.push('\n');
        }
        let _ = writeln!(out, "{}", node_line(model, root));
        children(model, root, "", out);
    }
}

/// Text written to the output as it is produced (the caller's writer buffers it, as stdout's
/// does in `cli::session::write_stdout`). The tree of a cluster dump is tens of MB: gathered
/// whole first, it sat on top of the graph it is written from.
struct Sink<'w> {
    out: &'w mut dyn io::Write,
    /// The first write error; nothing more is written after it.
    error: Option<io::Error>,
}

impl<'w> Sink<'w> {
    fn new(out: &'w mut dyn io::Write) -> Self {
        Sink { out, error: None }
    }

    fn push_str(&mut self, s: &str) {
        if self.error.is_none()
            && let Err(error) = self.out.write_all(s.as_bytes())
        {
            self.error = Some(error);
        }
    }

    fn push(&mut self, c: char) {
        self.push_str(c.encode_utf8(&mut [0; 4]));
    }

    /// The first write error, if any.
    fn finish(self) -> io::Result<()> {
        self.error.map_or(Ok(()), Err)
    }
}

impl Write for Sink<'_> {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        self.push_str(s);
        Ok(())
    }
}

/// A policy's blocks: `bare`, `spec`, or the block and its strategy (`defaults merge`).
fn policy_blocks(model: &Model, policy: u32) -> Vec<String> {
    model.policies[policy as usize]
        .blocks
        .iter()
        .map(|b| match b.kind {
            BlockKind::Bare => "bare".to_string(),
            BlockKind::Spec => "spec".to_string(),
            k => format!("{} {}", k.as_str(), b.strategy.as_str()),
        })
        .collect()
}

fn policy_label(model: &Model, policy: u32, by_extension: bool) -> String {
    let p = &model.policies[policy as usize];
    let mut blocks = policy_blocks(model, policy);
    if by_extension {
        blocks.push("via ExtensionRef".into());
    }
    format!(
        "{} {} [{}]",
        p.kind.kind,
        p.namespaced_name(),
        blocks.join(", ")
    )
}

/// The rule nodes the scope keeps.
fn kept_rules(graph: &Graph, scope: &Scope, rules: Vec<usize>) -> Vec<usize> {
    rules
        .into_iter()
        .filter(|&n| match graph.nodes[n].subject {
            Subject::Rule(r, k) => scope.rule(r, k),
            _ => true,
        })
        .collect()
}

fn build<'m>(model: &'m Model, topology: &Topology, scope: &Scope, shape: Shape) -> Graph<'m> {
    let mut graph = Graph::new(model, shape);
    let add = |graph: &mut Graph, subject: Subject| {
        graph.nodes.push(Node { subject });
        graph.nodes.len() - 1
    };

    // Policies attached to each element, in engine order, kinds in registry order.
    let kinds = model.registry.kind_count();
    let policies_on = |target: Target| -> Vec<u32> {
        (0..kinds)
            .flat_map(|k| topology.targets.on(target, k).to_vec())
            .collect()
    };

    // Policies a route rule filter names (an ExtensionRef).
    let by_extension: std::collections::BTreeSet<u32> = topology
        .targets
        .lists
        .iter()
        .zip(&topology.targets.vias)
        .flat_map(|(list, vias)| list.iter().zip(vias))
        .filter(|(_, via)| matches!(via, crate::policy::Via::Extension(_)))
        .map(|(p, _)| *p)
        .collect();
    let mut policy_nodes: BTreeMap<u32, usize> = BTreeMap::new();
    let mut attach_policies = |graph: &mut Graph, target: Target, node: usize| {
        for p in policies_on(target) {
            let policy_node = *policy_nodes.entry(p).or_insert_with(|| {
                let subject = Subject::Policy(p, by_extension.contains(&p));
                graph.nodes.push(Node { subject });
                graph.nodes.len() - 1
            });
            graph.edge(|g| &mut g.policy_edges, policy_node, node);
            graph.child(node, TreeChild::Node(policy_node));
        }
    };

    let mut route_nodes: BTreeMap<u32, (usize, Vec<usize>)> = BTreeMap::new();
    let mut route_node = |graph: &mut Graph,
                          r: u32,
                          attach: &mut dyn FnMut(&mut Graph, Target, usize)|
     -> (usize, Vec<usize>) {
        if let Some(existing) = route_nodes.get(&r) {
            return existing.clone();
        }
        let node = add(graph, Subject::Route(r));
        attach(graph, Target::Route(r), node);
        let rules: Vec<usize> = (0..model.routes[r as usize].rules.len())
            .map(|k| {
                let rule_node = add(graph, Subject::Rule(r, k as u32));
                graph.edge(|g| &mut g.edges, node, rule_node);
                attach(graph, Target::RouteRule(r, k as u32), rule_node);
                rule_node
            })
            .collect();
        route_nodes.insert(r, (node, rules.clone()));
        (node, rules)
    };

    // The routes attached to each listener, sorted by namespace, name and kind.
    let mut routes_of_listener: BTreeMap<(u32, u32), Vec<u32>> = BTreeMap::new();
    for (r, listeners) in topology.route_listeners.iter().enumerate() {
        for &listener in listeners {
            routes_of_listener
                .entry(listener)
                .or_default()
                .push(r as u32);
        }
    }
    for routes in routes_of_listener.values_mut() {
        routes.sort_by_key(|&r| {
            let route = &model.routes[r as usize];
            (&route.namespace, &route.name, route.kind)
        });
        routes.dedup();
    }

    let mut gateways: Vec<u32> = (0..model.gateways.len() as u32).collect();
    gateways.sort_by_key(|&g| {
        let gw = &model.gateways[g as usize];
        (gw.class_name.clone(), gw.namespace.clone(), gw.name.clone())
    });
    let mut class_nodes: BTreeMap<String, usize> = BTreeMap::new();
    let mut gateway_nodes: BTreeMap<u32, usize> = BTreeMap::new();
    for g in gateways.into_iter().filter(|&g| scope.gateway(g)) {
        let gateway = &model.gateways[g as usize];
        let class = *class_nodes
            .entry(gateway.class_name.clone())
            .or_insert_with(|| {
                let node = add(&mut graph, Subject::Class(g));
                graph.roots.push(node);
                node
            });
        let gateway_node = add(&mut graph, Subject::Gateway(g));
        gateway_nodes.insert(g, gateway_node);
        graph.edge(|g| &mut g.edges, class, gateway_node);
        graph.child(class, TreeChild::Node(gateway_node));
        attach_policies(&mut graph, Target::Gateway(g), gateway_node);
        // A ListenerSet's listeners hang under its node, added under the Gateway before the
        // first of them (they follow the Gateway's own, set by set).
        let mut set_node: Option<(u32, usize)> = None;
        for l in 0..gateway.listeners.len() {
            if !scope.listener(g, l as u32) {
                continue;
            }
            let parent = match gateway.listeners[l].set {
                None => gateway_node,
                Some(s) if set_node.is_some_and(|(open, _)| open == s) => set_node.unwrap().1,
                Some(s) => {
                    let node = add(&mut graph, Subject::ListenerSet(g, s));
                    graph.edge(|g| &mut g.edges, gateway_node, node);
                    graph.child(gateway_node, TreeChild::Node(node));
                    set_node = Some((s, node));
                    attach_policies(&mut graph, Target::ListenerSet(s), node);
                    node
                }
            };
            let listener_node = add(&mut graph, Subject::Listener(g, l as u32));
            graph.edge(|g| &mut g.edges, parent, listener_node);
            graph.child(parent, TreeChild::Node(listener_node));
            attach_policies(&mut graph, Target::Listener(g, l as u32), listener_node);
            for &r in routes_of_listener
                .get(&(g, l as u32))
                .map_or(&[][..], Vec::as_slice)
                .iter()
                .filter(|&&r| scope.route(g, l as u32, r))
            {
                let (node, rules) = route_node(&mut graph, r, &mut attach_policies);
                let rules = kept_rules(&graph, scope, rules);
                graph.edge(|g| &mut g.edges, listener_node, node);
                graph.child(listener_node, TreeChild::RouteUnder(node, rules));
            }
        }
    }

    for (index, rejection) in topology.rejections.iter().enumerate() {
        if !scope.refusal(model, rejection) {
            continue;
        }
        let (node, _) = route_node(&mut graph, rejection.route, &mut attach_policies);
        let gateway = rejection
            .gateway
            .and_then(|g| gateway_nodes.get(&g).copied());
        let route = &model.routes[rejection.route as usize];
        let parent = &route.parent_refs[rejection.parent_ref as usize];
        let section = parent
            .section_name
            .as_ref()
            .map(|s| format!("#{s}"))
            .unwrap_or_default();
        graph.refused.push(Refusal {
            route: node,
            rejection: index,
            gateway,
            reason: rejection.reason.as_str(),
            text: format!(
                "{} {}/{} → Gateway {}/{}{section}: {} ({})",
                route.kind.as_str(),
                route.namespace,
                route.name,
                parent.namespace,
                parent.name,
                rejection.reason.as_str(),
                rejection.message
            ),
        });
    }
    for delegation in &topology.delegations {
        let (parent_route, parent_rule) = delegation.parent;
        if !scope.rule(parent_route, parent_rule) {
            continue;
        }
        let (_, parent_rules) = route_node(&mut graph, parent_route, &mut attach_policies);
        let rule_node = parent_rules[parent_rule as usize];
        let (child_node, child_rules) =
            route_node(&mut graph, delegation.child, &mut attach_policies);
        let kept = delegation
            .rules
            .iter()
            .map(|&r| child_rules[r as usize])
            .collect();
        let kept = kept_rules(&graph, scope, kept);
        graph.edge(|g| &mut g.delegation_edges, rule_node, child_node);
        graph.child(rule_node, TreeChild::Delegated(child_node, kept));
    }
    for (p, message) in topology.targets.not_accepted.iter().enumerate() {
        if let Some(message) = message
            .as_ref()
            .filter(|_| scope.unattached_policy(model, p))
        {
            let policy = &model.policies[p];
            let line = format!(
                "{} {}: not accepted — {message} (TargetNotFound)",
                policy.kind.kind,
                policy.namespaced_name()
            );
            graph.notes.push((p, line));
        }
    }
    graph
}

/// The `Topology` document of the part of the topology `scope` keeps.
pub fn document(
    (model, topology): (&Model, &Topology),
    scope: &Scope,
    owned: &[&OwnedNode],
) -> TopologyDocument {
    let graph = build(model, topology, scope, Shape::Tree);
    let walk = DocumentWalk {
        model,
        graph: &graph,
    };
    let gateways = graph
        .roots
        .iter()
        .flat_map(|&class| walk.children(class))
        .filter_map(|child| match child {
            TreeChild::Node(n) => match graph.nodes[n].subject {
                Subject::Gateway(g) => Some(walk.gateway(n, g)),
                _ => None,
            },
            _ => None,
        })
        .collect();
    let refused = graph
        .refused
        .iter()
        .map(|refusal| {
            let rejection = &topology.rejections[refusal.rejection];
            let route = &model.routes[rejection.route as usize];
            let parent = &route.parent_refs[rejection.parent_ref as usize];
            RefusedNode {
                route_kind: route.kind.as_str(),
                route: format!("{}/{}", route.namespace, route.name),
                gateway: format!("{}/{}", parent.namespace, parent.name),
                section_name: parent.section_name.as_ref().map(String::from),
                reason: refusal.reason,
                message: rejection.message.clone(),
            }
        })
        .collect();
    let not_accepted = graph
        .notes
        .iter()
        .map(|&(p, _)| {
            let policy = &model.policies[p];
            NotAcceptedNode {
                policy_kind: policy.kind.kind,
                name: policy.namespaced_name(),
                locator: policy.locator.clone(),
                reason: "TargetNotFound",
                message: topology.targets.not_accepted[p].clone().unwrap_or_default(),
            }
        })
        .collect();
    TopologyDocument {
        api_version: crate::report::API_VERSION,
        kind: "Topology",
        gateways,
        refused,
        not_accepted,
        owned: (owned.iter())
            .map(|n| crate::report::topology::OwnedTreeNode::of(model, n))
            .collect(),
    }
}

/// Reads the graph's tree into the document's nodes.
struct DocumentWalk<'a> {
    model: &'a Model,
    graph: &'a Graph<'a>,
}

impl DocumentWalk<'_> {
    fn children(&self, node: usize) -> Vec<TreeChild> {
        self.graph.tree.get(&node).cloned().unwrap_or_default()
    }

    /// The policies attached to a node.
    fn policies(&self, node: usize) -> Vec<PolicyRef> {
        self.children(node)
            .into_iter()
            .filter_map(|child| match child {
                TreeChild::Node(n) => match self.graph.nodes[n].subject {
                    Subject::Policy(p, via_extension_ref) => {
                        let policy = &self.model.policies[p as usize];
                        Some(PolicyRef {
                            policy_kind: policy.kind.kind,
                            policy_group: policy.kind.group,
                            name: policy.namespaced_name(),
                            locator: policy.locator.clone(),
                            blocks: policy_blocks(self.model, p),
                            via_extension_ref,
                        })
                    }
                    _ => None,
                },
                _ => None,
            })
            .collect()
    }

    fn gateway(&self, node: usize, g: u32) -> GatewayNode {
        let gateway = &self.model.gateways[g as usize];
        let mut listener_sets = Vec::new();
        for child in self.children(node) {
            let TreeChild::Node(n) = child else { continue };
            if let Subject::ListenerSet(_, s) = self.graph.nodes[n].subject {
                let set = &self.model.listener_sets[s as usize];
                listener_sets.push(ListenerSetNode {
                    name: format!("{}/{}", set.namespace, set.name),
                    kind: if set.legacy {
                        "XListenerSet"
                    } else {
                        "ListenerSet"
                    },
                    listeners: self.listeners(n),
                });
            }
        }
        GatewayNode {
            name: format!("{}/{}", gateway.namespace, gateway.name),
            class: gateway.class_name.clone(),
            assumed: gateway.assumed,
            policies: self.policies(node),
            listeners: self.listeners(node),
            listener_sets,
        }
    }

    /// The listener nodes under `node` (a Gateway's own, or a ListenerSet's).
    fn listeners(&self, node: usize) -> Vec<ListenerNode> {
        (self.children(node).into_iter())
            .filter_map(|child| match child {
                TreeChild::Node(n) => match self.graph.nodes[n].subject {
                    Subject::Listener(g, l) => Some(self.listener(n, g, l)),
                    _ => None,
                },
                _ => None,
            })
            .collect()
    }

    fn listener(&self, node: usize, g: u32, l: u32) -> ListenerNode {
        let listener = &self.model.gateways[g as usize].listeners[l as usize];
        let routes = self
            .children(node)
            .into_iter()
            .filter_map(|child| match child {
                TreeChild::RouteUnder(n, rules) => Some(self.route(n, &rules, &mut Vec::new())),
                _ => None,
            })
            .collect();
        ListenerNode {
            name: listener.name.clone(),
            protocol: listener.protocol.clone(),
            port: listener.port,
            hostname: listener.hostname.clone(),
            policies: self.policies(node),
            routes,
        }
    }

    /// A route with `rules` under it; `above` holds the routes being written above, so that a
    /// delegation cycle is written once.
    fn route(&self, node: usize, rules: &[usize], above: &mut Vec<usize>) -> RouteNode {
        let Subject::Route(r) = self.graph.nodes[node].subject else {
            unreachable!("a route child is a route node")
        };
        let route = &self.model.routes[r as usize];
        let cycle = above.contains(&node);
        above.push(node);
        let rules = if cycle {
            Vec::new()
        } else {
            rules.iter().map(|&rule| self.rule(rule, above)).collect()
        };
        above.pop();
        RouteNode {
            kind: route.kind.as_str(),
            name: format!("{}/{}", route.namespace, route.name),
            policies: self.policies(node),
            rules,
            cycle,
        }
    }

    fn rule(&self, node: usize, above: &mut Vec<usize>) -> RuleNode {
        let Subject::Rule(r, k) = self.graph.nodes[node].subject else {
            unreachable!("a rule of a route is a rule node")
        };
        let delegates_to = self
            .children(node)
            .into_iter()
            .filter_map(|child| match child {
                TreeChild::Delegated(n, kept) => Some(self.route(n, &kept, above)),
                _ => None,
            })
            .collect();
        RuleNode {
            name: self.model.routes[r as usize].rules[k as usize]
                .name
                .to_string(),
            policies: self.policies(node),
            delegates_to,
        }
    }
}

fn tree(graph: &Graph, owned: bool, out: &mut Sink<'_>) {
    for &root in &graph.roots {
        out.push_str(&graph.label(root));
        out.push('\n');
        tree_children(graph, root, None, "", &mut Vec::new(), out);
    }
    if graph.roots.is_empty() && !owned {
        out.push_str("No Gateways.\n");
    }
    if !graph.refused.is_empty() {
        out.push_str("\nRefused attachments:\n");
        for refusal in &graph.refused {
            let _ = writeln!(out, "  {}", refusal.text);
        }
    }
    if !graph.notes.is_empty() {
        out.push_str("\nPolicies not accepted:\n");
        for (_, note) in &graph.notes {
            let _ = writeln!(out, "  {note}");
        }
    }
}

/// Writes the children of `node`. `routes` holds the route nodes being written above, so that a
/// delegation cycle in the graph (each edge kept on some chain) is written once, not forever.
fn tree_children(
    graph: &Graph,
    node: usize,
    rules: Option<&[usize]>,
    prefix: &str,
    routes: &mut Vec<usize>,
    out: &mut Sink<'_>,
) {
    // The node's own children, then the rules it is written with (borrowed: a listener's
    // children are every route under it, each with its rules).
    let own = graph.tree.get(&node).map_or(&[][..], Vec::as_slice);
    let rules = rules.unwrap_or_default();
    let count = own.len() + rules.len();
    let children = own
        .iter()
        .map(|child| match child {
            TreeChild::Node(n) => (*n, None, ""),
            TreeChild::RouteUnder(n, rules) => (*n, Some(rules.as_slice()), ""),
            TreeChild::Delegated(n, rules) => (*n, Some(rules.as_slice()), "delegates to "),
        })
        .chain(rules.iter().map(|&rule| (rule, None, "")));
    for (i, (child_node, child_rules, marker)) in children.enumerate() {
        let last = i + 1 == count;
        let (branch, indent) = if last {
            ("└─ ", "   ")
        } else {
            ("├─ ", "│  ")
        };
        let kind = graph.nodes[child_node].kind();
        let marker = if kind == NodeKind::Policy {
            "policy "
        } else {
            marker
        };
        let cycle = kind == NodeKind::Route && routes.contains(&child_node);
        let _ = writeln!(
            out,
            "{prefix}{branch}{marker}{}{}",
            graph.label(child_node),
            if cycle { " (cycle, shown above)" } else { "" }
        );
        if kind != NodeKind::Policy && !cycle {
            let is_route = kind == NodeKind::Route;
            if is_route {
                routes.push(child_node);
            }
            tree_children(
                graph,
                child_node,
                child_rules,
                &format!("{prefix}{indent}"),
                routes,
                out,
            );
            if is_route {
                routes.pop();
            }
        }
    }
}

/// The owned hierarchies' trees as nodes and edges, for DOT and Mermaid: each element a node,
/// each policy a node (once), an edge from parent to child and a dashed one from a policy to
/// each element it is attached to or selects.
#[derive(Default)]
struct OwnedGraph {
    /// Label, and whether the node is a policy.
    nodes: Vec<(String, bool)>,
    /// Parent → child.
    edges: Vec<(usize, usize)>,
    /// Policy → element.
    policy_edges: Vec<(usize, usize)>,
}

impl OwnedGraph {
    fn of(model: &Model, roots: &[&OwnedNode]) -> OwnedGraph {
        let mut graph = OwnedGraph::default();
        let mut policies: BTreeMap<u32, usize> = BTreeMap::new();
        for root in roots {
            graph.add(model, root, &mut policies);
        }
        graph
    }

    fn add(
        &mut self,
        model: &Model,
        node: &OwnedNode,
        policies: &mut BTreeMap<u32, usize>,
    ) -> usize {
        let at = self.nodes.len();
        self.nodes.push((
            format!("{} {}", node.kind, node.name).trim().to_string(),
            false,
        ));
        for &p in &node.policies {
            let policy = *policies.entry(p).or_insert_with(|| {
                self.nodes
                    .push((model.policies[p as usize].display(), true));
                self.nodes.len() - 1
            });
            self.policy_edges.push((policy, at));
        }
        for child in &node.children {
            let child = self.add(model, child, policies);
            self.edges.push((at, child));
        }
        at
    }
}

fn quote(s: &str) -> String {
    format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
}

fn dot(graph: &Graph, owned: &OwnedGraph, out: &mut Sink<'_>) {
    out.push_str("digraph dopol {\n  rankdir=LR;\n  node [shape=box, fontname=\"Helvetica\"];\n");
    for (n, node) in graph.nodes.iter().enumerate() {
        let style = match node.kind() {
            NodeKind::Class => ", style=rounded",
            NodeKind::Gateway => ", style=\"rounded,bold\"",
            NodeKind::Policy => ", shape=note",
            _ => "",
        };
        let _ = writeln!(
            out,
            "  {} [label={}{style}];",
            quote(&graph.id(n)),
            quote(&graph.label(n))
        );
    }
    for &(from, to) in &graph.edges {
        let _ = writeln!(
            out,
            "  {} -> {};",
            quote(&graph.id(from)),
            quote(&graph.id(to))
        );
    }
    for &(policy, target) in &graph.policy_edges {
        let _ = writeln!(
            out,
            "  {} -> {} [style=dashed, arrowhead=open];",
            quote(&graph.id(policy)),
            quote(&graph.id(target))
        );
    }
    for &(rule, route) in &graph.delegation_edges {
        let _ = writeln!(
            out,
            "  {} -> {} [label=\"delegates\"];",
            quote(&graph.id(rule)),
            quote(&graph.id(route))
        );
    }
    for refusal in &graph.refused {
        if let Some(gateway) = refusal.gateway {
            let _ = writeln!(
                out,
                "  {} -> {} [style=dotted, color=red, label={}];",
                quote(&graph.id(refusal.route)),
                quote(&graph.id(gateway)),
                quote(refusal.reason)
            );
        }
    }
    let id = |i: usize| quote(&format!("owned:{i}"));
    for (i, (label, policy)) in owned.nodes.iter().enumerate() {
        let style = if *policy { ", shape=note" } else { "" };
        let _ = writeln!(out, "  {} [label={}{style}];", id(i), quote(label));
    }
    for &(from, to) in &owned.edges {
        let _ = writeln!(out, "  {} -> {};", id(from), id(to));
    }
    for &(policy, target) in &owned.policy_edges {
        let _ = writeln!(
            out,
            "  {} -> {} [style=dashed, arrowhead=open];",
            id(policy),
            id(target)
        );
    }
    out.push_str("}\n");
}

fn mermaid(graph: &Graph, owned: &OwnedGraph, out: &mut Sink<'_>) {
    out.push_str("flowchart LR\n");
    let id = |i: usize| format!("n{i}");
    let label = |s: &str| s.replace('"', "#quot;");
    for (i, node) in graph.nodes.iter().enumerate() {
        let text = label(&graph.label(i));
        let shape = match node.kind() {
            NodeKind::Policy => format!("{}[/\"{text}\"/]", id(i)),
            NodeKind::Class | NodeKind::Gateway => format!("{}([\"{text}\"])", id(i)),
            _ => format!("{}[\"{text}\"]", id(i)),
        };
        let _ = writeln!(out, "  {shape}");
    }
    for &(from, to) in &graph.edges {
        let _ = writeln!(out, "  {} --> {}", id(from), id(to));
    }
    for &(policy, target) in &graph.policy_edges {
        let _ = writeln!(out, "  {} -.-> {}", id(policy), id(target));
    }
    for &(rule, route) in &graph.delegation_edges {
        let _ = writeln!(out, "  {} -- delegates --> {}", id(rule), id(route));
    }
    for refusal in &graph.refused {
        if let Some(gateway) = refusal.gateway {
            let _ = writeln!(
                out,
                "  {} -. refused .-> {}",
                id(refusal.route),
                id(gateway)
            );
        }
    }
    for (i, (text, policy)) in owned.nodes.iter().enumerate() {
        let text = label(text);
        match policy {
            true => writeln!(out, "  o{i}[/\"{text}\"/]"),
            false => writeln!(out, "  o{i}[\"{text}\"]"),
        }
        .ok();
    }
    for &(from, to) in &owned.edges {
        let _ = writeln!(out, "  o{from} --> o{to}");
    }
    for &(policy, target) in &owned.policy_edges {
        let _ = writeln!(out, "  o{policy} -.-> o{target}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A size a test's text is several times over.
    const SPILL_AT: usize = 64 << 10;

    /// A writer that takes `room` bytes, then refuses (a closed pipe).
    struct Closing {
        written: Vec<u8>,
        room: usize,
        calls: usize,
    }

    impl io::Write for Closing {
        fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
            self.calls += 1;
            if self.written.len() + bytes.len() > self.room {
                return Err(io::ErrorKind::BrokenPipe.into());
            }
            self.written.extend_from_slice(bytes);
            Ok(bytes.len())
        }

        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    fn lines(count: usize) -> String {
        (0..count).map(|i| format!("├─ line {i} é\n")).collect()
    }

    #[test]
    fn a_sink_writes_what_a_string_gathers_in_pieces() {
        let text = lines(20_000);
        assert!(text.len() > 3 * SPILL_AT);
        let mut out = Closing {
            written: Vec::new(),
            room: usize::MAX,
            calls: 0,
        };
        let mut sink = Sink::new(&mut out);
        for (i, line) in text.lines().enumerate() {
            if i % 2 == 0 {
                let _ = writeln!(sink, "{line}");
            } else {
                sink.push_str(line);
                sink.push('\n');
            }
        }
        sink.finish().unwrap();
        assert_eq!(String::from_utf8(out.written).unwrap(), text);
        assert!(out.calls > 3, "written in pieces, not at the end");
    }

    #[test]
    fn a_sink_stops_at_the_first_error_and_returns_it() {
        let mut out = Closing {
            written: Vec::new(),
            room: SPILL_AT * 2,
            calls: 0,
        };
        let mut sink = Sink::new(&mut out);
        sink.push_str(&lines(20_000));
        sink.push_str("more");
        let error = sink.finish().unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::BrokenPipe);
        assert_eq!(out.calls, 1, "nothing written after the error");
    }
}
