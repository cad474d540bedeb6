//! Source files and byte spans.
//!
//! Everything dopol reports points back at the bytes a user wrote. Loading registers every input
//! (file, stdin, git blob) once in a [`SourceMap`]; the YAML tree and every model object built from
//! it carry compact [`Span`]s (source id + byte range). Lines and columns are derived only when a
//! diagnostic is printed, so the hot path never pays for them.

use std::path::Path;
use std::sync::{Arc, OnceLock};

/// Index of a file in the [`SourceMap`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct SourceId(pub u32);

/// A byte range in one source file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Span {
    /// The file the bytes belong to.
    pub source: SourceId,
    /// Byte offset of the first byte.
    pub start: u32,
    /// Byte offset one past the last byte.
    pub end: u32,
}

impl Span {
    /// A span covering `start..end` in `source`.
    pub fn new(source: SourceId, start: u32, end: u32) -> Self {
        Span {
            source,
            start,
            end: end.max(start),
        }
    }

    /// Length in bytes.
    pub fn len(&self) -> u32 {
        self.end - self.start
    }

    /// Whether the span covers no byte.
    pub fn is_empty(&self) -> bool {
        self.end == self.start
    }
}

/// A 1-based line and column (columns count characters, as editors do).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct LineCol {
    /// 1-based line number.
    pub line: u32,
    /// 1-based column, in characters.
    pub column: u32,
}

/// A file's text: owned, or (a big local file in valid UTF-8) the file mapped into memory.
#[derive(Debug)]
pub enum Text {
    /// Read into memory.
    Owned(String),
    /// Mapped; the bytes were checked to be UTF-8 when the text was made.
    #[cfg(unix)]
    Mapped(crate::platform::Mapped),
    /// A regular local file's text, which may be dropped once the file is parsed
    /// ([`SourceMap::hand_back`]) and is then read again from the file when asked for.
    Again(Box<Again>),
}

/// The text of a file that can be read again: held until [`SourceMap::hand_back`], read again
/// (once, then held) when a diagnostic or a second read of an object asks for it after that.
///
/// A directory of one file per object is read into memory file by file (mapping thousands of
/// small files costs more than reading them); its texts were held to the end of the run: the
/// whole input, a third of `effective`'s peak on the 49 MB benchmark in that form. Big files
/// are mapped, and their pages are handed back instead ([`crate::platform::Mapped`]).
#[derive(Debug)]
pub struct Again {
    text: OnceLock<String>,
    /// The text's length, to check what is read again.
    len: usize,
    from: ReadAgain,
}

/// Where a text is read again from, and how.
#[derive(Debug)]
pub struct ReadAgain {
    /// The file.
    pub path: Box<Path>,
    /// What identifies the file as it was first read (see `load::files`: its device, inode,
    /// size and change times, hashed).
    pub stamp: u64,
    /// Reads and decodes the file as it was first read; `None` when it is not that file any
    /// more (another stamp, or another decoded length) or cannot be read.
    pub read: fn(&Path, u64) -> Option<String>,
}

impl Again {
    /// The text, read again if it was handed back. A file changed since it was first read
    /// gives blanks of the same length: spans still fall inside, and nothing points at text
    /// that is not what was parsed.
    fn as_str(&self) -> &str {
        self.text.get_or_init(|| {
            (self.from.read)(&self.from.path, self.from.stamp)
                .filter(|text| text.len() == self.len)
                .unwrap_or_else(|| " ".repeat(self.len))
        })
    }
}

impl Text {
    /// This text, read again from `from` once it is handed back (an owned text; any other
    /// stays as it is).
    pub fn readable_again(self, from: ReadAgain) -> Text {
        match self {
            Text::Owned(text) => Text::Again(Box::new(Again {
                len: text.len(),
                text: OnceLock::from(text),
                from,
            })),
            other => other,
        }
    }

    /// A mapped file's text, when its bytes are UTF-8.
    #[cfg(unix)]
    pub fn mapped(mapped: crate::platform::Mapped) -> Result<Text, crate::platform::Mapped> {
        if is_utf8(mapped.bytes()) {
            Ok(Text::Mapped(mapped))
        } else {
            Err(mapped)
        }
    }

    /// The text.
    pub fn as_str(&self) -> &str {
        match self {
            Text::Owned(text) => text,
            // SAFETY: checked to be UTF-8 in `Text::mapped`; the mapping is read-only.
            #[cfg(unix)]
            Text::Mapped(mapped) => unsafe { std::str::from_utf8_unchecked(mapped.bytes()) },
            Text::Again(again) => again.as_str(),
        }
    }

