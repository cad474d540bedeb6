//! Every command on Kuma inputs, through the binary, with exact values: `effective` (tables,
//! JSON, the compact index, the filters), `overridden`, `reach`, `explain`, `status`,
//! `topology`, `diff`, `--kuma-outbound`, `--kuma-mode global`, `-v` and `lint`.
//!
//! The input is `testdata/kuma-diff/a` (two sidecars of mesh `default`: `web` calls the
//! MeshService `backend`; a mesh-wide MeshTimeout in the system namespace, web's own MeshTimeout
//! for backend, a MeshTrafficPermission on backend's inbound); `b` is its next version for
//! `diff`.

use crate::common::{GATEWAY, ROUTE, dopol, root, rules, run_in, stream};
use serde_json::{Value, json};

const A: &str = "testdata/kuma-diff/a";
const B: &str = "testdata/kuma-diff/b";

const WEB_BACKEND: &str =
    "default|kuma-demo/web|outbound|kri_msvc_default_default_kuma-demo_backend_";
const WEB_MESH: &str = "default|kuma-demo/web|outbound|kri_m____default_";
const BACKEND_MESH: &str = "default|kuma-demo/backend-1|outbound|kri_m____default_";
const BACKEND_INBOUND: &str = "default|kuma-demo/backend-1|inbound|kuma-demo/backend-1#http";

const MESH_WIDE: &str = "meshtimeout.kuma.io:kuma-system/mesh-wide";
const WEB_TO_BACKEND: &str = "meshtimeout.kuma.io:kuma-demo/web-to-backend";
const ALLOW_WEB: &str = "meshtrafficpermission.kuma.io:kuma-demo/allow-web";

/// A Kuadrant RateLimitPolicy on [`GATEWAY`]: a Gateway API path beside the mesh.
const GATEWAY_LIMITS: &str = "apiVersion: kuadrant.io/v1
kind: RateLimitPolicy
metadata: {name: gw-limits, namespace: infra}
spec:
  targetRef: {group: gateway.networking.k8s.io, kind: Gateway, name: gw}
  limits:
    global: {rates: [{limit: 5, window: 10s}]}
";

/// `dopol args...` on [`A`] plus a Gateway, its route and a RateLimitPolicy on stdin.
fn with_gateway(args: &[&str]) -> crate::common::Output {
    let mut all = args.to_vec();
    all.extend(["-f", A, "-f", "-"]);
    let input = stream(&[GATEWAY, ROUTE, GATEWAY_LIMITS]);
    run_in(&root(), &all, Some(&input))
}

/// The JSON document of a successful run.
fn json_of(args: &[&str]) -> Value {
    let out = dopol(args);
    out.code(0);
    out.json()
}

/// The document validated against `docs/schema/<schema>`.
fn valid(schema: &str, doc: Value) -> Value {
    let validator = crate::schemas::validator(schema);
    let problems: Vec<String> = validator
        .iter_errors(&doc)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect();
    assert!(problems.is_empty(), "{schema}: {}", problems.join("\n"));
    doc
}

/// The `pathId`s of a document's items, in order.
fn path_ids(doc: &Value) -> Vec<&str> {
    (doc["items"].as_array().into_iter().flatten())
        .map(|i| i["pathId"].as_str().unwrap())
        .collect()
}

/// The item of `kind` on `path`.
fn item<'d>(doc: &'d Value, kind: &str, path: &str) -> &'d Value {
    (doc["items"].as_array().into_iter().flatten())
        .find(|i| i["policyKind"] == kind && i["pathId"] == path)
        .unwrap_or_else(|| panic!("no {kind} item on {path}"))
}

#[test]
fn effective_table_has_a_mesh_section_with_the_hierarchys_columns() {
    let out = dopol(&["effective", A]);
    out.code(0);
    assert_eq!(
        out.stdout,
        "Mesh default
DATAPLANE            DIRECTION  KEY                                          KIND                   RULE KEY             SOURCE                    VALUE
kuma-demo/backend-1  inbound    kuma-demo/backend-1#http                     MeshTrafficPermission  allow                kuma-demo/allow-web       [{spiffeID: {type: Exact, value: spiffe://default/ns/kuma-demo/sa/web}}]
kuma-demo/backend-1  outbound   kri_m____default_                            MeshTimeout            connectionTimeout    kuma-system/mesh-wide     3s
                                                                                                    idleTimeout          kuma-system/mesh-wide     20s
kuma-demo/web        outbound   kri_m____default_                            MeshTimeout            connectionTimeout    kuma-system/mesh-wide     3s
                                                                                                    idleTimeout          kuma-system/mesh-wide     20s
kuma-demo/web        outbound   kri_msvc_default_default_kuma-demo_backend_  MeshTimeout            connectionTimeout    kuma-system/mesh-wide     3s
                                                                                                    http.requestTimeout  kuma-demo/web-to-backend  2s
                                                                                                    idleTimeout          kuma-demo/web-to-backend  5s
"
    );
}

