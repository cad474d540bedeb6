//! DPL4013: a `dopol.io/ignore` annotation that names no code. A misspelt code
//! (`parent-not-fuond`, `DPL2100`) suppresses nothing, silently: the finding it was meant to
//! silence keeps failing CI, or — worse — the author believes something is waived that is not.
//! `--ignore` with an unknown code is a usage error (exit 2); an annotation lives in the
//! manifests, so it is a finding on the object, at the annotation.

use crate::diag::{Class, Code, CodeDef, Diagnostic, Severity, Violation};
use crate::model::{IGNORE_ANNOTATION, Model};
use crate::yaml::Node;

/// One finding per unknown entry of every object's annotation.
pub fn check(model: &Model) -> Vec<Diagnostic> {
    let mut diagnostics = Vec::new();
    for object in &model.objects {
        let Some(value) = annotation(object) else {
            continue;
        };
        let Some(text) = value.as_str() else {
            continue;
        };
        for entry in text.split(',').map(str::trim) {
            if entry.is_empty() || entry == "*" || Code::parse(entry).is_some() {
                continue;
            }
            diagnostics.push(unknown(entry, value, object.display()));
        }
    }
    diagnostics
}

/// The annotation's value node.
fn annotation(object: &crate::load::Object) -> Option<&Node> {
    object
        .metadata("annotations")?
        .as_map()?
        .iter()
        .find(|e| &*e.key.text == IGNORE_ANNOTATION)
        .map(|e| &e.value)
}

fn unknown(entry: &str, value: &Node, object: String) -> Diagnostic {
    Diagnostic::from(UnknownIgnoreCode { entry })
        .with_label(value.span, "unknown code")
        .with_object(object)
}

/// The codes declared here, in catalogue order.
pub const CODES: &[Code] = &[Code::UNKNOWN_IGNORE_CODE];

impl Code {
    /// DPL4013 `unknown-ignore-code`: A `dopol.io/ignore` annotation names a code that does not exist, so it suppresses nothing.
    pub const UNKNOWN_IGNORE_CODE: Code = Code::new(&CodeDef {
        id: "DPL4013",
        name: "unknown-ignore-code",
        severity: Severity::Warning,
        class: Class::Finding,
        summary: "A `dopol.io/ignore` annotation names a code that does not exist, so it suppresses nothing.",
        explanation: "The `dopol.io/ignore` annotation takes a comma-separated list of codes (`DPL4004`) or names (`ordered-by-name`), or `*`. An entry that is neither suppresses nothing: the finding it was meant for is still reported. `dopol lint --list` prints every code.",
        fix: "Correct the entry (the help suggests the nearest code), or remove it.",
        example: "metadata:\n  annotations:\n    dopol.io/ignore: \"parent-not-fuond\"",
    });
}

/// An entry of the ignore annotation that names no code (`unknown-ignore-code`).
pub struct UnknownIgnoreCode<'a> {
    /// The entry, as written.
    pub entry: &'a str,
}

impl Violation for UnknownIgnoreCode<'_> {
    fn code(&self) -> Code {
        Code::UNKNOWN_IGNORE_CODE
    }
    fn message(&self) -> String {
        format!(
            "`{}` in `{IGNORE_ANNOTATION}` is not a diagnostic code; it suppresses nothing",
            self.entry
        )
    }
    fn help(&self) -> Option<String> {
        Some(match Code::closest(self.entry) {
            Some(near) => format!("did you mean `{near}`? `dopol lint --list` prints every code"),
            None => "`dopol lint --list` prints every code".to_string(),
        })
    }
}
