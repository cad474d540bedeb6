//! The typed model: every object dopol reads, decoded, plus the diagnostics decoding produced.
//!
//! [`prepare`] decodes one object as the loader reads it: it checks the API version, applies and
//! checks the CRD, decodes Gateway API objects ([`gateway`]) and policies (through their
//! [`FamilyKinds`]), and trims the tree of a decoded route or policy alone in
//! its document to its `metadata` (the typed [`Route`] holds what evaluation reads, a
//! [`Policy`] shares the subtrees of its rules, or holds none when the run keeps only the
//! values evaluation reads ([`RuleValues`]); [`Model::tree`] reads the rest again for the
//! rare reader that needs it, [`Model::rule_value`] a value).
//! [`Model::build`] gathers the prepared objects and creates stand-in Gateways when
//! `--assume-gateways` asks for them. Objects the API server would reject are left out, with
//! their diagnostics kept.

pub mod diags;
pub mod elsewhere;
pub mod gateway;
pub mod grants;
pub mod listener_sets;
pub mod matches;

use crate::crd::{self, Catalog};
use crate::diag::Diagnostic;
use crate::kinds::{self, FamilyKinds, Policy, Registry};
use crate::load::fields::Fields;
use crate::load::{KindSpec, LoadStats, Loaded, Object};
use crate::name::Name;
use crate::source::SourceMap;
use crate::yaml::Node;
use gateway::{Gateway, GatewayClass, Listener, ListenerSet, Namespace, Route, RouteKind};
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

/// The annotation listing diagnostic codes to suppress on an object.
pub const IGNORE_ANNOTATION: &str = "dopol.io/ignore";

/// Which rule values a run keeps once policies are decoded.
///
/// A policy's rule values are the biggest part of a model (a third of it on the 49 MB
/// benchmark). Reports that show no value (`status`, `overridden`, `reach`, `topology`) need
/// only those the evaluation reads: a family whose evaluation reads its values only in cases
/// it can tell from the decoded policies ([`FamilyKinds::values_droppable`])
/// has them dropped as each policy is decoded, and read again from the input, once the model
/// is built, if those cases occur.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RuleValues {
    /// Every value (reports that show values: `effective`, `explain`, `request`).
    #[default]
    All,
    /// The values the evaluation reads.
    Evaluation,
}

/// Options that change how the model is built.
#[derive(Clone, Debug, Default)]
pub struct ModelOptions {
    /// Create a stand-in for every Gateway that routes name but the input lacks.
    pub assume_gateways: bool,
    /// The policy families to read.
    pub registry: Arc<Registry>,
    /// The CRDs objects are validated against.
    pub catalog: Arc<Catalog>,
}

/// Every decoded object.
#[derive(Debug, Default)]
pub struct Model {
    /// The policy families and kinds of this run.
    pub registry: Arc<Registry>,
    /// The CRDs objects were validated against (their defaults apply to trees read again).
    pub catalog: Arc<Catalog>,
    /// The input files.
    pub sources: SourceMap,
    /// GatewayClasses.
    pub classes: Vec<GatewayClass>,
    /// Namespaces.
    pub namespaces: Vec<Namespace>,
    /// Gateways (stand-ins last).
    pub gateways: Vec<Gateway>,
    /// ListenerSets (their admitted listeners also joined their Gateway's, [`listener_sets`]).
    pub listener_sets: Vec<ListenerSet>,
    /// Routes of every kind (HTTPRoute, GRPCRoute, TCPRoute, TLSRoute, UDPRoute).
    pub routes: Vec<Route>,
    /// Policies of every family.
    pub policies: Vec<Policy>,
    /// Every loaded object (kept for object-level checks; rule values share their trees).
    pub objects: Vec<Object>,
    /// Beside each policy of [`Model::build`], the index of its object in `objects`
    /// ([`Model::policy_object`]).
    policy_objects: Vec<u32>,
    /// Codes suppressed per object (`dopol.io/ignore`), keyed by `Kind ns/name`.
    pub ignored_codes: HashMap<String, Vec<String>>,
    /// Diagnostics from loading and decoding.
    pub diagnostics: Vec<Diagnostic>,
    /// Loading counters.
    pub stats: LoadStats,
    /// Objects validated against a CRD, and objects of kinds with no CRD known (for `-v`).
    pub crd_counts: (usize, usize),
    /// The policies whose rule values this run dropped ([`RuleValues::Evaluation`]): a reader
    /// that needs one after all asks [`Model::rule_value`].
    values_dropped: DroppedValues,
}

/// Policies whose rule values were dropped, and those of them read again.
#[derive(Debug, Default)]
struct DroppedValues {
    /// (policy, object), by policy.
    objects: Vec<(u32, u32)>,
    /// Beside each: the policy's values once read again, every rule's in block order.
    again: Vec<std::sync::OnceLock<Box<[Node]>>>,
}

impl DroppedValues {
    /// Where `policy` is in [`DroppedValues::objects`], when its values were dropped.
    fn position(&self, policy: u32) -> Option<usize> {
        self.objects.binary_search_by_key(&policy, |&(p, _)| p).ok()
    }
}

/// Longest text before a value on its first line that [`Model::written_value`] compares (a
/// file of long lines, such as minified JSON, would have each value compare its whole line).
const MAX_WRITTEN_PREFIX: usize = 256;

/// How a dropped rule value is written ([`Model::written_value`]): two values written alike
/// are equal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WrittenValue<'m> {
    /// The object's API version (its CRD's defaults apply).
    version: &'m str,
    /// The kind of block the rule is in.
    block: kinds::BlockKind,
    /// The value's text, from the start of its first line (its indentation and what comes
    /// before it on that line set how the rest reads).
    text: &'m str,
}

/// A parentRef, as (index into `Model::routes`, index into the route's parentRefs).
type RefSite = (usize, usize);

/// One decoded object (or nothing, when the API server would reject it).
enum Decoded {
    Class(GatewayClass),
    Namespace(Namespace),
    Gateway(Gateway),
    ListenerSet(ListenerSet),
    Route(Route),
    Policy(Box<Policy>),
    Rejected,
}

