//! Kuma's rules (contract `kuma.md`), one test per rule, on small Kubernetes inputs: values,
//! `source`, `origins` (as `ns/name`), `mergedFrom` and path ids asserted exactly.

use super::evaluate::KumaEvaluator;
use super::settings::{KumaSettings, Mode};

use crate::load::files::WorkTree;
use crate::pipeline::{Evaluated, InputOptions, evaluate};
use crate::policy::owned::OwnedItem;

/// The input read from `text`.
fn load(text: &str) -> Evaluated {
    let options = InputOptions {
        files: vec!["-".into()],
        ..InputOptions::default()
    };
    let evaluated = evaluate(&options, &WorkTree, &mut text.as_bytes());
    let errors: Vec<_> = evaluated
        .diagnostics()
        .filter(|d| d.is_input_error())
        .collect();
    assert!(errors.is_empty(), "{errors:?}");
    evaluated
}

/// One item as the assertions read it.
#[derive(Debug, PartialEq)]
struct Shown {
    kind: &'static str,
    path: String,
    /// `key = value <- source [origins]`.
    rules: Vec<String>,
    merged_from: Vec<String>,
    lost: Vec<String>,
}

fn name(evaluated: &Evaluated, policy: u32) -> String {
    evaluated.model.policies[policy as usize].namespaced_name()
}

fn shown(evaluated: &Evaluated, item: &OwnedItem) -> Shown {
    let merged_from = item
        .extra
        .iter()
        .find(|(k, _)| *k == "mergedFrom")
        .map(|(_, v)| v);
    Shown {
        kind: item.kind.kind,
        path: item.path_id.clone(),
        rules: (item.rules.iter())
            .map(|r| {
                let origins: Vec<String> = r.origins.iter().map(|&p| name(evaluated, p)).collect();
                format!(
                    "{} = {} <- {} [{}]",
                    r.key,
                    r.value,
                    name(evaluated, r.source),
                    origins.join(" ")
                )
            })
            .collect(),
        merged_from: (merged_from.and_then(|v| v.as_array()).into_iter().flatten())
            .map(|v| v.as_str().unwrap_or_default().to_string())
            .collect(),
        lost: (item.lost.iter())
            .map(|l| {
                format!(
                    "{} = {} by {} lost to {}",
                    l.key,
                    l.value,
                    name(evaluated, l.policy),
                    name(evaluated, l.winner)
                )
            })
            .collect(),
    }
}

/// Every item of `text` for a control plane with `settings`.
fn items_with(text: &str, settings: &KumaSettings) -> Vec<Shown> {
    let evaluated = load(text);
    let evaluator = KumaEvaluator::new(&evaluated.model, settings);
    evaluator
        .paths
        .items
        .iter()
        .map(|i| shown(&evaluated, i))
        .collect()
}

fn items(text: &str) -> Vec<Shown> {
    items_with(text, &KumaSettings::default())
}

/// The item of `kind` on `path`.
fn find<'a>(items: &'a [Shown], kind: &str, path: &str) -> &'a Shown {
    items
        .iter()
        .find(|i| i.kind == kind && i.path == path)
        .unwrap_or_else(|| panic!("no {kind} on {path}: {:#?}", paths(items)))
}

fn paths(items: &[Shown]) -> Vec<String> {
    items
        .iter()
        .map(|i| format!("{} {}", i.kind, i.path))
        .collect()
}

const MESH: &str = "apiVersion: kuma.io/v1alpha1
kind: Mesh
metadata: {name: mesh-1}
---
apiVersion: kuma.io/v1alpha1
kind: Dataplane
mesh: mesh-1
metadata:
  name: dp-1
  namespace: kuma-demo
  labels: {app: web, kuma.io/origin: zone, kuma.io/zone: zone-1}
spec:
  networking:
    address: 10.0.0.1
    inbound:
    - {port: 8080, name: main-port, tags: {kuma.io/service: web_kuma-demo_svc_8080}}
    - {port: 9090, tags: {kuma.io/service: web_kuma-demo_svc_9090}}
---
apiVersion: kuma.io/v1alpha1
kind: MeshService
metadata:
  name: backend
  namespace: kuma-demo
  labels: {kuma.io/mesh: mesh-1, app: backend}
spec:
  ports:
  - {name: http, port: 80}
  - {port: 8081}
";

const KEY: &str = "kri_msvc_mesh-1_zone-1_kuma-demo_backend_";
const DP: &str = "mesh-1|kuma-demo/dp-1";

fn with(policies: &str) -> String {
    format!("{MESH}---\n{policies}")
}

#[test]
fn k3_outbound_keys_are_the_resources_entries_name_and_the_mesh_key() {
    let input = with(
        "apiVersion: kuma.io/v1alpha1
kind: MeshTimeout
metadata: {name: mesh-wide, namespace: kuma-system, labels: {kuma.io/mesh: mesh-1}}
spec:
  targetRef: {kind: Mesh}
  to:
  - targetRef: {kind: Mesh}
    default: {connectionTimeout: 100s, idleTimeout: 1h}
---
apiVersion: kuma.io/v1alpha1
kind: MeshTimeout
metadata: {name: backend, namespace: kuma-system, labels: {kuma.io/mesh: mesh-1}}
spec:
  to:
  - targetRef: {kind: MeshService, name: backend, namespace: kuma-demo, sectionName: http}
    default: {connectionTimeout: 7s, http: {requestTimeout: 20m}}
",
    );
    let items = items(&input);
    assert_eq!(
        paths(&items),
        [
            format!("MeshTimeout {DP}|outbound|kri_m____mesh-1_"),
            format!("MeshTimeout {DP}|outbound|{KEY}http"),
        ]
    );
    let mesh = find(
        &items,
        "MeshTimeout",
        &format!("{DP}|outbound|kri_m____mesh-1_"),
    );
    assert_eq!(
        mesh.rules,
        [
            "connectionTimeout = \"1m40s\" <- kuma-system/mesh-wide [kuma-system/mesh-wide]",
            "idleTimeout = \"1h0m0s\" <- kuma-system/mesh-wide [kuma-system/mesh-wide]",
        ]
    );
    let port = find(&items, "MeshTimeout", &format!("{DP}|outbound|{KEY}http"));
    assert_eq!(
        port.rules,
        [
            "connectionTimeout = \"7s\" <- kuma-system/backend [kuma-system/backend]",
            "http.requestTimeout = \"20m0s\" <- kuma-system/backend [kuma-system/backend]",
            "idleTimeout = \"1h0m0s\" <- kuma-system/mesh-wide [kuma-system/mesh-wide]",
        ]
    );
    assert_eq!(
        port.merged_from,
        [
            "meshtimeout.kuma.io:kuma-system/backend#to[0]",
            "meshtimeout.kuma.io:kuma-system/mesh-wide#to[0]",
        ]
    );
    assert_eq!(
        port.lost,
        ["connectionTimeout = \"1m40s\" by kuma-system/mesh-wide lost to kuma-system/backend"]
    );
}

/// A policy document: `labels` and `spec` as flow YAML.
fn policy(kind: &str, namespace: &str, name: &str, labels: &str, spec: &str) -> String {
    format!(
        "---\napiVersion: kuma.io/v1alpha1\nkind: {kind}\nmetadata: {{name: {name}, namespace: {namespace}, labels: {{kuma.io/mesh: mesh-1{labels}}}}}\nspec: {spec}\n"
    )
}

fn timeout(namespace: &str, name: &str, labels: &str, spec: &str) -> String {
    policy("MeshTimeout", namespace, name, labels, spec)
}

fn rules_of<'a>(items: &'a [Shown], kind: &str, path: &str) -> &'a [String] {
    &find(items, kind, path).rules
}

fn outbound(key: &str) -> String {
    format!("{DP}|outbound|{key}")
}

const MESH_KEY: &str = "kri_m____mesh-1_";

#[test]
fn k2_local_objects_get_the_webhook_labels_and_synced_copies_keep_theirs() {
    let evaluated = load(&with(&policy(
        "MeshTimeout",
        "kuma-demo",
        "synced",
        ", kuma.io/origin: global, kuma.io/display-name: orig",
        "{}",
    )));
    let evaluator = KumaEvaluator::new(&evaluated.model, &KumaSettings::default());
    let index = &evaluator.index;
    assert_eq!(index.zone, "zone-1");
    assert_eq!(
        index.zone_note,
        "local zone `zone-1`: the one zone of the Dataplanes with origin zone"
    );
    let meta = |kind: &str| index.metas.iter().find(|m| m.kind == kind).unwrap();
    let service = meta("MeshService");
    assert!(service.local);
    assert_eq!(service.label("kuma.io/origin"), Some("zone"));
    assert_eq!(service.label("kuma.io/zone"), Some("zone-1"));
    assert_eq!(service.label("kuma.io/env"), Some("kubernetes"));
    assert_eq!(service.label("k8s.kuma.io/namespace"), Some("kuma-demo"));
    assert_eq!(service.kri(Some("http")), format!("{KEY}http"));
    let mesh = meta("Mesh");
    assert_eq!(mesh.kri(None), MESH_KEY);
    assert_eq!(mesh.label("kuma.io/origin"), None);
    let dp = meta("Dataplane");
    assert_eq!(dp.label("kuma.io/proxy-type"), Some("sidecar"));
    assert_eq!(dp.kri(None), "kri_dp_mesh-1_zone-1_kuma-demo_dp-1_");
    let synced = meta("MeshTimeout");
    assert!(!synced.local);
    assert_eq!(synced.label("kuma.io/zone"), None);
    assert_eq!(synced.label("k8s.kuma.io/namespace"), None);
    assert_eq!(synced.label("kuma.io/policy-role"), None);
}

