//! `--kuma-outbound KRI` (§K5 end, ✓ `rules/outbound/context.go` ResourceContext): the value a
//! proxy uses for an outbound that is not a key of its rules — the KRI without its section,
//! then the Mesh key; the first key found is used whole, and printed with `fallbackFrom`.

use crate::policy::owned::OwnedItem;
use serde_json::Value as Json;

/// The parts of a KRI: short kind, mesh, zone, namespace, name, section.
pub fn parts(kri: &str) -> Option<[&str; 6]> {
    let rest = kri.strip_prefix("kri_")?;
    let parts: Vec<&str> = rest.splitn(6, '_').collect();
    parts.try_into().ok()
}

/// The keys tried for `kri`, in order, after `kri` itself.
fn chain(kri: &str) -> Vec<String> {
    let Some([short, mesh, zone, namespace, name, section]) = parts(kri) else {
        return Vec::new();
    };
    if !matches!(short, "msvc" | "mzsvc" | "extsvc") {
        return Vec::new();
    }
    let mut keys = Vec::new();
    if !section.is_empty() {
        keys.push(format!("kri_{short}_{mesh}_{zone}_{namespace}_{name}_"));
    }
    keys.push(format!("kri_m____{mesh}_"));
    keys
}

/// The look-up items of `outbounds` on every Dataplane and kind of `items` (sorted by path
/// id, then kind), to be merged into them: one per Dataplane and kind whose rules do not have
/// the requested key but have one of its fallbacks.
pub fn fallbacks(items: &[OwnedItem], outbounds: &[String]) -> Vec<OwnedItem> {
    let mut found = Vec::new();
    for kri in outbounds {
        let tried = chain(kri);
        let Some([_, mesh, ..]) = parts(kri) else {
            continue;
        };
        let mut subjects: Vec<(&str, &'static crate::policy::PolicyKind)> = (items.iter())
            .filter(|i| i.segments[0] == mesh && i.segments[2] == "outbound")
            .map(|i| (i.segments[1].as_str(), i.kind))
            .collect();
        subjects.dedup_by(|a, b| a.0 == b.0 && std::ptr::eq(a.1, b.1));
        for (dataplane, kind) in subjects {
            let key_item = |key: &str| {
                items.iter().find(|i| {
                    std::ptr::eq(i.kind, kind) && i.segments[1] == dataplane && i.segments[3] == key
                })
            };
            if key_item(kri).is_some() {
                continue;
            }
            let Some((used, item)) = tried.iter().find_map(|k| Some((k, key_item(k)?))) else {
                continue;
            };
            found.push(fallback(item, kri, used, &tried));
        }
    }
    found
}

/// `item` (the key `used`) shown for the requested `kri`.
fn fallback(item: &OwnedItem, kri: &str, used: &str, tried: &[String]) -> OwnedItem {
    let mut item = item.clone();
    item.path_id = format!("{}|{}|outbound|{kri}", item.segments[0], item.segments[1]);
    item.segments[3] = kri.to_string();
    item.extra
        .push(("fallbackFrom", Json::String(used.to_string())));
    let skipped: Vec<&str> = (std::iter::once(kri))
        .chain(tried.iter().map(String::as_str).take_while(|k| *k != used))
        .collect();
    item.explanation.notes.push(format!(
        "{kri} is not a key of this proxy's rules: tried {} (no key), then {used}, used whole",
        skipped.join(", ")
    ));
    item
}

/// What `-v` says of the looked-up `outbounds` that have no fallback chain: a route KRI is
/// printed only where it is a key itself (the plugins fall back to the key of the outbound the
/// route serves, which one KRI cannot name), and so is a KRI of another kind.
pub fn notes(outbounds: &[String]) -> Vec<String> {
    let mut notes = Vec::new();
    for kri in outbounds {
        let Some([short, ..]) = parts(kri) else {
            continue;
        };
        match short {
            "msvc" | "mzsvc" | "extsvc" => {}
            "mhttpr" | "mtcpr" => notes.push(format!(
                "--kuma-outbound {kri}: a route KRI is shown only on the Dataplanes where it is a key; elsewhere the proxy falls back to the key of the outbound the route serves (then that outbound without its section, then the Mesh key), which a route KRI does not name"
            )),
            _ => notes.push(format!(
                "--kuma-outbound {kri}: only MeshService, MeshMultiZoneService and MeshExternalService KRIs fall back; this one is shown only on the Dataplanes where it is a key"
            )),
        }
    }
    notes
}
