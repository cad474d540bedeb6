//! Kuma's CRDs (vendored under `crds/kuma/`, v2.14.3) validate Kuma objects like the API server:
//! well-formed policies pass without a CRD finding, malformed ones get the CRD diagnostics with
//! the API server's messages, lines and columns. The policy kinds are declared in a families file
//! (`testdata/crd/kuma/families.yaml`) so that the test reads only what the CRDs say, whichever
//! family evaluates Kuma objects.

use crate::common::dopol;
use crate::crd::{crd_findings, owned};

const DIR: &str = "testdata/crd/kuma";

/// The CRD findings of `dopol lint -o json` on `testdata/crd/kuma/<name>.yaml`.
fn kuma_crd_findings(name: &str) -> Vec<(String, u64, u64, String)> {
    let families = format!("{DIR}/families.yaml");
    let file = format!("{DIR}/{name}.yaml");
    let out = dopol(&["lint", "-o", "json", "--families", &families, "-f", &file]);
    crd_findings(&out)
}

#[test]
fn well_formed_kuma_policies_pass_the_crds() {
    assert_eq!(kuma_crd_findings("valid"), Vec::new());
}

#[test]
fn malformed_kuma_policies_get_the_crd_diagnostics() {
    assert_eq!(
        kuma_crd_findings("invalid"),
        owned(&[
            (
                "DPL1015",
                9,
                11,
                "spec.targetRef.kind: Unsupported value: \"Gateway\": supported values: \"Mesh\", \"MeshSubset\", \"MeshGateway\", \"MeshService\", \"MeshExternalService\", \"MeshMultiZoneService\", \"MeshServiceSubset\", \"MeshHTTPRoute\", \"Dataplane\"",
            ),
            (
                "DPL1015",
                15,
                22,
                "spec.to[0].default.idleTimeout: Invalid value: \"integer\": spec.to[0].default.idleTimeout in body must be of type string: \"integer\"",
            ),
            (
                "DPL1009",
                16,
                9,
                "unknown field \"spec.to[0].default.requestTimeout\"",
            ),
            (
                "DPL1015",
                30,
                21,
                "spec.rules[0].default.allow[0].spiffeID.type: Unsupported value: \"Regex\": supported values: \"Exact\", \"Prefix\"",
            ),
        ])
    );
}