#[test]
fn k2_display_name_annotation_and_zone_setting_make_the_kri() {
    let input = MESH.replace(
        "  name: backend\n",
        "  name: backend-hash\n  annotations: {kuma.io/display-name: backend}\n",
    );
    let settings = KumaSettings {
        zone: Some("east".into()),
        ..KumaSettings::default()
    };
    let evaluated = load(&input);
    let evaluator = KumaEvaluator::new(&evaluated.model, &settings);
    let service = evaluator
        .index
        .metas
        .iter()
        .find(|m| m.kind == "MeshService")
        .unwrap();
    assert_eq!(service.display, "backend");
    assert_eq!(service.kri(None), "kri_msvc_mesh-1_east_kuma-demo_backend_");
    // The Dataplane says zone-1 with origin zone: a synced copy for zone `east`.
    let dp = evaluator
        .index
        .metas
        .iter()
        .find(|m| m.kind == "Dataplane")
        .unwrap();
    assert!(!dp.local);
}

#[test]
fn k2_a_mesh_named_but_absent_is_assumed() {
    let input = MESH.replace(
        "kind: Mesh\nmetadata: {name: mesh-1}",
        "kind: Mesh\nmetadata: {name: other}",
    ) + &timeout(
        "kuma-system",
        "all",
        "",
        "{to: [{targetRef: {kind: Mesh}, default: {idleTimeout: 5s}}]}",
    );
    let evaluated = load(&input);
    let evaluator = KumaEvaluator::new(&evaluated.model, &KumaSettings::default());
    assert_eq!(evaluator.index.assumed_meshes, ["mesh-1"]);
    let items = items(&input);
    assert_eq!(
        rules_of(&items, "MeshTimeout", &outbound(MESH_KEY)),
        ["idleTimeout = \"5s\" <- kuma-system/all [kuma-system/all]"]
    );
}

#[test]
fn k4_role_is_computed_for_local_policies_and_replaces_a_written_one() {
    let input = with(&format!(
        "{}{}{}{}",
        timeout(
            "kuma-system",
            "sys",
            ", kuma.io/policy-role: consumer",
            "{from: [{targetRef: {kind: Mesh}, default: {}}]}"
        ),
        timeout(
            "kuma-demo",
            "prod",
            "",
            "{to: [{targetRef: {kind: MeshService, name: backend}, default: {}}]}"
        ),
        timeout(
            "kuma-demo",
            "cons",
            "",
            "{to: [{targetRef: {kind: Mesh}, default: {}}]}"
        ),
        timeout("kuma-demo", "owner", "", "{rules: [{default: {}}]}"),
    ));
    let evaluated = load(&input);
    let evaluator = KumaEvaluator::new(&evaluated.model, &KumaSettings::default());
    let roles: Vec<(String, Option<&str>)> = (evaluator.policies.iter())
        .map(|p| {
            let meta = &evaluator.index.metas[p.meta];
            (meta.name.clone(), meta.label("kuma.io/policy-role"))
        })
        .collect();
    assert_eq!(
        roles,
        [
            ("sys".to_string(), Some("system")),
            ("prod".to_string(), Some("producer")),
            ("cons".to_string(), Some("consumer")),
            ("owner".to_string(), Some("workload-owner")),
        ]
    );
}

fn inbound_path(section: &str) -> String {
    format!("{DP}|inbound|kuma-demo/dp-1#{section}")
}

#[test]
fn k4_top_level_kinds_select_dataplanes_and_inbounds() {
    let rule = "rules: [{default: {idleTimeout: 1s}}]";
    let input = with(&format!(
        "{}{}{}{}{}{}",
        timeout(
            "kuma-system",
            "gw-only",
            "",
            &format!("{{targetRef: {{kind: Mesh, proxyTypes: [Gateway]}}, {rule}}}")
        ),
        timeout(
            "kuma-system",
            "by-labels",
            "",
            &format!(
                "{{targetRef: {{kind: Dataplane, labels: {{app: web}}, sectionName: main-port}}, {rule}}}"
            )
        ),
        timeout(
            "kuma-system",
            "by-name",
            "",
            &format!(
                "{{targetRef: {{kind: Dataplane, name: dp-1, namespace: kuma-demo, sectionName: '9090'}}, {rule}}}"
            )
        ),
        timeout(
            "kuma-system",
            "other-name",
            "",
            &format!("{{targetRef: {{kind: Dataplane, name: dp-1}}, {rule}}}")
        ),
        timeout(
            "kuma-system",
            "subset",
            "",
            &format!(
                "{{targetRef: {{kind: MeshSubset, tags: {{kuma.io/service: web_kuma-demo_svc_9090}}}}, {rule}}}"
            )
        ),
        timeout(
            "kuma-system",
            "service",
            "",
            &format!("{{targetRef: {{kind: MeshService, name: web_kuma-demo_svc_8080}}, {rule}}}")
        ),
    ));
    let items = items(&input);
    let policies = |section: &str| -> Vec<String> {
        find(&items, "MeshTimeout", &inbound_path(section))
            .merged_from
            .clone()
    };
    assert_eq!(
        policies("main-port"),
        [
            "meshtimeout.kuma.io:kuma-system/service#rules[0]",
            "meshtimeout.kuma.io:kuma-system/by-labels#rules[0]",
        ]
    );
    assert_eq!(
        policies("9090"),
        [
            "meshtimeout.kuma.io:kuma-system/subset#rules[0]",
            "meshtimeout.kuma.io:kuma-system/by-name#rules[0]",
        ]
    );
}

#[test]
fn k4_zone_and_namespace_gates_and_shadow_policies() {
    let rule = "{rules: [{default: {idleTimeout: 1s}}]}";
    let input = with(&format!(
        "{}{}{}{}",
        timeout(
            "kuma-system",
            "other-zone",
            ", kuma.io/origin: zone, kuma.io/zone: zone-2",
            rule
        ),
        timeout("kuma-system", "local", "", rule),
        timeout("other", "owner-elsewhere", "", rule),
        timeout("kuma-system", "shadow", ", kuma.io/effect: shadow", rule),
    ));
    let items = items(&input);
    assert_eq!(
        find(&items, "MeshTimeout", &inbound_path("main-port")).merged_from,
        ["meshtimeout.kuma.io:kuma-system/local#rules[0]"]
    );
}

/// The MeshHTTPRoute `kuma-system/route` to `kuma-demo/backend`, with `top` (block YAML lines under
/// `spec:`, or nothing) before its `to`; its entry has the one rule the CRD requires.
fn route(top: &str) -> String {
    format!(
        "---\napiVersion: kuma.io/v1alpha1\nkind: MeshHTTPRoute\nmetadata: {{name: route, namespace: kuma-system, labels: {{kuma.io/mesh: mesh-1}}}}\nspec:\n{top}  to:\n  - targetRef: {{kind: MeshService, name: backend, namespace: kuma-demo}}\n    rules:\n    - matches: [{{path: {{type: PathPrefix, value: /}}}}]\n      default: {{backendRefs: [{{kind: MeshService, name: backend, namespace: kuma-demo, port: 80}}]}}\n"
    )
}

#[test]
fn k4_a_mesh_http_route_top_level_selects_as_its_route_and_feeds_no_outbound_key() {
    // Kuma refuses `rules` beside `to` in one MeshTimeout (§K11): one policy each.
    let input = with(&format!(
        "{}{}{}",
        route("  targetRef: {kind: Dataplane, labels: {app: web}}\n"),
        timeout(
            "kuma-system",
            "on-route-to",
            "",
            "{targetRef: {kind: MeshHTTPRoute, name: route}, to: [{targetRef: {kind: Mesh}, default: {idleTimeout: 1s}}]}"
        ),
        timeout(
            "kuma-system",
            "on-route-rules",
            "",
            "{targetRef: {kind: MeshHTTPRoute, name: route}, rules: [{default: {idleTimeout: 2s}}]}"
        ),
    ));
    let items = items(&input);
    assert_eq!(
        paths(&items),
        [
            format!("MeshTimeout {}", inbound_path("9090")),
            format!("MeshTimeout {}", inbound_path("main-port")),
        ]
    );
    assert_eq!(
        rules_of(&items, "MeshTimeout", &inbound_path("main-port")),
        ["idleTimeout = \"2s\" <- kuma-system/on-route-rules [kuma-system/on-route-rules]"]
    );
}

/// A second MeshService and a MeshExternalService beside backend.
const MORE: &str = "---
apiVersion: kuma.io/v1alpha1
kind: MeshService
metadata:
  name: db
  namespace: other
  labels: {kuma.io/mesh: mesh-1, app: backend}
