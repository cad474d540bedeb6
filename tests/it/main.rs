//! The integration tests, one binary: each module is a theme and runs the real `dopol` binary
//! (built by Cargo for this test target) from the repository root. One binary links once, where
//! forty linked forty times; the modules share `common` (running dopol, fixtures).
//!
//! Run one theme with `cargo test --test it lint_pins::`, one test by its name as usual.

mod common;

mod agentgateway;
mod bad_input;
mod codes;
mod config;
mod constraints;
mod crd;
mod crd_bundle;
mod crd_upstream;
mod delegation;
mod diff;
mod diff_groups;
mod effective;
mod envoy;
mod envoy_realworld;
mod families;
mod fidelity;
mod fidelity_envoy;
mod fidelity_request;
mod fidelity_routes;
mod fidelity_surface;
mod filters;
mod fuzz_regressions;
mod generated_docs;
mod gep;
mod guides;
mod help_texts;
mod inputs;
mod io_faults;
mod kgateway;
mod kgateway_backend;
mod kgateway_listener;
mod kuma_commands;
mod kuma_crd;
mod kuma_goldens;
mod limits;
mod lint;
mod lint_formats;
mod lint_pins;
mod listener_sets;
mod messages;
mod observability;
mod pre_commit;
mod properties;
mod readme_examples;
mod realworld;
mod request;
mod rfc0009;
mod schemas;
mod self_contained;
mod status_truth;
mod tables;
mod test_cmd;
mod topology;
mod uncovered;
mod view;
