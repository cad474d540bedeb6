//! The object index (§K14 1–2): every Kuma object's meta, the look-ups by KRI and by labels,
//! the ports of services, and the proxies (Dataplanes) with their inbounds.

use super::meta::{self, Context, Meta};
use super::settings::KumaSettings;
use crate::model::Model;
use crate::yaml::Node;
use std::collections::{BTreeMap, HashMap};

/// A builtin or delegated gateway, or neither.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Gateway {
    /// A sidecar.
    None,
    /// `networking.gateway.type: DELEGATED` (the default type).
    Delegated,
    /// `networking.gateway.type: BUILTIN`.
    Builtin,
}

/// One inbound of a Dataplane.
#[derive(Clone, Debug)]
pub struct Inbound {
    /// Its section name: its `name`, else its port in decimal.
    pub section: String,
    /// Whether it has a `name`.
    pub named: bool,
    /// Its port.
    pub port: Option<i64>,
    /// Its tags.
    pub tags: BTreeMap<String, String>,
}

/// A Dataplane (§K14 2).
#[derive(Clone, Debug)]
pub struct Proxy {
    /// Index into [`Index::metas`].
    pub meta: usize,
    /// Its gateway type.
    pub gateway: Gateway,
    /// `networking.gateway.tags`.
    pub gateway_tags: BTreeMap<String, String>,
    /// Its inbounds.
    pub inbounds: Vec<Inbound>,
    /// Whether it has embedded zone-proxy listeners (`networking.listeners[]`).
    pub listeners: bool,
}

impl Proxy {
    /// `Gateway` when `networking.gateway` is set, else `Sidecar` (the `proxyTypes` values).
    pub fn proxy_type(&self) -> &'static str {
        match self.gateway {
            Gateway::None => "Sidecar",
            _ => "Gateway",
        }
    }
}

/// A port of a MeshService or MeshMultiZoneService.
#[derive(Clone, Debug)]
pub struct Port {
    /// Its name, when it has one.
    pub name: Option<String>,
    /// Its number.
    pub port: Option<i64>,
}

impl Port {
    /// Its section name: its `name`, else its number in decimal.
    pub fn section(&self) -> String {
        match (&self.name, self.port) {
            (Some(name), _) => name.clone(),
            (None, Some(port)) => port.to_string(),
            (None, None) => String::new(),
        }
    }
}

/// Every Kuma object of a model, as Kuma sees it.
#[derive(Debug, Default)]
pub struct Index {
    /// The local zone.
    pub zone: String,
    /// How the local zone was chosen (for `-v`).
    pub zone_note: String,
    /// Every object's meta (assumed Meshes last).
    pub metas: Vec<Meta>,
    /// Per meta: the ports (MeshService, MeshMultiZoneService).
    pub ports: Vec<Vec<Port>>,
    /// The Dataplanes.
    pub proxies: Vec<Proxy>,
    /// Per policy of the model: its meta.
    pub policy_meta: HashMap<u32, usize>,
    /// The meshes named but absent, assumed to exist.
    pub assumed_meshes: Vec<String>,
    /// The spec of each meta's object, when read (not for policies or assumed meshes).
    pub specs: Vec<Option<Node>>,
}

/// `kuma.io` objects of the kinds the family reads.
fn is_kuma(object: &crate::load::Object) -> bool {
    &*object.group == "kuma.io" && !object.rejected
}

impl Index {
    /// Builds the index of `model` for a control plane with `settings`.
    pub fn build(model: &Model, settings: &KumaSettings) -> Index {
        let dataplanes: Vec<&crate::load::Object> = (model.objects.iter())
            .filter(|o| is_kuma(o) && &*o.kind == "Dataplane")
            .collect();
        let (zone, zone_note) = meta::local_zone(settings, &dataplanes);
        let context = Context {
            settings,
            zone: &zone,
        };
        let mut index = Index {
            zone: zone.clone(),
            zone_note,
            ..Index::default()
        };
        let policies: HashMap<&str, u32> = (model.policies.iter().enumerate())
            .filter(|(_, p)| p.kind.family == "kuma")
            .map(|(i, p)| (p.locator.as_str(), i as u32))
            .collect();
        for (i, object) in model.objects.iter().enumerate() {
            if !is_kuma(object) {
                continue;
            }
            let locator = format!(
                "{}.kuma.io:{}/{}",
                object.kind.to_ascii_lowercase(),
                object.namespace_str(),
                object.name
            );
            let policy = policies.get(locator.as_str()).copied();
            if policy.is_some_and(|p| index.policy_meta.contains_key(&p)) {
                continue;
            }
            index.add_object(model, &context, i as u32, policy);
        }
        index.assume_meshes();
        index
    }

    fn add_object(&mut self, model: &Model, context: &Context<'_>, i: u32, policy: Option<u32>) {
        let object = &model.objects[i as usize];
        let is_policy = super::kinds::KINDS.iter().any(|k| k.kind == &*object.kind);
        if is_policy && policy.is_none() {
            // Left out by decoding (an input error).
            return;
        }
        let tree = model.tree(object);
        let spec = tree.get("spec").cloned();
        let at = self.metas.len();
        let meta = match &*object.kind {
            "Dataplane" => {
                let proxy = proxy(at, spec.as_ref());
                let mesh = tree.get("mesh").and_then(Node::as_str);
                let proxy_type = match proxy.gateway {
                    Gateway::Builtin => "gateway",
                    _ => "sidecar",
                };
                self.proxies.push(proxy);
                meta::compute(context, i, object, Some((mesh, proxy_type)))
            }
            _ => meta::compute(context, i, object, None),
        };
        let meta = match policy {
            Some(p) => {
                self.policy_meta.insert(p, at);
                super::role::with_role(context, meta, &model.policies[p as usize])
            }
            None => meta,
        };
        self.ports.push(ports(&meta.kind, spec.as_ref()));
        self.specs.push(if is_policy { None } else { spec });
        self.metas.push(meta);
    }