spec:
  ports: [{name: tcp, port: 5432}]
---
apiVersion: kuma.io/v1alpha1
kind: MeshExternalService
metadata:
  name: httpbin
  namespace: kuma-system
  labels: {kuma.io/mesh: mesh-1}
spec:
  match: {type: HostnameGenerator, port: 443, protocol: http}
";

/// A MeshTimeout with one `to[]` entry.
fn to_one(namespace: &str, name: &str, labels: &str, target: &str, conf: &str) -> String {
    timeout(
        namespace,
        name,
        labels,
        &format!("{{to: [{}]}}", entry(target, conf)),
    )
}

fn entry(target: &str, conf: &str) -> String {
    format!("{{targetRef: {target}, default: {conf}}}")
}

#[test]
fn k5_labels_refs_resolve_to_every_matching_object_in_any_namespace() {
    let input = with(&format!(
        "{MORE}{}",
        to_one(
            "kuma-demo",
            "consumer",
            "",
            "{kind: MeshService, labels: {app: backend}}",
            "{idleTimeout: 3s}"
        ),
    ));
    let items = items(&input);
    assert_eq!(
        paths(&items),
        [
            format!("MeshTimeout {}", outbound(KEY)),
            format!(
                "MeshTimeout {}",
                outbound("kri_msvc_mesh-1_zone-1_other_db_")
            ),
        ]
    );
}

#[test]
fn k5_name_refs_look_in_the_policy_namespace_and_zone() {
    let input = with(&format!(
        "{MORE}{}{}",
        to_one(
            "kuma-system",
            "missed",
            "",
            "{kind: MeshService, name: backend}",
            "{idleTimeout: 3s}"
        ),
        to_one(
            "kuma-system",
            "external",
            "",
            "{kind: MeshExternalService, name: httpbin}",
            "{idleTimeout: 4s}"
        ),
    ));
    let items = items(&input);
    assert_eq!(
        paths(&items),
        [format!(
            "MeshTimeout {}",
            outbound("kri_extsvc_mesh-1_zone-1_kuma-system_httpbin_")
        )]
    );
}

#[test]
fn k5_the_service_name_form_is_a_labels_query_with_a_port() {
    let input = with(&format!(
        "{}{}",
        to_one(
            "kuma-system",
            "port",
            "",
            "{kind: MeshService, name: backend_kuma-demo_svc_8081}",
            "{idleTimeout: 3s}"
        ),
        to_one(
            "kuma-system",
            "whole",
            "",
            "{kind: MeshService, name: backend_kuma-demo_svc}",
            "{connectionTimeout: 2s}"
        ),
    ));
    let items = items(&input);
    assert_eq!(
        paths(&items),
        [
            format!("MeshTimeout {}", outbound(KEY)),
            format!("MeshTimeout {}", outbound(&format!("{KEY}8081"))),
        ]
    );
    // The port key takes the whole-service entry too.
    assert_eq!(
        rules_of(&items, "MeshTimeout", &outbound(&format!("{KEY}8081"))),
        [
            "connectionTimeout = \"2s\" <- kuma-system/whole [kuma-system/whole]",
            "idleTimeout = \"3s\" <- kuma-system/port [kuma-system/port]",
        ]
    );
    assert_eq!(
        rules_of(&items, "MeshTimeout", &outbound(KEY)),
        ["connectionTimeout = \"2s\" <- kuma-system/whole [kuma-system/whole]"]
    );
}

#[test]
fn k5_a_section_that_no_port_has_resolves_to_nothing() {
    let input = with(&to_one(
        "kuma-system",
        "missing-port",
        "",
        "{kind: MeshService, name: backend, namespace: kuma-demo, sectionName: grpc}",
        "{idleTimeout: 3s}",
    ));
    assert!(items(&input).is_empty());
}

#[test]
fn k5_a_route_key_takes_the_mesh_entries_but_not_its_service_entries() {
    let input = with(&format!(
        "{}{}",
        route(""),
        timeout(
            "kuma-system",
            "all",
            "",
            &format!(
                "{{to: [{}, {}, {}]}}",
                entry("{kind: Mesh}", "{idleTimeout: 1s}"),
                entry(
                    "{kind: MeshService, name: backend, namespace: kuma-demo}",
                    "{connectionTimeout: 2s}"
                ),
                entry(
                    "{kind: MeshHTTPRoute, name: route}",
                    "{http: {requestTimeout: 3s}}"
                )
            )
        ),
    ));
    let items = items(&input);
    let route = outbound("kri_mhttpr_mesh-1_zone-1_kuma-system_route_");
    assert_eq!(
        rules_of(&items, "MeshTimeout", &route),
        [
            "http.requestTimeout = \"3s\" <- kuma-system/all [kuma-system/all]",
            "idleTimeout = \"1s\" <- kuma-system/all [kuma-system/all]",
        ]
    );
    assert_eq!(
        find(&items, "MeshTimeout", &route).merged_from,
        [
            "meshtimeout.kuma.io:kuma-system/all#to[2]",
            "meshtimeout.kuma.io:kuma-system/all#to[0]"
        ]
    );
}

#[test]
fn k6_top_level_and_role_outrank_the_to_kind() {
    // A consumer's mesh-wide entry beats a producer's per-service entry (kumahq/kuma#13576).
    let input = with(&format!(
        "{}{}",
        to_one(
            "kuma-demo",
            "producer",
            "",
            "{kind: MeshService, name: backend}",
            "{idleTimeout: 1s}"
        ),
        to_one(
            "kuma-demo",
            "consumer",
            "",
            "{kind: Mesh}",
            "{idleTimeout: 2s}"
        ),
    ));
    let items = items(&input);
    assert_eq!(
        rules_of(&items, "MeshTimeout", &outbound(KEY)),
        ["idleTimeout = \"2s\" <- kuma-demo/consumer [kuma-demo/consumer]"]
    );
    assert_eq!(
        find(&items, "MeshTimeout", &outbound(KEY)).lost,
        ["idleTimeout = \"1s\" by kuma-demo/producer lost to kuma-demo/consumer"]
    );
}

#[test]
fn k6_the_to_kind_outranks_the_name_and_the_smallest_name_wins() {
    let input = with(&format!(
        "{}{}{}",
        to_one(
            "kuma-system",
            "a-mesh",
            "",
            "{kind: Mesh}",
            "{idleTimeout: 1s, connectionTimeout: 1s}"
        ),
        to_one(
            "kuma-system",
            "z-service",
            "",
            "{kind: MeshService, name: backend, namespace: kuma-demo}",
            "{idleTimeout: 2s}"
        ),
        to_one(
            "kuma-system",
            "b-mesh",
            "",
            "{kind: Mesh}",
            "{connectionTimeout: 3s}"
        ),
    ));
    let items = items(&input);
    assert_eq!(
        find(&items, "MeshTimeout", &outbound(KEY)).merged_from,
        [
            "meshtimeout.kuma.io:kuma-system/z-service#to[0]",
            "meshtimeout.kuma.io:kuma-system/a-mesh#to[0]",
            "meshtimeout.kuma.io:kuma-system/b-mesh#to[0]",
        ]
    );
    assert_eq!(
        rules_of(&items, "MeshTimeout", &outbound(KEY)),
        [
            "connectionTimeout = \"1s\" <- kuma-system/a-mesh [kuma-system/a-mesh]",
            "idleTimeout = \"2s\" <- kuma-system/z-service [kuma-system/z-service]",
        ]
    );
}

#[test]
fn k6_origin_zone_beats_global_and_equal_display_names_order_by_locator() {
    let input = with(&format!(
        "{}{}{}",
        to_one(
            "kuma-system",
            "from-global",
            ", kuma.io/origin: global, kuma.io/display-name: g",
            "{kind: Mesh}",
            "{idleTimeout: 1s}"
        ),
        to_one(
            "kuma-system",
            "same",
            "",
            "{kind: Mesh}",
            "{connectionTimeout: 2s}"
        ),
        to_one(
            "kuma-demo",
            "same",
            "",
            "{kind: Mesh}",
            "{connectionTimeout: 3s, idleTimeout: 3s}"
        ),
    ));
    let items = items(&input);
    // kuma-demo/same is a consumer (role 3), above the system ones; global is lowest.
    assert_eq!(
        find(&items, "MeshTimeout", &outbound(MESH_KEY)).merged_from,
        [
            "meshtimeout.kuma.io:kuma-demo/same#to[0]",
            "meshtimeout.kuma.io:kuma-system/same#to[0]",
            "meshtimeout.kuma.io:kuma-system/from-global#to[0]",
        ]
    );
}

#[test]
fn k6_equal_display_names_and_ranks_order_by_namespace_and_name_descending() {
    let input = with(&format!(
        "{}{}",
        to_one(
            "kuma-system",
            "same",
            "",
            "{kind: Mesh}",
            "{connectionTimeout: 2s}"
        ),
        to_one(
            "kuma-system",
            "other",
            ", kuma.io/display-name: same, kuma.io/origin: zone, kuma.io/zone: zone-1",
            "{kind: Mesh}",
            "{connectionTimeout: 3s}"
        ),
    ));
    let items = items(&input);
    // Display names tie: kuma-system/other < kuma-system/same, so `other` is applied last.
    assert_eq!(
        rules_of(&items, "MeshTimeout", &outbound(MESH_KEY)),
        ["connectionTimeout = \"3s\" <- kuma-system/other [kuma-system/other]"]
    );
}