impl Decoded {
    /// Moves a route or policy to kept storage ([`crate::platform::kept`]): decoded routes and
    /// policies live until the run ends. A copy holds each list at its exact length (decoding
    /// grows them one push at a time, and a list grown from empty holds room for four items:
    /// on a big input that spare room was a fifth of all memory) and a policy's rule values
    /// apart from the document they were read from. Called once the object is trimmed, so that
    /// nothing else holds those values.
    fn keep(&mut self) {
        use crate::platform::kept::keep;
        match self {
            Decoded::Route(route) => *route = keep(|| route.clone()),
            Decoded::Policy(policy) => keep(|| {
                // The old policy's lists are dropped first: its rule values are then held once.
                // The box stays where it is (the model moves the policy out of it and frees it).
                **policy = Policy::clone(policy);
                policy.copy_rule_values_apart();
            }),
            Decoded::Class(_)
            | Decoded::Namespace(_)
            | Decoded::Gateway(_)
            | Decoded::ListenerSet(_)
            | Decoded::Rejected => {}
        }
    }
}

/// One object as the loader hands it over: the object (its tree trimmed once decoded as a
/// route or policy) and what decoding it produced.
///
/// Boxed: the loader gathers every object of the input in one list, grown as batches finish,
/// and [`Model::build`] moves them out of it. A list of 440-byte items held up to twice their
/// size in growth room while the model was built beside it (90 MB at the peak of a 49 MB
/// input); a list of boxes holds 8 bytes an object, and each box is freed as it is emptied.
pub struct Prepared(Box<PreparedParts>);

/// What a [`Prepared`] holds.
struct PreparedParts {
    object: Object,
    decoded: DecodedObject,
}

impl std::borrow::Borrow<Object> for Prepared {
    fn borrow(&self) -> &Object {
        &self.0.object
    }
}

/// Decodes `object` (see [`Prepared`]); the loader calls it in the task that parsed the object.
/// Routes and policies, nearly every object of a big input, are trimmed (when alone in their
/// document: see [`Object::trim`]); the few Gateways, classes and namespaces keep their trees.
pub fn prepare(
    mut object: Object,
    registry: &Registry,
    catalog: &Catalog,
    values: RuleValues,
) -> Prepared {
    let mut decoded = decode(&mut object, registry, catalog);
    if matches!(decoded.value, Decoded::Route(_) | Decoded::Policy(_)) {
        object.trim();
    }
    if let Decoded::Policy(policy) = &mut decoded.value {
        let family = registry.decoder_of(policy.kind);
        // Read before the values may go: they are checked once the model is built.
        decoded.expressions = family
            .request_expressions(policy)
            .into_iter()
            .map(|(text, span)| (Box::from(text), span))
            .collect();
        if values == RuleValues::Evaluation && family.values_droppable() {
            policy.drop_rule_values();
            decoded.values_dropped = true;
        }
    }
    decoded.value.keep();
    Prepared(Box::new(PreparedParts { object, decoded }))
}

/// One object after decoding.
struct DecodedObject {
    value: Decoded,
    diagnostics: Vec<Diagnostic>,
    /// `(Kind ns/name, codes)` from the `dopol.io/ignore` annotation.
    ignored: Option<(String, Vec<String>)>,
    /// Whether a CRD validated the object.
    validated: bool,
    /// A policy's request-time expressions ([`FamilyKinds::request_expressions`]).
    expressions: Vec<(Box<str>, crate::source::Span)>,
    /// Whether a policy's rule values were dropped ([`RuleValues::Evaluation`]).
    values_dropped: bool,
}

/// Decodes one object: the typed value, its diagnostics, and its `dopol.io/ignore` codes.
fn decode(object: &mut Object, registry: &Registry, catalog: &Catalog) -> DecodedObject {
    let ignored = object.annotation(IGNORE_ANNOTATION).map(|codes| {
        let codes = codes
            .split(',')
            .map(|c| c.trim().to_string())
            .filter(|c| !c.is_empty())
            .collect();
        (object.display(), codes)
    });
    let family = registry
        .find_decoder(&object.group, &object.kind)
        .map(|(f, _)| f);
    let checked = crd::check(object, catalog, |root| {
        family.and_then(|f| f.crd_view(root))
    });
    let mut diagnostics = checked.diagnostics;
    if checked.rejected {
        return DecodedObject {
            value: Decoded::Rejected,
            diagnostics,
            ignored,
            validated: true,
            expressions: Vec::new(),
            values_dropped: false,
        };
    }
    let object = &*object;
    let mut fields = Fields::for_object(object);
    if checked.validated {
        fields.set_schema_checked();
    }
    let decoded = match (&*object.group, &*object.kind) {
        ("", "Namespace") if gateway::check_version(object, &mut diagnostics, (&["v1"], &[])) => {
            Decoded::Namespace(gateway::decode_namespace(object))
        }
        // A kind of that group a family declares (BackendTLSPolicy) is the family's.
        (gateway::GATEWAY_GROUP, kind)
            if family.is_none()
                && gateway::check_version(
                    object,
                    &mut diagnostics,
                    (gateway::versions_of(kind), &[]),
                ) =>
        {
            match kind {
                "GatewayClass" => Decoded::Class(gateway::decode_gateway_class(object)),
                "Gateway" => gateway::decode_gateway(object, &mut fields)
                    .map_or(Decoded::Rejected, Decoded::Gateway),
                "ListenerSet" => gateway::decode_listener_set(object, &mut fields)
                    .map_or(Decoded::Rejected, Decoded::ListenerSet),
                _ => RouteKind::from_kind(kind)
                    .and_then(|kind| {
                        let positional = || registry.positional_families();
                        gateway::decode_route(object, kind, &mut fields, &positional)
                    })
                    .map_or(Decoded::Rejected, Decoded::Route),
            }
        }
        (gateway::X_GATEWAY_GROUP, "XListenerSet")
            if gateway::check_version(object, &mut diagnostics, (&["v1alpha1"], &[])) =>
        {
            gateway::decode_listener_set(object, &mut fields)
                .map_or(Decoded::Rejected, Decoded::ListenerSet)
        }
        (group, kind) => match registry.find_decoder(group, kind) {
            Some((family, kind)) => {
                decode_policy(family, kind, object, &mut fields, &mut diagnostics)
            }
            None => Decoded::Rejected,
        },
    };
    diagnostics.extend(fields.into_diagnostics());
    DecodedObject {
        value: if object.rejected {
            Decoded::Rejected
        } else {
            decoded
        },
        diagnostics,
        ignored,
        validated: checked.validated,
        expressions: Vec::new(),
        values_dropped: false,
    }
}

