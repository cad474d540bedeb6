//! A fast path for [`super::check_syntax`]: an expression written in a plain subset of CEL is
//! accepted when `cel`'s hand-written (Pratt) parser accepts it, without the ANTLR grammar.
//!
//! Why: the grammar parser costs about 1.5 ms to start and 30–60 µs an expression, the Pratt
//! parser 1–2 µs. Request-time predicates are mostly `request.method == 'GET'`-like, and on a
//! hundred-object repository the grammar was a sixth of `dopol lint`'s wall time.
//!
//! Why the answer stays the grammar's: the two parsers are not proven to accept the same
//! language, so the fast path only ever answers "accepted", and only for texts of the plain
//! subset ([`is_plain`]), which leaves out everything where the two could plausibly part:
//! escapes, raw and byte strings, floats and suffixed numbers, comments, `-`, `?:`, maps and
//! messages, macros, keywords used as names, deep nesting. `tests` generates expressions and
//! token soups from the subset's alphabet and checks that the grammar accepts every one the
//! fast path accepts. A rejection, and any text outside the subset, goes to the grammar, which
//! also says why.

use super::RESERVED_WORDS;

/// The longest text the fast path takes.
const MAX_BYTES: usize = 1024;

/// The most tokens the fast path takes.
const MAX_TOKENS: usize = 200;

/// The deepest nesting of `(` and `[` the fast path takes (both parsers allow 96 levels of
/// recursion; a bracket costs a few).
const MAX_BRACKETS: usize = 12;

/// The most digits of an integer the fast path takes (an `int` holds 18 for sure).
const MAX_DIGITS: usize = 18;

/// The macros: the grammar reports their argument checks in its own words, so a text that
/// names one (anywhere) is left to it, as one naming a reserved word is.
const MACROS: &[&str] = &[
    "has",
    "all",
    "exists",
    "exists_one",
    "existsOne",
    "map",
    "filter",
    "optMap",
    "optFlatMap",
];

/// CEL's keywords: taken as literals and as the `in` operator, never as names.
const KEYWORDS: &[&str] = &["true", "false", "null", "in"];

/// Whether `text` is accepted by the fast path: written in the plain subset, and accepted by
/// the Pratt parser (with optional syntax on, as the grammar's environment has it).
pub(super) fn accepts(text: &str) -> bool {
    is_plain(text)
        && cel::parser::PrattParser::new()
            .enable_optional_syntax(true)
            .parse(text)
            .is_ok()
}

/// What the last token was, for the rules that look one token back.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Last {
    Start,
    Name,
    Keyword,
    Number,
    Text,
    Dot,
    Open,
    Close,
    Operator,
}

/// Whether `text` is written in the plain subset: ASCII identifiers joined by `.` (no blank
/// around it), decimal integers without a leading zero, quoted strings of printable ASCII
/// without backslashes, the comparison, logical, `+`, `*` and `%` operators, calls, lists,
/// indexing, and blanks; within [`MAX_BYTES`], [`MAX_TOKENS`] and [`MAX_BRACKETS`].
pub(super) fn is_plain(text: &str) -> bool {
    let bytes = text.as_bytes();
    if bytes.len() > MAX_BYTES {
        return false;
    }
    let (mut at, mut tokens, mut depth, mut last) = (0, 0, 0usize, Last::Start);
    while at < bytes.len() {
        if is_blank(bytes[at]) {
            at += 1;
            continue;
        }
        tokens += 1;
        if tokens > MAX_TOKENS {
            return false;
        }
        let Some((next, kind)) = token(bytes, at, last) else {
            return false;
        };
        match kind {
            Last::Open => depth += 1,
            Last::Close => depth = depth.saturating_sub(1),
            _ => {}
        }
        if depth > MAX_BRACKETS {
            return false;
        }
        (at, last) = (next, kind);
    }
    true
}

