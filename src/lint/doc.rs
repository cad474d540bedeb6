//! Check documentation: what a code means, why it matters, how to fix it, an example. The text
//! is the code's own declaration ([`crate::diag::CodeDef`], beside the check that reports it);
//! `dopol lint --list` and `--explain CODE` print it; SARIF carries it as rule help.

use crate::diag::Code;

/// `dopol lint --explain CODE` text.
pub fn explain(code: Code) -> String {
    let doc = code.def();
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
