//! Check documentation: what a code means, why it matters, how to fix it, an example.
//! `dopol lint --list` and `--explain CODE` print it; SARIF carries it as rule help.

use crate::diag::Code;

/// The documentation of one diagnostic code.
#[derive(Debug)]
pub struct CheckDoc {
    /// The code.
    pub code: Code,
    /// What it means and why it matters.
    pub explanation: &'static str,
    /// How to fix it.
    pub fix: &'static str,
    /// A minimal example that triggers it.
    pub example: &'static str,
}

/// The documentation of `code`.
pub fn doc(code: Code) -> &'static CheckDoc {
    super::checks::all_docs()
        .find(|d| d.code == code)
        .expect("every code is documented (checked by a test)")
}

/// `dopol lint --explain CODE` text.
pub fn explain(code: Code) -> String {
    let doc = doc(code);
    let mut text = format!(
        "{} {} ({} by default)\n\n{}\n\n{}\n\nHow to fix:\n{}\n",
        code.as_str(),
        code.name(),
        code.default_severity(),
        code.summary(),
        doc.explanation,
        doc.fix
    );
    if !doc.example.is_empty() {
        text.push_str("\nExample:\n");
        for line in doc.example.lines() {
            text.push_str("    ");
            text.push_str(line);
            text.push('\n');
        }
    }
    text
}
