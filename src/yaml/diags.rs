//! The code the YAML reader reports: a file that is not YAML (or JSON) at all.

use crate::diag::{Class, Code, CodeDef, Severity, Violation, over_limit};

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

/// What makes a document unreadable (`yaml-syntax`): the parser's own error, or a rule dopol
/// applies while building the tree (Kubernetes objects are JSON; the reader's limits).
pub enum YamlSyntax<'a> {
    /// The YAML parser's error text.
    Parser(&'a str),
    /// A key defined twice in one mapping.
    DuplicateKey(&'a str),
    /// A collection or scalar used as a mapping key.
    ComplexKey,
    /// A `<<` merge key whose value is not a mapping or a list of mappings.
    BadMerge,
    /// A scalar that does not match its explicit tag.
    TagMismatch(&'a str),
    /// An alias to an anchor not defined before it.
    UnknownAnchor,
    /// Collections nested deeper than `max` levels (`yaml-depth`).
    TooDeep { max: usize },
    /// A document of more than `max` nodes (`yaml-document-nodes`).
    TooManyNodes { max: usize },
    /// Aliases expanding to more than `max` nodes (`yaml-alias-nodes`).
    AliasNodes { max: usize },
    /// Aliases expanding to more than `max` bytes of text (`yaml-alias-bytes`).
    AliasBytes { max: usize },
}

impl YamlSyntax<'_> {
    /// The label under the place it points at.
    pub fn label(&self) -> &str {
        match self {
            YamlSyntax::Parser(info) => info,
            YamlSyntax::DuplicateKey(_) => "defined again here",
            YamlSyntax::ComplexKey => "complex key",
            YamlSyntax::BadMerge => "not a mapping",
            YamlSyntax::TagMismatch(_) => "invalid tagged value",
            YamlSyntax::UnknownAnchor => "unknown anchor",
            YamlSyntax::TooDeep { .. } => "too deep",
            YamlSyntax::TooManyNodes { .. } => "this document",
            YamlSyntax::AliasNodes { .. } | YamlSyntax::AliasBytes { .. } => {
                "alias expansion limit reached here"
            }
        }
    }
}

impl Violation for YamlSyntax<'_> {
    fn code(&self) -> Code {
        Code::YAML_SYNTAX
    }

    fn message(&self) -> String {
        match self {
            YamlSyntax::Parser(info) => format!("invalid YAML: {info}"),
            YamlSyntax::DuplicateKey(key) => format!("duplicate mapping key `{key}`"),
            YamlSyntax::ComplexKey => {
                "a mapping key must be a scalar (Kubernetes objects are JSON)".into()
            }
            YamlSyntax::BadMerge => {
                "the value of a `<<` merge key must be a mapping or a list of mappings".into()
            }
            YamlSyntax::TagMismatch(text) => format!("`{text}` does not match its tag"),
            YamlSyntax::UnknownAnchor => "alias to an unknown anchor".into(),
            YamlSyntax::TooDeep { max } => over_limit(
                format_args!("collections are nested deeper than {max} levels"),
                "yaml-depth",
            ),
            YamlSyntax::TooManyNodes { max } => over_limit(
                format_args!("the document holds more than {max} nodes"),
                "yaml-document-nodes",
            ),
            YamlSyntax::AliasNodes { max } => over_limit(
                format_args!("aliases expand to more than {max} nodes"),
                "yaml-alias-nodes",
            ),
            YamlSyntax::AliasBytes { max } => over_limit(
                format_args!("aliases expand to more than {max} bytes of text"),
                "yaml-alias-bytes",
            ),
        }
    }
}
