//! Envoy Gateway (families §3): every fixture under `testdata/envoy/` against the results
//! worked out by hand in its `expect.yaml` (values, `source` and `origins` of every effective
//! rule, status with per-ancestor conditions and exact messages, lint findings), plus the
//! commands' behaviour on these kinds.

mod common;

use common::fixtures::Fixtures;

#[test]
fn every_case_matches_its_expectations() {
    Fixtures {
        dir: "testdata/envoy",
        kind: None,
        pending: &[],
    }
    .check_all();
}
