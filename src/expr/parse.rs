//! Parsing, on a large stack ([`crate::platform::deep`]), and locating parse errors.
//!
//! Every expression goes through here: [`check_syntax`] only parses, and
//! [`Constraint::compile`] parses and then checks the tree. Both first check
//! the text limits, then run the recursive `cel` parser on a stack
//! that fits the worst input those limits allow. `cel` reports parse
//! errors as a line and a column whose unit varies; they are turned into a
//! byte range here.

use super::check::compile_constraint;
use super::limits::check_text_limits;
use super::{Constraint, ExprError, floor_char_boundary, over_limit};
use crate::platform::deep;
use cel::common::ast::{IdedExpr, SourceInfo};
use cel::{Env, ParseError, ParseErrors};
use std::sync::{Arc, OnceLock};

/// The prefix `cel` puts on errors reported by the ANTLR parser, whose
/// columns count chars. Its other errors count bytes.
const SYNTAX_ERROR_PREFIX: &str = "Syntax error: ";

/// The environment shared by every expression: the CEL standard library,
/// with the standard macros and optional syntax. The `strings` extension is
/// deliberately left out: `replace` can grow a string exponentially in the
/// length of the expression, e.g. `s.replace('a', s).replace('a', s)`.
pub(crate) fn env() -> &'static Arc<Env> {
    static ENV: OnceLock<Arc<Env>> = OnceLock::new();
    ENV.get_or_init(|| Arc::new(Env::stdlib()))
}

impl Constraint {
    /// Compiles and checks that only the variables `spec` and `self` and
    /// standard CEL functions/macros are referenced. Also enforces the
    /// limits declared in [`crate::expr`].
    pub fn compile(text: &str) -> Result<Constraint, ExprError> {
        check_text_limits(text)?;
        deep(|| compile_constraint(text))
            .unwrap_or_else(|reason| Err(ExprError::new(text, 0, text.len(), reason)))
    }
}

/// Syntax-checks a request-time predicate or counter expression
/// without evaluating it. Its variables and functions are not checked.
pub fn check_syntax(text: &str) -> Result<(), ExprError> {
    check_text_limits(text)?;
    // Both parsers recurse: they run on a stack that fits the worst the limits allow. The
    // grammar runs only when the plain subset's shortcut does not accept the text.
    // A panic in the shortcut's parser leaves the text to the grammar, as a rejection does.
    deep(|| {
        let fast = std::panic::catch_unwind(|| super::plain::accepts(text));
        match fast.unwrap_or(false) {
            true => Ok(()),
            false => parse(text).map(drop),
        }
    })
    .unwrap_or_else(|reason| Err(ExprError::new(text, 0, text.len(), reason)))
}

/// [`check_syntax`] keeping the tree, for a caller already on a deep stack
/// ([`crate::platform::deep`]): one parse where a check then a parse would be two.
pub fn parse_checked(text: &str) -> Result<IdedExpr, ExprError> {
    check_text_limits(text)?;
    parse(text).map(|(expr, _)| expr)
}

/// Parses `text` with the shared environment's parser, which expands the
/// standard macros.
pub(crate) fn parse(text: &str) -> Result<(IdedExpr, SourceInfo), ExprError> {
    env()
        .parser()
        .parse_with_source_info(text)
        .map_err(|errors| first_parse_error(text, &errors))
}

fn first_parse_error(text: &str, errors: &ParseErrors) -> ExprError {
    match errors.errors.first() {
        Some(error) => parse_error(text, error),
        None => ExprError::new(text, 0, 0, "invalid expression"),
    }
}

/// Locates a `cel` parse error in `text`. An error about a node is located
/// through the node's byte offset. Otherwise `pos` is `(line, column)`,
/// both 1-based. The column counts chars for the parser's syntax errors
/// and bytes for the macro errors.
fn parse_error(text: &str, error: &ParseError) -> ExprError {
    let node_offset = error
        .source_info
        .as_ref()
        .filter(|_| error.expr_id != 0)
        .and_then(|info| info.offset_for(error.expr_id))
        .map(|(start, _)| start as usize);
    let offset = node_offset.unwrap_or_else(|| {
        let (line, column) = error.pos;
        let in_chars = error.msg.starts_with(SYNTAX_ERROR_PREFIX);
        line_column_to_offset(text, line, column, in_chars)
    });
    ExprError::at_token(text, offset, clean_parse_message(&error.msg))
}

