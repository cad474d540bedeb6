//! dopol: offline evaluation and linting of Gateway API inherited policies with defaults and
//! overrides.
//!
//! The crate is a pipeline of plain-data stages, each in its own module:
//! loading ([`load`]) → model ([`model`], holding policies decoded through the kinds half of the
//! family contract, [`kinds`]) → topology ([`topology`]) → policy families and the merge engine
//! ([`policy`], [`engine`]) → reports ([`report`]) → rendering ([`render`]). Diagnostics are data
//! ([`diag`]) produced by any stage and rendered in one place. The command-line front end
//! ([`cli`]) is the only module that knows about clap and the terminal.

pub mod cli;
pub mod crd;
pub mod diag;
pub mod engine;
pub mod expr;
pub mod families;
pub mod kinds;
pub mod lint;
pub mod load;
pub mod model;
pub mod name;
pub mod pipeline;
pub mod platform;
pub mod policy;
pub mod render;
pub mod report;
pub mod source;
pub mod suggest;
#[doc(hidden)]
pub mod testkit;
pub mod topology;
pub mod words;
pub mod yaml;
