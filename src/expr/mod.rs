//! CEL expressions in policies: `when` constraints and request-time predicates.
//!
//! Gateway API policies carry CEL in two places, and dopol handles each one
//! differently:
//!
//! - A defaults/overrides block may carry `when: "<CEL>"`. dopol evaluates
//!   this constraint itself, against the lower effective policy rendered in
//!   its spec shape, bound both as `spec` and as `self` (`self.spec.x` works
//!   as well as `spec.x`). [`Constraint`] compiles a constraint, checks what
//!   it references and evaluates it.
//! - Request-time predicates and counters (`request.method == 'GET'`,
//!   `auth.identity.userid`) only make sense inside the gateway. dopol never
//!   evaluates them, but [`check_syntax`] reports syntax errors early.
//!
//! The `cel` crate alone isn't enough, for these reasons:
//!
//! - It has no type checker. An unknown variable or function only fails when
//!   the expression is evaluated, and then only if evaluation reaches it. So
//!   [`Constraint::compile`] walks the syntax tree up front and rejects
//!   anything except `spec`, `self` and the standard library.
//! - Its errors give a line and a column, and the unit of the column is not
//!   always the same. [`ExprError`] gives a byte range in the expression
//!   instead, and [`value_offset_to_source`] maps that range onto the YAML
//!   scalar the expression was written in.
//! - serde turns non-negative JSON integers into CEL `uint`, so
//!   `limit + 1` would fail with "no matching overload". [`json_to_cel`]
//!   turns integers into `int` instead.
//! - It is recursive and has no resource limits. In a debug build, a dozen
//!   nested parentheses use up a 2 MiB stack, and a few nested comprehensions
//!   can run for hours. The limits below and dedicated large-stack threads
//!   keep a hostile expression from crashing or hanging dopol.
//!
//! The work is split by stage: `limits` rejects oversized text before it is
//! parsed, `parse` parses on large-stack threads and locates parse errors,
//! `check` walks a constraint's tree, `budget` meters its evaluation, `eval`
//! runs it, and `scalar` maps error positions back into the YAML source.

mod budget;
/// Step metering, shared with the CRD rules' CEL environment ([`crate::crd::cel`]) and the
/// request-time evaluators of the families (Kuadrant's three-valued one).
pub(crate) use budget::{Budget, STEP_FUNCTION, meter_step, out_of_steps};
mod check;
mod escapes;
mod eval;
mod limits;
mod parse;
/// The parser and request-time checker, for the families' request-time evaluators.
pub(crate) use check::check_request;
pub(crate) use parse::{env, parse};
mod plain;
mod scalar;
pub mod stdlib;

pub use escapes::string_escape_help;
pub use eval::json_to_cel;
pub use limits::check_text_limits;
pub use parse::{check_syntax, parse_checked};
pub use scalar::value_offset_to_source;

use cel::common::ast::IdedExpr;
use std::fmt;

/// The attribute roots of docs/semantics.md#94-attributes (RFC 0002's well-known attributes): an
/// identifier rooted elsewhere is left to `cel` (a type name, or an undeclared variable, which
/// fails at evaluation).
pub const ATTRIBUTE_ROOTS: &[&str] = &[
    "request",
    "source",
    "destination",
    "connection",
    "auth",
    "metadata",
    "filter_state",
];

/// A compile-time problem in an expression, located in the expression text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExprError {
    /// Human message, without the `ERROR: <input>:1:2:` prefix: e.g.
    /// "mismatched input ')' expecting ..." or "unknown variable `foo`;
    /// constraints can use `spec` and `self`".
    pub message: String,
    /// Byte offset into the expression text where the problem is (best
    /// effort; 0 if unknown). Always a char boundary and `<= text.len()`.
    pub offset: usize,
    /// Byte length of the offending part: at least 1 when the expression is
    /// non-empty, and never past the end of the text.
    pub len: usize,
}

impl ExprError {
    /// An error about `len` bytes at `offset` in `text`. The range is moved
    /// onto char boundaries and into the text. An error at the very end
    /// points at the last visible character instead.
    fn new(text: &str, offset: usize, len: usize, message: impl Into<String>) -> ExprError {
        let mut start = floor_char_boundary(text, offset.min(text.len()));
        if start == text.len() {
            start = last_visible_char(text);
        }
        let end = ceil_char_boundary(text, start.saturating_add(len.max(1)).min(text.len()));
        ExprError {
            message: message.into(),
            offset: start,
            len: end - start,
        }
    }

