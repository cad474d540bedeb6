//! Mapping a position in an expression back to the YAML it was written in.
//!
//! An [`ExprError`](super::ExprError) is located in the expression's value,
//! but a diagnostic must point into the file, where the expression is a YAML
//! scalar: quoted, escaped, folded over several lines or written as a block.
//! [`value_offset_to_source`] decodes the scalar while recording where each
//! char of the value came from.

use std::ops::Range;

/// Maps a byte offset in a YAML scalar's decoded value to a byte offset in
/// the scalar's source text.
///
/// `source` is the exact source text of the scalar node as it appears in the
/// YAML file, in one of these forms:
///   - plain: `spec.x > 1` (may span several lines; line breaks fold to a
///     single space, leading indentation of continuation lines is dropped),
///   - single-quoted: `'a ''b'' c'` (the `''` escape is one `'` in the value;
///     line folding as for plain),
///   - double-quoted: `"a \"b\" \u00e9 c"` (backslash escapes, an escaped
///     line break joins lines; line folding otherwise),
///   - literal block: starts with `|` (with optional chomping/indent
///     indicators like `|-`, `|+`, `|2`) followed by a newline and indented
///     content lines; the value is the content lines with the common
///     indentation removed, newlines kept,
///   - folded block: starts with `>` similarly; single newlines between
///     non-empty, non-more-indented lines fold into spaces.
///
/// Returns the byte offset in `source` of the character that produced the
/// value character at `value_offset`. This is best effort for folding, and
/// exact for single-line scalars and literal blocks. Offsets at or beyond the
/// end map to the end of the last content character.
pub fn value_offset_to_source(source: &str, value_offset: usize) -> usize {
    let decoded = decode_scalar(source);
    let spans = &decoded.spans;
    let index = spans.partition_point(|span| span.value_end <= value_offset);
    match spans.get(index) {
        Some(span) => span.source.start,
        None => spans
            .iter()
            .rev()
            .find(|span| !span.is_break)
            .map_or(decoded.content_start, |span| span.source.end),
    }
}

/// Where one char of a decoded scalar value came from.
#[derive(Debug)]
struct Span {
    /// The end of the char in the value.
    value_end: usize,
    /// The source text that produced it.
    source: Range<usize>,
    /// Whether it is a line break, folded or kept, rather than content.
    is_break: bool,
}

/// A decoded scalar value, and where each of its chars came from.
#[derive(Debug, Default)]
struct Decoded {
    value: String,
    spans: Vec<Span>,
    /// Where the content starts in the source, after any quote or header.
    content_start: usize,
}

impl Decoded {
    fn push(&mut self, c: char, source: Range<usize>, is_break: bool) {
        self.value.push(c);
        self.spans.push(Span {
            value_end: self.value.len(),
            source,
            is_break,
        });
    }
}

fn decode_scalar(source: &str) -> Decoded {
    match source.chars().next() {
        Some(quote @ ('\'' | '"')) => decode_flow(source, Some(quote)),
        Some('|') => decode_block(source, false),
        Some('>') => decode_block(source, true),
        _ => decode_flow(source, None),
    }
}

/// Collects the whitespace and line breaks between the content of a flow
/// scalar, and folds them when content resumes.
struct Folder {
    out: Decoded,
    spaces: Vec<(char, usize)>,
    breaks: Vec<usize>,
}

impl Folder {
    fn space(&mut self, c: char, at: usize) {
        self.spaces.push((c, at));
    }

    /// A line break drops the whitespace before it.
    fn line_break(&mut self, at: usize) {
        self.spaces.clear();
        self.breaks.push(at);
    }

    fn content(&mut self, c: char, source: Range<usize>) {
        self.separate();
        self.out.push(c, source, false);
    }