fn decode_policy(
    family: &dyn FamilyKinds,
    kind: &'static kinds::PolicyKind,
    object: &Object,
    fields: &mut Fields,
    diagnostics: &mut Vec<Diagnostic>,
) -> Decoded {
    let versions = (kind.versions, kind.unserved_versions);
    if !gateway::check_version(object, diagnostics, versions) {
        return Decoded::Rejected;
    }
    if kind.unserved_versions.contains(&&*object.version) {
        diagnostics.extend(family.unserved_version(kind, object));
    }
    family
        .decode(kind, object, fields)
        .map_or(Decoded::Rejected, |p| Decoded::Policy(Box::new(p)))
}

/// Every kind the loader should keep.
pub fn known_kinds(registry: &Registry) -> Vec<KindSpec> {
    let mut kinds = gateway::GATEWAY_KINDS.to_vec();
    kinds.extend(registry.kinds().map(|k| k.kind_spec()));
    kinds.extend(
        registry
            .decoders()
            .flat_map(|f| f.object_kinds().iter().copied()),
    );
    kinds
}

impl Model {
    /// Gathers prepared objects (input order is kept).
    pub fn build(loaded: Loaded<Prepared>, options: &ModelOptions) -> Model {
        let mut model = Model {
            registry: options.registry.clone(),
            catalog: options.catalog.clone(),
            sources: loaded.sources,
            diagnostics: loaded.diagnostics,
            stats: loaded.stats,
            ..Model::default()
        };
        // Sized first: doubling would leave up to half of the three biggest lists unused.
        let prepared = loaded.objects;
        let count =
            |of: fn(&Decoded) -> bool| prepared.iter().filter(|p| of(&p.0.decoded.value)).count();
        model
            .routes
            .reserve_exact(count(|d| matches!(d, Decoded::Route(_))));
        model
            .policies
            .reserve_exact(count(|d| matches!(d, Decoded::Policy(_))));
        let mut objects = Vec::with_capacity(prepared.len());
        let mut validated_kinds = std::collections::BTreeSet::new();
        // Request-time expressions as (policy, text, scalar), and the (policy, object) of each
        // policy whose values were dropped.
        let mut expressions = Vec::new();
        let mut dropped: Vec<(u32, u32)> = Vec::new();
        for (index, parts) in prepared.into_iter().enumerate() {
            let PreparedParts {
                object,
                mut decoded,
            } = *parts.0;
            model.diagnostics.append(&mut decoded.diagnostics);
            if decoded.validated {
                model.crd_counts.0 += 1;
                // A handful of kinds: a scan costs less than a pair of strings per object.
                let known = validated_kinds
                    .iter()
                    .any(|(g, k): &(String, String)| *g == *object.group && *k == *object.kind);
                if !known {
                    validated_kinds.insert((object.group.to_string(), object.kind.to_string()));
                }
            } else {
                model.crd_counts.1 += 1;
            }
            objects.push(object);
            if let Some((name, codes)) = decoded.ignored {
                model.ignored_codes.insert(name, codes);
            }
            match decoded.value {
                Decoded::Class(c) => model.classes.push(c),
                Decoded::Namespace(n) => model.namespaces.push(n),
                Decoded::Gateway(mut g) => {
                    g.object = index as u32;
                    model.gateways.push(g);
                }
                Decoded::ListenerSet(mut l) => {
                    l.object = index as u32;
                    model.listener_sets.push(l);
                }
                Decoded::Route(mut r) => {
                    r.object = index as u32;
                    model.routes.push(r);
                }
                Decoded::Policy(p) => {
                    let policy = model.policies.len() as u32;
                    expressions.extend(
                        (decoded.expressions.into_iter()).map(|(text, span)| (policy, text, span)),
                    );
                    if decoded.values_dropped {
                        dropped.push((policy, index as u32));
                    }
                    model.policies.push(*p);
                    model.policy_objects.push(index as u32);
                }
                Decoded::Rejected => {}
            }
        }
        model.objects = objects;
        model
            .diagnostics
            .extend(options.catalog.not_evaluated(&validated_kinds));
        listener_sets::join(&mut model);
        if options.assume_gateways {
            model.assume_missing_gateways();
        }
        model.restore_rule_values(&dropped);
        let expression_diagnostics = kinds::expressions::check_request_expressions(
            &model.policies,
            &model.sources,
            &expressions,
        );
        model.diagnostics.extend(expression_diagnostics);
        model
    }