#[test]
fn k6_a_dataplane_name_ref_is_above_a_labels_ref() {
    let input = with(&format!(
        "{}{}",
        timeout(
            "kuma-system",
            "a-name",
            "",
            "{targetRef: {kind: Dataplane, labels: {app: web}}, rules: [{default: {idleTimeout: 1s}}]}"
        ),
        timeout(
            "kuma-system",
            "z-name",
            "",
            "{targetRef: {kind: Dataplane, name: dp-1, namespace: kuma-demo}, rules: [{default: {idleTimeout: 2s}}]}"
        ),
    ));
    let items = items(&input);
    assert_eq!(
        rules_of(&items, "MeshTimeout", &inbound_path("main-port")),
        ["idleTimeout = \"2s\" <- kuma-system/z-name [kuma-system/z-name]"]
    );
}

fn json(text: &str) -> serde_json::Value {
    crate::families::kgateway::testing::yaml(text).to_json()
}

#[test]
fn k7_fold_is_a_merge_patch_with_leaves_sources_and_losses() {
    use super::merge::fold;
    let a = json("{http: {requestTimeout: 5s, maxStreamDuration: 1s}, list: [1, 2]}");
    let b = json("{http: {requestTimeout: 100s}, list: [3]}");
    let folded = fold(&[&a, &b], &["requestTimeout", "maxStreamDuration"]);
    assert_eq!(
        folded.conf,
        json("{http: {requestTimeout: 1m40s, maxStreamDuration: 1s}, list: [3]}")
    );
    let leaves: Vec<(&str, usize)> = folded
        .leaves
        .iter()
        .map(|(k, l)| (k.as_str(), l.source))
        .collect();
    assert_eq!(
        leaves,
        [
            ("http.maxStreamDuration", 0),
            ("http.requestTimeout", 1),
            ("list", 1)
        ]
    );
    let lost: Vec<(&str, usize, usize)> = folded
        .losses
        .iter()
        .map(|l| (l.key.as_str(), l.step, l.winner))
        .collect();
    assert_eq!(lost, [("http.requestTimeout", 0, 1), ("list", 0, 1)]);
    assert_eq!(folded.steps[1].replaced, ["http.requestTimeout", "list"]);
}

#[test]
fn k7_append_lists_concatenate_and_every_contributor_is_an_origin() {
    use super::merge::fold;
    // At any depth: MeshMetric's CRD puts `appendProfiles` under `sidecar.profiles`.
    let a = json("{sidecar: {profiles: {appendProfiles: [{name: Basic}]}, includeUnused: false}}");
    let b = json("{sidecar: {profiles: {appendProfiles: [{name: All}]}}}");
    let folded = fold(&[&a, &b], &[]);
    assert_eq!(
        folded.conf,
        json(
            "{sidecar: {profiles: {appendProfiles: [{name: Basic}, {name: All}]}, includeUnused: false}}"
        )
    );
    let leaf = &folded.leaves["sidecar.profiles.appendProfiles"];
    assert_eq!((leaf.source, leaf.origins.clone()), (1, vec![0, 1]));
    assert!(folded.losses.is_empty());
    // At the top (MeshPassthrough `appendMatch`).
    let a =
        json("{passthroughMode: Matched, appendMatch: [{type: Domain, value: a.com, port: 443}]}");
    let b = json("{appendMatch: [{type: IP, value: 10.0.0.1, port: 80}]}");
    let folded = fold(&[&a, &b], &[]);
    assert_eq!(
        folded.conf["appendMatch"],
        json("[{type: Domain, value: a.com, port: 443}, {type: IP, value: 10.0.0.1, port: 80}]")
    );
    let leaf = &folded.leaves["appendMatch"];
    assert_eq!((leaf.source, leaf.origins.clone()), (1, vec![0, 1]));
}

#[test]
fn k7_a_scalar_over_an_object_replaces_its_leaves() {
    use super::merge::fold;
    let a = json("{a: {b: 1, c: 2}}");
    let b = json("{a: 3}");
    let folded = fold(&[&a, &b], &[]);
    assert_eq!(folded.conf, json("{a: 3}"));
    let lost: Vec<&str> = folded.losses.iter().map(|l| l.key.as_str()).collect();
    assert_eq!(lost, ["a.b", "a.c"]);
}

#[test]
fn k7_durations_print_as_go_prints_them() {
    use super::duration::{format, parse};
    let go = |text: &str| format(parse(text).unwrap());
    assert_eq!(go("100s"), "1m40s");
    assert_eq!(go("1h"), "1h0m0s");
    assert_eq!(go("20m"), "20m0s");
    assert_eq!(go("500ms"), "500ms");
    assert_eq!(go("7s"), "7s");
    assert_eq!(go("1.5s"), "1.5s");
    assert_eq!(go("90m30s"), "1h30m30s");
    assert_eq!(go("0"), "0s");
    assert_eq!(go("1500us"), "1.5ms");
    assert_eq!(parse("soon"), None);
}

#[test]
fn k7_nulls_are_pruned_so_nothing_inherited_is_unset() {
    let input = with(&format!(
        "{}{}",
        to_one("kuma-system", "b", "", "{kind: Mesh}", "{idleTimeout: 1s}"),
        to_one(
            "kuma-system",
            "a",
            "",
            "{kind: Mesh}",
            "{idleTimeout: null, connectionTimeout: 2s}"
        ),
    ));
    let items = items(&input);
    assert_eq!(
        rules_of(&items, "MeshTimeout", &outbound(MESH_KEY)),
        [
            "connectionTimeout = \"2s\" <- kuma-system/a [kuma-system/a]",
            "idleTimeout = \"1s\" <- kuma-system/b [kuma-system/b]",
        ]
    );
}

#[test]
fn k8_merged_kinds_fold_catch_all_rules_and_key_matched_ones() {
    let input = with(&format!(
        "{}{}",
        timeout(
            "kuma-system",
            "b",
            "",
            "{rules: [{default: {idleTimeout: 1s, connectionTimeout: 1s}}, {matches: [{spiffeID: {type: Prefix, value: spiffe://a}}, {spiffeID: {type: Exact, value: spiffe://b}}], default: {idleTimeout: 9s}}]}"
        ),
        timeout(
            "kuma-system",
            "a",
            "",
            "{from: [{targetRef: {kind: Mesh}, default: {idleTimeout: 2s}}]}"
        ),
    ));
    let items = items(&input);
    assert_eq!(
        rules_of(&items, "MeshTimeout", &inbound_path("main-port")),
        [
            "connectionTimeout = \"1s\" <- kuma-system/b [kuma-system/b]",
            "idleTimeout = \"2s\" <- kuma-system/a [kuma-system/a]",
            "match#0 = {\"match\":{\"spiffeID\":{\"type\":\"Exact\",\"value\":\"spiffe://b\"}},\"conf\":{\"idleTimeout\":\"9s\"}} <- kuma-system/b [kuma-system/b]",
            "match#1 = {\"match\":{\"spiffeID\":{\"type\":\"Prefix\",\"value\":\"spiffe://a\"}},\"conf\":{\"idleTimeout\":\"9s\"}} <- kuma-system/b [kuma-system/b]",
        ]
    );
    assert_eq!(
        find(&items, "MeshTimeout", &inbound_path("main-port")).merged_from,
        [
            "meshtimeout.kuma.io:kuma-system/a#from[0]",
            "meshtimeout.kuma.io:kuma-system/b#rules[0]"
        ]
    );
}

#[test]
fn k8_listed_kinds_key_every_rule() {
    let input = with(&policy(
        "MeshAccessLog",
        "kuma-system",
        "log",
        "",
        "{rules: [{default: {backends: [{type: File, file: {path: /tmp/a}}]}}, {matches: [{sni: {type: Exact, value: x}}], default: {backends: []}}]}",
    ));
    let items = items(&input);
    assert_eq!(
        rules_of(&items, "MeshAccessLog", &inbound_path("main-port")),
        [
            "rule#0 = {\"match\":{\"sni\":{\"type\":\"Exact\",\"value\":\"x\"}},\"conf\":{\"backends\":[]}} <- kuma-system/log [kuma-system/log]",
            "rule#1 = {\"match\":null,\"conf\":{\"backends\":[{\"type\":\"File\",\"file\":{\"path\":\"/tmp/a\"}}]}} <- kuma-system/log [kuma-system/log]",
        ]
    );
}

fn permission(namespace: &str, name: &str, spec: &str) -> String {
    policy("MeshTrafficPermission", namespace, name, "", spec)
}