/// CEL's white space, as the subset takes it (form feed is left to the grammar).
fn is_blank(byte: u8) -> bool {
    matches!(byte, b' ' | b'\t' | b'\n' | b'\r')
}

/// The plain token at `at` (after a token of kind `last`): where it ends and its kind.
fn token(bytes: &[u8], at: usize, last: Last) -> Option<(usize, Last)> {
    let byte = bytes[at];
    let follows = |n: usize| bytes.get(at + n).copied();
    match byte {
        b'a'..=b'z' | b'A'..=b'Z' | b'_' => name(bytes, at, last),
        b'0'..=b'9' => number(bytes, at),
        b'\'' | b'"' => string(bytes, at),
        // A member: right after a name, a call, an index or a string, with a name right after.
        b'.' => (matches!(last, Last::Name | Last::Close | Last::Text)
            && !is_blank(bytes[at - 1])
            && follows(1).is_some_and(|b| b.is_ascii_alphabetic() || b == b'_'))
        .then_some((at + 1, Last::Dot)),
        b'(' | b'[' => Some((at + 1, Last::Open)),
        b')' | b']' => Some((at + 1, Last::Close)),
        b',' => Some((at + 1, Last::Operator)),
        b'=' | b'&' | b'|' => (follows(1) == Some(byte)).then_some((at + 2, Last::Operator)),
        b'!' | b'<' | b'>' => {
            let len = if follows(1) == Some(b'=') { 2 } else { 1 };
            Some((at + len, Last::Operator))
        }
        b'+' | b'*' | b'%' => Some((at + 1, Last::Operator)),
        _ => None,
    }
}

/// A name or keyword: not one left to the grammar, and a keyword neither after `.` nor called.
fn name(bytes: &[u8], at: usize, last: Last) -> Option<(usize, Last)> {
    let end = (at..bytes.len())
        .find(|&i| !(bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_'))
        .unwrap_or(bytes.len());
    let word = std::str::from_utf8(&bytes[at..end]).ok()?;
    let reserved = RESERVED_WORDS.contains(&word) && !KEYWORDS.contains(&word);
    if reserved || MACROS.contains(&word) {
        return None;
    }
    // A quote right after a name would make it a raw or byte string prefix (`r'…'`, `b"…"`).
    if matches!(bytes.get(end), Some(b'\'' | b'"')) {
        return None;
    }
    if KEYWORDS.contains(&word) {
        let called = bytes[end..]
            .iter()
            .find(|&&b| !is_blank(b))
            .is_some_and(|&b| b == b'(' || b == b'.');
        return (last != Last::Dot && !called).then_some((end, Last::Keyword));
    }
    Some((end, Last::Name))
}

/// A decimal integer: no leading zero, no suffix, no fraction, at most [`MAX_DIGITS`] digits.
fn number(bytes: &[u8], at: usize) -> Option<(usize, Last)> {
    let end = (at..bytes.len())
        .find(|&i| !bytes[i].is_ascii_digit())
        .unwrap_or(bytes.len());
    let plain = end - at <= MAX_DIGITS
        && (bytes[at] != b'0' || end - at == 1)
        && !matches!(bytes.get(end), Some(b) if b.is_ascii_alphanumeric()
            || matches!(b, b'_' | b'.' | b'\'' | b'"'));
    plain.then_some((end, Last::Number))
}

/// A quoted string of printable ASCII without backslashes, not followed by another quote.
fn string(bytes: &[u8], at: usize) -> Option<(usize, Last)> {
    let quote = bytes[at];
    let close = (at + 1..bytes.len()).find(|&i| bytes[i] == quote)?;
    let inside = &bytes[at + 1..close];
    let plain = inside
        .iter()
        .all(|&b| (0x20..0x7f).contains(&b) && b != b'\\')
        && !matches!(bytes.get(close + 1), Some(b'\'' | b'"'));
    plain.then_some((close + 1, Last::Text))
}

#[cfg(test)]
mod tests;