    /// Adds a Mesh for every mesh some object names but the input lacks (§K2).
    fn assume_meshes(&mut self) {
        let present: Vec<&str> = (self.metas.iter())
            .filter(|m| m.kind == "Mesh")
            .map(|m| m.name.as_str())
            .collect();
        let mut named: Vec<String> = (self.metas.iter())
            .filter(|m| m.kind != "Mesh" && !present.contains(&m.mesh.as_str()))
            .map(|m| m.mesh.clone())
            .collect();
        named.sort();
        named.dedup();
        for mesh in &named {
            self.metas.push(Meta {
                object: u32::MAX,
                kind: "Mesh".to_string(),
                namespace: String::new(),
                name: mesh.clone(),
                mesh: String::new(),
                display: mesh.clone(),
                labels: BTreeMap::new(),
                local: true,
            });
            self.ports.push(Vec::new());
            self.specs.push(None);
        }
        self.assumed_meshes = named;
    }

    /// The metas of objects of `kind` in `mesh` (any mesh for `Mesh`).
    pub fn of_kind<'a>(&'a self, kind: &'a str, mesh: &'a str) -> impl Iterator<Item = usize> + 'a {
        (self.metas.iter().enumerate())
            .filter(move |(_, m)| m.kind == kind && (kind == "Mesh" || m.mesh == mesh))
            .map(|(i, _)| i)
    }

    /// The Mesh object named `mesh`.
    pub fn mesh(&self, mesh: &str) -> Option<usize> {
        self.of_kind("Mesh", "")
            .find(|&i| self.metas[i].name == mesh)
    }

    /// The object whose KRI parts are `parts` (five-part equality).
    pub fn by_kri(&self, kind: &str, parts: [&str; 5]) -> Option<usize> {
        self.of_kind(kind, parts[1])
            .find(|&i| self.metas[i].kri_parts() == parts)
    }

    /// The objects of `kind` in `mesh` whose labels contain every pair of `labels`.
    pub fn by_labels(
        &self,
        kind: &str,
        mesh: &str,
        labels: &BTreeMap<String, String>,
    ) -> Vec<usize> {
        self.of_kind(kind, mesh)
            .filter(|&i| contains(&self.metas[i].labels, labels))
            .collect()
    }

    /// The meta of a policy of the model.
    pub fn policy(&self, policy: u32) -> Option<&Meta> {
        self.policy_meta.get(&policy).map(|&m| &self.metas[m])
    }
}

/// Whether `labels` hold every pair of `wanted`.
pub fn contains(labels: &BTreeMap<String, String>, wanted: &BTreeMap<String, String>) -> bool {
    wanted.iter().all(|(k, v)| labels.get(k) == Some(v))
}

/// A string map (`tags`, `labels`).
pub fn string_map(node: Option<&Node>) -> BTreeMap<String, String> {
    node.and_then(Node::as_map)
        .unwrap_or_default()
        .iter()
        .filter_map(|e| Some((e.key.text.to_string(), scalar_text(&e.value)?)))
        .collect()
}

/// A scalar as text (numbers in decimal).
pub fn scalar_text(node: &Node) -> Option<String> {
    match &node.value {
        crate::yaml::Value::String(s) => Some(s.to_string()),
        crate::yaml::Value::Int(i) => Some(i.to_string()),
        crate::yaml::Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

fn proxy(meta: usize, spec: Option<&Node>) -> Proxy {
    let networking = spec.and_then(|s| s.get("networking"));
    let gateway_node = networking.and_then(|n| n.get("gateway"));
    let gateway = match gateway_node {
        None => Gateway::None,
        Some(g) => match g.get("type").and_then(Node::as_str) {
            Some("BUILTIN") => Gateway::Builtin,
            _ => Gateway::Delegated,
        },
    };
    let inbounds = (networking.and_then(|n| n.get("inbound")))
        .and_then(Node::as_seq)
        .unwrap_or_default()
        .iter()
        .map(|inbound| {
            let name = inbound.get("name").and_then(Node::as_str);
            let port = inbound.get("port").and_then(Node::as_i64);
            Inbound {
                section: name.map_or_else(|| port.unwrap_or(0).to_string(), str::to_string),
                named: name.is_some(),
                port,
                tags: string_map(inbound.get("tags")),
            }
        })
        .collect();
    Proxy {
        meta,
        gateway,
        gateway_tags: string_map(gateway_node.and_then(|g| g.get("tags"))),
        inbounds,
        listeners: networking
            .and_then(|n| n.get("listeners"))
            .and_then(Node::as_seq)
            .is_some_and(|l| !l.is_empty()),
    }
}

fn ports(kind: &str, spec: Option<&Node>) -> Vec<Port> {
    if !matches!(kind, "MeshService" | "MeshMultiZoneService") {
        return Vec::new();
    }
    (spec.and_then(|s| s.get("ports")))
        .and_then(Node::as_seq)
        .unwrap_or_default()
        .iter()
        .map(|p| Port {
            name: p.get("name").and_then(Node::as_str).map(str::to_string),
            port: p.get("port").and_then(Node::as_i64),
        })
        .collect()
}