#[test]
fn k8_traffic_permission_lists_concatenate_in_order() {
    // `c`'s legacy `from` is ignored: the inbound has MTP `rules` (Kuma refuses `from` beside
    // `rules` in one policy, §K11).
    let input = with(&format!(
        "{}{}{}",
        permission(
            "kuma-system",
            "b",
            "{rules: [{default: {deny: [{spiffeID: {type: Exact, value: x}}], allow: [{spiffeID: {type: Prefix, value: a}}]}}]}"
        ),
        permission(
            "kuma-system",
            "a",
            "{rules: [{default: {allow: [{spiffeID: {type: Prefix, value: b}}]}}]}"
        ),
        permission(
            "kuma-system",
            "c",
            "{from: [{targetRef: {kind: Mesh}, default: {action: Deny}}]}"
        ),
    ));
    let items = items(&input);
    assert_eq!(
        rules_of(&items, "MeshTrafficPermission", &inbound_path("main-port")),
        [
            "allow = [{\"spiffeID\":{\"type\":\"Prefix\",\"value\":\"a\"}},{\"spiffeID\":{\"type\":\"Prefix\",\"value\":\"b\"}}] <- kuma-system/a [kuma-system/a kuma-system/b]",
            "deny = [{\"spiffeID\":{\"type\":\"Exact\",\"value\":\"x\"}}] <- kuma-system/b [kuma-system/b]",
        ]
    );
}

#[test]
fn k8_legacy_from_is_modelled_only_when_every_item_targets_mesh() {
    let mesh_only = with(&format!(
        "{}{}",
        permission(
            "kuma-system",
            "b",
            "{from: [{targetRef: {kind: Mesh}, default: {action: Deny}}]}"
        ),
        permission(
            "kuma-system",
            "a",
            "{from: [{targetRef: {kind: Mesh}, default: {action: Allow}}]}"
        ),
    ));
    let items = items(&mesh_only);
    assert_eq!(
        rules_of(&items, "MeshTrafficPermission", &inbound_path("main-port")),
        ["action = \"Allow\" <- kuma-system/a [kuma-system/a]"]
    );
    // Tag values are strings (`y` would be a YAML 1.1 boolean, which the CRD refuses).
    let subset = with(&permission(
        "kuma-system",
        "c",
        "{from: [{targetRef: {kind: MeshSubset, tags: {version: v1}}, default: {action: Allow}}]}",
    ));
    assert!(super::tests::items(&subset).is_empty());
}

#[test]
fn k9_proxy_wide_kinds_fold_every_selecting_policy() {
    let input = with(&format!(
        "{}{}",
        policy(
            "MeshMetric",
            "kuma-system",
            "b",
            "",
            "{default: {sidecar: {profiles: {appendProfiles: [{name: Basic}], include: [{type: Regex, match: a}]}}}}"
        ),
        policy(
            "MeshMetric",
            "kuma-system",
            "a",
            "",
            "{targetRef: {kind: Dataplane, labels: {app: web}}, default: {sidecar: {profiles: {appendProfiles: [{name: All}], include: [{type: Regex, match: b}]}}}}"
        ),
    ));
    let items = items(&input);
    let path = format!("{DP}|proxy");
    // The CRD's `appendProfiles` lies under `sidecar.profiles`: still an append list, while its
    // sibling `include` is replaced whole.
    assert_eq!(
        rules_of(&items, "MeshMetric", &path),
        [
            "sidecar.profiles.appendProfiles = [{\"name\":\"Basic\"},{\"name\":\"All\"}] <- kuma-system/a [kuma-system/a kuma-system/b]",
            "sidecar.profiles.include = [{\"type\":\"Regex\",\"match\":\"b\"}] <- kuma-system/a [kuma-system/a]",
        ]
    );
    assert_eq!(
        find(&items, "MeshMetric", &path).lost,
        [
            "sidecar.profiles.include = [{\"type\":\"Regex\",\"match\":\"a\"}] by kuma-system/b lost to kuma-system/a"
        ]
    );
    // The Dataplane top level (rank 2) is above the Mesh one (rank 1).
    assert_eq!(
        find(&items, "MeshMetric", &path).merged_from,
        [
            "meshmetric.kuma.io:kuma-system/a#default",
            "meshmetric.kuma.io:kuma-system/b#default"
        ]
    );
}

#[test]
fn k10_enforced_is_full_partial_overridden_or_unknown() {
    let input = with(&format!(
        "{}{}{}{}",
        to_one("kuma-system", "a", "", "{kind: Mesh}", "{idleTimeout: 1s}"),
        to_one(
            "kuma-system",
            "b",
            "",
            "{kind: Mesh}",
            "{idleTimeout: 2s, connectionTimeout: 2s}"
        ),
        to_one(
            "kuma-system",
            "c",
            "",
            "{kind: Mesh}",
            "{connectionTimeout: 3s}"
        ),
        to_one(
            "kuma-system",
            "d",
            "",
            "{kind: MeshService, name: nothing}",
            "{idleTimeout: 4s}"
        ),
    ));
    let evaluated = load(&input);
    let evaluator = KumaEvaluator::new(&evaluated.model, &KumaSettings::default());
    let enforced: Vec<(String, &str, String)> = (0..evaluated.model.policies.len() as u32)
        .map(|p| {
            let status = super::status::conditions(&evaluator, p);
            assert_eq!(
                status.conditions[0].message,
                "MeshTimeout has been accepted"
            );
            let c = &status.conditions[1];
            (c.status.to_string(), c.reason, c.message.clone())
        })
        .collect();
    let expect = |s: &str, r: &'static str, m: &str| (s.to_string(), r, m.to_string());
    assert_eq!(
        enforced,
        [
            expect(
                "True",
                "Enforced",
                "MeshTimeout has been successfully enforced"
            ),
            expect(
                "True",
                "Enforced",
                "MeshTimeout has been partially enforced"
            ),
            expect(
                "False",
                "Overridden",
                "MeshTimeout is overridden by [kuma-system/b]"
            ),
            expect(
                "False",
                "Unknown",
                "MeshTimeout is not in the path of any dataplane"
            ),
        ]
    );
}

#[test]
fn k2_global_mode_takes_objects_without_origin_or_from_global_as_local() {
    let input = with(&timeout(
        "kuma-system",
        "zone-made",
        ", kuma.io/origin: zone, kuma.io/zone: zone-1",
        "{to: [{targetRef: {kind: Mesh}, default: {idleTimeout: 1s}}]}",
    ));
    let settings = KumaSettings {
        mode: Mode::Global,
        ..KumaSettings::default()
    };
    let evaluated = load(&input);
    let evaluator = KumaEvaluator::new(&evaluated.model, &settings);
    let meta = |kind: &str| {
        evaluator
            .index
            .metas
            .iter()
            .find(|m| m.kind == kind)
            .unwrap()
    };
    assert!(!meta("MeshTimeout").local);
    let service = meta("MeshService");
    assert!(service.local);
    // Global mode adds no origin or zone, only the namespace label.
    assert_eq!(service.label("kuma.io/origin"), None);
    assert_eq!(service.label("k8s.kuma.io/namespace"), Some("kuma-demo"));
}

/// The (path id, fallbackFrom, rules) of the look-up items of `outbounds`.
fn looked_up(text: &str, outbounds: &[&str]) -> Vec<(String, String, Vec<String>)> {
    let settings = KumaSettings {
        outbounds: outbounds.iter().map(|o| o.to_string()).collect(),
        ..KumaSettings::default()
    };
    let evaluated = load(text);
    let evaluator = KumaEvaluator::new(&evaluated.model, &settings);
    (evaluator.paths.items.iter())
        .filter_map(|item| {
            let from = item.extra.iter().find(|(k, _)| *k == "fallbackFrom")?;
            let shown = shown(&evaluated, item);
            Some((
                item.path_id.clone(),
                from.1.as_str()?.to_string(),
                shown.rules,
            ))
        })
        .collect()
}

#[test]
fn k5_an_outbound_that_is_not_a_key_uses_the_first_fallback_whole() {
    let input = with(&format!(
        "{}{}",
        to_one(
            "kuma-system",
            "mesh",
            "",
            "{kind: Mesh}",
            "{idleTimeout: 1s, connectionTimeout: 1s}"
        ),
        to_one(
            "kuma-system",
            "whole",
            "",
            "{kind: MeshService, name: backend, namespace: kuma-demo}",
            "{idleTimeout: 2s}"
        ),
    ));
    let port = format!("{KEY}8081");
    let other = "kri_msvc_mesh-1_zone-1_kuma-demo_other_http";
    assert_eq!(
        looked_up(&input, &[&port, other, KEY]),
        [
            (
                outbound(&port),
                KEY.to_string(),
                vec![
                    "connectionTimeout = \"1s\" <- kuma-system/mesh [kuma-system/mesh]".to_string(),
                    "idleTimeout = \"2s\" <- kuma-system/whole [kuma-system/whole]".to_string(),
                ]
            ),
            (
                outbound(other),
                MESH_KEY.to_string(),
                vec![
                    "connectionTimeout = \"1s\" <- kuma-system/mesh [kuma-system/mesh]".to_string(),
                    "idleTimeout = \"1s\" <- kuma-system/mesh [kuma-system/mesh]".to_string(),
                ]
            ),
        ]
    );
}

