//! The meta Kuma computes for each object (§K2): its mesh, display name, the labels the
//! admission webhook adds to local objects, and its KRI. Kuma never matches on raw metadata,
//! only on this.

use super::settings::{KumaSettings, Mode};
use crate::load::Object;
use std::collections::BTreeMap;

/// `kuma.io/mesh`.
pub const MESH: &str = "kuma.io/mesh";
/// `kuma.io/origin`.
pub const ORIGIN: &str = "kuma.io/origin";
/// `kuma.io/zone`.
pub const ZONE: &str = "kuma.io/zone";
/// `kuma.io/env`.
pub const ENV: &str = "kuma.io/env";
/// `k8s.kuma.io/namespace`.
pub const NAMESPACE: &str = "k8s.kuma.io/namespace";
/// `kuma.io/display-name`.
pub const DISPLAY_NAME: &str = "kuma.io/display-name";
/// `kuma.io/proxy-type`.
pub const PROXY_TYPE: &str = "kuma.io/proxy-type";
/// `kuma.io/policy-role`.
pub const POLICY_ROLE: &str = "kuma.io/policy-role";
/// `kuma.io/effect`.
pub const EFFECT: &str = "kuma.io/effect";

/// One object as Kuma sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Meta {
    /// Index into `Model::objects` (`u32::MAX` for an assumed Mesh).
    pub object: u32,
    /// The object's kind (`Mesh`, `Dataplane`, `MeshTimeout`, ...).
    pub kind: String,
    /// `metadata.namespace` (empty for a Mesh).
    pub namespace: String,
    /// `metadata.name`.
    pub name: String,
    /// The mesh it belongs to (empty for a Mesh).
    pub mesh: String,
    /// The display name.
    pub display: String,
    /// The labels after §K2.
    pub labels: BTreeMap<String, String>,
    /// Whether it was created on this control plane (not a synced copy).
    pub local: bool,
}

impl Meta {
    /// A label's value.
    pub fn label(&self, key: &str) -> Option<&str> {
        self.labels.get(key).map(String::as_str)
    }

    /// `kuma.io/origin`.
    pub fn origin(&self) -> Option<&str> {
        self.label(ORIGIN)
    }

    /// The five parts a KRI look-up compares: short kind, mesh, zone, namespace, name.
    pub fn kri_parts(&self) -> [&str; 5] {
        [
            short_kind(&self.kind),
            &self.mesh,
            self.label(ZONE).unwrap_or(""),
            self.label(NAMESPACE).unwrap_or(""),
            &self.display,
        ]
    }

    /// The KRI, with `section` as its last part.
    pub fn kri(&self, section: Option<&str>) -> String {
        kri(self.kri_parts(), section)
    }

    /// `ns/name`.
    pub fn namespaced_name(&self) -> String {
        format!("{}/{}", self.namespace, self.name)
    }
}

/// The KRI parts a name ref of a policy with meta `policy` looks for: {kind, the policy's
/// mesh, the policy's zone label, `namespace` or the policy's namespace label, `name`}.
pub fn name_ref_parts<'a>(
    policy: &'a Meta,
    kind: &'a str,
    namespace: Option<&'a str>,
    name: &'a str,
) -> [&'a str; 5] {
    [
        short_kind(kind),
        &policy.mesh,
        policy.label(ZONE).unwrap_or(""),
        namespace.or(policy.label(NAMESPACE)).unwrap_or(""),
        name,
    ]
}

/// `kri_<short>_<mesh>_<zone>_<namespace>_<name>_<section>`.
pub fn kri(parts: [&str; 5], section: Option<&str>) -> String {
    format!(
        "kri_{}_{}_{}_{}_{}_{}",
        parts[0],
        parts[1],
        parts[2],
        parts[3],
        parts[4],
        section.unwrap_or("")
    )
}

/// The KRI short name of a kind (✓ `pkg/core/kri/kri.go`).
pub fn short_kind(kind: &str) -> &str {
    match kind {
        "Mesh" => "m",
        "Dataplane" => "dp",
        "MeshService" => "msvc",
        "MeshMultiZoneService" => "mzsvc",
        "MeshExternalService" => "extsvc",
        "MeshHTTPRoute" => "mhttpr",
        "MeshTCPRoute" => "mtcpr",
        "MeshGateway" => "mgw",
        other => other,
    }
}

/// Whether a zone control plane can create objects of `kind` (descriptor `ProvidedByZone`):
/// all but Mesh and MeshMultiZoneService, which are Global-only.
fn provided_by_zone(kind: &str) -> bool {
    !matches!(kind, "Mesh" | "MeshMultiZoneService")
}