    /// Emits what separates the previous content from the next one. That is
    /// the whitespace on the same line, a space for a single line break, or
    /// one newline per empty line. The whitespace that started the new line
    /// is dropped.
    fn separate(&mut self) {
        match self.breaks.as_slice() {
            [] => {
                for (c, at) in self.spaces.drain(..) {
                    self.out.push(c, at..at + 1, false);
                }
            }
            [single] => self.out.push(' ', *single..*single + 1, true),
            [_, empty_lines @ ..] => {
                for &at in empty_lines {
                    self.out.push('\n', at..at + 1, true);
                }
            }
        }
        self.breaks.clear();
        self.spaces.clear();
    }
}

/// Decodes a plain (`quote` is `None`), single-quoted or double-quoted
/// scalar.
fn decode_flow(source: &str, quote: Option<char>) -> Decoded {
    let start = quote.map_or(0, char::len_utf8);
    let mut folder = Folder {
        out: Decoded {
            content_start: start,
            ..Decoded::default()
        },
        spaces: Vec::new(),
        breaks: Vec::new(),
    };
    let mut i = start;
    while let Some(c) = source.get(i..).and_then(|rest| rest.chars().next()) {
        let next = i + c.len_utf8();
        let rest = &source[next..];
        match c {
            '\n' => folder.line_break(i),
            '\r' if rest.starts_with('\n') => {}
            ' ' | '\t' => folder.space(c, i),
            '\'' if quote == Some('\'') && rest.starts_with('\'') => {
                folder.content('\'', i..next + 1);
                i = next + 1;
                continue;
            }
            '\\' if quote == Some('"') => {
                i = decode_escape(source, i, &mut folder);
                continue;
            }
            _ if Some(c) == quote => break,
            _ => folder.content(c, i..next),
        }
        i = next;
    }
    if quote.is_some() {
        folder.separate();
    }
    folder.out
}

/// Decodes the double-quoted escape at `start` (a backslash) and returns
/// the index after it.
fn decode_escape(source: &str, start: usize, folder: &mut Folder) -> usize {
    let after = start + 1;
    let Some(c) = source.get(after..).and_then(|rest| rest.chars().next()) else {
        folder.content('\\', start..after);
        return after;
    };
    let mut end = after + c.len_utf8();
    let decoded = match c {
        '\n' | '\r' => {
            // An escaped line break joins the lines, and drops the
            // indentation of the next one.
            folder.separate();
            let rest = &source[after..];
            let rest = rest.strip_prefix("\r\n").unwrap_or(&rest[1..]);
            let indented = rest.trim_start_matches([' ', '\t']);
            return source.len() - indented.len();
        }
        'x' | 'u' | 'U' => {
            let digits = match c {
                'x' => 2,
                'u' => 4,
                _ => 8,
            };
            let hex: String = source[end..]
                .chars()
                .take(digits)
                .take_while(char::is_ascii_hexdigit)
                .collect();
            end += hex.len();
            u32::from_str_radix(&hex, 16)
                .ok()
                .and_then(char::from_u32)
                .unwrap_or(char::REPLACEMENT_CHARACTER)
        }
        '0' => '\0',
        'a' => '\u{07}',
        'b' => '\u{08}',
        't' | '\t' => '\t',
        'n' => '\n',
        'v' => '\u{0B}',
        'f' => '\u{0C}',
        'r' => '\r',
        'e' => '\u{1B}',
        'N' => '\u{85}',
        '_' => '\u{A0}',
        'L' => '\u{2028}',
        'P' => '\u{2029}',
        other => other, // `\"`, `\\`, `\/`, `\ `, and unknown escapes
    };
    folder.content(decoded, start..end);
    end
}

/// One line of a block scalar's content.
struct BlockLine {
    /// Where the line starts in the source.
    start: usize,
    /// The line, without its line break.
    text: String,
    /// Where its line break is, if it has one.
    line_break: Option<usize>,
}

impl BlockLine {
    fn indentation(&self) -> usize {
        self.text.len() - self.text.trim_start_matches(' ').len()
    }

    fn is_blank(&self) -> bool {
        self.text.trim_start_matches(' ').is_empty()
    }
}