#[test]
fn explanation_lists_each_entry_with_its_tuple_relevance_and_leaves() {
    let input = with(&format!(
        "{}{}{}",
        to_one(
            "kuma-system",
            "b-mesh",
            "",
            "{kind: Mesh}",
            "{idleTimeout: 1s}"
        ),
        to_one(
            "kuma-system",
            "a-mesh",
            "",
            "{kind: Mesh}",
            "{idleTimeout: 2s, connectionTimeout: 2s}"
        ),
        to_one(
            "kuma-system",
            "svc",
            "",
            "{kind: MeshService, name: backend, namespace: kuma-demo}",
            "{connectionTimeout: 3s}"
        ),
    ));
    let evaluated = load(&input);
    let evaluator = KumaEvaluator::new(&evaluated.model, &KumaSettings::default());
    let item = (evaluator.paths.items.iter())
        .find(|i| i.path_id == outbound(KEY))
        .unwrap();
    let explanation = &item.explanation;
    assert_eq!(
        explanation.key_columns,
        ["top", "origin", "role", "to", "name"]
    );
    let steps: Vec<String> = (explanation.steps.iter())
        .map(|s| {
            format!(
                "{} [{}] {} +{} ~{}",
                name(&evaluated, s.policy),
                s.key.join(" "),
                s.relevance,
                s.added.join(","),
                s.replaced.join(",")
            )
        })
        .collect();
    assert_eq!(
        steps,
        [
            "kuma-system/b-mesh [Mesh zone system Mesh b-mesh] Mesh +idleTimeout ~",
            "kuma-system/a-mesh [Mesh zone system Mesh a-mesh] Mesh +connectionTimeout ~idleTimeout",
            "kuma-system/svc [Mesh zone system MeshService svc] exact + ~connectionTimeout",
        ]
    );
    assert_eq!(
        explanation.notes,
        [
            "kuma-system/a-mesh is applied after kuma-system/b-mesh by display name (`a-mesh` < `b-mesh`)"
        ]
    );
}

/// Kuma's `resourcerules` goldens (kumahq/kuma v2.14.3,
/// `pkg/plugins/policies/core/rules/outbound/testdata/resourcerules/<case>/zone-k8s.golden.yaml`)
/// replayed in Kubernetes form: the objects carry the labels the golden's `zoneK8s` meta gives
/// them (origin zone, zone `zone-k8s`, namespace `ns-k8s`), and a Dataplane in `ns-k8s` stands
/// for the proxy. Each key's `conf` is the golden's `Conf[0]`, and `mergedFrom` its `Origin`
/// list reversed.
mod goldens {
    use super::*;

    const ZONE_LABELS: &str = "kuma.io/mesh: mesh-1, kuma.io/origin: zone, kuma.io/zone: zone-k8s";

    fn object(kind: &str, name: &str, spec: &str) -> String {
        format!(
            "---\napiVersion: kuma.io/v1alpha1\nkind: {kind}\nmetadata:\n  name: {name}\n  namespace: ns-k8s\n  labels: {{{ZONE_LABELS}}}\nspec:\n{spec}"
        )
    }

    fn service(name: &str) -> String {
        object(
            "MeshService",
            name,
            "  selector: {dataplaneTags: {app: x}}\n  ports: [{port: 80, targetPort: 80, appProtocol: http}]\n",
        )
    }

    fn base() -> String {
        format!(
            "apiVersion: kuma.io/v1alpha1\nkind: Mesh\nmetadata: {{name: mesh-1}}\n---\napiVersion: kuma.io/v1alpha1\nkind: Dataplane\nmesh: mesh-1\nmetadata: {{name: dp, namespace: ns-k8s, labels: {{{ZONE_LABELS}}}}}\nspec:\n  networking:\n    address: 10.0.0.1\n    inbound: [{{port: 80, tags: {{kuma.io/service: dp}}}}]\n{}",
            service("backend")
        )
    }

    const ROUTE: &str = "  to:\n  - targetRef: {kind: MeshService, name: backend}\n    rules:\n    - matches: [{path: {type: PathPrefix, value: /api}}]\n      default:\n        backendRefs: [{kind: MeshService, name: backend, weight: 70}]\n";

    /// (key, conf, mergedFrom) of every outbound key.
    fn keys(text: &str) -> Vec<(String, serde_json::Value, Vec<String>)> {
        let settings = KumaSettings {
            zone: Some("zone-k8s".into()),
            ..KumaSettings::default()
        };
        let evaluated = load(text);
        let evaluator = KumaEvaluator::new(&evaluated.model, &settings);
        (evaluator.paths.items.iter())
            .filter(|i| i.segments[2] == "outbound")
            .map(|item| {
                let field = |k: &str| item.extra.iter().find(|(f, _)| *f == k).unwrap().1.clone();
                let merged = shown(&evaluated, item).merged_from;
                (item.segments[3].clone(), field("conf"), merged)
            })
            .collect()
    }

    /// The golden's MeshTimeout when its upstream input mixes producer and consumer `to[]` items:
    /// Kuma's unit test bypasses admission, which refuses that mix outside the system namespace
    /// (§K4, §K11). As `testdata/realworld/kuma` does (its `ORIGIN.md`s), it lives in the system
    /// namespace `kuma-system` with the label `k8s.kuma.io/namespace: ns-k8s` written: role
    /// `system` (the golden's absent role label), name refs resolved in `ns-k8s`.
    fn system_timeout(spec: &str) -> String {
        format!(
            "---\napiVersion: kuma.io/v1alpha1\nkind: MeshTimeout\nmetadata:\n  name: matched-for-rules-mt-1\n  namespace: kuma-system\n  labels: {{{ZONE_LABELS}, k8s.kuma.io/namespace: ns-k8s}}\nspec:\n{spec}"
        )
    }

    fn entries_in(namespace: &str, indices: &[usize]) -> Vec<String> {
        (indices.iter())
            .map(|i| format!("meshtimeout.kuma.io:{namespace}/matched-for-rules-mt-1#to[{i}]"))
            .collect()
    }

    fn entries(indices: &[usize]) -> Vec<String> {
        entries_in("ns-k8s", indices)
    }

    fn system_entries(indices: &[usize]) -> Vec<String> {
        entries_in("kuma-system", indices)
    }

    #[test]
    fn mt_with_ms_and_mesh() {
        let policy = system_timeout(
            "  targetRef: {kind: Mesh}\n  to:\n  - targetRef: {kind: Mesh}\n    default: {idleTimeout: 9s}\n  - targetRef: {kind: MeshService, name: backend}\n    default: {connectionTimeout: 11s, http: {requestTimeout: 12s}}\n  - targetRef: {kind: Mesh}\n    default: {connectionTimeout: 21s}\n",
        );
        assert_eq!(
            keys(&format!("{}{policy}", base())),
            [
                (
                    "kri_m____mesh-1_".to_string(),
                    json("{connectionTimeout: 21s, idleTimeout: 9s}"),
                    system_entries(&[2, 0])
                ),
                (
                    "kri_msvc_mesh-1_zone-k8s_ns-k8s_backend_".to_string(),
                    json("{connectionTimeout: 11s, http: {requestTimeout: 12s}, idleTimeout: 9s}"),
                    system_entries(&[1, 2, 0])
                ),
            ]
        );
    }

    #[test]
    fn mt_with_different_order() {
        let input = format!(
            "{}{}{}{}",
            base(),
            service("backend-v2"),
            object("MeshHTTPRoute", "http-route-1", ROUTE),
            object(
                "MeshTimeout",
                "matched-for-rules-mt-1",
                "  to:\n  - targetRef: {kind: MeshService, name: backend-v2}\n    default: {connectionTimeout: 5s}\n  - targetRef: {kind: MeshHTTPRoute, name: http-route-1}\n    default: {http: {requestTimeout: 20s}}\n  - targetRef: {kind: MeshService, name: backend}\n    default: {idleTimeout: 25s, http: {requestTimeout: 15s}}\n",
            ),
        );
        assert_eq!(
            keys(&input),
            [
                (
                    "kri_mhttpr_mesh-1_zone-k8s_ns-k8s_http-route-1_".to_string(),
                    json("{http: {requestTimeout: 20s}}"),
                    entries(&[1])
                ),
                (
                    "kri_msvc_mesh-1_zone-k8s_ns-k8s_backend-v2_".to_string(),
                    json("{connectionTimeout: 5s}"),
                    entries(&[0])
                ),
                (
                    "kri_msvc_mesh-1_zone-k8s_ns-k8s_backend_".to_string(),
                    json("{idleTimeout: 25s, http: {requestTimeout: 15s}}"),
                    entries(&[2])
                ),
            ]
        );
    }

    #[test]
    fn mt_with_mhr() {
        let input = format!(
            "{}{}{}",
            base(),
            object("MeshHTTPRoute", "http-route-1", ROUTE),
            object(
                "MeshTimeout",
                "matched-for-rules-mt-1",
                "  to:\n  - targetRef: {kind: MeshHTTPRoute, name: http-route-1}\n    default: {http: {requestTimeout: 19s}}\n",
            ),
        );
        assert_eq!(
            keys(&input),
            [(
                "kri_mhttpr_mesh-1_zone-k8s_ns-k8s_http-route-1_".to_string(),
                json("{http: {requestTimeout: 19s}}"),
                entries(&[0])
            )]
        );
    }