    /// Reads the dropped rule values ([`RuleValues::Evaluation`]) of the `dropped` policies
    /// (policy, object) again, for each family whose evaluation of this model reads them after
    /// all: each policy is decoded again from its object's tree, read again from the input.
    fn restore_rule_values(&mut self, dropped: &[(u32, u32)]) {
        use rayon::prelude::*;
        let registry = self.registry.clone();
        let family_index = |p: u32| {
            let kind = registry.kind_index(self.policies[p as usize].kind);
            registry.family_index(kind)
        };
        let mut by_family: Vec<Vec<&Policy>> = registry.decoders().map(|_| Vec::new()).collect();
        for &(p, _) in dropped {
            by_family[family_index(p)].push(&self.policies[p as usize]);
        }
        let needed: Vec<bool> = (registry.decoders().zip(&by_family))
            .map(|(family, policies)| {
                !policies.is_empty() && family.evaluation_reads_values(policies)
            })
            .collect();
        let restored: Vec<(u32, Vec<Node>)> = (dropped.par_iter())
            .filter(|&&(p, _)| needed[family_index(p)])
            .map(|&(p, o)| (p, self.decoded_rule_values(p, o)))
            .collect();
        let still_dropped: Vec<(u32, u32)> = (dropped.iter())
            .filter(|&&(p, _)| !needed[family_index(p)])
            .copied()
            .collect();
        for (p, values) in restored {
            let policy = &mut self.policies[p as usize];
            let rules = policy.blocks.iter_mut().flat_map(|b| b.rules.iter_mut());
            for (rule, value) in rules.zip(values) {
                rule.value = value;
            }
        }
        self.values_dropped.again = (0..still_dropped.len())
            .map(|_| Default::default())
            .collect();
        self.values_dropped.objects = still_dropped;
    }

    /// The value of rule `rule` of block `block` of policy `policy`: the one decoding kept,
    /// or — when this run dropped the policy's values ([`RuleValues::Evaluation`]) — the one
    /// read again from the input (the whole policy, once). For readers of few values that a
    /// run keeping only what evaluation reads needs all the same (`lint`'s granularity check;
    /// `diff`'s values shown in a change or written differently on the two sides).
    pub fn rule_value(&self, policy: u32, block: usize, rule: usize) -> &Node {
        let held = &self.policies[policy as usize].blocks[block].rules[rule].value;
        let dropped = &self.values_dropped;
        let Some(at) = dropped.position(policy) else {
            return held;
        };
        let values = dropped.again[at].get_or_init(|| {
            let object = dropped.objects[at].1;
            self.decoded_rule_values(policy, object).into()
        });
        let before: usize = (self.policies[policy as usize].blocks[..block].iter())
            .map(|b| b.rules.len())
            .sum();
        &values[before + rule]
    }