#[test]
fn effective_wide_names_the_mesh_and_the_whole_path_on_every_row() {
    let out = dopol(&["effective", "-o", "wide", "--dataplane", "web", A]);
    out.code(0);
    assert_eq!(
        out.stdout,
        "MESH     DATAPLANE      DIRECTION  KEY                                          KIND         RULE KEY             SOURCE                    VALUE
default  kuma-demo/web  outbound   kri_m____default_                            MeshTimeout  connectionTimeout    kuma-system/mesh-wide     3s
default  kuma-demo/web  outbound   kri_m____default_                            MeshTimeout  idleTimeout          kuma-system/mesh-wide     20s
default  kuma-demo/web  outbound   kri_msvc_default_default_kuma-demo_backend_  MeshTimeout  connectionTimeout    kuma-system/mesh-wide     3s
default  kuma-demo/web  outbound   kri_msvc_default_default_kuma-demo_backend_  MeshTimeout  http.requestTimeout  kuma-demo/web-to-backend  2s
default  kuma-demo/web  outbound   kri_msvc_default_default_kuma-demo_backend_  MeshTimeout  idleTimeout          kuma-demo/web-to-backend  5s
"
    );
}

#[test]
fn effective_json_items_carry_merged_from_and_conf() {
    let doc = valid(
        "effective.schema.json",
        json_of(&["effective", "-o", "json", A]),
    );
    assert_eq!(
        path_ids(&doc),
        [BACKEND_INBOUND, BACKEND_MESH, WEB_MESH, WEB_BACKEND]
    );
    let web = item(&doc, "MeshTimeout", WEB_BACKEND);
    assert_eq!(web["policyGroup"], "kuma.io");
    assert_eq!(
        web["rules"],
        json!({
            "connectionTimeout": {"value": "3s", "source": MESH_WIDE, "origins": [MESH_WIDE]},
            "http.requestTimeout": {"value": "2s", "source": WEB_TO_BACKEND, "origins": [WEB_TO_BACKEND]},
            "idleTimeout": {"value": "5s", "source": WEB_TO_BACKEND, "origins": [WEB_TO_BACKEND]},
        })
    );
    assert_eq!(web["sources"], json!([WEB_TO_BACKEND, MESH_WIDE]));
    assert_eq!(
        web["mergedFrom"],
        json!([
            format!("{WEB_TO_BACKEND}#to[0]"),
            format!("{MESH_WIDE}#to[0]")
        ])
    );
    assert_eq!(
        web["conf"],
        json!({"connectionTimeout": "3s", "idleTimeout": "5s", "http": {"requestTimeout": "2s"}})
    );
    assert!(web.get("fallbackFrom").is_none(), "{web}");
    let inbound = item(&doc, "MeshTrafficPermission", BACKEND_INBOUND);
    let allow =
        json!([{"spiffeID": {"type": "Exact", "value": "spiffe://default/ns/kuma-demo/sa/web"}}]);
    assert_eq!(inbound["conf"], json!({ "allow": allow }));
    assert_eq!(inbound["rules"]["allow"]["source"], ALLOW_WEB);
    assert_eq!(
        inbound["mergedFrom"],
        json!([format!("{ALLOW_WEB}#rules[0]")])
    );
    let mesh = rules(&doc, "MeshTimeout", BACKEND_MESH);
    let values: Vec<(&str, &Value, &str)> = (mesh.iter())
        .map(|r| (r.key.as_str(), &r.value, r.source.as_str()))
        .collect();
    assert_eq!(
        values,
        [
            ("connectionTimeout", &json!("3s"), MESH_WIDE),
            ("idleTimeout", &json!("20s"), MESH_WIDE)
        ]
    );
}

#[test]
fn compact_index_looks_a_path_up_by_its_id() {
    let doc = valid(
        "effective-index.schema.json",
        json_of(&["effective", "-o", "json", "--compact", A]),
    );
    assert_eq!(doc["kind"], "EffectivePolicyIndex");
    let id = doc["paths"][WEB_BACKEND]["MeshTimeout"].as_str().unwrap();
    let policy = &doc["policies"][id];
    assert_eq!(policy["policyKind"], "MeshTimeout");
    assert_eq!(
        policy["conf"],
        json!({"connectionTimeout": "3s", "idleTimeout": "5s", "http": {"requestTimeout": "2s"}})
    );
    assert_eq!(policy["rules"]["idleTimeout"]["source"], WEB_TO_BACKEND);
    // Two Dataplanes with the same Mesh key and value share one entry.
    assert_eq!(
        doc["paths"][WEB_MESH]["MeshTimeout"],
        doc["paths"][BACKEND_MESH]["MeshTimeout"]
    );
    let shared = doc["paths"][WEB_MESH]["MeshTimeout"].as_str().unwrap();
    assert_eq!(
        doc["policies"][shared]["conf"],
        json!({"connectionTimeout": "3s", "idleTimeout": "20s"})
    );
    let mtp = doc["paths"][BACKEND_INBOUND]["MeshTrafficPermission"]
        .as_str()
        .unwrap();
    assert_eq!(doc["policies"][mtp]["policyKind"], "MeshTrafficPermission");
    assert_eq!(doc["paths"].as_object().unwrap().len(), 4);
}