    /// The text's length in bytes (a handed-back text is not read again for it).
    fn len(&self) -> usize {
        match self {
            Text::Again(again) => again.len,
            other => other.as_str().len(),
        }
    }

    /// Hands back the pages of a mapped text wholly inside `range` (see
    /// [`crate::platform::Mapped`]); an owned text stays as it is.
    fn release_range(&self, range: std::ops::Range<usize>) {
        match self {
            Text::Owned(_) | Text::Again(_) => {}
            #[cfg(unix)]
            Text::Mapped(mapped) => mapped.release_range(range),
        }
    }

    /// See [`crate::platform::Mapped::read_again_from`]; nothing for an owned text.
    fn read_again_from(&self, range: std::ops::Range<usize>) {
        match self {
            Text::Owned(_) | Text::Again(_) => {}
            #[cfg(unix)]
            Text::Mapped(mapped) => mapped.read_again_from(range),
        }
    }
}

impl From<String> for Text {
    fn from(text: String) -> Text {
        Text::Owned(text)
    }
}

impl From<&str> for Text {
    fn from(text: &str) -> Text {
        Text::Owned(text.to_string())
    }
}

/// One input file (or stdin, or a file at a git revision) and its text.
#[derive(Debug)]
pub struct SourceFile {
    name: String,
    /// Owned here (the file itself is shared): turning the read `String` into an `Arc<str>` would
    /// copy the whole input once more.
    text: Text,
    line_starts: OnceLock<Vec<u32>>,
    lone_cr: OnceLock<bool>,
}

/// The least text one part of a line-start scan gets: smaller text is scanned on the calling
/// thread alone; bigger text on up to one thread per core (`lint` on a 49 MB file looks up its
/// first line after everything else is done).
const LINE_SCAN_CHUNK: usize = 1 << 20;

/// Bytes of a text scanned between two hand-backs of its pages (see
/// [`SourceFile::scan_in_blocks`]).
const SCAN_BLOCK: usize = 2 << 20;

/// The offset of every line's first byte: 0, and one past each `\n`.
///
/// A big text is cut into one part per core, scanned on scoped threads of its own rather than
/// on the rayon pool: this runs inside `OnceLock::get_or_init`, often from a rayon task, and a
/// pool thread waiting here could pick up another task that asks for the same index, which
/// would re-enter the initialisation.
fn line_starts(text: &[u8]) -> Vec<u32> {
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    line_starts_in_parts(text, cores.min(text.len() / LINE_SCAN_CHUNK).max(1))
}

/// [`line_starts`], `text` cut into `parts` parts of equal size (the last one shorter).
/// Parts of this many bytes are checked apart by [`is_utf8`].
const UTF8_PART: usize = 4 << 20;

/// Whether `bytes` are UTF-8, a big text checked in parts of about [`UTF8_PART`] on every core:
/// a run reads nothing else until its input is known to be text, and on the 49 MB benchmark one
/// core took 20–40 ms for it (200 ms when the file's pages had to be read in).
///
/// A part starts at a character's first byte, so the text is UTF-8 exactly when every part is:
/// a sequence cut by a part's end leaves that part ending in a truncated one. No byte a
/// character can start with within 4 bytes of a cut is not UTF-8 either.
pub(crate) fn is_utf8(bytes: &[u8]) -> bool {
    is_utf8_in_parts(bytes, UTF8_PART)
}

/// [`is_utf8`] with parts of `part` bytes (the tests' parts are a few bytes long).
fn is_utf8_in_parts(bytes: &[u8], part: usize) -> bool {
    use rayon::prelude::*;
    if bytes.len() < 2 * part {
        return std::str::from_utf8(bytes).is_ok();
    }
    let mut cuts = vec![0];
    for target in (part..bytes.len()).step_by(part) {
        let continues = |&at: &usize| bytes[at] & 0xC0 == 0x80;
        // A cut within a last character's bytes falls at the end.
        let end = (target + 4).min(bytes.len());
        let start = (target..end).find(|at| !continues(at));
        let Some(start) = start.or((end == bytes.len()).then_some(end)) else {
            return false;
        };
        cuts.push(start);
    }
    cuts.push(bytes.len());
    (cuts.par_windows(2)).all(|cut| std::str::from_utf8(&bytes[cut[0]..cut[1]]).is_ok())
}