    /// How a dropped rule value ([`Model::rule_value`]) is written, when that says what it
    /// is: two values written alike in objects of one version, in blocks of one kind, are
    /// equal. `None` for a value the model holds, and for one with an alias (`*`: its text
    /// names a node written elsewhere).
    pub fn written_value(
        &self,
        policy: u32,
        block: usize,
        rule: usize,
    ) -> Option<WrittenValue<'_>> {
        let dropped = &self.values_dropped;
        let at = dropped.position(policy)?;
        let object = &self.objects[dropped.objects[at].1 as usize];
        let held = &self.policies[policy as usize].blocks[block];
        let span = held.rules[rule].value.span;
        let text = self.sources.get(span.source).text();
        let (start, end) = (span.start as usize, span.end as usize);
        // Read with `get`: a mapped file rewritten meanwhile may cut a character there.
        let line = text.get(..start)?.rfind('\n').map_or(0, |i| i + 1);
        // The blanks after the value too: a block scalar's span ends at its last character,
        // but its trailing spaces, kept blank lines (`|+`) and final line break are its value.
        let tail = text.get(end..)?;
        let after = end
            + tail
                .find(|c: char| !c.is_whitespace())
                .unwrap_or(tail.len());
        let written = text.get(line..after)?;
        let readable = start - line <= MAX_WRITTEN_PREFIX && end > start;
        // All blanks: a smaller file changed meanwhile reads as blanks (docs/limits.md).
        (readable && !written.contains('*') && !written.trim().is_empty()).then_some(WrittenValue {
            version: &object.version,
            block: held.kind,
            text: written,
        })
    }

    /// The rule values of policy `p`, decoded again from object `o`'s tree read again.
    fn decoded_rule_values(&self, p: u32, o: u32) -> Vec<Node> {
        let policy = &self.policies[p as usize];
        let object = &self.objects[o as usize];
        let whole = object.with_tree(self.tree_once(object).into_owned());
        let mut fields = Fields::for_object(&whole);
        // Decoding is deterministic: the tree is the one decoded first, so it decodes to the
        // same rules, unless its file was rewritten meanwhile with the object still found.
        let decoded =
            (self.registry.decoder_of(policy.kind)).decode(policy.kind, &whole, &mut fields);
        fn keys(p: &Policy) -> impl Iterator<Item = (&str, crate::source::Span)> {
            p.rules().map(|(_, r)| (r.key.as_str(), r.key_span))
        }
        let same_rules = (decoded.as_ref()).is_some_and(|decoded| keys(decoded).eq(keys(policy)));
        match decoded {
            Some(decoded) if same_rules => decoded.rules().map(|(_, r)| r.value.clone()).collect(),
            _ => {
                self.record_changed(object);
                let null = |span| Node {
                    span,
                    value: crate::yaml::Value::Null,
                };
                policy.rules().map(|(_, r)| null(r.value.span)).collect()
            }
        }
    }

    /// `--assume-gateways`: one stand-in per Gateway that routes name but the input lacks, with
    /// one listener per `sectionName` routes use (or a single `default` listener), accepting
    /// every route that names it.
    fn assume_missing_gateways(&mut self) {
        let existing: std::collections::HashSet<(&str, &str)> = self
            .gateways
            .iter()
            .map(|g| (g.namespace.as_str(), g.name.as_str()))
            .collect();
        // Per missing Gateway: the sections routes use, and the first (route, parentRef).
        let mut missing: BTreeMap<(Name, Name), (Vec<String>, RefSite)> = BTreeMap::new();
        for (r, route) in self.routes.iter().enumerate() {
            for (i, parent) in route.parent_refs.iter().enumerate() {
                if parent.group != gateway::GATEWAY_GROUP || parent.kind != "Gateway" {
                    continue;
                }
                if existing.contains(&(parent.namespace.as_str(), parent.name.as_str())) {
                    continue;
                }
                let key = (parent.namespace.clone(), parent.name.clone());
                let entry = missing.entry(key).or_insert_with(|| (Vec::new(), (r, i)));
                if let Some(section) = &parent.section_name
                    && !entry.0.iter().any(|s| s == section)
                {
                    entry.0.push(section.to_string());
                }
            }
        }
        for (sections, _) in missing.values_mut() {
            sections.sort();
            if sections.is_empty() {
                sections.push("default".into());
            }
        }
        let by_name = elsewhere::ByName::of_model(self);
        let diagnostics: Vec<Diagnostic> = missing
            .iter()
            .map(|((ns, name), (sections, site))| {
                self.assumed_gateway_diagnostic(ns, name, sections, *site, &by_name)
            })
            .collect();
        self.diagnostics.extend(diagnostics);
        for ((namespace, name), (sections, (r, i))) in missing {
            let span = self.routes[r].parent_refs[i].span;
            let listeners = sections
                .into_iter()
                .map(|section| Listener {
                    name: section,
                    port: 0,
                    protocol: "HTTP".into(),
                    hostname: None,
                    hostname_span: None,
                    from: gateway::FromNamespaces::All,
                    kinds: None,
                    name_span: span,
                    allowed_routes_span: None,
                    set: None,
                    qualified: None,
                    conflicted: false,
                })
                .collect();
            self.gateways.push(Gateway {
                namespace: namespace.to_string(),
                name: name.to_string(),
                class_name: "unknown".into(),
                listeners,
                name_span: span,
                assumed: true,
                namespace_defaulted: false,
                object: u32::MAX,
                allowed_listeners: gateway::AllowedListeners::None,
            });
        }
    }

    /// DPL2009 for a stand-in: info, or a warning when a Gateway of that name is in the input
    /// under another namespace (the stand-in then likely hides a namespace mistake).
    fn assumed_gateway_diagnostic(
        &self,
        namespace: &str,
        name: &str,
        sections: &[String],
        (route, parent): RefSite,
        by_name: &elsewhere::ByName<'_>,
    ) -> Diagnostic {
        let route = &self.routes[route];
        let parent = &route.parent_refs[parent];
        let found = by_name.find("Gateway", name, namespace);
        let site = elsewhere::ParentRefSite::of(route, parent);
        let assumed = diags::AssumedGateway {
            namespace,
            name,
            sections,
            found: &found,
            site: &site,
        };
        let diagnostic = Diagnostic::from(assumed)
            .with_label(parent.span, "first route referring to it")
            .with_object(format!("Gateway {namespace}/{name}"));
        if found.is_empty() {
            diagnostic
        } else {
            diagnostic.with_severity(crate::diag::Severity::Warning)
        }
    }

    /// The whole tree of `object`, with its CRD's defaults: its root, or for a route or policy
    /// (trimmed once decoded) the tree read again from its document, once (later calls share
    /// it).
    pub fn tree<'m>(&'m self, object: &'m Object) -> &'m Node {
        object.tree(|object| self.read_again(object))
    }

    /// [`Model::tree`] for a reader that needs the tree once: a tree not held yet is read
    /// again and handed over, not kept. `request` reads the tree of every route of a listener
    /// (1,800 on the 49 MB benchmark), each for one decode of its matches.
    pub fn tree_once<'m>(&'m self, object: &'m Object) -> std::borrow::Cow<'m, Node> {
        match object.held_tree() {
            Some(tree) => std::borrow::Cow::Borrowed(tree),
            None => std::borrow::Cow::Owned(self.read_again(object)),
        }
    }

    /// A trimmed object's tree read again from its document, with its CRD's defaults.
    ///
    /// The pages its document was read from are handed back once reading moves on from them
    /// ([`crate::source::SourceFile::read_again_from`]): the load handed every page back, and
    /// readers of many objects (`request` reads every route of a listener) touch pages all over
    /// the input, which stayed in until the run ended (59 MiB of `request`'s peak on the 49 MB
    /// benchmark). A page handed back and needed again is read in again, from the page cache.
    fn read_again(&self, object: &Object) -> Node {
        // The chunk is the one the object was parsed from, and parsing is deterministic: the
        // object is not found only when its file changed while dopol ran (docs/limits.md).
        let Some(mut root) = crate::load::reread(&self.sources, object) else {
            self.record_changed(object);
            return object.root.clone();
        };
        if let Some(range) = &object.document {
            self.sources
                .get(object.root.span.source)
                .read_again_from(range.start as usize..range.end as usize);
        }
        crd::apply_defaults(&mut root, object, &self.catalog);
        root
    }

    /// Records that `object`'s file changed while dopol was reading it (docs/limits.md): the
    /// run goes on without what could not be read again (a reader gets the object's trimmed
    /// tree, or null values), and [`changed_meanwhile`] returns the error for the command to
    /// report instead of its answer.
    fn record_changed(&self, object: &Object) {
        let file = self.sources.get(object.root.span.source).name().to_string();
        let object = object.display();
        CHANGED.get_or_init(|| ChangedMeanwhile { file, object });
    }

    /// The loaded object of policy `policy`: found by index (a policy built from an object
    /// by [`Model::build`]), else by kind, namespace and name.
    pub fn policy_object(&self, policy: u32) -> Option<&Object> {
        let p = self.policies.get(policy as usize)?;
        let is = |o: &&Object| {
            o.kind == p.kind.kind && o.namespace_str() == p.namespace && *o.name == *p.name
        };
        let indexed = (self.policy_objects.get(policy as usize))
            .and_then(|&i| self.objects.get(i as usize))
            .filter(is);
        indexed.or_else(|| self.objects.iter().find(is))
    }

    /// Policy `policy`'s `metadata.creationTimestamp` as written, when it is.
    pub fn policy_created_text(&self, policy: u32) -> Option<String> {
        let object = self.policy_object(policy)?;
        let written = self
            .tree(object)
            .get_path(&["metadata", "creationTimestamp"])?;
        written.as_str().map(str::to_string)
    }

    /// The namespace object named `name`, if in the input.
    pub fn namespace(&self, name: &str) -> Option<&Namespace> {
        self.namespaces.iter().find(|n| n.name == name)
    }
}