#[test]
fn mesh_dataplane_and_kind_filters_select_kuma_paths() {
    let ids = |extra: &[&str]| {
        let mut args = vec!["effective", "-o", "json", A];
        args.extend(extra);
        let doc = json_of(&args);
        path_ids(&doc)
            .into_iter()
            .map(String::from)
            .collect::<Vec<_>>()
    };
    assert_eq!(ids(&["--mesh", "default"]).len(), 4);
    assert_eq!(
        ids(&["--dataplane", "kuma-demo/web"]),
        [WEB_MESH, WEB_BACKEND]
    );
    assert_eq!(ids(&["--dataplane", "web"]), [WEB_MESH, WEB_BACKEND]);
    assert_eq!(
        ids(&["--mesh", "default", "--dataplane", "backend-1"]),
        [BACKEND_INBOUND, BACKEND_MESH]
    );
    assert_eq!(ids(&["--kind", "MeshTrafficPermission"]), [BACKEND_INBOUND]);
    assert_eq!(
        ids(&["--kind", "MeshTimeout", "--dataplane", "backend-1"]),
        [BACKEND_MESH]
    );
    assert_eq!(
        ids(&["--policy", "kuma-demo/web-to-backend"]),
        [WEB_BACKEND]
    );
}

#[test]
fn gateway_and_route_filters_show_no_mesh_path_and_mesh_filters_no_gateway_path() {
    let gateway_path = "kuadrant|infra/gw|infra/gw#http|app/route|app/route#rule-1";
    let all = with_gateway(&["effective", "-o", "json"]);
    all.code(0);
    assert_eq!(path_ids(&all.json()).len(), 5);
    for filter in [["--gateway", "gw"], ["--route", "app/route"]] {
        let out = with_gateway(&["effective", "-o", "json", filter[0], filter[1]]);
        out.code(0);
        assert_eq!(path_ids(&out.json()), [gateway_path], "{filter:?}");
    }
    let mesh = with_gateway(&["effective", "-o", "json", "--mesh", "default"]);
    mesh.code(0);
    assert_eq!(
        path_ids(&mesh.json()),
        [BACKEND_INBOUND, BACKEND_MESH, WEB_MESH, WEB_BACKEND]
    );
    let tree = with_gateway(&["topology", "--dataplane", "web"]);
    tree.code(0);
    assert!(!tree.stdout.contains("Gateway"), "{}", tree.stdout);
    let tree = with_gateway(&["topology", "--gateway", "gw"]);
    tree.code(0);
    assert!(!tree.stdout.contains("Mesh"), "{}", tree.stdout);
    assert!(tree.stdout.starts_with("GatewayClass kuadrant\n"));
}

#[test]
fn a_mesh_or_dataplane_matching_no_path_is_a_usage_error_with_the_nearest_name() {
    for command in [
        vec!["effective"],
        vec!["overridden"],
        vec!["status"],
        vec!["topology"],
    ] {
        let mut args = command.clone();
        args.extend([A, "--dataplane", "webb"]);
        dopol(&args).code(2).stderr_has(&[
            "error: --dataplane `webb` matches no dataplane of a mesh path; did you mean `web`?",
        ]);
        let mut args = command.clone();
        args.extend([A, "--mesh", "nope"]);
        dopol(&args).code(2).stderr_has(&[
            "error: --mesh `nope` matches no mesh of a mesh path (the input has default)",
        ]);
    }
    dopol(&["effective", A, "--dataplane", "kuma-demo/webb"])
        .code(2)
        .stderr_has(&["did you mean `kuma-demo/web`?"]);
    // A name on either side of a diff is a name.
    dopol(&["diff", A, B, "--dataplane", "webb"])
        .code(2)
        .stderr_has(&["--dataplane `webb` matches no dataplane of a mesh path"]);
    dopol(&["diff", A, B, "--dataplane", "web", "--kind", "MeshRetry"]).code(1);
}

#[test]
fn overridden_names_the_lost_value_its_winner_and_the_path() {
    let out = dopol(&["overridden", A]);
    out.code(0);
    assert_eq!(
        out.stdout,
        "POLICY                                    RULE KEY     OUTCOME     BY                        WHERE
MeshTimeout kuma-system/mesh-wide (spec)  idleTimeout  superseded  kuma-demo/web-to-backend  1 path:
                                                                                             default|kuma-demo/web|outbound|kri_msvc_default_default_kuma-demo_backend_
"
    );
    let doc = valid(
        "overridden.schema.json",
        json_of(&["overridden", "-o", "json", A]),
    );
    assert_eq!(
        doc["items"],
        json!([{
            "policy": MESH_WIDE,
            "block": "spec",
            "key": "idleTimeout",
            "outcome": "superseded",
            "by": [WEB_TO_BACKEND],
            "pathIds": [WEB_BACKEND],
        }])
    );
    let none = dopol(&["overridden", A, "--dataplane", "backend-1"]);
    none.code(0);
    assert_eq!(none.stdout, "");
}