fn line_starts_in_parts(text: &[u8], parts: usize) -> Vec<u32> {
    let scan = |base: usize, bytes: &[u8]| -> Vec<u32> {
        memchr::memchr_iter(b'\n', bytes)
            .map(|i| (base + i) as u32 + 1)
            .collect()
    };
    let size = text.len().div_ceil(parts.max(1));
    let scan_part = |part: usize| {
        let range = (part * size).min(text.len())..((part + 1) * size).min(text.len());
        scan(range.start, &text[range])
    };
    let found: Vec<Vec<u32>> = if parts == 1 {
        vec![scan(0, text)]
    } else {
        std::thread::scope(|scope| {
            let others: Vec<_> = (1..parts)
                .map(|part| {
                    std::thread::Builder::new().spawn_scoped(scope, move || scan_part(part))
                })
                .collect();
            let mut found = vec![scan_part(0)];
            // Should a thread not start (or fail), its part is scanned here.
            for (part, other) in (1..parts).zip(others) {
                let scanned = other.ok().and_then(|thread| thread.join().ok());
                found.push(scanned.unwrap_or_else(|| scan_part(part)));
            }
            found
        })
    };
    let mut starts = Vec::with_capacity(1 + found.iter().map(Vec::len).sum::<usize>());
    starts.push(0);
    for part in found {
        starts.extend_from_slice(&part);
    }
    starts
}

impl SourceFile {
    /// The name shown to users (a path as given, `<stdin>`, or `git:<rev>:<path>`).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The decoded text (invalid UTF-8 was replaced by U+FFFD and reported).
    pub fn text(&self) -> &str {
        self.text.as_str()
    }

    fn line_starts(&self) -> &[u32] {
        self.line_starts.get_or_init(|| {
            let bytes = self.text().as_bytes();
            let mut starts = vec![0];
            self.scan_in_blocks(|block| {
                // Each block's scan starts with the block's own first byte (0): skipped.
                let found = line_starts(&bytes[block.clone()]);
                starts.extend(found[1..].iter().map(|&i| i + block.start as u32));
                true
            });
            starts
        })
    }

    /// Runs `scan` over the text a block of [`SCAN_BLOCK`] bytes at a time, until it returns
    /// `false`, handing a mapped text's pages back after each block. A scan reads every page in
    /// again (the load gave them back), and only the few a diagnostic points at are read after
    /// it; handing them back only at the end held the whole file at once (49 MB at `lint`'s
    /// peak on the 49 MB benchmark, whose first line lookup comes last).
    fn scan_in_blocks(&self, mut scan: impl FnMut(std::ops::Range<usize>) -> bool) {
        let len = self.text().len();
        let mut start = 0;
        while start < len {
            let end = len.min(start + SCAN_BLOCK);
            let go_on = scan(start..end);
            self.release_range(start..end);
            if !go_on {
                break;
            }
            start = end;
        }
    }

    /// Whether the text is a mapped file's (whose pages [`SourceFile::release`] hands back).
    pub fn is_mapped(&self) -> bool {
        match &self.text {
            #[cfg(unix)]
            Text::Mapped(_) => true,
            _ => false,
        }
    }

    /// Hands the pages of a mapped text back to the system (see [`crate::platform::Mapped`]);
    /// the bytes stay readable.
    pub fn release(&self) {
        self.release_range(0..self.text.len());
    }

    /// [`SourceFile::release`] for the pages wholly inside `range` only.
    pub fn release_range(&self, range: std::ops::Range<usize>) {
        self.text.release_range(range);
    }

    /// Says that `range` was just read again (an object's document): a mapped text hands
    /// back what earlier such reads brought in, once the reads move on from it (see
    /// [`crate::platform::Mapped::read_again_from`]).
    pub fn read_again_from(&self, range: std::ops::Range<usize>) {
        self.text.read_again_from(range);
    }