/// A file changed while dopol was reading it: an object read at the start is not where it was
/// when a reader needed it again (a trimmed tree, a dropped rule value). No answer of the run
/// can be trusted; the command says this instead and exits 3.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChangedMeanwhile {
    /// The file, as named in diagnostics.
    pub file: String,
    /// The object not found again, as `Kind ns/name`.
    pub object: String,
}

impl std::fmt::Display for ChangedMeanwhile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "`{}` changed while dopol was reading it ({} is not where it was): run dopol again",
            self.file, self.object
        )
    }
}

/// The first file change of this process (a `diff` reads two models at once; either one
/// changing spoils the answer). As ripgrep's `messages::errored`, a flag the command's end
/// reads rather than an exit from deep inside a reader.
static CHANGED: std::sync::OnceLock<ChangedMeanwhile> = std::sync::OnceLock::new();

/// The error of a run whose input changed while it was read, if it did ([`ChangedMeanwhile`]).
pub fn changed_meanwhile() -> Result<(), &'static ChangedMeanwhile> {
    CHANGED.get().map_or(Ok(()), Err)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::load::{self, ObjectOptions, files::WorkTree};
    use crate::pipeline::{InputOptions, evaluate};

    /// A route as a document of its own after a Gateway, a route alone in a List, a policy, two
    /// routes in one List (read in parts: each is trimmed and read again from its item's
    /// lines), and two routes in a List with an alias (read whole, so kept whole: reading one
    /// again would parse the whole List). The CRD adds defaults: backendRef group/kind/weight,
    /// a match.
    const INPUT: &str = "\
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw, namespace: infra}
spec:
  gatewayClassName: istio
  listeners: [{name: http, protocol: HTTP, port: 80}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: plain, namespace: shop, labels: {app: a}}
spec:
  parentRefs: [{name: gw, namespace: infra}]
  rules:
  - backendRefs: [{name: svc, port: 80}]
---
apiVersion: v1
kind: List
items:
- apiVersion: gateway.networking.k8s.io/v1
  kind: HTTPRoute
  metadata: {name: listed, namespace: shop}
  spec:
    parentRefs: [{name: gw, namespace: infra}]
    rules:
    - matches: [{path: {type: Exact, value: /x}}]
      filters: [{type: RequestHeaderModifier, requestHeaderModifier: {set: [{name: a, value: b}]}}]
      backendRefs: [{group: gateway.networking.k8s.io, kind: HTTPRoute, name: child}]
---
apiVersion: kuadrant.io/v1
kind: RateLimitPolicy
metadata: {name: limits, namespace: shop}
spec:
  targetRef: {group: gateway.networking.k8s.io, kind: HTTPRoute, name: plain}
  limits:
    l: {rates: [{limit: 5, window: 10s}]}
---
apiVersion: v1
kind: List
items:
- apiVersion: gateway.networking.k8s.io/v1
  kind: HTTPRoute
  metadata: {name: pair-a, namespace: shop}
  spec: {parentRefs: [{name: gw, namespace: infra}]}
- apiVersion: gateway.networking.k8s.io/v1
  kind: HTTPRoute
  metadata: {name: pair-b, namespace: shop}
  spec: {parentRefs: [{name: gw, namespace: infra}]}
---
apiVersion: v1
kind: List
items:
- apiVersion: gateway.networking.k8s.io/v1
  kind: HTTPRoute
  metadata: {name: alias-a, namespace: shop, labels: &labels {app: b}}
  spec: {parentRefs: [{name: gw, namespace: infra}]}
- apiVersion: gateway.networking.k8s.io/v1
  kind: HTTPRoute
  metadata: {name: alias-b, namespace: shop, labels: *labels}
  spec: {parentRefs: [{name: gw, namespace: infra}]}
