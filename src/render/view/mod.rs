//! `dopol view` and `diff -o html`: one self-contained HTML page.
//!
//! The page is a fixed shell (`page.html`, `page.css`, `page.js`, compiled in) around one data
//! block, `<script type="application/octet-stream" id="dopol-data">`: lines of base64, each a
//! compressed block of JSON ([`data`]), which the script reads as it needs them and renders
//! with DOM calls and `textContent` only: no string from the manifests is ever markup, and
//! base64 holds no character that could close the block or open a comment in it. The page's
//! Content-Security-Policy allows only the page's own script and style, by hash, and no network
//! access at all (no `connect-src`, `img-src` beyond `data:`, no `form-action`): inline event
//! handlers, injected scripts and requests are refused by the browser even if markup ever got
//! in.
//!
//! Layout is the browser's: every hierarchy dopol speaks is a tree (delegation nests a child
//! route under the rule that delegates to it), drawn as a keyboard-navigable tree whose
//! children are built when first expanded, so a page of 360,000 paths builds only what is
//! looked at. See docs/view.md for the measurement behind that choice.

pub mod data;

pub use data::{Items, Part};
use serde::Serialize;
use sha2::{Digest, Sha256};
use std::io::{self, Write};

const SHELL: &str = include_str!("page.html");
const STYLE: &str = include_str!("page.css");
const SCRIPT: &str = include_str!("page.js");

/// What the page shows: the whole view, or a diff.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// `dopol view`.
    View,
    /// `dopol diff -o html`.
    Diff,
}

/// Writes the page around the embedded document `{"apiVersion", "kind": "PolicyView", "mode",
/// ...parts}`, each part a member (`(name, part)`), in blocks the page reads as it needs them
/// ([`data`]).
pub fn write_page(out: &mut dyn Write, mode: Mode, parts: &[(&str, Part<'_>)]) -> io::Result<()> {
    let head = serde_json::json!({
        "apiVersion": crate::report::API_VERSION,
        "kind": "PolicyView",
        "mode": mode,
    });
    let lines = data::lines(&head, parts)?;
    let mut out = io::BufWriter::with_capacity(1 << 16, out);
    let (before, after) = shell_parts();
    out.write_all(before.as_bytes())?;
    for (i, line) in lines.iter().enumerate() {
        if i > 0 {
            out.write_all(b"\n")?;
        }
        out.write_all(line.as_bytes())?;
    }
    out.write_all(after.as_bytes())?;
    out.flush()
}

/// The shell before and after the data, with the style, the script and their hashes in.
fn shell_parts() -> (String, String) {
    let policy = format!(
        "default-src 'none'; script-src '{}'; style-src '{}'; img-src data:; base-uri 'none'; form-action 'none'",
        hash(SCRIPT),
        hash(STYLE)
    );
    let page = SHELL
        .replace("{{CSP}}", &policy)
        .replace("{{STYLE}}", STYLE)
        .replace("{{SCRIPT}}", SCRIPT);
    match page.split_once("{{DATA}}") {
        Some((before, after)) => (before.to_string(), after.to_string()),
        None => (page, String::new()),
    }
}

/// The page of `diff -o html`: the `EffectivePolicyDiff` document, and its changes grouped as
/// the table groups them (each group: the indices of its changes in `changes[]` and where
/// they are, in the table's words).
pub fn write_diff_page(
    out: &mut dyn Write,
    report: &crate::report::diff::DiffReport<'_>,
) -> io::Result<()> {
    let groups: Vec<serde_json::Value> = (report.groups().iter())
        .map(|g| serde_json::json!({"changes": g.changes, "scope": super::diff::scope_text(&g.scope)}))
        .collect();
    let paths = serde_json::json!({
        "added": super::diff::scope_text(&report.path_scope("added")),
        "removed": super::diff::scope_text(&report.path_scope("removed")),
    });
    let totals = super::diff::totals(report);
    write_page(
        out,
        Mode::Diff,
        &[
            ("diff", Part::Whole(report)),
            ("groups", Part::Whole(&groups)),
            ("pathScopes", Part::Whole(&paths)),
            ("totals", Part::Whole(&totals.trim_end())),
        ],
    )
}

/// `sha256-<base64>` of a script or style, as CSP names it.
fn hash(text: &str) -> String {
    format!("sha256-{}", data::base64(&Sha256::digest(text.as_bytes())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_holds_its_data_as_base64_lines_that_read_back() {
        let value = serde_json::json!({"name": "</script><!-- a & b > \u{2028}\u{2029} é"});
        let mut page = Vec::new();
        write_page(&mut page, Mode::View, &[("view", Part::Whole(&value))]).unwrap();
        let page = String::from_utf8(page).unwrap();
        assert_eq!(page.matches("</script").count(), 2);
        let (_, rest) = page.split_once("id=\"dopol-data\">").unwrap();
        let (data, _) = rest.split_once("</script>").unwrap();
        assert!(!data.contains('<') && !data.contains('&'));
        let back = data::read(data).unwrap();
        assert_eq!(back["view"], value);
        assert_eq!(back["kind"], "PolicyView");
    }

    #[test]
    fn the_shell_has_one_data_slot_and_hashes() {
        assert_eq!(SHELL.matches("{{DATA}}").count(), 1);
        let (before, after) = shell_parts();
        assert!(before.contains(&hash(STYLE)) && before.contains("default-src 'none'"));
        assert!(after.contains(SCRIPT));
    }
}