    /// 0-based index of the line holding a byte offset (lines end at `\n`; clamped to the text).
    pub fn line_index(&self, offset: usize) -> usize {
        let offset = offset.min(self.text().len()) as u32;
        match self.line_starts().binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        }
    }

    /// Byte offset where a 0-based line starts, or `None` past the last line.
    pub fn line_start(&self, line: usize) -> Option<usize> {
        self.line_starts().get(line).map(|&s| s as usize)
    }

    /// Whether the text has a carriage return not followed by `\n` (which some renderers count as
    /// a line break of its own, so `\n`-based line numbers do not apply).
    pub fn has_lone_cr(&self) -> bool {
        *self.lone_cr.get_or_init(|| {
            let bytes = self.text().as_bytes();
            let mut found = false;
            self.scan_in_blocks(|block| {
                let base = block.start;
                found = memchr::memchr_iter(b'\r', &bytes[block])
                    .any(|i| bytes.get(base + i + 1) != Some(&b'\n'));
                !found
            });
            found
        })
    }

    /// Line and column of a byte offset (clamped to the text and to a character boundary).
    pub fn line_col(&self, offset: u32) -> LineCol {
        let offset = (offset as usize).min(self.text().len());
        let line_index = self.line_index(offset);
        let line_start = self.line_starts()[line_index] as usize;
        let mut end = offset;
        while !self.text().is_char_boundary(end) {
            end -= 1;
        }
        let column = self.text()[line_start..end].chars().count() as u32 + 1;
        LineCol {
            line: line_index as u32 + 1,
            column,
        }
    }
}

/// All inputs of one evaluation, addressed by [`SourceId`].
#[derive(Debug, Default, Clone)]
pub struct SourceMap {
    files: Vec<Arc<SourceFile>>,
}

impl SourceMap {
    /// An empty map.
    pub fn new() -> Self {
        Self::default()
    }

    /// Registers a file and returns its id.
    pub fn add(&mut self, name: impl Into<String>, text: impl Into<Text>) -> SourceId {
        let id = SourceId(self.files.len() as u32);
        self.files.push(Arc::new(SourceFile {
            name: name.into(),
            text: text.into(),
            line_starts: OnceLock::new(),
            lone_cr: OnceLock::new(),
        }));
        id
    }

    /// Drops the text of file `id` when it can be read again ([`Again`]) and nothing else
    /// holds the file; the next look at the text reads it again.
    pub fn hand_back(&mut self, id: SourceId) {
        let Some(file) = self.files.get_mut(id.0 as usize).and_then(Arc::get_mut) else {
            return;
        };
        if let Text::Again(again) = &mut file.text {
            again.text.take();
        }
    }

    /// The file behind an id.
    ///
    /// # Panics
    /// When the id was not produced by this map (a programming error).
    pub fn get(&self, id: SourceId) -> &SourceFile {
        &self.files[id.0 as usize]
    }

    /// Line and column where a span starts.
    pub fn start_of(&self, span: Span) -> LineCol {
        self.get(span.source).line_col(span.start)
    }

    /// The text a span covers.
    pub fn slice(&self, span: Span) -> &str {
        let text = self.get(span.source).text();
        text.get(span.start as usize..span.end as usize)
            .unwrap_or("")
    }

    /// Number of registered files.
    pub fn len(&self) -> usize {
        self.files.len()
    }