    /// An error about the token (identifier, number or single character)
    /// that starts at `offset`.
    fn at_token(text: &str, offset: usize, message: impl Into<String>) -> ExprError {
        let offset = floor_char_boundary(text, offset.min(text.len()));
        ExprError::new(text, offset, token_len(&text[offset..]), message)
    }
}

impl fmt::Display for ExprError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ExprError {}

use crate::diag::over_limit;

/// CEL's keywords (`true`, `false`, `null`, `in`) and reserved words: never a name.
pub const RESERVED_WORDS: &[&str] = &[
    "true",
    "false",
    "null",
    "in",
    "as",
    "break",
    "const",
    "continue",
    "else",
    "for",
    "function",
    "if",
    "import",
    "let",
    "loop",
    "package",
    "namespace",
    "return",
    "var",
    "void",
    "while",
];

/// The longest expression accepted, in bytes (`cel-length`). A `when` constraint or a
/// predicate is one line of logic. The limit also bounds the parse time and
/// the work in any single evaluation step.
pub const MAX_EXPRESSION_BYTES: usize = 8192;

/// The deepest nesting of parentheses, brackets and braces accepted (`cel-brackets`). This is
/// checked on the raw text, before parsing, because the parser is recursive:
/// each level costs it about 150 KiB of stack in a debug build. Deeper input
/// is rejected before the parser ever sees it. 32 levels is far beyond what
/// any hand-written predicate needs.
pub const MAX_NESTING: usize = 32;

/// The deepest syntax tree a constraint may have (`cel-tree-depth`), e.g. 64 terms in
/// `a + b + c + ...`. Evaluation recurses once per level. This limit keeps
/// that recursion, and the destruction of the tree, shallow.
pub const MAX_TREE_DEPTH: usize = 64;

/// How deeply comprehensions (`all`, `exists`, `exists_one`, `map`,
/// `filter`) may be nested in a constraint (`cel-comprehension-nesting`). Each level multiplies the work
/// and the size of the values built. Two levels are enough for
/// `spec.limits.exists(k, spec.limits[k].rates.exists(r, ...))`.
pub const MAX_COMPREHENSION_NESTING: usize = 2;

/// How many times a comprehension's variable may be used inside it (`cel-variable-uses`). Every
/// use of a variable bound to a large value can copy that value (e.g.
/// `[s].map(t, t + t + t + ...)`). This limit, together with
/// [`MAX_COMPREHENSION_NESTING`], bounds how much a value can grow.
pub const MAX_VARIABLE_USES: usize = 10;

/// The evaluation budget of a constraint (`cel-steps`). Each comprehension iteration
/// costs one step, plus one step per node of its body. Each regular
/// expression match costs 2,000 steps. A constraint that runs out of budget
/// fails instead of running for minutes. Real constraints over a policy
/// take a few hundred steps.
pub const MAX_EVALUATION_STEPS: usize = 100_000;

/// A compiled constraint (`when` of a defaults/overrides block).
#[derive(Clone, Debug)]
pub struct Constraint {
    /// The checked tree, with the budget charged at each comprehension step.
    expr: IdedExpr,
    /// The height of `expr`, which sets how much stack evaluation needs.
    height: usize,
}

// Helpers that place an error on char boundaries and tokens of the text.

fn floor_char_boundary(text: &str, mut index: usize) -> usize {
    index = index.min(text.len());
    while !text.is_char_boundary(index) {
        index -= 1;
    }
    index
}

fn ceil_char_boundary(text: &str, mut index: usize) -> usize {
    index = index.min(text.len());
    while !text.is_char_boundary(index) {
        index += 1;
    }
    index
}

/// The start of the last non-whitespace char of `text`, or of its last char.
fn last_visible_char(text: &str) -> usize {
    let visible = text.trim_end();
    let within = if visible.is_empty() { text } else { visible };
    within.char_indices().next_back().map_or(0, |(at, _)| at)
}

