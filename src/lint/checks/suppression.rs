//! DPL4013: a `dopol.io/ignore` annotation that names no code. A misspelt code
//! (`parent-not-fuond`, `DPL2100`) suppresses nothing, silently: the finding it was meant to
//! silence keeps failing CI, or — worse — the author believes something is waived that is not.
//! `--ignore` with an unknown code is a usage error (exit 2); an annotation lives in the
//! manifests, so it is a finding on the object, at the annotation.

use crate::diag::{Code, Diagnostic};
use crate::lint::doc::CheckDoc;
use crate::model::{IGNORE_ANNOTATION, Model};
use crate::yaml::Node;

/// Documentation of DPL4013.
pub const DOCS: &[CheckDoc] = &[CheckDoc {
    code: Code::UnknownIgnoreCode,
    explanation: "The `dopol.io/ignore` annotation takes a comma-separated list of codes (`DPL4004`) or names (`ordered-by-name`), or `*`. An entry that is neither suppresses nothing: the finding it was meant for is still reported. `dopol lint --list` prints every code.",
    fix: "Correct the entry (the help suggests the nearest code), or remove it.",
    example: "metadata:\n  annotations:\n    dopol.io/ignore: \"parent-not-fuond\"",
}];

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
    let help = match Code::closest(entry) {
        Some(near) => format!("did you mean `{near}`? `dopol lint --list` prints every code"),
        None => "`dopol lint --list` prints every code".to_string(),
    };
    Diagnostic::new(
        Code::UnknownIgnoreCode,
        format!(
            "`{entry}` in `{IGNORE_ANNOTATION}` is not a diagnostic code; it suppresses nothing"
        ),
    )
    .with_label(value.span, "unknown code")
    .with_object(object)
    .with_help(help)
}