/// The parser's message without its prefix. Its own recursion limit ("Recursion limit of 96
/// exceeded", hit by long chains of `?:`) is named like dopol's limits (`cel-parser-depth`).
fn clean_parse_message(message: &str) -> String {
    if message.contains("Recursion limit") {
        let levels: String = message.chars().filter(char::is_ascii_digit).collect();
        return over_limit(
            format_args!("the expression is nested more than {levels} levels deep for the parser"),
            "cel-parser-depth",
        );
    }
    message
        .strip_prefix(SYNTAX_ERROR_PREFIX)
        .unwrap_or(message)
        .to_string()
}

/// The byte offset of the 1-based `(line, column)` in `text`. The column
/// counts chars if `in_chars`, bytes otherwise. Out-of-range positions are
/// clamped.
fn line_column_to_offset(text: &str, line: isize, column: isize, in_chars: bool) -> usize {
    let skip_lines = usize::try_from(line.saturating_sub(1)).unwrap_or(0);
    let line_start = match skip_lines.checked_sub(1) {
        None => 0,
        Some(n) => text
            .match_indices('\n')
            .nth(n)
            .map_or(text.len(), |(at, _)| at + 1),
    };
    let column = usize::try_from(column.saturating_sub(1)).unwrap_or(0);
    let rest = &text[line_start..];
    let within = if in_chars {
        rest.char_indices()
            .nth(column)
            .map_or(rest.len(), |(at, _)| at)
    } else {
        floor_char_boundary(rest, column.min(rest.len()))
    };
    line_start + within
}

#[cfg(test)]
mod tests {
    use crate::expr::testing::compile_error;
    use crate::expr::{Constraint, check_syntax};

    #[test]
    fn kuadrant_predicates_parse() {
        for text in [
            "request.method == 'GET'",
            r#"request.auth.claims["kuadrant.io/groups"].split(",").exists(g, g == "free")"#,
            "request.url_path.matches('^/[^/]+/Index$')",
            "!request.path.startsWith('/grpc.reflection.')",
            "request.headers.exists(h, h.lowerAscii() == 'x-grpc-test' && request.headers[h] == 'true')",
            "auth.identity.userid",
        ] {
            assert_eq!(check_syntax(text), Ok(()), "{text}");
        }
    }

    #[test]
    fn syntax_errors_are_located_in_bytes() {
        let error = compile_error("spec.a > )");
        assert_eq!((error.offset, error.len), (9, 1));
        assert!(
            error.message.starts_with("mismatched input ')'"),
            "{error:?}"
        );

        let text = "spec.a > 1 &&\n  spec.b < )";
        let error = compile_error(text);
        assert_eq!(error.offset, text.rfind(')').unwrap_or_default());

        // The parser counts chars: `é` is one column but two bytes.
        let text = "spec.name == 'héllo wörld' && )";
        let error = check_syntax(text).unwrap_err();
        assert_eq!(error.offset, text.rfind(')').unwrap_or_default());

        let text = "'é'\n+ 'ü' +\n)";
        let error = check_syntax(text).unwrap_err();
        assert_eq!(error.offset, text.rfind(')').unwrap_or_default());
    }

    #[test]
    fn macro_errors_are_located_in_bytes() {
        // The macro errors count bytes, unlike the parser's.
        let text = "'éé' == spec.a || has(1)";
        let error = check_syntax(text).unwrap_err();
        assert_eq!(error.message, "invalid argument to has() macro");
        assert_eq!(error.offset, text.rfind('1').unwrap_or_default());

        let text = "'é' == spec.a || spec.l.exists(x.y, true)";
        let error = check_syntax(text).unwrap_err();
        assert_eq!(error.message, "argument must be a simple name");
        assert_eq!(error.offset, text.find(".y").unwrap_or_default());
    }

    #[test]
    fn long_chains_parse_on_the_worker_and_are_rejected_as_constraints() {
        let chain = format!("1{} == 1", " + 1".repeat(2000));
        assert_eq!(check_syntax(&chain), Ok(()));
        let error = compile_error(&chain);
        assert!(error.message.contains("nested more than"), "{error:?}");
        let members = format!("spec{}", ".a".repeat(4000));
        assert_eq!(check_syntax(&members), Ok(()));
        assert!(Constraint::compile(&members).is_err());
        let ternaries = format!("{}1", "true ? 1 : ".repeat(700));
        assert!(check_syntax(&ternaries).is_err());
    }
}
