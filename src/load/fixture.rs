//! Envoy Gateway's translator fixtures: one mapping of lists of objects.
//!
//! Envoy Gateway tests its translator on files (`internal/gatewayapi/testdata/*.in.yaml`) that
//! are one YAML mapping — `gateways:`, `httpRoutes:`, `backendTrafficPolicies:`, `services:` ...
//! — each key holding a list of Kubernetes objects (a few, `gatewayClass:` and
//! `envoyProxyForGatewayClass:`, hold one object). Their goldens (`*.out.yaml`) have the same
//! shape, each object with the status the translator wrote, and beside them the translator's
//! intermediate representations (`xdsIR:`, `infraIR:`), which are no Kubernetes objects.
//!
//! Users run dopol on these files to compare it with upstream, so such a document is read as
//! the objects it holds, each with its own place in the file, as if each were a document. A
//! document is taken for a fixture only when a key upstream's loader knows ([`FIXTURE_KEYS`],
//! its `resource.Resources` fields, in any case as its files write them) holds an object: a
//! Helm values file with an `extraObjects:` list stays "not a Kubernetes object". In a fixture,
//! every key holding objects is read (dopol reads any kind it knows from any key), and a key
//! that holds no object is reported as an info, never dropped silently.

use super::diags::FixtureKeyIgnored;
use crate::diag::Diagnostic;
use crate::yaml::{Entry, Node};

/// The fields of Envoy Gateway's `resource.Resources` (`internal/gatewayapi/resource/resource.go`),
/// the keys of its translator fixtures.
const FIXTURE_KEYS: &[&str] = &[
    "envoyProxyForGatewayClass",
    "envoyProxiesForGateways",
    "envoyProxyDefaultSpec",
    "gatewayClass",
    "gateways",
    "listenerSets",
    "httpRoutes",
    "grpcRoutes",
    "tlsRoutes",
    "tcpRoutes",
    "udpRoutes",
    "referenceGrants",
    "namespaces",
    "services",
    "serviceImports",
    "endpointSlices",
    "secrets",
    "configMaps",
    "extensionRefFilters",
    "envoyPatchPolicies",
    "clientTrafficPolicies",
    "backendTrafficPolicies",
    "securityPolicies",
    "backendTLSPolicies",
    "envoyExtensionPolicies",
    "extensionServerPolicies",
    "backends",
    "httpFilters",
    "clusterTrustBundles",
];

/// The keys of `root`, when it is a translator fixture: a mapping (the caller has found no
/// `apiVersion` and `kind` in it) in which a key of [`FIXTURE_KEYS`] holds an object.
pub(super) fn entries(root: &Node) -> Option<&[Entry]> {
    let entries = root.as_map()?;
    let known = |key: &str| FIXTURE_KEYS.iter().any(|k| k.eq_ignore_ascii_case(key));
    entries
        .iter()
        .any(|entry| known(&entry.key.text) && holds_objects(&entry.value))
        .then_some(entries)
}

/// What one key of a fixture gives: its objects' nodes (a list's items, or the one object),
/// or nothing, with an info when the key holds something else.
pub(super) fn objects_of(entry: &Entry, diagnostics: &mut Vec<Diagnostic>) -> Vec<Node> {
    let value = &entry.value;
    if is_object(value) {
        return vec![value.clone()];
    }
    if holds_objects(value) {
        return value.as_seq().unwrap_or_default().to_vec();
    }
    if !is_empty(value) {
        diagnostics.push(
            Diagnostic::from(FixtureKeyIgnored {
                key: &entry.key.text,
            })
            .with_label(entry.key.span, "no Kubernetes object here"),
        );
    }
    Vec::new()
}

/// A mapping with `apiVersion` and `kind`.
fn is_object(node: &Node) -> bool {
    let text = |key| node.get(key).and_then(Node::as_str).is_some();
    text("apiVersion") && text("kind")
}