#[test]
fn reach_lists_the_owned_paths_with_their_keys_and_losses() {
    let out = dopol(&["reach", "kuma-system/mesh-wide", "-f", A]);
    out.code(0);
    assert_eq!(
        out.stdout,
        "MeshTimeout kuma-system/mesh-wide reaches 3 of 3 paths

default kuma-demo/backend-1
  MeshTimeout outbound kri_m____default_: connectionTimeout, idleTimeout

default kuma-demo/web
  MeshTimeout outbound kri_m____default_: connectionTimeout, idleTimeout
  MeshTimeout outbound kri_msvc_default_default_kuma-demo_backend_: connectionTimeout; lost idleTimeout (to kuma-demo/web-to-backend)
"
    );
    let doc = valid(
        "reach.schema.json",
        json_of(&["reach", "-o", "json", "kuma-system/mesh-wide", "-f", A]),
    );
    assert_eq!(doc["policy"], MESH_WIDE);
    assert_eq!(
        (doc["reached"].clone(), doc["paths"].clone()),
        (json!(3), json!(3))
    );
    let owned = doc["ownedPaths"].as_array().unwrap();
    assert_eq!(owned.len(), 3);
    assert_eq!(
        owned[2],
        json!({
            "pathId": WEB_BACKEND,
            "segments": ["default", "kuma-demo/web", "outbound", "kri_msvc_default_default_kuma-demo_backend_"],
            "policyKind": "MeshTimeout",
            "keys": ["connectionTimeout"],
            "lost": [["idleTimeout", WEB_TO_BACKEND]],
        })
    );
    assert_eq!(
        owned[0]["keys"],
        json!(["connectionTimeout", "idleTimeout"])
    );
    assert!(owned[0].get("lost").is_none());
}

#[test]
fn reach_of_one_rule_key_of_a_kuma_policy() {
    let out = dopol(&["reach", "kuma-system/mesh-wide#idleTimeout", "-f", A]);
    out.code(0);
    assert_eq!(
        out.stdout,
        "rule idleTimeout of kuma-system/mesh-wide reaches 2 of 3 paths

default kuma-demo/backend-1
  MeshTimeout outbound kri_m____default_: idleTimeout

default kuma-demo/web
  MeshTimeout outbound kri_m____default_: idleTimeout
  MeshTimeout outbound kri_msvc_default_default_kuma-demo_backend_: lost idleTimeout (to kuma-demo/web-to-backend)
"
    );
    dopol(&["reach", "kuma-system/mesh-wide#idleTimeot", "-f", A])
        .code(2)
        .stderr_has(&[
            "MeshTimeout kuma-system/mesh-wide has no rule `idleTimeot` (its rules: connectionTimeout, idleTimeout); did you mean `idleTimeout`?",
        ]);
}

#[test]
fn explain_a_kuma_path_shows_the_order_and_each_merge_step() {
    let out = dopol(&["explain", "--path", WEB_BACKEND, A]);
    out.code(0);
    let body = out.stdout.split_once("\n\n").unwrap().1;
    assert_eq!(
        body,
        "Path default|kuma-demo/web|outbound|kri_msvc_default_default_kuma-demo_backend_

MeshTimeout — 2 policies, lowest priority first (§K6: top-level kind, origin, role, to-kind, display name descending):
  #  POLICY                    TARGET         BLOCKS  CREATED  WHY HERE
  1  kuma-system/mesh-wide     to[0] (Mesh)           -        top Mesh, origin zone, role system, to Mesh, name mesh-wide
  2  kuma-demo/web-to-backend  to[0] (exact)          -        top Dataplane(labels), origin zone, role producer, to MeshService, name web-to-backend

  Merge steps, in order:
  [1] kuma-system/mesh-wide, to[0]: 2 added, 0 replaced [GEP-713: Patch defaults]
      + connectionTimeout
      + idleTimeout
  [2] kuma-demo/web-to-backend, to[0]: 1 added, 1 replaced [GEP-713: Patch defaults]
      + http.requestTimeout
      ~ idleTimeout  kuma-system/mesh-wide → kuma-demo/web-to-backend
  Result:
      connectionTimeout ← kuma-system/mesh-wide
      http.requestTimeout ← kuma-demo/web-to-backend
      idleTimeout ← kuma-demo/web-to-backend
"
    );
    let doc = valid(
        "explain.schema.json",
        json_of(&["explain", "--path", WEB_BACKEND, "-o", "json", A]),
    );
    assert_eq!(path_ids(&doc), [WEB_BACKEND]);
    let kind = &doc["items"][0]["kinds"][0];
    assert_eq!(kind["policyKind"], "MeshTimeout");
    let order: Vec<(&Value, &Value, &Value)> = (kind["policies"].as_array().unwrap().iter())
        .map(|p| (&p["position"], &p["policy"], &p["target"]))
        .collect();
    assert_eq!(
        order,
        [
            (&json!(1), &json!(MESH_WIDE), &json!("to[0] (Mesh)")),
            (&json!(2), &json!(WEB_TO_BACKEND), &json!("to[0] (exact)")),
        ]
    );
    assert_eq!(
        kind["steps"][1]["changes"],
        json!([
            {"key": "http.requestTimeout", "action": "added", "source": WEB_TO_BACKEND},
            {"key": "idleTimeout", "action": "replaced", "source": MESH_WIDE, "by": [WEB_TO_BACKEND]},
        ])
    );
    assert_eq!(
        kind["effective"],
        json!([
            ["connectionTimeout", MESH_WIDE],
            ["http.requestTimeout", WEB_TO_BACKEND],
            ["idleTimeout", WEB_TO_BACKEND]
        ])
    );
    assert!(kind.get("notes").is_none(), "{kind}");
    dopol(&["explain", "--path", &format!("{WEB_BACKEND}http"), A])
        .code(2)
        .stderr_has(&[&format!("did you mean `{WEB_BACKEND}`?")]);
}