/// The zone this control plane is: `--kuma-zone`, else the one `kuma.io/zone` of the
/// Dataplanes with origin `zone` when there is exactly one, else `default`; with how it was
/// chosen, for `-v`.
pub fn local_zone(settings: &KumaSettings, dataplanes: &[&Object]) -> (String, String) {
    if let Some(zone) = &settings.zone {
        return (zone.clone(), format!("local zone `{zone}` (--kuma-zone)"));
    }
    let mut zones: Vec<&str> = dataplanes
        .iter()
        .filter(|o| o.labels().any(|(k, v)| k == ORIGIN && v == "zone"))
        .filter_map(|o| o.labels().find(|(k, _)| *k == ZONE).map(|(_, v)| v))
        .collect();
    zones.sort_unstable();
    zones.dedup();
    match zones.as_slice() {
        [one] => (
            one.to_string(),
            format!("local zone `{one}`: the one zone of the Dataplanes with origin zone"),
        ),
        [] => (
            "default".to_string(),
            "local zone `default`: no Dataplane with origin zone names one".to_string(),
        ),
        many => (
            "default".to_string(),
            format!(
                "local zone `default`: the Dataplanes with origin zone name {} zones ({}); set --kuma-zone",
                many.len(),
                many.join(", ")
            ),
        ),
    }
}

/// What computing a meta needs besides the object.
pub struct Context<'a> {
    /// The settings.
    pub settings: &'a KumaSettings,
    /// The local zone.
    pub zone: &'a str,
}

/// Whether an object with `labels` (as written) is local to this control plane (§K2).
pub fn is_local(context: &Context<'_>, labels: &BTreeMap<String, String>) -> bool {
    let label = |key: &str| labels.get(key).map(String::as_str);
    is_local_by(
        context.settings.mode,
        label(ORIGIN),
        label(ZONE),
        Some(context.zone),
    )
}

/// Whether an object with origin label `origin` and zone label `zone` is local (§K2): in zone
/// mode, without origin, or with origin `zone` and no zone label or the local zone's (any zone
/// when `local_zone` is not known yet); in global mode, without origin or with origin `global`.
/// Other objects are synced copies.
pub fn is_local_by(
    mode: Mode,
    origin: Option<&str>,
    zone: Option<&str>,
    local_zone: Option<&str>,
) -> bool {
    match mode {
        Mode::Zone => match origin {
            None => true,
            Some("zone") => match (zone, local_zone) {
                (Some(zone), Some(local)) => zone == local,
                _ => true,
            },
            Some(_) => false,
        },
        Mode::Global => matches!(origin, None | Some("global")),
    }
}

/// The meta of `object` (index `index` in `Model::objects`); `mesh` is the Dataplane's `mesh`
/// field for a Dataplane, `proxy_type` its proxy type.
pub fn compute(
    context: &Context<'_>,
    index: u32,
    object: &Object,
    dataplane: Option<(Option<&str>, &str)>,
) -> Meta {
    let mut labels: BTreeMap<String, String> = object
        .labels()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let kind = object.kind.to_string();
    let display = object
        .annotation(DISPLAY_NAME)
        .unwrap_or(&object.name)
        .to_string();
    let local = is_local(context, &labels);
    let is_mesh = kind == "Mesh";
    if local && !is_mesh {
        add_local_labels(context, &mut labels, &kind, object.namespace_str());
        if let Some((_, proxy_type)) = dataplane {
            labels.insert(PROXY_TYPE.to_string(), proxy_type.to_string());
        }
    }
    labels.insert(DISPLAY_NAME.to_string(), display.clone());
    let mesh = match dataplane {
        _ if is_mesh => String::new(),
        Some((mesh, _)) => mesh.unwrap_or("default").to_string(),
        None => labels
            .get(MESH)
            .map_or("default", String::as_str)
            .to_string(),
    };
    Meta {
        object: index,
        kind,
        namespace: object.namespace_str().to_string(),
        name: object.name.to_string(),
        mesh,
        display,
        labels,
        local,
    }
}

/// The labels the admission webhook adds when missing (✓ `compute.go` Compute).
fn add_local_labels(
    context: &Context<'_>,
    labels: &mut BTreeMap<String, String>,
    kind: &str,
    namespace: &str,
) {
    let mut add = |key: &str, value: &str| {
        labels
            .entry(key.to_string())
            .or_insert_with(|| value.to_string());
    };
    if context.settings.mode == Mode::Zone && provided_by_zone(kind) {
        add(ORIGIN, "zone");
        if labels.get(ORIGIN).map(String::as_str) != Some("global") {
            labels
                .entry(ZONE.to_string())
                .or_insert_with(|| context.zone.to_string());
            labels
                .entry(ENV.to_string())
                .or_insert_with(|| "kubernetes".to_string());
        }
    }
    labels
        .entry(NAMESPACE.to_string())
        .or_insert_with(|| namespace.to_string());
}