";

    #[test]
    fn a_trimmed_route_or_policy_reads_again_as_it_was_decoded() {
        let options = InputOptions {
            files: vec!["-".into()],
            ..InputOptions::default()
        };
        let evaluated = evaluate(&options, &WorkTree, &mut INPUT.as_bytes());
        let model = &evaluated.model;
        assert_eq!(model.routes.len(), 6);

        // The same input, decoded without trimming: the trees every reader used to see.
        let kinds = known_kinds(&options.registry);
        let untrimmed = load::load(
            crate::source::SourceMap::new(),
            &load::Inputs {
                args: &options.files,
                excludes: &options.excludes,
                overlay: &options.overlay,
                tree: &WorkTree,
            },
            &ObjectOptions {
                default_namespace: "default",
                kinds: &kinds,
            },
            &|mut object| {
                decode(&mut object, &options.registry, &options.catalog);
                object
            },
            &mut INPUT.as_bytes(),
        );

        let flags: Vec<(&str, bool, bool)> = model
            .routes
            .iter()
            .map(|r| (r.name.as_str(), r.has_filters, r.other_backends))
            .collect();
        assert_eq!(
            flags,
            [
                ("plain", false, false),
                ("listed", true, true),
                ("pair-a", false, false),
                ("pair-b", false, false),
                ("alias-a", false, false),
                ("alias-b", false, false)
            ]
        );
        assert_eq!(model.policies.len(), 1);
        let index = |name: &str| model.objects.iter().position(|o| &*o.name == name).unwrap();
        for name in ["plain", "listed", "limits", "pair-a", "pair-b"] {
            let index = index(name);
            let object = &model.objects[index];
            let keys: Vec<&str> = object
                .root
                .as_map()
                .unwrap_or_default()
                .iter()
                .map(|e| &*e.key.text)
                .collect();
            let before = &untrimmed.objects[index];
            assert_eq!(&*before.name, name);
            assert_eq!(object.root.span, before.root.span);
            // What is read of a trimmed object is what the whole tree says.
            let metadata_keys = |o: &Object| -> Vec<String> {
                o.root
                    .get("metadata")
                    .and_then(Node::as_map)
                    .unwrap_or_default()
                    .iter()
                    .map(|e| e.key.text.to_string())
                    .collect()
            };
            let kept: Vec<String> = metadata_keys(before)
                .into_iter()
                .filter(|k| crate::load::objects::KEPT_METADATA.contains(&k.as_str()))
                .collect();
            // Without labels or annotations, nothing of the tree is kept; with them, the root
            // holds them (without the `metadata` level), each as written.
            assert_eq!(keys, kept, "{name}");
            assert_eq!(object.root.is_null(), kept.is_empty(), "{name}");
            for field in crate::load::objects::KEPT_METADATA {
                assert_eq!(
                    format!("{:?}", object.metadata(field)),
                    format!("{:?}", before.metadata(field)),
                    "{name}: {field}"
                );
            }
            assert!(
                metadata_keys(before).len() > kept.len(),
                "{name}: nothing dropped"
            );
            assert_eq!(
                object.api_version_span(),
                before.api_version_span(),
                "{name}"
            );
            assert_ne!(object.api_version_span(), object.root.span, "{name}");
            assert_eq!(object.name_span(), before.name_span(), "{name}");
            assert_eq!(
                object.labels().collect::<Vec<_>>(),
                before.labels().collect::<Vec<_>>(),
                "{name}"
            );
            let tree = model.tree(object);
            assert_eq!(format!("{tree:?}"), format!("{:?}", before.root));
            // Read once: the second call returns the same tree.
            assert!(std::ptr::eq(tree, model.tree(object)));
        }
        // The CRD's defaults are in a tree read again (a backendRef's kind).
        let plain = model.tree(&model.objects[model.routes[0].object as usize]);
        let backend = &plain
            .get_path(&["spec", "rules"])
            .unwrap()
            .as_seq()
            .unwrap()[0]
            .get("backendRefs")
            .unwrap()
            .as_seq()
            .unwrap()[0];
        assert_eq!(backend.get("kind").and_then(Node::as_str), Some("Service"));
        // Gateways, and the objects of a List read whole, keep their whole tree.
        for name in ["gw", "alias-a", "alias-b"] {
            let object = &model.objects[index(name)];
            assert!(object.root.get("spec").is_some(), "{name}");
            assert!(std::ptr::eq(model.tree(object), &object.root), "{name}");
        }
    }

    /// A route, a Kuadrant RateLimitPolicy whose request-time predicate is not CEL, and a
    /// kgateway TrafficPolicy.
    const VALUES: &str = "\
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: r, namespace: app}
spec:
  rules: [{name: main}]
