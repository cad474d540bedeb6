//! Source code for miette that reads only the lines around a span.
//!
//! miette's own `SourceCode` for text walks the file from its first byte to find the line and
//! column of every label, so rendering N diagnostics on one big file costs N × file size (780
//! warnings on a 4.9 MB file took 7 s). [`Snippet`] hands miette a window cut from the file's line
//! index instead (the lines the snippet shows, plus a margin), runs miette's own algorithm on that
//! window, and shifts the result back to file coordinates. Because the window starts at a line
//! start and ends after the point where miette stops reading, the result is the same as reading
//! the whole file, at a cost proportional to the snippet.

use crate::source::SourceFile;
use miette::{MietteError, MietteSpanContents, SourceCode, SourceSpan, SpanContents};

/// Lines read past the span's last line beyond the context miette asks for (miette stops at most
/// two line breaks after the context).
const MARGIN_LINES: usize = 3;

/// One file as miette source code, named as users see it.
pub struct Snippet<'a> {
    file: &'a SourceFile,
}

impl<'a> Snippet<'a> {
    /// The file, read through its line index.
    pub fn new(file: &'a SourceFile) -> Self {
        Snippet { file }
    }

    /// Byte range of the lines miette may read for `span`: from the start of the line before the
    /// first context line (so an empty span never sits at the window's first byte, which miette
    /// treats specially) to a few lines past the last context line. `None` when the window would not give miette's
    /// exact answer (a lone `\r`, which miette counts as a line break and the index does not).
    fn window(&self, span: &SourceSpan, before: usize, after: usize) -> Option<(usize, usize)> {
        if self.file.has_lone_cr() {
            return None;
        }
        let len = self.file.text().len();
        let first_line = self
            .file
            .line_index(span.offset())
            .saturating_sub(before + 1);
        let last_line = self.file.line_index(span.offset() + span.len());
        let start = self.file.line_start(first_line).unwrap_or(0);
        let end = self
            .file
            .line_start(last_line + after + MARGIN_LINES)
            .unwrap_or(len);
        Some((start, end))
    }
}

impl SourceCode for Snippet<'_> {
    fn read_span<'b>(
        &'b self,
        span: &SourceSpan,
        context_lines_before: usize,
        context_lines_after: usize,
    ) -> Result<Box<dyn SpanContents<'b> + 'b>, MietteError> {
        let text = self.file.text();
        let Some((start, end)) = self.window(span, context_lines_before, context_lines_after)
        else {
            let inner = text.read_span(span, context_lines_before, context_lines_after)?;
            return Ok(Box::new(named(self.file, inner.as_ref(), 0, 0)));
        };
        let local = SourceSpan::new((span.offset() - start).into(), span.len());
        let inner =
            text[start..end].read_span(&local, context_lines_before, context_lines_after)?;
        let first_line = self.file.line_index(start);
        Ok(Box::new(named(
            self.file,
            inner.as_ref(),
            start,
            first_line,
        )))
    }
}

/// miette's answer for a window starting at byte `start` (line `first_line`), in file coordinates
/// and with the file's name.
fn named<'b>(
    file: &'b SourceFile,
    inner: &dyn SpanContents<'b>,
    start: usize,
    first_line: usize,
) -> MietteSpanContents<'b> {
    let local = inner.span();
    MietteSpanContents::new_named(
        file.name().to_string(),
        inner.data(),
        SourceSpan::new((local.offset() + start).into(), local.len()),
        inner.line() + first_line,
        inner.column(),
        inner.line_count() + first_line,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::SourceMap;

    /// The window gives miette's whole-file answer for every span, context size and line ending.
    #[test]
    fn same_answer_as_reading_the_whole_file() {
        let texts = [
            "a: 1\nbb: 22\n\nccc: 333\nd: [x, y]\ne: 5\nf: 6\ng: 7\n",
            "a: 1\r\nbb: 22\r\n\r\nccc: 333\r\nd: 4",
            "a: 1\rb: 2\nc: 3\n",
            "no newline",
            "",
        ];
        for text in texts {
            let mut map = SourceMap::new();
            let id = map.add("f.yaml", text);
            let snippet = Snippet::new(map.get(id));
            for offset in 0..=text.len() {
                for len in 0..=(text.len() - offset).min(12) {
                    for context in 0..3 {
                        let span = SourceSpan::new(offset.into(), len);
                        let ours = snippet.read_span(&span, context, context);
                        let theirs = text.read_span(&span, context, context);
                        match (ours, theirs) {
                            (Ok(ours), Ok(theirs)) => {
                                let what = format!("{text:?} {offset}+{len} ctx {context}");
                                assert_eq!(ours.data(), theirs.data(), "{what}");
                                assert_eq!(ours.span(), theirs.span(), "{what}");
                                assert_eq!(ours.line(), theirs.line(), "{what}");
                                assert_eq!(ours.column(), theirs.column(), "{what}");
                                assert_eq!(ours.line_count(), theirs.line_count(), "{what}");
                                assert_eq!(ours.name(), Some("f.yaml"));
                            }
                            (ours, theirs) => assert_eq!(ours.is_err(), theirs.is_err()),
                        }
                    }
                }
            }
        }
    }
}
