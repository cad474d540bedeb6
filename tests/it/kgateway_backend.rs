//! kgateway's BackendConfigPolicy (docs/families.md §2.10): every fixture under
//! `testdata/kgateway-backend/` against its `expect.yaml`, the upstream goldens under
//! `testdata/realworld/kgateway-backendconfigpolicy/` (`ORIGIN.md`) against the facts their
//! outputs show, and the commands that read a backend-keyed item.

use crate::common::dopol;
use crate::common::fixtures::Fixtures;
use serde_json::{Value, json};

#[test]
fn every_case_matches_its_expectations() {
    Fixtures {
        dir: "testdata/kgateway-backend",
        kind: Some("BackendConfigPolicy"),
        pending: &[],
    }
    .check_all();
}

const GOLDENS: &str = "testdata/realworld/kgateway-backendconfigpolicy/inputs";
const BCP: &str = "backendconfigpolicy.gateway.kgateway.dev:default/";

fn golden(file: &str, command: &str) -> Value {
    let path = format!("{GOLDENS}/{file}");
    dopol(&[command, "-f", &path, "-o", "json"]).json()
}

/// The status item of `policy` (`ns/name` in `default`).
fn status_of(doc: &Value, policy: &str) -> Value {
    let locator = format!("{BCP}{policy}");
    (doc["items"].as_array().unwrap().iter())
        .find(|i| i["policy"] == locator.as_str())
        .cloned()
        .unwrap_or(Value::Null)
}

/// `merge-multiple-bcp.yaml`: connectTimeout 5s from the older policy, the newer one's circuit
/// breakers, proxy protocol V2; both Attached on the Service ancestor.
#[test]
fn merge_multiple_bcp_golden() {
    let doc = golden("merge-multiple-bcp.yaml", "effective");
    let item = &doc["items"][0];
    assert_eq!(item["pathId"], "Service:default/httpbin");
    let rules = &item["rules"];
    assert_eq!(rules["connectTimeout"]["value"], "5s");
    assert_eq!(rules["connectTimeout"]["source"], format!("{BCP}bcp-older"));
    assert_eq!(rules["circuitBreakers"]["value"]["maxConnections"], 1024);
    assert_eq!(
        rules["circuitBreakers"]["source"],
        format!("{BCP}bcp-newer")
    );
    assert_eq!(
        rules["upstreamProxyProtocol"]["value"],
        json!({"version": "V2"})
    );
    let status = golden("merge-multiple-bcp.yaml", "status");
    for policy in ["bcp-older", "bcp-newer"] {
        let item = status_of(&status, policy);
        let ancestor = &item["ancestors"][0];
        assert_eq!(
            ancestor["ancestorRef"],
            json!({"group": "", "kind": "Service", "namespace": "default", "name": "httpbin"})
        );
        assert_eq!(ancestor["conditions"][0]["reason"], "Valid", "{policy}");
        assert_eq!(ancestor["conditions"][1]["reason"], "Attached", "{policy}");
        assert_eq!(ancestor["conditions"].as_array().unwrap().len(), 2);
    }
}

/// `tls-overridden-by-backendtlspolicy.yaml`: tls removed, Overridden with the controller's
/// reason and message.
#[test]
fn tls_overridden_by_backendtlspolicy_golden() {
    let file = "tls-overridden-by-backendtlspolicy.yaml";
    let doc = golden(file, "effective");
    assert!(doc["items"][0]["rules"].get("tls").is_none(), "{doc}");
    let status = golden(file, "status");
    let conditions = &status_of(&status, "httpbin-policy")["ancestors"][0]["conditions"];
    assert_eq!(
        conditions[2],
        json!({"type": "Overridden", "status": "True", "reason": "ConflictedWithBackendTLSPolicy",
               "message": "spec.tls overridden by BackendTLSPolicy default/httpbin-tls-policy"})
    );
    assert_eq!(conditions[1]["reason"], "Attached");
}

const MERGE: &str = "testdata/kgateway-backend/merge/manifests.yaml";

/// `explain`, `reach`, `overridden`, `topology`, `diff` and the filters read backend items.
#[test]
fn every_command_reads_backend_items() {
    dopol(&["explain", "-f", MERGE, "--path", "Service:shop/web"])
        .code(0)
        .stdout_has(&["shop/heavy", "~ connectTimeout"]);
    dopol(&["reach", "-f", MERGE, "shop/new"])
        .code(0)
        .stdout_has(&["Service shop/web", "lost connectTimeout (to shop/old)"]);
    dopol(&["overridden", "-f", MERGE])
        .code(0)
        .stdout_has(&["dns.refreshRate", "Service:shop/web"]);
    dopol(&["topology", "-f", MERGE])
        .code(0)
        .stdout_has(&["Backend.gateway.kgateway.dev shop/ext"]);
    let tls = "testdata/kgateway-backend/tls/manifests.yaml";
    dopol(&["diff", MERGE, tls]).stdout_has(&["Service:shop/api"]);
    let shown = dopol(&["effective", "-f", MERGE, "-n", "other"]);
    assert!(!shown.stdout.contains("shop/web"), "{}", shown.stdout);
    let hidden = dopol(&["effective", "-f", MERGE, "--gateway", "x"]);
    assert!(!hidden.stdout.contains("shop/web"), "{}", hidden.stdout);
}