/// Decodes a literal (`|`) or folded (`>`) block scalar.
fn decode_block(source: &str, folded: bool) -> Decoded {
    let header_end = source.find('\n').map_or(source.len(), |at| at + 1);
    let header = source[..header_end].split('#').next().unwrap_or("");
    let chomping = header.chars().find(|c| matches!(c, '-' | '+'));
    let lines = block_lines(source, header_end);
    // The common indentation of the lines with content. YAML takes that of
    // the first one. In a well-formed block, no line with content is less
    // indented.
    let indentation = lines
        .iter()
        .filter(|line| !line.is_blank())
        .map(BlockLine::indentation)
        .min()
        .unwrap_or(0);
    let mut out = Decoded {
        content_start: header_end,
        ..Decoded::default()
    };
    // The break ending the previous line with content, and whether that line
    // was more indented than the others.
    let mut previous: Option<(Option<usize>, bool)> = None;
    let mut empty_lines: Vec<usize> = Vec::new();
    for line in &lines {
        if line.text.len() <= indentation && line.is_blank() {
            empty_lines.extend(line.line_break);
            continue;
        }
        // A less indented line (not well-formed) loses what indentation it has.
        let strip = indentation.min(line.indentation());
        let content = &line.text[strip..];
        let more_indented = content.starts_with([' ', '\t']);
        if let Some((previous_break, previous_more)) = previous {
            let folds = folded && !previous_more && !more_indented;
            match previous_break {
                Some(at) if folds && empty_lines.is_empty() => out.push(' ', at..at + 1, true),
                Some(at) if !folds => out.push('\n', at..at + 1, true),
                _ => {}
            }
        }
        for at in empty_lines.drain(..) {
            out.push('\n', at..at + 1, true);
        }
        let content_start = line.start + strip;
        for (at, c) in content.char_indices() {
            let from = content_start + at;
            out.push(c, from..from + c.len_utf8(), false);
        }
        previous = Some((line.line_break, more_indented));
    }
    let last_break = previous.and_then(|(at, _)| at);
    match chomping {
        Some('-') => {}
        Some(_) => {
            for at in last_break.into_iter().chain(empty_lines) {
                out.push('\n', at..at + 1, true);
            }
        }
        None => {
            if let Some(at) = last_break {
                out.push('\n', at..at + 1, true);
            }
        }
    }
    out
}