/// An object, or a list holding one (its other items are read too, and reported if they are
/// not objects).
fn holds_objects(node: &Node) -> bool {
    is_object(node)
        || node
            .as_seq()
            .is_some_and(|items| items.iter().any(is_object))
}

/// `null` or an empty list or mapping: a key of nothing, as upstream writes `httpRoutes: []`.
fn is_empty(node: &Node) -> bool {
    node.is_null()
        || node.as_seq().is_some_and(<[Node]>::is_empty)
        || node.as_map().is_some_and(<[Entry]>::is_empty)
}

#[cfg(test)]
mod tests {
    use crate::load::reread;

    /// Reads `text` as one file: the objects' names and lines, and the diagnostics' codes.
    fn read(
        text: &str,
    ) -> (
        Vec<(String, u32)>,
        Vec<&'static str>,
        crate::load::Loaded<crate::load::Object>,
    ) {
        let loaded = crate::load::load_text(text);
        let file = loaded.sources.get(crate::source::SourceId(0));
        let objects = loaded
            .objects
            .iter()
            .map(|o| (o.display(), file.line_col(o.name_span().start).line))
            .collect();
        let codes = loaded.diagnostics.iter().map(|d| d.code.as_str()).collect();
        (objects, codes, loaded)
    }

    const GATEWAY: &str = "  apiVersion: gateway.networking.k8s.io/v1\n  kind: Gateway\n  metadata: {name: gw}\n  spec: {gatewayClassName: eg, listeners: []}\n";

    #[test]
    fn keys_holding_objects_are_read_and_the_others_reported() {
        let text = format!(
            "gatewayClass:\n  apiVersion: gateway.networking.k8s.io/v1\n  kind: GatewayClass\n  metadata: {{name: eg}}\n\
             gateways:\n-{}\
             httpRoutes: []\nxdsIR:\n  default/gw: {{}}\nnamespaces:\n",
            &GATEWAY[1..]
        );
        let (objects, codes, _) = read(&text);
        assert_eq!(
            objects,
            [
                ("GatewayClass eg".to_string(), 4),
                ("Gateway default/gw".to_string(), 8)
            ]
        );
        assert_eq!(codes, ["DPL1022"]);
    }

    /// A fixture with one object gives it its document, and it reads again from there.
    #[test]
    fn a_lone_object_reads_again_from_its_fixture() {
        let text = format!("gateways:\n-{}", &GATEWAY[1..]);
        let (_, codes, loaded) = read(&text);
        assert!(codes.is_empty(), "{codes:?}");
        let [object] = loaded.objects.as_slice() else {
            panic!("{:?}", loaded.objects)
        };
        assert!(object.document.is_some());
        let again = reread(&loaded.sources, object).expect("found again");
        assert_eq!(again.span, object.root.span);
    }

    /// A mapping whose objects sit under keys Envoy Gateway's loader does not know (a Helm
    /// values file's `extraObjects`) is no fixture either; upstream's lowercase keys are known.
    #[test]
    fn objects_under_keys_upstream_does_not_know_make_no_fixture() {
        let values = format!("replicaCount: 1\nextraObjects:\n-{}", &GATEWAY[1..]);
        let (objects, codes, loaded) = read(&values);
        assert!(objects.is_empty(), "{objects:?}");
        assert_eq!(codes, ["DPL1004"]);
        assert_eq!(loaded.stats.fixtures, 0);
        let lowercase = format!("endpointslices: []\ngateways:\n-{}", &GATEWAY[1..]);
        let (objects, codes, _) = read(&lowercase);
        assert_eq!(objects, [("Gateway default/gw".to_string(), 5)]);
        assert!(codes.is_empty(), "{codes:?}");
    }

    /// A mapping without any object stays "not a Kubernetes object".
    #[test]
    fn a_mapping_of_no_objects_is_no_fixture() {
        let (objects, codes, loaded) = read("gateways:\n- name: gw\nxdsIR: {}\n");
        assert!(objects.is_empty());
        assert_eq!(codes, ["DPL1004"]);
        assert_eq!(loaded.stats.fixtures, 0);
    }
}