fn is_identifier_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// The byte length of the token at the start of `rest`: an identifier, a
/// number, or else one char.
fn token_len(rest: &str) -> usize {
    let number = rest.starts_with(|c: char| c.is_ascii_digit());
    match rest.chars().next() {
        Some(c) if is_identifier_char(c) => rest
            .find(|c: char| !(is_identifier_char(c) || (number && c == '.')))
            .unwrap_or(rest.len()),
        Some(c) => c.len_utf8(),
        None => 0,
    }
}

/// Helpers shared by the tests of the submodules.
#[cfg(test)]
mod testing {
    use super::{Constraint, ExprError};

    pub(super) fn eval(text: &str, spec: serde_json::Value) -> Result<bool, String> {
        Constraint::compile(text)
            .map_err(|e| format!("compile error: {e:?}"))?
            .evaluate(&spec)
    }

    pub(super) fn compile_error(text: &str) -> ExprError {
        match Constraint::compile(text) {
            Ok(_) => panic!("`{text}` compiled"),
            Err(error) => error,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn an_error_at_the_end_points_at_the_last_token() {
        let error = check_syntax("spec.a +  ").unwrap_err();
        assert_eq!((error.offset, error.len), (7, 1));
        let error = check_syntax("").unwrap_err();
        assert_eq!((error.offset, error.len), (0, 0));
    }

    #[test]
    fn error_ranges_are_char_boundaries_within_the_text() {
        let texts = [
            "é",
            "éé + )",
            "'é' +",
            "\"unterminated é",
            "a ⊕ b",
            "x ? ",
            "{'é': }",
            "é\n\né)",
            "has(é)",
            "[1].all(é, 1)",
            "spec.é",
            "'\\xzz'",
            "1 +\n",
            "\u{10FFFF}(",
        ];
        for text in texts {
            for error in [check_syntax(text).err(), Constraint::compile(text).err()]
                .into_iter()
                .flatten()
            {
                assert!(text.is_char_boundary(error.offset), "{text:?} {error:?}");
                let end = error.offset + error.len;
                assert!(
                    end <= text.len() && text.is_char_boundary(end),
                    "{text:?} {error:?}"
                );
                assert!(error.len >= 1, "{text:?} {error:?}");
            }
        }
    }

    #[test]
    fn hostile_inputs_neither_crash_nor_hang() {
        let fill = |prefix: &str, unit: &str, suffix: &str| {
            let room = MAX_EXPRESSION_BYTES - prefix.len() - suffix.len();
            format!("{prefix}{}{suffix}", unit.repeat(room / unit.len()))
        };
        let open = "(".repeat(MAX_NESTING);
        let close = ")".repeat(MAX_NESTING);
        let inputs = [
            fill(&format!("{open}1"), "+1", &close),
            fill("spec", ".a", ""),
            fill("spec", "[0]", ""),
            fill("spec", ".f()", ""),
            fill("", "-", "1"),
            fill("", "!", "true"),
            fill("1", " < 1", ""),
            fill("", "true ? 1 : ", "1"),
            fill("", "1 +", ""),
            fill("", ")", ""),
            fill("", "é", ""),
            fill("", "'", ""),
            fill("", "[1, ", ""),
            format!("{}spec{}", "[spec, {'a': ".repeat(16), "}]".repeat(16)),
            format!(
                "{}true{}",
                "spec.l.exists(x, ".repeat(MAX_NESTING),
                ")".repeat(MAX_NESTING)
            ),
        ];
        for text in &inputs {
            assert!(text.len() <= MAX_EXPRESSION_BYTES);
            let started = std::time::Instant::now();
            let _ = check_syntax(text);
            if let Ok(constraint) = Constraint::compile(text) {
                let _ = constraint.evaluate(&json!({"a": 1, "l": [1, 2, 3]}));
            }
            let elapsed = started.elapsed();
            assert!(
                elapsed < std::time::Duration::from_secs(20),
                "{elapsed:?} for {}",
                &text[..40]
            );
        }
    }

    #[test]
    fn constraints_can_be_shared_between_threads() {
        fn shareable<T: Send + Sync>() {}
        shareable::<Constraint>();
    }
}