#[test]
fn kuma_outbound_looks_an_outbound_up_with_its_fallback() {
    let port = "kri_msvc_default_default_kuma-demo_backend_http";
    let doc = valid(
        "effective.schema.json",
        json_of(&["effective", "-o", "json", "--kuma-outbound", port, A]),
    );
    let web_port = format!("default|kuma-demo/web|outbound|{port}");
    let backend_port = format!("default|kuma-demo/backend-1|outbound|{port}");
    let web = item(&doc, "MeshTimeout", &web_port);
    // No key for the port: the whole-service key is used, whole.
    assert_eq!(
        web["fallbackFrom"],
        "kri_msvc_default_default_kuma-demo_backend_"
    );
    assert_eq!(
        web["conf"],
        json!({"connectionTimeout": "3s", "idleTimeout": "5s", "http": {"requestTimeout": "2s"}})
    );
    // backend-1 has no key for backend: the Mesh key.
    let backend = item(&doc, "MeshTimeout", &backend_port);
    assert_eq!(backend["fallbackFrom"], "kri_m____default_");
    assert_eq!(backend["mergedFrom"], json!([format!("{MESH_WIDE}#to[0]")]));
    assert_eq!(
        backend["conf"],
        json!({"connectionTimeout": "3s", "idleTimeout": "20s"})
    );
    assert_eq!(path_ids(&doc).len(), 6);
    // explain says which keys were tried.
    let out = dopol(&["explain", "--path", &web_port, "--kuma-outbound", port, A]);
    out.code(0).stdout_has(&[&format!(
        "  Note: {port} is not a key of this proxy's rules: tried {port} (no key), then kri_msvc_default_default_kuma-demo_backend_, used whole\n"
    )]);
    let explained = valid(
        "explain.schema.json",
        json_of(&[
            "explain",
            "--path",
            &web_port,
            "--kuma-outbound",
            port,
            "-o",
            "json",
            A,
        ]),
    );
    assert_eq!(
        explained["items"][0]["kinds"][0]["notes"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
    dopol(&["effective", "--kuma-outbound", "backend", A])
        .code(2)
        .stderr_has(&["error: --kuma-outbound: `backend` is not a KRI"]);
}

#[test]
fn status_json_has_the_kuma_conditions_and_owned_outcomes() {
    let doc = valid("status.schema.json", json_of(&["status", "-o", "json", A]));
    let policy = |locator: &str| {
        (doc["items"].as_array().unwrap().iter())
            .find(|i| i["policy"] == locator)
            .unwrap_or_else(|| panic!("no status of {locator}"))
            .clone()
    };
    let wide = policy(MESH_WIDE);
    assert_eq!(
        wide["conditions"],
        json!([
            {"type": "Accepted", "status": "True", "reason": "Accepted", "message": "MeshTimeout has been accepted"},
            {"type": "Enforced", "status": "True", "reason": "Enforced", "message": "MeshTimeout has been partially enforced"},
        ])
    );
    let idle = (wide["rules"].as_array().unwrap().iter())
        .find(|r| r["key"] == "idleTimeout")
        .unwrap();
    assert_eq!(idle["outcomes"], json!([]));
    assert_eq!(
        idle["ownedOutcomes"],
        json!([
            {"pathId": BACKEND_MESH, "outcome": "effective", "by": []},
            {"pathId": WEB_MESH, "outcome": "effective", "by": []},
            {"pathId": WEB_BACKEND, "outcome": "superseded", "by": [WEB_TO_BACKEND]},
        ])
    );
    assert_eq!(
        policy(WEB_TO_BACKEND)["conditions"][1]["message"],
        "MeshTimeout has been successfully enforced"
    );
    assert_eq!(
        policy(ALLOW_WEB)["rules"],
        json!([{"key": "allow", "outcomes": [], "ownedOutcomes": [
            {"pathId": BACKEND_INBOUND, "outcome": "effective", "by": []}
        ]}])
    );
    // A producer's value that a consumer's mesh-wide entry replaces: overridden.
    let overridden = json_of(&[
        "status",
        "-o",
        "json",
        "testdata/codes/kuma-consumer-overrides-producer",
    ]);
    assert_eq!(
        overridden["items"][0]["conditions"][1],
        json!({"type": "Enforced", "status": "False", "reason": "Overridden",
               "message": "MeshTimeout is overridden by [kuma-demo/web-consumer]"})
    );
    let nowhere = json_of(&[
        "status",
        "-o",
        "json",
        "testdata/codes/kuma-selects-no-dataplane",
    ]);
    assert_eq!(
        nowhere["items"][0]["conditions"][1],
        json!({"type": "Enforced", "status": "False", "reason": "Unknown",
               "message": "MeshTimeout is not in the path of any dataplane"})
    );
}

#[test]
fn topology_tree_json_dot_and_mermaid_show_the_mesh() {
    let tree = dopol(&["topology", A]);
    tree.code(0);
    assert_eq!(
        tree.stdout,
        "Mesh default
├─ Dataplane kuma-demo/backend-1
│  ├─ inbound kuma-demo/backend-1#http  ◂ MeshTrafficPermission kuma-demo/allow-web
│  └─ outbound kri_m____default_  ◂ MeshTimeout kuma-system/mesh-wide
└─ Dataplane kuma-demo/web
   ├─ outbound kri_m____default_  ◂ MeshTimeout kuma-system/mesh-wide
   └─ outbound kri_msvc_default_default_kuma-demo_backend_  ◂ MeshTimeout kuma-demo/web-to-backend, MeshTimeout kuma-system/mesh-wide
"
    );
    let doc = valid(
        "topology.schema.json",
        json_of(&["topology", "-o", "json", "--dataplane", "web", A]),
    );
    assert_eq!(doc["gateways"], json!([]));
    assert_eq!(
        doc["owned"],
        json!([{"kind": "Mesh", "name": "default", "children": [
            {"kind": "Dataplane", "name": "kuma-demo/web", "children": [
                {"kind": "outbound", "name": "kri_m____default_", "policies": [MESH_WIDE]},
                {"kind": "outbound", "name": "kri_msvc_default_default_kuma-demo_backend_",
                 "policies": [WEB_TO_BACKEND, MESH_WIDE]},
            ]},
        ]}])
    );
    let dot = dopol(&["topology", "-o", "dot", "--dataplane", "backend-1", A]);
    dot.code(0);
    assert_eq!(
        dot.stdout,
        r#"digraph dopol {
  rankdir=LR;
  node [shape=box, fontname="Helvetica"];
  "owned:0" [label="Mesh default"];
  "owned:1" [label="Dataplane kuma-demo/backend-1"];
  "owned:2" [label="inbound kuma-demo/backend-1#http"];
  "owned:3" [label="MeshTrafficPermission kuma-demo/allow-web", shape=note];
  "owned:4" [label="outbound kri_m____default_"];
  "owned:5" [label="MeshTimeout kuma-system/mesh-wide", shape=note];
  "owned:1" -> "owned:2";
  "owned:1" -> "owned:4";
  "owned:0" -> "owned:1";
  "owned:3" -> "owned:2" [style=dashed, arrowhead=open];
  "owned:5" -> "owned:4" [style=dashed, arrowhead=open];
}
"#
    );
    let mermaid = dopol(&["topology", "-o", "mermaid", "--dataplane", "backend-1", A]);
    mermaid.code(0);
    assert_eq!(
        mermaid.stdout,
        r#"flowchart LR
  o0["Mesh default"]
  o1["Dataplane kuma-demo/backend-1"]
  o2["inbound kuma-demo/backend-1#http"]
  o3[/"MeshTrafficPermission kuma-demo/allow-web"/]
  o4["outbound kri_m____default_"]
  o5[/"MeshTimeout kuma-system/mesh-wide"/]
  o1 --> o2
  o1 --> o4
  o0 --> o1
  o3 -.-> o2
  o5 -.-> o4
"#
    );
}

#[test]
fn diff_reports_values_not_merged_from() {
    let out = dopol(&["diff", A, B]);
    out.code(1);
    assert_eq!(
        out.stdout,
        "default|kuma-demo/backend-1|inbound|kuma-demo/backend-1#http
  - MeshTrafficPermission allow: [{spiffeID: {type: Exact, value: spiffe://default/ns/kuma-demo/sa/web}}] (kuma-demo/allow-web)
default|kuma-demo/web|outbound|kri_m____default_
  + MeshRetry http.numRetries: 3 (kuma-demo/web-retry)
default|kuma-demo/web|outbound|kri_msvc_default_default_kuma-demo_backend_
  ~ MeshTimeout idleTimeout: 5s (kuma-demo/web-to-backend) → 6s (kuma-demo/web-to-backend)
Status:
  kuma-demo/web-retry
    Accepted (absent) → True (Accepted): MeshRetry has been accepted
    Enforced (absent) → True (Enforced): MeshRetry has been successfully enforced
  kuma-demo/allow-web
    Accepted True (Accepted) → (absent)
    Enforced True (Enforced) → (absent)
0 paths changed: 0 rules added, 0 removed, 0 changed; 2 status changes; 3 values changed on 3 mesh paths
"
    );
    let doc = valid("diff.schema.json", {
        let out = dopol(&["diff", "-o", "json", A, B]);
        out.code(1);
        out.json()
    });
    let retry = "meshretry.kuma.io:kuma-demo/web-retry";
    // mesh-wide's entry split in two changes the mergedFrom of every path it is on, and
    // nothing else: no change on those paths but web-to-backend's.
    assert_eq!(
        doc["owned"],
        json!([
            {"pathId": BACKEND_INBOUND, "policyKind": "MeshTrafficPermission", "key": "allow",
             "change": "removed",
             "before": {"value": [{"spiffeID": {"type": "Exact", "value": "spiffe://default/ns/kuma-demo/sa/web"}}],
                        "source": ALLOW_WEB}},
            {"pathId": WEB_MESH, "policyKind": "MeshRetry", "key": "http.numRetries", "change": "added",
             "after": {"value": 3, "source": retry}},
            {"pathId": WEB_BACKEND, "policyKind": "MeshTimeout", "key": "idleTimeout", "change": "changed",
             "before": {"value": "5s", "source": WEB_TO_BACKEND},
             "after": {"value": "6s", "source": WEB_TO_BACKEND},
             "valueChanged": true, "sourceChanged": false},
        ])
    );
    assert_eq!(
        (doc["changes"].clone(), doc["paths"].clone()),
        (json!([]), json!([]))
    );
    // The mergedFrom did change: the new side merges two entries of mesh-wide.
    let merged = json_of(&["effective", "-o", "json", B]);
    assert_eq!(
        item(&merged, "MeshTimeout", BACKEND_MESH)["mergedFrom"],
        json!([format!("{MESH_WIDE}#to[1]"), format!("{MESH_WIDE}#to[0]")])
    );
    let timeouts = dopol(&[
        "diff",
        "--kind",
        "MeshTimeout",
        "--dataplane",
        "backend-1",
        A,
        B,
    ]);
    timeouts.code(0);
    assert_eq!(timeouts.stdout, "");
    timeouts.stderr_has(&["No differences."]);
    let same = dopol(&["diff", A, A]);
    same.code(0);
    same.stderr_has(&["No differences."]);
}

#[test]
fn global_mode_rejects_zone_policies_outside_the_system_namespace() {
    let out = dopol(&["effective", "-o", "json", "--kuma-mode", "global", A]);
    out.code(3).stderr_has(&[
        "[DPL7001] MeshTimeout kuma-demo/web-to-backend is rejected by Kuma: on Global CP the policy can be created only in the system namespace:kuma-system",
        "[DPL7001] MeshTrafficPermission kuma-demo/allow-web is rejected by Kuma",
    ]);
    let doc = out.json();
    assert_eq!(path_ids(&doc), [BACKEND_MESH, WEB_MESH]);
    assert_eq!(
        item(&doc, "MeshTimeout", WEB_MESH)["conf"],
        json!({"connectionTimeout": "3s", "idleTimeout": "20s"})
    );
    // The golden of Kuma's sort by origin, read by a global control plane.
    let golden = json_of(&[
        "effective",
        "-o",
        "json",
        "--kuma-mode",
        "global",
        "testdata/realworld/kuma/sort-by-origin/k8s.yaml",
    ]);
    let key = "mesh-1|kuma-system/dp-1|outbound|kri_m____mesh-1_";
    assert_eq!(
        item(&golden, "MeshTimeout", key)["rules"]["connectionTimeout"]["source"],
        "meshtimeout.kuma.io:kuma-system/matched-for-rules-ccc"
    );
}

#[test]
fn verbose_says_how_the_local_zone_was_chosen() {
    let zone_of = |args: &[&str]| {
        let out = dopol(args);
        out.code(0);
        (out.stderr.lines())
            .filter(|l| l.starts_with("Kuma: "))
            .map(String::from)
            .collect::<Vec<_>>()
    };
    assert_eq!(
        zone_of(&["effective", "-v", A]),
        [
            "Kuma: a zone control plane; local zone `default`: no Dataplane with origin zone names one"
        ]
    );
    assert_eq!(
        zone_of(&["status", "-v", "--kuma-zone", "zone-2", A]),
        ["Kuma: a zone control plane; local zone `zone-2` (--kuma-zone)"]
    );
    assert_eq!(
        zone_of(&[
            "explain",
            "-v",
            "--path",
            "mesh-1|ns-k8s/dp-1|outbound|kri_m____mesh-1_",
            "testdata/realworld/kuma/resourcerules-mesh-and-meshservice/k8s.yaml"
        ]),
        [
            "Kuma: a zone control plane; local zone `zone-k8s`: the one zone of the Dataplanes with origin zone"
        ]
    );
    // Without -v, and on an input without Kuma objects, nothing.
    assert_eq!(zone_of(&["effective", A]), Vec::<String>::new());
    assert_eq!(
        zone_of(&["effective", "-v", "testdata/examples/shop"]),
        Vec::<String>::new()
    );
    let route = "kri_mhttpr_default_default_kuma-demo_route_";
    dopol(&["effective", "-v", "--kuma-outbound", route, A])
        .code(0)
        .stderr_has(&[&format!(
            "--kuma-outbound {route}: a route KRI is shown only on the Dataplanes where it is a key"
        )]);
}

#[test]
fn lint_reports_the_kuma_codes() {
    let lint = |dir: &str, extra: &[&str]| {
        let mut args = vec!["lint", "-o", "json", dir];
        args.extend(extra);
        let out = dopol(&args);
        let doc = out.json();
        let found: Vec<(String, String, u64)> = (doc["diagnostics"].as_array().unwrap().iter())
            .map(|d| {
                (
                    d["name"].as_str().unwrap().to_string(),
                    d["severity"].as_str().unwrap().to_string(),
                    d["line"].as_u64().unwrap(),
                )
            })
            .collect();
        (out.code, found)
    };
    assert_eq!(lint(A, &[]), (0, vec![]));
    let dir = "testdata/codes";
    assert_eq!(
        lint(&format!("{dir}/kuma-consumer-overrides-producer"), &[]),
        (
            0,
            vec![("kuma-consumer-overrides-producer".into(), "info".into(), 45)]
        )
    );
    assert_eq!(
        lint(
            &format!("{dir}/kuma-to-target-not-found"),
            &["--fail-on", "warning"]
        ),
        (
            1,
            vec![("kuma-to-target-not-found".into(), "warning".into(), 39)]
        )
    );
    assert_eq!(
        lint(&format!("{dir}/kuma-invalid-policy"), &[]),
        (3, vec![("kuma-invalid-policy".into(), "error".into(), 39)])
    );
    let out = dopol(&["lint", &format!("{dir}/kuma-consumer-overrides-producer")]);
    out.code(0).stdout_has(&[
        "[DPL7005] MeshTimeout kuma-demo/web-consumer (consumer) overrides `idleTimeout` that MeshTimeout kuma-demo/backend-producer (producer) sets on default|kuma-demo/web|outbound|kri_msvc_default_default_kuma-demo_backend_",
    ]);
}

#[test]
fn uncovered_checks_no_kind_of_a_family_with_its_own_hierarchy() {
    let out = dopol(&["effective", "--uncovered", A]);
    out.code(0);
    assert_eq!(out.stdout, "");
    out.stderr_has(&["No policy kinds to check (the input's policies build paths of their own hierarchy, only where they apply; name a Gateway API kind with --kind)"]);
    let doc = valid(
        "uncoveredpathlist.schema.json",
        json_of(&["effective", "--uncovered", "-o", "json", A]),
    );
    assert_eq!(doc["checkedKinds"], json!([]));
    // Beside a Gateway: the Gateway API kinds only.
    let out = with_gateway(&["effective", "--uncovered", "-o", "json"]);
    out.code(0);
    assert_eq!(
        out.json()["checkedKinds"],
        json!([{"policyKind": "RateLimitPolicy", "policyGroup": "kuadrant.io"}])
    );
}

#[test]
fn explain_an_inbound_says_what_each_rule_added() {
    let out = dopol(&["explain", "--path", BACKEND_INBOUND, A]);
    out.code(0).stdout_has(&[
        "  1  kuma-demo/allow-web  rules[0] (all traffic)          -        top Dataplane(labels), origin zone, role workload-owner, to -, name allow-web\n",
        "  [1] kuma-demo/allow-web, rules[0]: 1 added, 0 replaced [GEP-713: Patch defaults]\n      + allow\n  Result:\n      allow ← kuma-demo/allow-web\n",
    ]);
    let doc = json_of(&["explain", "--path", BACKEND_INBOUND, "-o", "json", A]);
    assert_eq!(
        doc["items"][0]["kinds"][0]["steps"][0]["changes"],
        json!([{"key": "allow", "action": "added", "source": ALLOW_WEB}])
    );
}

#[test]
fn explain_a_kuma_path_without_the_kind_asked_for_has_no_policies() {
    let out = dopol(&[
        "explain",
        "--path",
        WEB_MESH,
        "--kind",
        "MeshTrafficPermission",
        A,
    ]);
    out.code(0)
        .stdout_has(&[&format!("Path {WEB_MESH}\n  no policies on this path\n")]);
    let doc = json_of(&[
        "explain",
        "--path",
        WEB_MESH,
        "--kind",
        "MeshTimeout",
        "-o",
        "json",
        A,
    ]);
    assert_eq!(doc["items"][0]["kinds"][0]["policyKind"], "MeshTimeout");
}