/// The lines of `source` from `start`, each without its `\n` or `\r\n`.
fn block_lines(source: &str, start: usize) -> Vec<BlockLine> {
    let mut lines = Vec::new();
    let mut at = start;
    while at < source.len() {
        let rest = &source[at..];
        let (text, line_break, next) = match rest.find('\n') {
            Some(n) => (&rest[..n], Some(at + n), at + n + 1),
            None => (rest, None, source.len()),
        };
        lines.push(BlockLine {
            start: at,
            text: text.strip_suffix('\r').unwrap_or(text).to_string(),
            line_break,
        });
        at = next;
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scalar_mapping_never_panics() {
        let sources = [
            "",
            "'",
            "\"",
            "|",
            ">",
            "|\n",
            "'é''",
            "\"\\",
            "\"\\u",
            "\"\\\n",
            "é\n é",
            "|\n    é\n  ü\né\n",
            ">+\n\n  a\n\n",
            "|-\r\n é\r\n",
            "\"é\\\r\n  b\"",
            "'a\n\n\n b '",
            "plain  \t\n\t x",
            ">\n  a\n    b\n  c",
        ];
        for source in sources {
            let value_len = decoded(source).len();
            for offset in 0..value_len + 3 {
                let mapped = value_offset_to_source(source, offset);
                assert!(mapped <= source.len(), "{source:?} {offset}");
                assert!(source.is_char_boundary(mapped), "{source:?} {offset}");
            }
        }
    }

    fn decoded(source: &str) -> String {
        decode_scalar(source).value
    }

    #[test]
    fn plain_scalars_fold_lines() {
        let source = "spec.a >\n    1 +";
        assert_eq!(decoded(source), "spec.a > 1 +");
        assert_eq!(value_offset_to_source(source, 3), 3);
        assert_eq!(value_offset_to_source(source, 8), 8);
        assert_eq!(value_offset_to_source(source, 9), 13);
        assert_eq!(value_offset_to_source(source, 11), 15);
        assert_eq!(value_offset_to_source(source, 12), 16);
        assert_eq!(value_offset_to_source(source, 99), 16);
        let source = "a\n\n  b  \n";
        assert_eq!(decoded(source), "a\nb");
        assert_eq!(value_offset_to_source(source, 2), 5);
    }

    #[test]
    fn single_quoted_scalars_unescape_quotes() {
        assert_eq!(decoded("'it''s'"), "it's");
        assert_eq!(value_offset_to_source("'it''s'", 3), 5);
        assert_eq!(value_offset_to_source("'it''s'", 2), 3);
        assert_eq!(value_offset_to_source("'it''s'", 4), 6);
        assert_eq!(decoded("'a\n   b  '"), "a b  ");
        assert_eq!(value_offset_to_source("''", 0), 1);
    }

    #[test]
    fn double_quoted_scalars_unescape() {
        let source = "\"a\\u00e9b\"";
        assert_eq!(decoded(source), "aéb");
        assert_eq!(value_offset_to_source(source, 1), 2);
        assert_eq!(value_offset_to_source(source, 3), 8);
        assert_eq!(decoded(r#""a \"b\" \u00e9 c""#), "a \"b\" é c");
        assert_eq!(
            decoded(r#""\\ \/ \n\t\r\0\a\b\e\f\v\N\_\L\P\x41\U0001F600\q""#),
            "\\ / \n\t\r\0\u{7}\u{8}\u{1b}\u{c}\u{b}\u{85}\u{a0}\u{2028}\u{2029}A😀q"
        );
        let source = "\"spec.a >  \\\n    1 + \n\n  2\"";
        assert_eq!(decoded(source), "spec.a >  1 +\n2");
        assert_eq!(
            value_offset_to_source(source, 10),
            source.find('1').unwrap_or(0)
        );
        assert_eq!(decoded("\"\\u12\""), "\u{12}");
        assert_eq!(decoded("\"\\uZZ\\"), "\u{FFFD}ZZ\\");
    }

    #[test]
    fn literal_blocks_keep_lines() {
        let source = "|\n  spec.a >\n  (1 +\n";
        assert_eq!(decoded(source), "spec.a >\n(1 +\n");
        assert_eq!(
            value_offset_to_source(source, 9),
            source.find('(').unwrap_or(0)
        );
        assert_eq!(value_offset_to_source(source, 0), 4);
        assert_eq!(value_offset_to_source(source, 14), 19);
        assert_eq!(value_offset_to_source(source, 99), 19);
        let source = "|-\n    a\n      b\n\n    c\n\n";
        assert_eq!(decoded(source), "a\n  b\n\nc");
        assert_eq!(
            value_offset_to_source(source, 4),
            source.find('b').unwrap_or(0)
        );
        assert_eq!(decoded("|+ # keep\n  a\n\n"), "a\n\n");
        assert_eq!(decoded("|2\n   a\n  b\n"), " a\nb\n");
        assert_eq!(decoded("|\r\n  a\r\n  b"), "a\nb");
    }

    #[test]
    fn folded_blocks_fold_lines() {
        let source = ">\n  spec.a >\n  1 +\n\n  2\n     more\n  3\n";
        assert_eq!(decoded(source), "spec.a > 1 +\n2\n   more\n3\n");
        assert_eq!(
            value_offset_to_source(source, 9),
            source.find('1').unwrap_or(0)
        );
        assert_eq!(
            value_offset_to_source(source, 13),
            source.find('2').unwrap_or(0)
        );
        assert_eq!(decoded(">-\n  a\n  b\n"), "a b");
    }
}