    #[test]
    fn mt_with_ms_labels_sectionname() {
        let service = |name: &str, env: &str| {
            format!(
                "---\napiVersion: kuma.io/v1alpha1\nkind: MeshService\nmetadata:\n  name: {name}\n  namespace: ns-k8s\n  labels: {{{ZONE_LABELS}, env: {env}, domain: backend}}\nspec:\n  ports: [{{port: 80, targetPort: 80, appProtocol: http, name: http-port}}]\n"
            )
        };
        let entry = |labels: &str, section: &str, conf: &str| {
            format!(
                "  - targetRef: {{kind: MeshService, labels: {{{labels}}}, sectionName: {section}}}\n    default: {conf}\n"
            )
        };
        let policy = object(
            "MeshTimeout",
            "matched-for-rules-mt-1",
            &format!(
                "  to:\n{}{}{}{}",
                entry(
                    "domain: backend",
                    "http-port",
                    "{connectionTimeout: 31s, http: {requestTimeout: 32s}}"
                ),
                entry(
                    "domain: backend",
                    "non-existent-section",
                    "{connectionTimeout: 41s, http: {requestTimeout: 42s}}"
                ),
                entry(
                    "env: dev",
                    "http-port",
                    "{idleTimeout: 11s, connectionTimeout: 12s}"
                ),
                entry(
                    "env: dev",
                    "non-existent-section",
                    "{idleTimeout: 21s, connectionTimeout: 22s}"
                ),
            ),
        );
        let input = format!(
            "{}{}{}{policy}",
            base(),
            service("backend-dev", "dev"),
            service("backend-prod", "prod")
        );
        assert_eq!(
            keys(&input),
            [
                (
                    "kri_msvc_mesh-1_zone-k8s_ns-k8s_backend-dev_http-port".to_string(),
                    json("{connectionTimeout: 12s, http: {requestTimeout: 32s}, idleTimeout: 11s}"),
                    entries(&[2, 0])
                ),
                (
                    "kri_msvc_mesh-1_zone-k8s_ns-k8s_backend-prod_http-port".to_string(),
                    json("{connectionTimeout: 31s, http: {requestTimeout: 32s}}"),
                    entries(&[0])
                ),
            ]
        );
    }

    #[test]
    fn mt_with_mixed_targetrefs() {
        let route2 = ROUTE.replace("/api", "/admin");
        let input = format!(
            "{}{}{}{}{}",
            base(),
            service("backend-admin"),
            object("MeshHTTPRoute", "http-route-1", ROUTE),
            object("MeshHTTPRoute", "http-route-2", &route2),
            system_timeout(
                "  to:\n  - targetRef: {kind: MeshService, name: backend}\n    default: {idleTimeout: 30s, http: {requestTimeout: 25s}}\n  - targetRef: {kind: MeshHTTPRoute, name: http-route-1}\n    default: {http: {requestTimeout: 15s}}\n  - targetRef: {kind: Mesh}\n    default: {connectionTimeout: 10s, http: {requestTimeout: 5s}}\n",
            ),
        );
        assert_eq!(
            keys(&input),
            [
                (
                    "kri_m____mesh-1_".to_string(),
                    json("{connectionTimeout: 10s, http: {requestTimeout: 5s}}"),
                    system_entries(&[2])
                ),
                (
                    "kri_mhttpr_mesh-1_zone-k8s_ns-k8s_http-route-1_".to_string(),
                    json("{connectionTimeout: 10s, http: {requestTimeout: 15s}}"),
                    system_entries(&[1, 2])
                ),
                (
                    "kri_msvc_mesh-1_zone-k8s_ns-k8s_backend_".to_string(),
                    json("{connectionTimeout: 10s, http: {requestTimeout: 25s}, idleTimeout: 30s}"),
                    system_entries(&[0, 2])
                ),
            ]
        );
    }

    /// Kuma's `inboundrules` goldens (`pkg/plugins/policies/core/rules/inbound/testdata/
    /// inboundrules/mt-order-by-{role,origin}.golden.yaml`): the rules in the golden's order,
    /// and their fold as MeshTimeout's inbound applies it.
    fn inbound_of(text: &str, settings: &KumaSettings) -> (Vec<String>, Vec<String>) {
        let evaluated = load(text);
        let evaluator = KumaEvaluator::new(&evaluated.model, settings);
        let item = (evaluator.paths.items.iter())
            .find(|i| i.segments[2] == "inbound")
            .unwrap();
        let shown = shown(&evaluated, item);
        (shown.rules, shown.merged_from)
    }

    fn timeouts(namespace: &str, labels: [&str; 3]) -> String {
        let specs = [
            "{connectionTimeout: 111s, idleTimeout: 109s}",
            "{connectionTimeout: 211s, http: {requestTimeout: 209s}}",
            "{connectionTimeout: 11s, http: {requestTimeout: 12s}}",
        ];
        (["ccc", "bbb", "aaa"].iter().zip(labels).zip(specs))
            .map(|((name, labels), spec)| {
                format!(
                    "---\napiVersion: kuma.io/v1alpha1\nkind: MeshTimeout\nmetadata: {{name: matched-for-rules-{name}, namespace: {namespace}, labels: {{kuma.io/mesh: mesh-1{labels}}}}}\nspec: {{rules: [{{default: {spec}}}]}}\n"
                )
            })
            .collect()
    }

    const DATAPLANE: &str = "apiVersion: kuma.io/v1alpha1\nkind: Dataplane\nmesh: mesh-1\nmetadata: {name: dp, namespace: ns}\nspec:\n  networking:\n    address: 10.0.0.1\n    inbound: [{port: 80, tags: {kuma.io/service: dp}}]\n";

    fn fold_of(names: [&str; 3], namespace: &str) -> (Vec<String>, Vec<String>) {
        let [low, mid, high] = names.map(|n| format!("{namespace}/matched-for-rules-{n}"));
        (
            vec![
                format!("connectionTimeout = \"1m51s\" <- {high} [{high}]"),
                format!("http.requestTimeout = \"3m29s\" <- {mid} [{mid}]"),
                format!("idleTimeout = \"1m49s\" <- {high} [{high}]"),
            ],
            [&high, &mid, &low]
                .iter()
                .map(|p| format!("meshtimeout.kuma.io:{p}#rules[0]"))
                .collect(),
        )
    }

    /// The inspect API's golden (`pkg/api-server/testdata/resources/inspect/dataplanes/_rules/
    /// dataplane_kind_meshtimeout_section_name.golden.json`): `from[]` read as rules, and a
    /// `sectionName` ref above the whole-Dataplane one on its inbound.
    #[test]
    fn inspect_dataplane_kind_meshtimeout_section_name() {
        let policy = |name: &str, section: &str, conf: &str| {
            format!(
                "---\napiVersion: kuma.io/v1alpha1\nkind: MeshTimeout\nmetadata: {{name: {name}, namespace: kuma-system, labels: {{kuma.io/mesh: mesh-1}}}}\nspec:\n  targetRef: {{kind: Dataplane, labels: {{app: demo-app}}{section}}}\n  from: [{{targetRef: {{kind: Mesh}}, default: {conf}}}]\n"
            )
        };
        let input = format!(
            "apiVersion: kuma.io/v1alpha1\nkind: Mesh\nmetadata: {{name: mesh-1}}\n---\napiVersion: kuma.io/v1alpha1\nkind: Dataplane\nmesh: mesh-1\nmetadata: {{name: dp-1, namespace: ns, labels: {{app: demo-app}}}}\nspec:\n  networking:\n    address: 127.0.0.1\n    inbound:\n    - {{port: 8080, name: main-port, tags: {{kuma.io/service: foo}}}}\n    - {{port: 9090, name: secondary-port, tags: {{kuma.io/service: bar}}}}\n{}{}",
            policy(
                "select-whole-dpp",
                "",
                "{idleTimeout: 7s, connectionTimeout: 7s, http: {requestTimeout: 7s}}"
            ),
            policy(
                "select-single-inbound",
                ", sectionName: secondary-port",
                "{http: {requestTimeout: 2s}}"
            ),
        );
        let items = items(&input);
        let whole = "kuma-system/select-whole-dpp";
        let single = "kuma-system/select-single-inbound";
        let inbound = |section: &str| format!("mesh-1|ns/dp-1|inbound|ns/dp-1#{section}");
        let main = find(&items, "MeshTimeout", &inbound("main-port"));
        assert_eq!(
            main.rules,
            [
                format!("connectionTimeout = \"7s\" <- {whole} [{whole}]"),
                format!("http.requestTimeout = \"7s\" <- {whole} [{whole}]"),
                format!("idleTimeout = \"7s\" <- {whole} [{whole}]"),
            ]
        );
        let secondary = find(&items, "MeshTimeout", &inbound("secondary-port"));
        assert_eq!(
            secondary.rules,
            [
                format!("connectionTimeout = \"7s\" <- {whole} [{whole}]"),
                format!("http.requestTimeout = \"2s\" <- {single} [{single}]"),
                format!("idleTimeout = \"7s\" <- {whole} [{whole}]"),
            ]
        );
        assert_eq!(
            secondary.merged_from,
            [
                format!("meshtimeout.kuma.io:{single}#from[0]"),
                format!("meshtimeout.kuma.io:{whole}#from[0]"),
            ]
        );
    }

