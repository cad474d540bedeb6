//! Why a CEL string literal with a backslash does not parse, and how to write it.
//!
//! A regular expression in a predicate (`request.host.matches('^api\.example\.com$')`) is the
//! commonest way to meet CEL's string escapes: `\.` is not one, so the lexer stops at the
//! literal ("token recognition error"), which says nothing of escapes. CEL's grammar (`CEL.g4`,
//! `ESC_SEQ`) knows `\a \b \f \n \r \t \v \" \' \\ \? \``, `\x`/`\X` and two hex digits, `\u`
//! and four, `\U` and eight, and `\` with three octal digits (the first 0 to 3); a raw string
//! (`r'...'`, `R"..."`) has no escapes at all.

use super::ExprError;

/// The help for a parse error at a string literal holding an escape CEL does not know: what it
/// is, and the literal written both ways that parse.
pub fn string_escape_help(text: &str, error: &ExprError) -> Option<String> {
    let literal = literals(text)
        .into_iter()
        .find(|l| l.start <= error.offset && error.offset < l.end)?;
    let written = &text[literal.start..literal.end];
    let body = &written[literal.prefix..];
    let bad = bad_escapes(body);
    let first = *bad.first()?;
    let escape: String = body[first..].chars().take(2).collect();
    let mut doubled = String::from(&written[..literal.prefix]);
    let mut last = 0;
    for &at in &bad {
        doubled.push_str(&body[last..at]);
        doubled.push('\\');
        last = at;
    }
    doubled.push_str(&body[last..]);
    let what = match escape.as_bytes().get(1) {
        Some(b'x' | b'X') => format!("`{escape}` starts an escape that takes two hex digits"),
        Some(b'u') => format!("`{escape}` starts an escape that takes four hex digits"),
        Some(b'U') => format!("`{escape}` starts an escape that takes eight hex digits"),
        Some(b'0'..=b'3') => format!("`{escape}` starts an escape that takes three octal digits"),
        _ => format!("`{escape}` is not an escape of CEL strings"),
    };
    Some(format!(
        "{what}: write the backslash twice (`{doubled}`), or make the string raw, without escapes (`r{written}`); CEL's escapes are \\a \\b \\f \\n \\r \\t \\v \\\" \\' \\\\ \\? \\`, \\xHH, \\uHHHH, \\UHHHHHHHH and octal \\NNN"
    ))
}

/// A string literal of an expression: its byte range, and how many bytes of it come before the
/// opening quote (a `b` for bytes; raw literals are not listed, they have no escapes).
struct Literal {
    start: usize,
    end: usize,
    prefix: usize,
}

/// The escaping string literals of `text`, in order (an unterminated one runs to the end).
fn literals(text: &str) -> Vec<Literal> {
    let bytes = text.as_bytes();
    let mut found = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let quote = bytes[i];
        if quote != b'\'' && quote != b'"' {
            i += 1;
            continue;
        }
        // The prefix letters before the quote (`r`, `b`, `rb`, `br`, any case), when they
        // start a token.
        let mut start = i;
        while start > 0 && matches!(bytes[start - 1], b'r' | b'R' | b'b' | b'B') {
            start -= 1;
        }
        if start > 0 && (bytes[start - 1].is_ascii_alphanumeric() || bytes[start - 1] == b'_') {
            start = i;
        }
        let raw = text[start..i].contains(['r', 'R']);
        let triple = bytes[i..].starts_with(&[quote; 3]);
        let close = if triple { 3 } else { 1 };
        let mut j = i + close;
        let end = loop {
            if j >= bytes.len() {
                break bytes.len();
            }
            if bytes[j] == b'\\' && !raw {
                j += 2;
                continue;
            }
            if bytes[j..].starts_with(&[quote; 3][..close]) {
                break j + close;
            }
            j += 1;
        };
        if !raw {
            found.push(Literal {
                start,
                end: end.min(text.len()),
                prefix: i - start,
            });
        }
        i = end;
    }
    found
}

/// The byte offsets (within `literal`, quotes included) of the backslashes that start an
/// escape CEL does not know.
fn bad_escapes(literal: &str) -> Vec<usize> {
    let bytes = literal.as_bytes();
    let hex = |from: usize, count: usize| {
        bytes
            .get(from..from + count)
            .is_some_and(|d| d.iter().all(u8::is_ascii_hexdigit))
    };
    let mut bad = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'\\' {
            i += 1;
            continue;
        }
        let known = match bytes.get(i + 1) {
            Some(b'a' | b'b' | b'f' | b'n' | b'r' | b't' | b'v' | b'"' | b'\'' | b'\\' | b'?')
            | Some(b'`') => true,
            Some(b'x' | b'X') => hex(i + 2, 2),
            Some(b'u') => hex(i + 2, 4),
            Some(b'U') => hex(i + 2, 8),
            Some(b'0'..=b'3') => bytes
                .get(i + 2..i + 4)
                .is_some_and(|d| d.iter().all(|c| (b'0'..=b'7').contains(c))),
            _ => false,
        };
        if !known {
            bad.push(i);
        }
        i += 2;
    }
    bad
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expr::check_syntax;

    fn help(text: &str) -> Option<String> {
        string_escape_help(text, &check_syntax(text).unwrap_err())
    }

    #[test]
    fn an_unknown_escape_gets_both_ways_to_write_it() {
        let text = r"request.host.matches('^api\.example\.com$')";
        let shown = help(text).unwrap();
        assert!(
            shown.starts_with(r"`\.` is not an escape of CEL strings: write the backslash twice (`'^api\\.example\\.com$'`), or make the string raw, without escapes (`r'^api\.example\.com$'`);"),
            "{shown}"
        );
        // Both suggestions parse.
        for fixed in [
            r"request.host.matches('^api\\.example\\.com$')",
            r"request.host.matches(r'^api\.example\.com$')",
        ] {
            assert_eq!(check_syntax(fixed), Ok(()), "{fixed}");
        }
        assert!(
            help(r#"request.path == "a\qb""#)
                .unwrap()
                .starts_with(r"`\q` is")
        );
    }

    /// What the grammar accepts gets no help, whatever else is wrong.
    #[test]
    fn known_escapes_and_raw_strings_get_none() {
        for text in [
            r"'\a\b\f\n\r\t\v\'\\\?\`\x41\X41\u00e9\U0001F600\101' == x &&",
            r"r'\.' == x &&",
            r"request.path == 'a' &&",
        ] {
            assert_eq!(help(text), None, "{text}");
        }
        assert!(bad_escapes(r"'\a\b\f\n\r\t\v\'\\\?\`\x41\X41\u00e9\U0001F600\101'").is_empty());
        assert_eq!(bad_escapes(r"'\.\x4\u00e\8'"), [1, 3, 6, 11]);
        // Each of them alone parses.
        assert_eq!(
            check_syntax(r"'\a\b\f\n\r\t\v\'\\\?\`\x41\X41\u00e9\U0001F600\101'"),
            Ok(())
        );
        assert!(check_syntax(r"'\400'").is_err());
        assert!(help(r"'\400'").is_some());
    }
}