    /// Whether no file was registered.
    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    /// All files in registration order.
    pub fn iter(&self) -> impl Iterator<Item = (SourceId, &SourceFile)> {
        self.files
            .iter()
            .enumerate()
            .map(|(i, f)| (SourceId(i as u32), f.as_ref()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf8_checked_in_parts_is_utf8_checked_whole() {
        let part = super::UTF8_PART;
        // Multi-byte characters straddling every cut, and bytes that are not UTF-8 at, before,
        // after and across cuts.
        let mut text = Vec::new();
        while text.len() < 3 * part + 100 {
            text.extend_from_slice("ab€😀é\n".as_bytes());
        }
        assert!(super::is_utf8(&text));
        for at in [
            0,
            part - 1,
            part,
            part + 1,
            part + 3,
            2 * part + 2,
            text.len() - 1,
        ] {
            for bad in [0xFFu8, 0x80, 0xE2, 0xF0] {
                let mut broken = text.clone();
                broken[at] = bad;
                assert_eq!(
                    super::is_utf8(&broken),
                    std::str::from_utf8(&broken).is_ok(),
                    "byte {bad:#x} at {at}"
                );
            }
        }
        // A cut within the last character's bytes: the text ends there (proptest found that a
        // text ending in a multi-byte character was called not UTF-8).
        for part in 1..6 {
            assert!(
                super::is_utf8_in_parts("a😀".as_bytes(), part),
                "part {part}"
            );
            assert!(
                !super::is_utf8_in_parts(&"a😀".as_bytes()[..4], part),
                "part {part}"
            );
        }
        // Continuation bytes only around a cut: no character starts there.
        let mut run = text.clone();
        run[part..part + 6].fill(0x80);
        assert!(!super::is_utf8(&run));
    }

    proptest::proptest! {
        /// Checked in parts of any size, any bytes (mostly UTF-8 with stray bytes put in) are
        /// UTF-8 exactly when `str::from_utf8` says so.
        #[test]
        fn utf8_in_parts_agrees_with_the_whole_check(
            text in "[a-z€😀é\\n]{0,40}",
            stray in proptest::collection::vec((0usize..200, proptest::prelude::any::<u8>()), 0..3),
            part in 1usize..12,
        ) {
            let mut bytes = text.into_bytes();
            for (at, byte) in stray {
                if !bytes.is_empty() {
                    let at = at % bytes.len();
                    bytes[at] = byte;
                }
            }
            proptest::prop_assert_eq!(
                super::is_utf8_in_parts(&bytes, part),
                std::str::from_utf8(&bytes).is_ok()
            );
        }
    }

    #[test]
    fn line_starts_of_many_parts_are_those_of_one_scan() {
        // Line starts found byte by byte.
        let one_scan = |text: &[u8]| -> Vec<u32> {
            let newlines = text.iter().enumerate().filter(|(_, b)| **b == b'\n');
            std::iter::once(0)
                .chain(newlines.map(|(i, _)| i as u32 + 1))
                .collect()
        };
        let mut text = Vec::new();
        let mut line = 0;
        while text.len() < 10_000 {
            text.extend(std::iter::repeat_n(b'x', line % 97));
            text.push(b'\n');
            line += 1;
        }
        for parts in 1..=5 {
            assert_eq!(line_starts_in_parts(b"a\nb\n", parts), [0, 2, 4]);
            // Newlines just before, at and just after every cut.
            let size = text.len().div_ceil(parts);
            let mut text = text.clone();
            for cut in (1..parts).map(|p| p * size) {
                text[cut - 1] = b'\n';
                text[cut] = b'\n';
                text[cut + 1] = b'\n';
            }
            let found = line_starts_in_parts(&text, parts);
            assert_eq!(found, one_scan(&text), "{parts} parts");
        }
        assert_eq!(line_starts(&text), one_scan(&text));
        let big = vec![b'\n'; 2 * LINE_SCAN_CHUNK + 3];
        assert_eq!(line_starts(&big).len(), big.len() + 1);
        assert_eq!(line_starts(b"a\nb"), [0, 2]);
        assert_eq!(line_starts(b""), [0]);
    }

    #[test]
    fn scans_in_blocks_find_what_one_scan_finds_across_block_ends() {
        let mut bytes = vec![b'x'; 2 * SCAN_BLOCK + 5];
        // A CRLF across the first block's end; a line starting where the second block ends.
        bytes[SCAN_BLOCK - 1] = b'\r';
        bytes[SCAN_BLOCK] = b'\n';
        bytes[2 * SCAN_BLOCK - 1] = b'\n';
        let map_of = |bytes: &[u8]| {
            let mut map = SourceMap::new();
            map.add("a.yaml", String::from_utf8(bytes.to_vec()).unwrap());
            map
        };
        let map = map_of(&bytes);
        let file = map.get(SourceId(0));
        assert!(!file.has_lone_cr());
        let block = SCAN_BLOCK as u32;
        assert_eq!(file.line_starts(), [0, block + 1, 2 * block]);
        assert_eq!(file.line_starts(), line_starts(&bytes));
        // A CR ending a block, followed by something else; then one ending the text.
        bytes[SCAN_BLOCK] = b'y';
        assert!(map_of(&bytes).get(SourceId(0)).has_lone_cr());
        bytes[SCAN_BLOCK - 1] = b'x';
        assert!(!map_of(&bytes).get(SourceId(0)).has_lone_cr());
        *bytes.last_mut().unwrap() = b'\r';
        assert!(map_of(&bytes).get(SourceId(0)).has_lone_cr());
        assert_eq!(map_of(b"").get(SourceId(0)).line_starts(), [0]);
    }

    #[test]
    fn line_and_column_count_characters() {
        let mut map = SourceMap::new();
        let id = map.add("a.yaml", "ab\nçd: x\n");
        let file = map.get(id);
        assert_eq!(file.line_col(0), LineCol { line: 1, column: 1 });
        assert_eq!(file.line_col(3), LineCol { line: 2, column: 1 });
        // 'ç' is two bytes; 'd' is the second character of line 2.
        assert_eq!(file.line_col(5), LineCol { line: 2, column: 2 });
        assert_eq!(file.line_col(1000), LineCol { line: 3, column: 1 });
    }
}
