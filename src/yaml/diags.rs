//! The code the YAML reader reports: a file that is not YAML (or JSON) at all.

use crate::diag::{Class, Code, CodeDef, Severity};

/// The codes declared here, in catalogue order.
pub const CODES: &[Code] = &[Code::YAML_SYNTAX];

impl Code {
    /// DPL1001 `yaml-syntax`: The file is not valid YAML or JSON.
    pub const YAML_SYNTAX: Code = Code::new(&CodeDef {
        id: "DPL1001",
        name: "yaml-syntax",
        severity: Severity::Error,
        class: Class::Input,
        summary: "The file is not valid YAML or JSON.",
        explanation: "The document cannot be parsed as YAML (or JSON): an unclosed bracket or quote, bad indentation, a tab, a duplicate mapping key, an alias to an unknown anchor. kubectl would refuse the file. dopol leaves the broken document out and evaluates the others.",
        fix: "Correct the syntax at the position shown. Duplicate keys must be merged into one.",
        example: "spec:\n  limits:\n    a:\n      rates: [{limit: 1, window: 1m}",
    });
}
