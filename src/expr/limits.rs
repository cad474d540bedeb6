//! Limits checked on the raw text, before the `cel` parser sees it.
//!
//! The parser is recursive and has no limits of its own: a few thousand
//! nested brackets overflow its stack. So the length and the bracket nesting
//! are measured here first, skipping string literals and comments, and
//! hostile text is rejected before any parsing starts.

use super::{ExprError, MAX_EXPRESSION_BYTES, MAX_NESTING, over_limit};

/// Rejects text that is too long, or nested too deeply for the recursive
/// parser, before it is parsed.
pub fn check_text_limits(text: &str) -> Result<(), ExprError> {
    if text.len() > MAX_EXPRESSION_BYTES {
        return Err(ExprError::new(
            text,
            MAX_EXPRESSION_BYTES,
            1,
            over_limit(
                format_args!(
                    "the expression is too long: {} bytes, more than {MAX_EXPRESSION_BYTES}",
                    text.len()
                ),
                "cel-length",
            ),
        ));
    }
    match too_deep_bracket(text) {
        Some(offset) => Err(ExprError::new(
            text,
            offset,
            1,
            over_limit(
                format_args!("the expression nests brackets more than {MAX_NESTING} levels deep"),
                "cel-brackets",
            ),
        )),
        None => Ok(()),
    }
}

/// The offset of the first bracket that opens level `MAX_NESTING + 1`.
/// Brackets inside string literals and `//` comments are skipped.
fn too_deep_bracket(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut depth = 0usize;
    let mut i = 0;
    while let Some(&byte) = bytes.get(i) {
        i = match byte {
            b'(' | b'[' | b'{' => {
                depth += 1;
                if depth > MAX_NESTING {
                    return Some(i);
                }
                i + 1
            }
            b')' | b']' | b'}' => {
                depth = depth.saturating_sub(1);
                i + 1
            }
            b'\'' | b'"' => skip_string_literal(bytes, i),
            b'/' if bytes.get(i + 1) == Some(&b'/') => bytes[i..]
                .iter()
                .position(|&b| b == b'\n')
                .map_or(bytes.len(), |n| i + n),
            _ => i + 1,
        };
    }
    None
}

/// The index just after the CEL string literal whose opening quote is at
/// `start`. The literal may be single, double, triple-quoted or raw.
fn skip_string_literal(bytes: &[u8], start: usize) -> usize {
    let quote = bytes[start];
    let raw = start > 0 && matches!(bytes[start - 1], b'r' | b'R');
    let triple = bytes[start..].starts_with(&[quote; 3]);
    let mut i = start + if triple { 3 } else { 1 };
    while let Some(&byte) = bytes.get(i) {
        if byte == b'\\' && !raw {
            i += 2;
        } else if triple && bytes[i..].starts_with(&[quote; 3]) {
            return i + 3;
        } else if !triple && (byte == quote || byte == b'\n') {
            return i + 1;
        } else {
            i += 1;
        }
    }
    bytes.len()
}

#[cfg(test)]
mod tests {
    use crate::expr::testing::{compile_error, eval};
    use crate::expr::{Constraint, MAX_EXPRESSION_BYTES, MAX_NESTING, check_syntax};
    use serde_json::json;

    #[test]
    fn size_and_nesting_limits_fail_fast() {
        let started = std::time::Instant::now();
        let huge = "(".repeat(100_000);
        let error = check_syntax(&huge).unwrap_err();
        assert!(error.message.contains("too long"), "{error:?}");
        assert_eq!(error.offset, MAX_EXPRESSION_BYTES);

        let megabyte = format!("spec.a == '{}'", "x".repeat(1 << 20));
        assert!(compile_error(&megabyte).message.contains("too long"));

        let deep = format!("{}spec.a{}", "(".repeat(8000), ")".repeat(100));
        let error = compile_error(&deep);
        assert!(error.message.contains("nests brackets"), "{error:?}");
        assert_eq!((error.offset, error.len), (MAX_NESTING, 1));
        assert!(started.elapsed() < std::time::Duration::from_secs(5));

        let limit = MAX_NESTING;
        let ok = format!("{}spec.a > 1{}", "(".repeat(limit), ")".repeat(limit));
        assert_eq!(eval(&ok, json!({"a": 2})), Ok(true));
        let too_deep = format!(
            "{}spec.a > 1{}",
            "[".repeat(limit + 1),
            "]".repeat(limit + 1)
        );
        assert!(check_syntax(&too_deep).is_err());
        // Brackets in strings and comments don't count.
        let quoted = format!("spec.a == '{}' // {}\n", "(".repeat(100), "[".repeat(100));
        assert!(Constraint::compile(&quoted).is_ok());
    }
}