---
apiVersion: kuadrant.io/v1
kind: RateLimitPolicy
metadata: {name: lower, namespace: app}
spec:
  targetRef: {group: gateway.networking.k8s.io, kind: HTTPRoute, name: r}
  limits:
    a:
      rates: [{limit: 100, window: 1m}]
      when: [{predicate: \"request.method ==\"}]
---
apiVersion: gateway.kgateway.dev/v1alpha1
kind: TrafficPolicy
metadata: {name: traffic, namespace: app}
spec:
  targetRefs: [{group: gateway.networking.k8s.io, kind: HTTPRoute, name: r}]
  timeouts: {request: 5s}
";

    /// A policy with an RFC 0009 constraint, which reads the values of the policies below it.
    const CONSTRAINED: &str = "\
apiVersion: kuadrant.io/v1
kind: RateLimitPolicy
metadata: {name: cap, namespace: app}
spec:
  targetRef: {group: gateway.networking.k8s.io, kind: HTTPRoute, name: r}
  overrides:
    when: \"spec.limits.a.rates[0].limit > 10\"
    limits:
      a:
        rates: [{limit: 10, window: 1s}]
      b: {rates: [{limit: 20, window: 1m}]}
      c: {rates: [{limit: 30, window: 1h}]}
";

    /// The model of `files` (in a directory, which lives as long as the model reads it)
    /// built keeping `values`.
    fn model_of(files: &[(&str, &str)], values: RuleValues) -> (tempfile::TempDir, Model) {
        let dir = tempfile::tempdir().expect("temp dir");
        for (name, text) in files {
            std::fs::write(dir.path().join(name), text).expect("written");
        }
        let options = InputOptions {
            files: vec![dir.path().display().to_string()],
            rule_values: values,
            ..InputOptions::default()
        };
        (
            dir,
            evaluate(&options, &WorkTree, &mut std::io::empty()).model,
        )
    }

    /// Rule names are unique within a route: a written name keeps it, an unnamed rule whose
    /// positional name another rule writes is `rules[<i>]`, every other rule keeps its name (a
    /// written `rule-2` beside a named second rule is no positional name: it stays); a
    /// route with two written names is left out. ListenerSets and xRoutes are read.
    #[test]
    fn rule_names_are_unique_and_xroutes_and_listener_sets_are_read() {
        let input = "\
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: a, namespace: shop}
spec:
  rules:
  - matches: [{path: {value: /a}}]
  - name: rule-1
  - matches: [{path: {value: /c}}]
  - name: rule-2
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: twice, namespace: shop}
spec:
  rules: [{name: x}, {name: x}]
---
apiVersion: gateway.networking.k8s.io/v1alpha2
kind: TCPRoute
metadata: {name: db, namespace: shop}
spec:
  hostnames: [ignored.example.com]
  rules: [{backendRefs: [{name: db, port: 5432}]}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: ListenerSet
metadata: {name: more, namespace: shop}
spec:
  parentRef: {name: gw, namespace: infra}
  listeners: [{name: extra, protocol: HTTP, port: 80, hostname: more.example.com}]
";
        let (_dir, model) = model_of(&[("in.yaml", input)], RuleValues::All);
        let names = |route: &Route| -> Vec<String> {
            route.rules.iter().map(|r| r.name.to_string()).collect()
        };
        let routes: Vec<(&str, RouteKind, Vec<String>)> = (model.routes.iter())
            .map(|r| (r.name.as_str(), r.kind, names(r)))
            .collect();
        let owned = |list: &[&str]| list.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            routes,
            [
                (
                    "a",
                    RouteKind::Http,
                    owned(&["rules[0]", "rule-1", "rule-3", "rule-2"])
                ),
                ("db", RouteKind::Tcp, owned(&["rule-1"])),
            ]
        );
        assert!(model.routes[1].hostnames.is_empty());
        let rule = &model.routes[0].rules[0];
        assert_eq!(rule.section_name(0, true).as_deref(), Some("rule-1"));
        assert_eq!(rule.section_name(0, false), None);
        let set = &model.listener_sets[0];
        assert_eq!(set.parent, Some(("infra".to_string(), "gw".to_string())));
        assert_eq!(
            set.listeners[0].hostname.as_deref(),
            Some("more.example.com")
        );
    }

    /// `policy key value-as-JSON (span)` of every rule, each value as `value` gives it.
    fn describe<'m>(
        model: &'m Model,
        value: impl Fn(u32, usize, usize) -> &'m Node,
    ) -> Vec<String> {
        let mut rules = Vec::new();
        for (p, policy) in model.policies.iter().enumerate() {
            for (b, block) in policy.blocks.iter().enumerate() {
                for (r, rule) in block.rules.iter().enumerate() {
                    let node = value(p as u32, b, r);
                    let json = serde_json::to_string(node).expect("JSON");
                    let at = (node.span.start, node.span.end);
                    rules.push(format!("{} {} {json} {at:?}", policy.name, rule.key));
                }
            }
        }
        rules
    }

    /// The rules of `files` built keeping `values`, as the model holds them, and the model's
    /// diagnostics' messages.
    fn rule_values(files: &[(&str, &str)], values: RuleValues) -> (Vec<String>, Vec<String>) {
        let (_dir, model) = model_of(files, values);
        let held =
            |p: u32, b: usize, r: usize| &model.policies[p as usize].blocks[b].rules[r].value;
        let messages = model
            .diagnostics
            .iter()
            .map(|d| d.message.clone())
            .collect();
        (describe(&model, held), messages)
    }

    #[test]
    fn a_report_showing_no_value_drops_the_values_evaluation_does_not_read() {
        let (all, all_messages) = rule_values(&[("a.yaml", VALUES)], RuleValues::All);
        let (read, messages) = rule_values(&[("a.yaml", VALUES)], RuleValues::Evaluation);
        assert_eq!(
            all,
            [
                "lower a {\"rates\":[{\"limit\":100,\"window\":\"1m\"}],\"when\":[{\"predicate\":\"request.method ==\"}]} (319, 399)",
                "traffic timeouts {\"request\":\"5s\"} (603, 616)",
            ]
        );
        // Kuadrant's values go (where they were written stays); kgateway merges values: kept.
        assert_eq!(
            read,
            [
                "lower a null (319, 399)",
                "traffic timeouts {\"request\":\"5s\"} (603, 616)",
            ]
        );
        // A reader that needs one all the same has it read again.
        let (_dir, model) = model_of(&[("a.yaml", VALUES)], RuleValues::Evaluation);
        assert_eq!(describe(&model, |p, b, r| model.rule_value(p, b, r)), all);
        // The request-time predicate is checked all the same.
        assert_eq!(messages, all_messages);
        assert!(
            messages.iter().any(|m| m.starts_with(
                "invalid CEL in a request-time expression of RateLimitPolicy app/lower"
            )),
            "{messages:?}"
        );
    }

    /// A file rewritten between the load and a reader needing a dropped rule value again: the
    /// model neither panics nor exits; it answers null and records the change as an error
    /// naming the file and the object, for the command to report (exit 3).
    #[test]
    fn a_file_changed_meanwhile_is_an_error_the_model_returns() {
        let (route, policy) = VALUES.split_once("---\n").expect("two documents");
        let policy = policy.split("---\n").next().expect("the RateLimitPolicy");
        let policy = policy.replace("      when: [{predicate: \"request.method ==\"}]\n", "");
        let (dir, model) = model_of(
            &[("a.yaml", route), ("b.yaml", &policy)],
            RuleValues::Evaluation,
        );
        assert_eq!(changed_meanwhile(), Ok(()));
        let p = (model.policies.iter())
            .position(|p| p.name == "lower")
            .expect("the RateLimitPolicy") as u32;
        let held = &model.policies[p as usize].blocks[0].rules[0].value;
        assert!(held.is_null(), "dropped: {held:?}");
        std::fs::write(dir.path().join("b.yaml"), "# emptied meanwhile\n").expect("rewritten");
        let value = model.rule_value(p, 0, 0);
        assert!(value.is_null(), "{value:?}");
        let changed = changed_meanwhile().expect_err("the change is recorded");
        assert!(changed.file.ends_with("b.yaml"), "{changed:?}");
        assert_eq!(changed.object, "RateLimitPolicy app/lower", "{changed:?}");
        assert!(
            changed
                .to_string()
                .contains("changed while dopol was reading it"),
            "{changed}"
        );
    }

    #[test]
    fn a_constraint_has_the_values_it_reads_read_again() {
        let files = [("a.yaml", VALUES), ("b.yaml", CONSTRAINED)];
        let (all, _) = rule_values(&files, RuleValues::All);
        let (read, _) = rule_values(&files, RuleValues::Evaluation);
        assert_eq!(read, all);
        // Every rule in its place, through the model too.
        let (_dir, model) = model_of(&files, RuleValues::Evaluation);
        assert_eq!(describe(&model, |p, b, r| model.rule_value(p, b, r)), all);
        assert!(
            all.iter()
                .any(|r| r.starts_with("cap c {\"rates\":[{\"limit\":30")),
            "{all:?}"
        );
        assert!(
            all.iter().any(|r| r.starts_with("lower a {\"rates\"")),
            "{all:?}"
        );
        assert!(
            all.iter().any(|r| r.starts_with("cap a {\"rates\"")),
            "{all:?}"
        );
    }
}