    #[test]
    fn mt_order_by_role() {
        // Synced copies (origin global on a zone): their role labels are taken as written.
        let labels = [
            ", kuma.io/origin: global, k8s.kuma.io/namespace: ns, kuma.io/policy-role: consumer",
            ", kuma.io/origin: global, k8s.kuma.io/namespace: ns, kuma.io/policy-role: producer",
            ", kuma.io/origin: global, k8s.kuma.io/namespace: ns, kuma.io/policy-role: system",
        ];
        let input = format!("{DATAPLANE}{}", timeouts("ns", labels));
        assert_eq!(
            inbound_of(&input, &KumaSettings::default()),
            fold_of(["aaa", "bbb", "ccc"], "ns")
        );
    }

    #[test]
    fn mt_order_by_origin() {
        // On Global: no origin and origin global are local (no label added); zone is a copy.
        let labels = [", kuma.io/origin: zone", "", ", kuma.io/origin: global"];
        let input = format!("{DATAPLANE}{}", timeouts("kuma-system", labels));
        let settings = KumaSettings {
            mode: Mode::Global,
            ..KumaSettings::default()
        };
        assert_eq!(
            inbound_of(&input, &settings),
            fold_of(["aaa", "bbb", "ccc"], "kuma-system")
        );
    }
}

#[test]
fn k8_a_policy_with_only_matched_rules_takes_part_and_is_enforced() {
    let input = with(&timeout(
        "kuma-system",
        "matched",
        "",
        "{rules: [{matches: [{spiffeID: {type: Exact, value: spiffe://x}}], default: {idleTimeout: 1s}}]}",
    ));
    let evaluated = load(&input);
    let evaluator = KumaEvaluator::new(&evaluated.model, &KumaSettings::default());
    let item = (evaluator.paths.items.iter())
        .find(|i| i.path_id == inbound_path("main-port"))
        .unwrap();
    assert_eq!(item.policies, [0]);
    assert!(
        item.extra[0].1.as_array().unwrap().is_empty(),
        "no catch-all rule folded"
    );
    let status = super::status::conditions(&evaluator, 0);
    assert_eq!(
        status.conditions[1].message,
        "MeshTimeout has been successfully enforced"
    );
}

#[test]
fn the_tree_is_mesh_dataplane_keys_with_their_policies() {
    let input = with(&format!(
        "{}{}",
        to_one(
            "kuma-system",
            "all",
            "",
            "{kind: Mesh}",
            "{idleTimeout: 1s}"
        ),
        timeout(
            "kuma-system",
            "in",
            "",
            "{rules: [{default: {idleTimeout: 2s}}]}"
        ),
    ));
    let evaluated = load(&input);
    let evaluator = KumaEvaluator::new(&evaluated.model, &KumaSettings::default());
    fn lines(nodes: &[crate::policy::owned::OwnedNode], depth: usize, out: &mut Vec<String>) {
        for node in nodes {
            out.push(format!(
                "{}{} {} {:?}",
                "  ".repeat(depth),
                node.kind,
                node.name,
                node.policies
            ));
            lines(&node.children, depth + 1, out);
        }
    }
    let mut out = Vec::new();
    lines(&evaluator.paths.tree, 0, &mut out);
    assert_eq!(
        out,
        [
            "Mesh mesh-1 []",
            "  Dataplane kuma-demo/dp-1 []",
            "    inbound kuma-demo/dp-1#9090 [1]",
            "    inbound kuma-demo/dp-1#main-port [1]",
            "    outbound kri_m____mesh-1_ [0]",
        ]
    );
}

#[test]
fn k6_a_mesh_service_entry_with_section_is_above_one_without() {
    let input = with(&format!(
        "{}{}",
        to_one(
            "kuma-system",
            "a-whole",
            "",
            "{kind: MeshService, name: backend, namespace: kuma-demo}",
            "{idleTimeout: 1s}"
        ),
        to_one(
            "kuma-system",
            "z-port",
            "",
            "{kind: MeshService, name: backend, namespace: kuma-demo, sectionName: http}",
            "{idleTimeout: 2s}"
        ),
    ));
    let items = items(&input);
    // `a-whole` would win by name; the section decides first (§K6 5).
    assert_eq!(
        rules_of(&items, "MeshTimeout", &outbound(&format!("{KEY}http"))),
        ["idleTimeout = \"2s\" <- kuma-system/z-port [kuma-system/z-port]"]
    );
}

#[test]
fn k5_a_multizone_service_key_takes_its_whole_service_entries() {
    let input = with(&format!(
        "---\napiVersion: kuma.io/v1alpha1\nkind: MeshMultiZoneService\nmetadata: {{name: global-backend, namespace: kuma-system, labels: {{kuma.io/mesh: mesh-1, kuma.io/origin: global, kuma.io/display-name: global-backend, k8s.kuma.io/namespace: kuma-system}}}}\nspec:\n  selector: {{meshService: {{matchLabels: {{app: backend}}}}}}\n  ports: [{{name: http, port: 80}}]\n{}{}",
        to_one(
            "kuma-system",
            "whole",
            "",
            "{kind: MeshMultiZoneService, labels: {kuma.io/display-name: global-backend}}",
            "{idleTimeout: 1s}"
        ),
        to_one(
            "kuma-system",
            "port",
            "",
            "{kind: MeshMultiZoneService, labels: {kuma.io/display-name: global-backend}, sectionName: http}",
            "{connectionTimeout: 2s}"
        ),
    ));
    let items = items(&input);
    let key = "kri_mzsvc_mesh-1__kuma-system_global-backend_";
    assert_eq!(
        paths(&items),
        [
            format!("MeshTimeout {}", outbound(key)),
            format!("MeshTimeout {}", outbound(&format!("{key}http"))),
        ]
    );
    assert_eq!(
        rules_of(&items, "MeshTimeout", &outbound(&format!("{key}http"))),
        [
            "connectionTimeout = \"2s\" <- kuma-system/port [kuma-system/port]",
            "idleTimeout = \"1s\" <- kuma-system/whole [kuma-system/whole]",
        ]
    );
}

/// The mesh as a hierarchy the reports read like the Gateway API's: its paths' elements (the
/// tree's nodes from the Mesh down), ids, segments and filters.
#[test]
fn the_mesh_is_a_hierarchy_of_elements() {
    use crate::topology::element::{EdgeKind, ElementId, ElementKind};
    use crate::topology::hierarchy::Hierarchy;
    let to =
        |target: &str| format!("{{to: [{{targetRef: {target}, default: {{idleTimeout: 1s}}}}]}}");
    let input = with(&format!(
        "{}{}",
        timeout("kuma-system", "all", "", &to("{kind: Mesh}")),
        timeout(
            "kuma-system",
            "one",
            "",
            &to("{kind: MeshService, name: backend, namespace: kuma-demo, sectionName: http}")
        )
    ));
    let evaluated = load(&input);
    let evaluator = KumaEvaluator::new(&evaluated.model, &KumaSettings::default());
    let hierarchy = evaluator.paths.hierarchy();
    assert_eq!(hierarchy.path_count(), 2);
    assert_eq!(
        hierarchy.columns(),
        ["MESH", "DATAPLANE", "DIRECTION", "KEY"]
    );
    let key = format!("{KEY}http");
    assert_eq!(hierarchy.path_id(1), format!("{DP}|outbound|{key}"));
    assert_eq!(
        hierarchy.segments(1),
        ["mesh-1", "kuma-demo/dp-1", "outbound", key.as_str()]
    );
    let declared = |kind: &str, key: &str| ElementId::new(ElementKind::Declared(kind.into()), key);
    let outbound = declared("outbound", &format!("{DP}|{key}"));
    assert_eq!(
        hierarchy.elements(1),
        [
            declared("Mesh", "mesh-1"),
            declared("Dataplane", DP),
            outbound.clone()
        ]
    );
    let graph = hierarchy.graph();
    assert_eq!(graph.roots(), [&declared("Mesh", "mesh-1")]);
    assert_eq!(
        graph.parents(&outbound),
        [(&declared("Dataplane", DP), EdgeKind::Contains)]
    );
    assert_eq!(graph.children(&declared("Dataplane", DP)).len(), 2);
    // The filters: `--mesh`, `--dataplane` on their segments (Filters::shows_on reads them).
    let [mesh, dataplane] = [0, 1].map(|i| hierarchy.filters()[i]);
    assert_eq!((mesh.flag, dataplane.flag), ("mesh", "dataplane"));
    let matches = |filter, pattern| hierarchy.filter_matches(1, filter, pattern);
    assert!(matches(&dataplane, "dp-1") && matches(&dataplane, "kuma-demo/dp-1"));
    assert!(matches(&mesh, "mesh-1") && !matches(&mesh, "mesh-2"));
    assert!(!matches(&dataplane, "other/dp-1"));
    assert!(hierarchy.in_namespace(1, "kuma-demo") && !hierarchy.in_namespace(1, "elsewhere"));
}
