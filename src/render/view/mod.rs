//! `dopol view` and `diff -o html`: one self-contained HTML page.
//!
//! The page is a fixed shell (`page.html`, `page.css`, `page.js`, compiled in) around one data
//! block, `<script type="application/json" id="dopol-data">`, that the script parses and renders
//! with DOM calls and `textContent` only: no string from the manifests is ever markup. The data
//! is JSON with `<`, `>`, `&`, U+2028 and U+2029 written as `\uXXXX` escapes ([`embed`]), so no
//! manifest string can close the block or start a comment in it. The page's
//! Content-Security-Policy allows only the page's own script and style, by hash, and no network
//! access at all (no `connect-src`, `img-src` beyond `data:`, no `form-action`): inline event
//! handlers, injected scripts and requests are refused by the browser even if markup ever got
//! in.
//!
//! Layout is the browser's: every hierarchy dopol speaks is a tree (delegation nests a child
//! route under the rule that delegates to it), drawn as a keyboard-navigable tree whose
//! children are built when first expanded, so a page of 360,000 paths builds only what is
//! looked at. See docs/view.md for the measurement behind that choice.

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

/// A part of the embedded document, written as compact JSON (each part is a different type).
pub trait Part {
    /// Appends the part's JSON to `out`.
    fn write(&self, out: &mut Vec<u8>) -> io::Result<()>;
}

impl<T: Serialize> Part for T {
    fn write(&self, out: &mut Vec<u8>) -> io::Result<()> {
        serde_json::to_writer(out, self).map_err(io::Error::other)
    }
}

/// Writes the page around the embedded document `{"apiVersion", "kind": "PolicyView", "mode",
/// ...parts}`, each part a member (`(name, value)`).
pub fn write_page(out: &mut dyn Write, mode: Mode, parts: &[(&str, &dyn Part)]) -> io::Result<()> {
    let mut data = Vec::with_capacity(1 << 20);
    let head = serde_json::json!({
        "apiVersion": crate::report::API_VERSION,
        "kind": "PolicyView",
        "mode": mode,
    });
    let head = serde_json::to_vec(&head).map_err(io::Error::other)?;
    data.extend_from_slice(&head[..head.len() - 1]);
    for (name, part) in parts {
        data.push(b',');
        serde_json::to_writer(&mut data, name).map_err(io::Error::other)?;
        data.push(b':');
        part.write(&mut data)?;
    }
    data.push(b'}');
    let mut out = io::BufWriter::with_capacity(1 << 16, out);
    let (before, after) = shell_parts();
    out.write_all(before.as_bytes())?;
    embed(&data, &mut out)?;
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
            ("diff", report),
            ("groups", &groups),
            ("pathScopes", &paths),
            ("totals", &totals.trim_end()),
        ],
    )
}

/// `sha256-<base64>` of a script or style, as CSP names it.
fn hash(text: &str) -> String {
    format!("sha256-{}", base64(&Sha256::digest(text.as_bytes())))
}

/// Standard base64 with padding.
fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut text = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &b)| n | (u32::from(b) << (16 - 8 * i)));
        for i in 0..4 {
            text.push(match i <= chunk.len() {
                true => ALPHABET[(n >> (18 - 6 * i) & 63) as usize] as char,
                false => '=',
            });
        }
    }
    text
}

/// Writes JSON text so that it is inert inside a `<script>` element: `<`, `>` and `&`, which
/// JSON has only inside strings, and U+2028/U+2029 become `\uXXXX` escapes (the same string to
/// `JSON.parse`). No `</script`, `<!--` or `]]>` can then occur.
pub fn embed(json: &[u8], out: &mut dyn Write) -> io::Result<()> {
    let mut start = 0;
    let mut i = 0;
    while i < json.len() {
        let escaped: Option<(&[u8], usize)> = match json[i] {
            b'<' => Some((b"\\u003c", 1)),
            b'>' => Some((b"\\u003e", 1)),
            b'&' => Some((b"\\u0026", 1)),
            0xE2 if json.get(i + 1) == Some(&0x80) && json.get(i + 2) == Some(&0xA8) => {
                Some((b"\\u2028", 3))
            }
            0xE2 if json.get(i + 1) == Some(&0x80) && json.get(i + 2) == Some(&0xA9) => {
                Some((b"\\u2029", 3))
            }
            _ => None,
        };
        match escaped {
            Some((escape, width)) => {
                out.write_all(&json[start..i])?;
                out.write_all(escape)?;
                i += width;
                start = i;
            }
            None => i += 1,
        }
    }
    out.write_all(&json[start..])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn embedded(text: &str) -> String {
        let mut out = Vec::new();
        embed(text.as_bytes(), &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn embedding_closes_nothing_and_parses_back() {
        let value = serde_json::json!({"name": "</script><!-- a & b > \u{2028}\u{2029} é"});
        let text = embedded(&serde_json::to_string(&value).unwrap());
        for bad in ["<", ">", "&", "\u{2028}", "\u{2029}"] {
            assert!(!text.contains(bad), "{text}");
        }
        let back: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(back, value);
    }

    #[test]
    fn base64_matches_the_standard() {
        assert_eq!(base64(b""), "");
        assert_eq!(base64(b"f"), "Zg==");
        assert_eq!(base64(b"fo"), "Zm8=");
        assert_eq!(base64(b"foo"), "Zm9v");
        assert_eq!(base64(b"foobar"), "Zm9vYmFy");
    }

    #[test]
    fn the_shell_has_one_data_slot_and_hashes() {
        assert_eq!(SHELL.matches("{{DATA}}").count(), 1);
        let (before, after) = shell_parts();
        assert!(before.contains(&hash(STYLE)) && before.contains("default-src 'none'"));
        assert!(after.contains(SCRIPT));
    }
}
