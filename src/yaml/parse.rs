//! YAML text → spanned [`Node`] trees.
//!
//! The event parser (`saphyr-parser`) reports positions in characters; dopol converts them to
//! byte offsets per document (an identity for ASCII documents, a short checkpoint table
//! otherwise). Files are first cut into documents at column-0 `---` lines, which YAML forbids as
//! content, so documents can be parsed in parallel and one broken document never hides the
//! others.
//!
//! Resource bounds, per document, so that hostile input fails cleanly and fast instead of
//! exhausting the stack, memory or time (docs/limits.md lists them):
//!
//! - [`MAX_DOCUMENT_NODES`] caps what a document may hold as written. Memory grows with nodes,
//!   not bytes (a long string is one allocation; `[1,1,1,...]` is a node every two bytes), so
//!   nodes are what is counted. A `kind: List` is one document, so the cap is far above what a
//!   cluster dump holds.
//! - [`MAX_DEPTH`] caps nesting. The tree is built with an explicit stack, but it is later
//!   walked, dropped and serialized recursively.
//! - [`MAX_ALIAS_NODES`] and [`MAX_ALIAS_BYTES`] cap what aliases expand to. An alias shares
//!   its anchor's subtree, but converting it to JSON, validating it or printing it copies it
//!   once per alias, so nested aliases ("billion laughs") or many aliases of a long string
//!   would cost exponential or quadratic memory and time downstream.
//!
//! Every message names the limit (`yaml-depth`, ...) and its value. Anchors are kept in a map
//! and merge keys are resolved with a set of the keys seen, so that neither many anchors nor
//! large merges cost quadratic time.

use super::diags::YamlSyntax;
use super::node::{Entry, Key, Node, Value};
use super::scalar::{plain_non_string, resolve_plain, resolve_tagged};
use super::shared::Shared;
use crate::diag::Diagnostic;
use crate::name::Name;
pub use crate::name::intern;
use crate::source::{SourceId, Span};
use saphyr_parser::{Event, Parser, ScalarStyle, Tag};
use std::collections::{HashMap, HashSet};
use std::ops::Range;

/// Deepest nesting of collections accepted in one document (`yaml-depth`). The parser counts
/// flow levels (`[[[`) in a byte and fails past 255 itself; block nesting is held to the same.
pub const MAX_DEPTH: usize = u8::MAX as usize;
/// Most nodes that aliases may expand to in one document (`yaml-alias-nodes`; stops "billion
/// laughs").
pub const MAX_ALIAS_NODES: usize = 1_000_000;
/// Most bytes of strings and mapping keys that aliases may copy in one document
/// (`yaml-alias-bytes`; stops many aliases of one long string).
pub const MAX_ALIAS_BYTES: usize = 16 << 20;
/// Most nodes (scalars, mapping keys included, sequences and mappings) written in one
/// document (`yaml-document-nodes`). Real objects hold tens to a few thousand; a `kind: List`
/// of 100,000 such objects stays below it. A node costs about 100 bytes of memory while the
/// document is built, so one document stays within about 1.6 GB.
pub const MAX_DOCUMENT_NODES: usize = 16_000_000;

/// The parser's own message when flow collections nest past 255 levels.
const PARSER_DEPTH_ERROR: &str = "recursion limit exceeded";

const TOO_DEEP: YamlSyntax<'static> = YamlSyntax::TooDeep { max: MAX_DEPTH };

/// One parsed YAML document.
#[derive(Clone, Debug)]
pub struct Document {
    /// The root node.
    pub root: Node,
}

/// What a subtree expands to when its aliases are copied out: nodes and text bytes.
#[derive(Clone, Copy, Debug, Default)]
struct Extent {
    nodes: usize,
    text_bytes: usize,
}

impl Extent {
    /// A sequence or mapping itself, before its children.
    const COLLECTION: Extent = Extent {
        nodes: 1,
        text_bytes: 0,
    };

    fn of_scalar(value: &Value) -> Extent {
        let text_bytes = match value {
            Value::String(s) => s.len(),
            _ => 0,
        };
        Extent {
            nodes: 1,
            text_bytes,
        }
    }

    /// Both together (saturating: a sum that large is over every limit anyway).
    fn and(self, other: Extent) -> Extent {
        Extent {
            nodes: self.nodes.saturating_add(other.nodes),
            text_bytes: self.text_bytes.saturating_add(other.text_bytes),
        }
    }
}

/// Splits a file into byte ranges holding one document each (in order).
///
/// A line starting with `---` followed by a blank or the end of the line starts a document
/// (YAML forbids such a line inside content). Files with `%` directives are not split, since a
/// directive belongs to the document after it.
pub fn split_documents(text: &str) -> Vec<Range<usize>> {
    if let Some(values) = json_values(text) {
        return values;
    }
    // Only line starts matter: the two patterns are searched for (vectorised) after each line
    // break, rather than walking the file line by line.
    let bytes = text.as_bytes();
    if bytes.first() == Some(&b'%') || memchr::memmem::find(bytes, b"\n%").is_some() {
        let whole = 0..text.len();
        return vec![whole];
    }
    let mut cuts = vec![0usize];
    cuts.extend(
        memchr::memmem::find_iter(bytes, b"\n---")
            .map(|newline| newline + 1)
            .filter(|&line| {
                bytes
                    .get(line + 3)
                    .is_none_or(|b| matches!(b, b' ' | b'\t' | b'\r' | b'\n'))
            }),
    );
    cuts.push(text.len());
    cuts.windows(2).map(|w| w[0]..w[1]).collect()
}

/// Cuts a JSON stream (`{...}\n{...}`, as kubectl reads it) at its top-level values. `None`
/// when the text does not start with `{`/`[` or holds anything but values and whitespace
/// between them (then it is YAML, cut at `---` lines).
fn json_values(text: &str) -> Option<Vec<Range<usize>>> {
    let bytes = text.as_bytes();
    let skip_blank = |mut i: usize| {
        while i < bytes.len() && bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        i
    };
    let mut start = skip_blank(0);
    if !matches!(bytes.get(start), Some(b'{' | b'[')) {
        return None;
    }
    let mut values = Vec::new();
    while start < bytes.len() {
        if !matches!(bytes[start], b'{' | b'[') {
            return None;
        }
        let Some(end) = json_close(bytes, start, b"") else {
            // Unbalanced: let the parser report it, on the whole rest.
            values.push(start..text.len());
            return Some(values);
        };
        values.push(start..end);
        start = skip_blank(end);
    }
    (values.len() > 1).then_some(values)
}

/// Where the JSON object or array opening at `at` closes (past its bracket), brackets matched
/// outside strings; `None` when it does not close, or when one of the `refused` bytes occurs
/// outside strings.
pub(super) fn json_close(bytes: &[u8], at: usize, refused: &[u8]) -> Option<usize> {
    let (mut depth, mut i) = (0usize, at);
    loop {
        match bytes.get(i)? {
            b'"' => {
                i = json_string_end(bytes, i)?;
                continue;
            }
            b'{' | b'[' => depth += 1,
            b'}' | b']' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            b if refused.contains(b) => return None,
            _ => {}
        }
        i += 1;
    }
}

/// Where the JSON string starting at `at` (a `"`) ends, past its closing quote.
pub(super) fn json_string_end(bytes: &[u8], at: usize) -> Option<usize> {
    (bytes.get(at) == Some(&b'"')).then_some(())?;
    let mut i = at + 1;
    loop {
        match bytes.get(i)? {
            b'\\' => i += 2,
            b'"' => return Some(i + 1),
            _ => i += 1,
        }
    }
}

/// Converts the parser's character indices to byte offsets within one chunk.
struct ByteOffsets {
    base: usize,
    /// `(char index, byte offset)` right after each non-ASCII character; empty for ASCII text.
    checkpoints: Vec<(usize, usize)>,
}

impl ByteOffsets {
    fn new(chunk: &str, base: usize) -> Self {
        let mut checkpoints = Vec::new();
        if !chunk.is_ascii() {
            for (char_index, (byte, c)) in chunk.char_indices().enumerate() {
                if !c.is_ascii() {
                    checkpoints.push((char_index + 1, byte + c.len_utf8()));
                }
            }
        }
        ByteOffsets { base, checkpoints }
    }

    fn byte(&self, char_index: usize) -> u32 {
        let relative = match self.checkpoints.partition_point(|(c, _)| *c <= char_index) {
            0 => char_index,
            i => {
                let (c, b) = self.checkpoints[i - 1];
                b + (char_index - c)
            }
        };
        (self.base + relative) as u32
    }
}

/// An open collection. Its children so far are the tail of the builder's shared `items` or
/// `entries` stack from `base` on, so a collection is allocated once, at its exact size, when
/// it closes (not grown child by child, then copied).
enum Frame {
    Seq {
        start: u32,
        end: u32,
        anchor: usize,
        extent: Extent,
        base: usize,
    },
    Map {
        start: u32,
        end: u32,
        anchor: usize,
        extent: Extent,
        base: usize,
        key: Option<Key>,
        merges: Vec<Node>,
    },
}

impl Frame {
    fn extent_mut(&mut self) -> &mut Extent {
        match self {
            Frame::Seq { extent, .. } | Frame::Map { extent, .. } => extent,
        }
    }
}

struct Builder<'a> {
    source: SourceId,
    /// The whole file's text (spans are offsets into it).
    text: &'a str,
    offsets: ByteOffsets,
    stack: Vec<Frame>,
    /// The items of the open sequences, innermost last.
    items: Vec<Node>,
    /// The entries of the open mappings, innermost last.
    entries: Vec<Entry>,
    /// Anchor id → the anchored node and its extent.
    anchors: HashMap<usize, (Node, Extent)>,
    /// What the document's aliases expanded to so far.
    aliased: Extent,
    /// Nodes written in the document so far.
    written: usize,
    /// The most a document may hold ([`MAX_DOCUMENT_NODES`]; smaller in tests).
    max_nodes: usize,
    /// How deep in its document the chunk's root sits (0 but for a part of a List).
    depth: usize,
    /// Whether an alias was read.
    aliases: bool,
    /// Where the document's first node starts.
    first: Span,
    root: Option<Node>,
    documents: Vec<Document>,
    diagnostics: &'a mut Vec<Diagnostic>,
}

/// Why building a document stopped.
struct Abort(Box<Diagnostic>);

impl Builder<'_> {
    /// What was read; the stacks go back to the thread for its next chunk.
    fn into_part(mut self) -> Part {
        self.items.clear();
        self.entries.clear();
        STACKS.set((self.items, self.entries));
        Part {
            documents: self.documents,
            nodes: self.written,
            aliases: self.aliases,
        }
    }

    fn span(&self, start: usize, end: usize) -> Span {
        Span::new(
            self.source,
            self.offsets.byte(start),
            self.offsets.byte(end),
        )
    }

    fn error(&self, span: Span, syntax: YamlSyntax<'_>) -> Abort {
        let label = syntax.label().to_string();
        Abort(Box::new(Diagnostic::from(syntax).with_label(span, label)))
    }

    /// Counts one written node against [`MAX_DOCUMENT_NODES`]. The error points at the
    /// document's start: the limit is the whole document's, and its last node can be millions
    /// of columns into a line.
    fn count_written(&mut self, span: Span) -> Result<(), Abort> {
        self.written += 1;
        if self.written == 1 {
            self.first = span;
        }
        if self.written > self.max_nodes {
            let start = Span::new(self.source, self.first.start, self.first.start + 1);
            let max = self.max_nodes;
            return Err(self.error(start, YamlSyntax::TooManyNodes { max }));
        }
        Ok(())
    }

    fn push_frame(&mut self, frame: Frame, span: Span) -> Result<(), Abort> {
        self.count_written(span)?;
        if self.depth + self.stack.len() >= MAX_DEPTH {
            return Err(self.error(span, TOO_DEEP));
        }
        self.stack.push(frame);
        Ok(())
    }

    fn remember_anchor(&mut self, anchor: usize, node: &Node, extent: Extent) {
        if anchor != 0 {
            self.anchors.insert(anchor, (node.clone(), extent));
        }
    }

    /// Charges an alias's expansion against [`MAX_ALIAS_NODES`] and [`MAX_ALIAS_BYTES`].
    fn charge_alias(&mut self, extent: Extent, span: Span) -> Result<(), Abort> {
        self.aliased = self.aliased.and(extent);
        let over = if self.aliased.nodes > MAX_ALIAS_NODES {
            YamlSyntax::AliasNodes {
                max: MAX_ALIAS_NODES,
            }
        } else if self.aliased.text_bytes > MAX_ALIAS_BYTES {
            YamlSyntax::AliasBytes {
                max: MAX_ALIAS_BYTES,
            }
        } else {
            return Ok(());
        };
        Err(self.error(span, over))
    }

    fn push_node(&mut self, node: Node, extent: Extent) -> Result<(), Abort> {
        let Some(frame) = self.stack.last_mut() else {
            self.root = Some(node);
            return Ok(());
        };
        let total = frame.extent_mut();
        *total = total.and(extent);
        match frame {
            Frame::Seq { end, .. } => {
                *end = (*end).max(node.span.end);
                self.items.push(node);
            }
            Frame::Map {
                key, merges, end, ..
            } => match key.take() {
                None => {
                    let Some(text) = key_text(&node.value) else {
                        return Err(self.error(node.span, YamlSyntax::ComplexKey));
                    };
                    *key = Some(Key {
                        text,
                        span: node.span,
                    });
                }
                Some(k) => {
                    *end = (*end).max(node.span.end);
                    if is_merge_key(&k) {
                        merges.push(node);
                    } else {
                        self.entries.push(Entry {
                            key: k,
                            value: node,
                        });
                    }
                }
            },
        }
        Ok(())
    }

    /// Handles one event; on an error, records its diagnostic and says to stop (`false`).
    fn take(&mut self, event: Event<'_>, start: usize, end: usize) -> bool {
        match self.handle(event, start, end) {
            Ok(()) => true,
            Err(Abort(diagnostic)) => {
                self.diagnostics.push(*diagnostic);
                false
            }
        }
    }

    fn expects_key(&self) -> bool {
        matches!(self.stack.last(), Some(Frame::Map { key: None, .. }))
    }

    /// A mapping key written as a scalar without anchor or tag (nearly every key): its text
    /// is interned straight from the event, with no string built for a node first. Counts and
    /// extents are those [`Builder::push_node`] would charge.
    fn push_key(&mut self, text: &str, style: ScalarStyle, span: Span) -> Result<(), Abort> {
        self.count_written(span)?;
        let resolved = match style {
            ScalarStyle::Plain => plain_non_string(text),
            _ => None,
        };
        let (text, charged) = match resolved.as_ref().and_then(key_text) {
            Some(converted) => (converted, Extent::of_scalar(&Value::Null)),
            None => (
                intern(text),
                Extent {
                    nodes: 1,
                    text_bytes: text.len(),
                },
            ),
        };
        if let Some(Frame::Map { key, extent, .. }) = self.stack.last_mut() {
            *extent = extent.and(charged);
            *key = Some(Key { text, span });
        }
        Ok(())
    }

    /// The mapping whose entries are `self.entries[base..]`, with its merge keys applied.
    fn finish_map(
        &mut self,
        start: u32,
        end: u32,
        base: usize,
        merges: Vec<Node>,
    ) -> Result<Node, Abort> {
        let entries = &self.entries[base..];
        check_duplicate_keys(entries).map_err(|(first, second)| {
            let duplicate = YamlSyntax::DuplicateKey(&entries[second].key.text);
            Abort(Box::new(
                Diagnostic::from(duplicate)
                    .with_label(entries[second].key.span, "defined again here")
                    .with_label(entries[first].key.span, "first defined here"),
            ))
        })?;
        let mut present: HashSet<Name> = if merges.is_empty() {
            HashSet::new()
        } else {
            entries.iter().map(|e| e.key.text.clone()).collect()
        };
        for merge in merges {
            let sources: Vec<&Node> = match &merge.value {
                Value::Map(_) => vec![&merge],
                Value::Seq(items) if items.iter().all(|i| i.as_map().is_some()) => {
                    items.iter().collect()
                }
                _ => {
                    return Err(self.error(merge.span, YamlSyntax::BadMerge));
                }
            };
            for source in sources {
                for entry in source.as_map().unwrap_or_default() {
                    if present.insert(entry.key.text.clone()) {
                        self.entries.push(entry.clone());
                    }
                }
            }
        }
        Ok(Node {
            span: Span::new(self.source, start, end),
            value: Value::Map(Shared::from_exact(self.entries.drain(base..))),
        })
    }

    fn handle(&mut self, event: Event<'_>, start: usize, end: usize) -> Result<(), Abort> {
        match event {
            Event::Nothing | Event::StreamStart | Event::StreamEnd => {}
            Event::DocumentStart(_) => {
                self.anchors.clear();
                self.aliased = Extent::default();
                self.written = 0;
            }
            Event::DocumentEnd => {
                if let Some(root) = self.root.take()
                    && !root.is_null()
                {
                    self.documents.push(Document { root });
                }
            }
            Event::Scalar(text, style, anchor, tag) => {
                let mut span = self.span(start, end);
                // Block scalars end after their last line break; point at the content only.
                if matches!(style, ScalarStyle::Literal | ScalarStyle::Folded) {
                    let covered = self
                        .text
                        .get(span.start as usize..span.end as usize)
                        .unwrap_or("");
                    span.end = span.start + covered.trim_end().len() as u32;
                }
                if anchor == 0 && tag.is_none() && self.expects_key() {
                    return self.push_key(&text, style, span);
                }
                let value = scalar_value(&text, style, tag.as_deref())
                    .ok_or_else(|| self.error(span, YamlSyntax::TagMismatch(&text)))?;
                self.count_written(span)?;
                let extent = Extent::of_scalar(&value);
                let node = Node { span, value };
                self.remember_anchor(anchor, &node, extent);
                self.push_node(node, extent)?;
            }
            Event::SequenceStart(anchor, _) => {
                let span = self.span(start, end);
                self.push_frame(
                    Frame::Seq {
                        start: span.start,
                        end: span.end,
                        anchor,
                        extent: Extent::COLLECTION,
                        base: self.items.len(),
                    },
                    span,
                )?;
            }
            Event::MappingStart(anchor, _) => {
                let span = self.span(start, end);
                self.push_frame(
                    Frame::Map {
                        start: span.start,
                        end: span.end,
                        anchor,
                        extent: Extent::COLLECTION,
                        base: self.entries.len(),
                        key: None,
                        merges: Vec::new(),
                    },
                    span,
                )?;
            }
            Event::SequenceEnd | Event::MappingEnd => {
                // Flow collections end at their `]`/`}`; block collections at their last child
                // (the parser reports an empty span at the next token, often lines later).
                let closing = self.span(start, end);
                let close = |last: u32| {
                    if closing.is_empty() {
                        last
                    } else {
                        closing.end.max(last)
                    }
                };
                let (node, anchor, extent) = match self.stack.pop() {
                    Some(Frame::Seq {
                        start,
                        end,
                        anchor,
                        extent,
                        base,
                    }) => {
                        let end = close(end);
                        let node = Node {
                            span: Span::new(self.source, start, end),
                            value: Value::Seq(Shared::from_exact(self.items.drain(base..))),
                        };
                        (node, anchor, extent)
                    }
                    Some(Frame::Map {
                        start,
                        end,
                        anchor,
                        extent,
                        base,
                        merges,
                        ..
                    }) => {
                        let node = self.finish_map(start, close(end), base, merges)?;
                        (node, anchor, extent)
                    }
                    None => return Ok(()),
                };
                self.remember_anchor(anchor, &node, extent);
                self.push_node(node, extent)?;
            }
            Event::Alias(id) => {
                self.aliases = true;
                let span = self.span(start, end);
                let Some((node, extent)) = self.anchors.get(&id).cloned() else {
                    return Err(self.error(span, YamlSyntax::UnknownAnchor));
                };
                self.charge_alias(extent, span)?;
                self.push_node(node, extent)?;
            }
        }
        Ok(())
    }
}

thread_local! {
    /// A parsing thread's [`Builder`] stacks (items, entries), kept from one chunk to the next
    /// so that they grow once per thread, not once per document.
    static STACKS: std::cell::RefCell<(Vec<Node>, Vec<Entry>)> = std::cell::RefCell::default();
}

/// A scalar key's text, as the Kubernetes YAML loader converts it (`null`, `true`, `8080`);
/// `None` for a collection.
fn key_text(value: &Value) -> Option<Name> {
    Some(match value {
        Value::String(s) => intern(s),
        Value::Null => intern("null"),
        Value::Bool(b) => intern(&b.to_string()),
        Value::Int(i) => intern(&i.to_string()),
        Value::Float(f) => intern(&f.to_string()),
        Value::Seq(_) | Value::Map(_) => return None,
    })
}

/// `<<` is a merge key only when written plain: a quoted `"<<"` spans more than two bytes.
fn is_merge_key(key: &Key) -> bool {
    &*key.text == "<<" && key.span.len() == 2
}

/// Returns the indices of the first and the repeated entry if a key occurs twice.
fn check_duplicate_keys(entries: &[Entry]) -> Result<(), (usize, usize)> {
    if entries.len() <= 16 {
        for (i, entry) in entries.iter().enumerate() {
            if let Some(first) = entries[..i]
                .iter()
                .position(|e| e.key.text == entry.key.text)
            {
                return Err((first, i));
            }
        }
        return Ok(());
    }
    let mut order: Vec<usize> = (0..entries.len()).collect();
    order.sort_by(|&a, &b| {
        entries[a]
            .key
            .text
            .cmp(&entries[b].key.text)
            .then(a.cmp(&b))
    });
    for pair in order.windows(2) {
        if entries[pair[0]].key.text == entries[pair[1]].key.text {
            return Err((pair[0], pair[1]));
        }
    }
    Ok(())
}

fn scalar_value(text: &str, style: ScalarStyle, tag: Option<&Tag>) -> Option<Value> {
    if let Some(tag) = tag
        && tag.is_yaml_core_schema()
    {
        return resolve_tagged(&tag.suffix, text);
    }
    match style {
        ScalarStyle::Plain if tag.is_none() => Some(resolve_plain(text)),
        _ => Some(Value::String(text.into())),
    }
}

/// Parses one chunk of a file (`text[range]`), appending its documents and any syntax error.
pub fn parse_chunk(
    source: SourceId,
    text: &str,
    range: Range<usize>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<Document> {
    read_chunk(source, text, range, diagnostics, Within::DOCUMENT).documents
}

/// What [`parse_part`] read.
#[derive(Debug)]
pub struct Part {
    /// The documents read (a part of a document is read as one).
    pub documents: Vec<Document>,
    /// Nodes written in the last document.
    pub nodes: usize,
    /// Whether an alias was read. The alias limits are per document, so a caller that reads
    /// a document in parts cannot charge them part by part.
    pub aliases: bool,
}

/// Parses `text[range]`, a part of a larger document (a run of a `List`'s items), as a
/// document of its own whose root sits `depth` collections deep in the larger one, so that
/// `yaml-depth` is charged as it would be there. Counting the nodes against
/// `yaml-document-nodes` and refusing aliases is the caller's part.
pub fn parse_part(
    source: SourceId,
    text: &str,
    range: Range<usize>,
    depth: usize,
    diagnostics: &mut Vec<Diagnostic>,
) -> Part {
    let within = Within {
        depth,
        ..Within::DOCUMENT
    };
    read_chunk(source, text, range, diagnostics, within)
}

/// Where a chunk sits in its document, for the per-document limits.
#[derive(Clone, Copy)]
struct Within {
    /// How deep the chunk's root is nested.
    depth: usize,
    /// The most nodes a document may hold.
    max_nodes: usize,
}

impl Within {
    /// A whole document.
    const DOCUMENT: Within = Within {
        depth: 0,
        max_nodes: MAX_DOCUMENT_NODES,
    };
}

/// Reads a chunk's documents, with its place in its document.
fn read_chunk(
    source: SourceId,
    text: &str,
    range: Range<usize>,
    diagnostics: &mut Vec<Diagnostic>,
    within: Within,
) -> Part {
    let chunk = &text[range.clone()];
    let new_builder = |offsets, diagnostics| {
        let (items, entries) = STACKS.with(std::cell::RefCell::take);
        Builder {
            source,
            text,
            offsets,
            stack: Vec::new(),
            items,
            entries,
            anchors: HashMap::new(),
            aliased: Extent::default(),
            written: 0,
            max_nodes: within.max_nodes,
            depth: within.depth,
            aliases: false,
            first: Span::default(),
            root: None,
            documents: Vec::new(),
            diagnostics,
        }
    };
    if let Some(events) = super::fast::events(chunk) {
        // The fast scanner's offsets are bytes already.
        let offsets = ByteOffsets {
            base: range.start,
            checkpoints: Vec::new(),
        };
        let mut builder = new_builder(offsets, diagnostics);
        for (event, start, end) in events {
            if !builder.take(event, start, end) {
                break;
            }
        }
        return builder.into_part();
    }
    let mut builder = new_builder(ByteOffsets::new(chunk, range.start), diagnostics);
    let mut parser = Parser::new_from_str(chunk);
    loop {
        match parser.next_event() {
            None => break,
            Some(Ok((event, span))) => {
                if !builder.take(event, span.start.index(), span.end.index()) {
                    break;
                }
            }
            Some(Err(error)) => {
                let at = visible_position(
                    text,
                    range.clone(),
                    builder.offsets.byte(error.marker().index()),
                );
                let at_span = Span::new(source, at, next_char_end(text, at as usize) as u32);
                let syntax = match error.info() {
                    PARSER_DEPTH_ERROR => TOO_DEEP,
                    info => YamlSyntax::Parser(info),
                };
                let label = syntax.label().to_string();
                builder
                    .diagnostics
                    .push(Diagnostic::from(syntax).with_label(at_span, label));
                break;
            }
        }
    }
    builder.into_part()
}

/// An error reported at the end of a document (after trailing blanks) is moved back to the
/// last visible character, so the snippet has something to point at.
fn visible_position(text: &str, range: Range<usize>, at: u32) -> u32 {
    let at = (at as usize).clamp(range.start, range.end);
    if !text[at..range.end].trim().is_empty() {
        return at as u32;
    }
    let before = text[range.start..at].trim_end();
    match before.char_indices().next_back() {
        Some((i, _)) => (range.start + i) as u32,
        None => at as u32,
    }
}

fn next_char_end(text: &str, at: usize) -> usize {
    text.get(at..)
        .and_then(|rest| rest.chars().next())
        .map_or(at, |c| at + c.len_utf8())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `yaml-document-nodes` with a small cap (tests/it/limits.rs has the real one, ignored by
    /// default for its 32 MB input): the count restarts per document, and a document past the
    /// cap stops its chunk with the limit named (the loader cuts files into one chunk per
    /// document, so the next document is still read: tests/it/limits.rs).
    #[test]
    fn a_document_past_the_node_cap_is_left_out_and_the_next_read() {
        let text = "a: [1, 2, 3]\n---\nb: [1, 2, 3, 4, 5, 6, 7, 8]\n---\nc: [1, 2, 3]\n";
        let mut diagnostics = Vec::new();
        let within = Within {
            max_nodes: 6,
            ..Within::DOCUMENT
        };
        let documents =
            read_chunk(SourceId(0), text, 0..text.len(), &mut diagnostics, within).documents;
        let roots: Vec<String> = documents
            .iter()
            .filter_map(|d| d.root.as_map().map(|m| m[0].key.text.to_string()))
            .collect();
        assert_eq!(roots, ["a"]);
        assert_eq!(diagnostics.len(), 1);
        assert_eq!(
            diagnostics[0].message,
            "the document holds more than 6 nodes (the `yaml-document-nodes` limit)"
        );
    }

    fn parse(text: &str) -> (Vec<Document>, Vec<Diagnostic>) {
        let mut diagnostics = Vec::new();
        let mut documents = Vec::new();
        for range in split_documents(text) {
            documents.extend(parse_chunk(SourceId(0), text, range, &mut diagnostics));
        }
        (documents, diagnostics)
    }

    fn slice(text: &str, span: Span) -> &str {
        &text[span.start as usize..span.end as usize]
    }

    #[test]
    fn splits_at_column_zero_markers_only() {
        let text = "a: 1\n---\nb: |\n  --- not a marker\n--- # c\nc: 3\n---x: no\n";
        let ranges = split_documents(text);
        assert_eq!(ranges.len(), 3);
        assert_eq!(&text[ranges[1].clone()], "---\nb: |\n  --- not a marker\n");
        assert_eq!(
            split_documents("%YAML 1.2\n---\na: 1\n---\nb: 2\n").len(),
            1
        );
    }

    #[test]
    fn marker_lines_in_every_position() {
        let cuts =
            |text: &str| -> Vec<usize> { split_documents(text).iter().map(|r| r.start).collect() };
        // A marker on the first line starts no new range; `---` must be followed by a blank,
        // a line break (LF or CRLF) or the end of the text.
        assert_eq!(cuts("---\na: 1\n"), vec![0]);
        assert_eq!(cuts("a: 1\r\n---\r\nb: 2\r\n"), vec![0, 6]);
        assert_eq!(cuts("a: 1\n---"), vec![0, 5]);
        assert_eq!(cuts("a: 1\n---\tx\n--- y\n"), vec![0, 5, 11]);
        assert_eq!(cuts("a: 1\n----\nb: 2\n-- -\n"), vec![0]);
        assert_eq!(cuts("a: 1\n\n---\n\n---\n"), vec![0, 6, 11]);
        // A directive on any line keeps the file whole.
        assert_eq!(cuts("a: 1\n---\nb: 2\n%TAG ! x\n---\nc: 3\n"), vec![0]);
        assert_eq!(cuts("%YAML 1.2\n---\na: 1\n"), vec![0]);
        // `%` elsewhere on a line is text.
        assert_eq!(cuts("a: '%'\n---\nb: 2%\n"), vec![0, 7]);
        assert_eq!(split_documents("").len(), 1);
    }

    #[test]
    fn json_streams_are_cut_at_top_level_values() {
        let text = "{\"a\": \"}{\"}\n{\"b\": [1, {\"c\": 2}]}\n  [3]";
        let ranges = split_documents(text);
        assert_eq!(ranges.len(), 3);
        assert_eq!(&text[ranges[1].clone()], "{\"b\": [1, {\"c\": 2}]}");
        let (docs, diags) = parse(text);
        assert!(diags.is_empty(), "{diags:?}");
        assert_eq!(docs[0].root.get("a").unwrap().as_str(), Some("}{"));
        // YAML flow documents separated by `---` are not JSON streams.
        assert_eq!(split_documents("{a: 1}\n---\n{b: 2}\n").len(), 2);
        assert_eq!(split_documents("{\"a\": 1}").len(), 1);
    }

    #[test]
    fn spans_are_bytes_even_after_multibyte_text() {
        let text = "name: çé\nkey: \"quoted\"\n";
        let (docs, diags) = parse(text);
        assert!(diags.is_empty());
        let root = &docs[0].root;
        let value = root.get("key").unwrap();
        assert_eq!(value.as_str(), Some("quoted"));
        assert_eq!(slice(text, value.span), "\"quoted\"");
        assert_eq!(slice(text, root.entry("key").unwrap().key.span), "key");
    }

    #[test]
    fn multi_document_with_empty_documents_and_errors() {
        let text = "---\na: 1\n---\n---\nb: [1, 2\n---\nc: 3\n";
        let (docs, diags) = parse(text);
        assert_eq!(docs.len(), 2);
        assert_eq!(docs[1].root.get("c").unwrap().as_i64(), Some(3));
        assert_eq!(diags.len(), 1);
        assert_eq!(diags[0].code, crate::diag::Code::YAML_SYNTAX);
    }

    #[test]
    fn duplicate_keys_are_errors_with_both_locations() {
        let text = "a: 1\nb: 2\na: 3\n";
        let (docs, diags) = parse(text);
        assert!(docs.is_empty());
        assert_eq!(diags[0].labels.len(), 2);
        assert_eq!(diags[0].labels[0].span.start, 10);
        assert_eq!(diags[0].labels[1].span.start, 0);
    }

    #[test]
    fn anchors_aliases_and_merge_keys() {
        let text = "base: &b {a: 1, b: 2}\nuse:\n  <<: *b\n  b: 3\ncopy: *b\n";
        let (docs, diags) = parse(text);
        assert!(diags.is_empty(), "{diags:?}");
        let root = &docs[0].root;
        let merged = root.get("use").unwrap();
        assert_eq!(merged.get("a").unwrap().as_i64(), Some(1));
        assert_eq!(merged.get("b").unwrap().as_i64(), Some(3));
        assert_eq!(
            root.get("copy").unwrap().get("b").unwrap().as_i64(),
            Some(2)
        );
    }

    #[test]
    fn alias_bombs_and_deep_nesting_fail_cleanly() {
        let mut bomb = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
        for i in 1..10 {
            let refs = vec![format!("*a{}", i - 1); 10].join(", ");
            bomb.push_str(&format!("a{i}: &a{i} [{refs}]\n"));
        }
        let (docs, diags) = parse(&bomb);
        assert!(docs.is_empty());
        assert!(
            diags[0].message.contains("aliases expand"),
            "{}",
            diags[0].message
        );

        let deep = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
        let (docs, diags) = parse(&deep);
        assert!(docs.is_empty());
        assert_eq!(diags.len(), 1);
    }

    #[test]
    fn boolean_keys_become_true_and_false_like_sigs_k8s_io_yaml() {
        let (docs, _) = parse("y: 1\n'n': 2\n3: c\n");
        let keys: Vec<&str> = docs[0]
            .root
            .as_map()
            .unwrap()
            .iter()
            .map(|e| &*e.key.text)
            .collect();
        assert_eq!(keys, ["true", "n", "3"]);
    }

    #[test]
    fn kubernetes_scalars() {
        let (docs, _) = parse("a: yes\nb: '1'\nc: 0x10\nd: !!str 12\ne: ~\n");
        let root = &docs[0].root;
        assert!(matches!(root.get("a").unwrap().value, Value::Bool(true)));
        assert_eq!(root.get("b").unwrap().as_str(), Some("1"));
        assert_eq!(root.get("c").unwrap().as_i64(), Some(16));
        assert_eq!(root.get("d").unwrap().as_str(), Some("12"));
        assert!(root.get("e").unwrap().is_null());
    }
}

/// The source of a scalar node, including a block scalar's `|`/`>` header, which the parser
/// leaves out of the node's span. Expression diagnostics need it to map a position inside the
/// decoded value back into the file.
pub fn scalar_source_span(text: &str, span: Span) -> Span {
    let start = span.start as usize;
    let Some(before) = text.get(..start) else {
        return span;
    };
    // Block scalar content starts on a line of its own; anything else is not a block scalar.
    let mut line_end = match before.rfind('\n') {
        Some(newline) if before[newline + 1..].trim().is_empty() => newline,
        _ => return span,
    };
    // Walk back over blank lines to the header line.
    loop {
        let line_start = before[..line_end].rfind('\n').map_or(0, |i| i + 1);
        let line = &before[line_start..line_end];
        if line.trim().is_empty() && line_start > 0 {
            line_end = line_start - 1;
            continue;
        }
        let code = line.split(" #").next().unwrap_or(line).trim_end();
        if let Some(i) = code.rfind(['|', '>']) {
            let indicators = code[i + 1..]
                .chars()
                .all(|c| matches!(c, '-' | '+' | '0'..='9'));
            let after_key_or_dash = i == 0 || code[..i].ends_with([' ', '\t', ':', '-']);
            if indicators && after_key_or_dash {
                return Span::new(span.source, (line_start + i) as u32, span.end);
            }
        }
        return span;
    }
}

#[cfg(test)]
mod scalar_source_tests {
    use super::*;

    #[test]
    fn block_scalars_include_their_header() {
        let text = "a:\n  when: |-  # note\n\n    spec.x >\n    1\n  other: plain\n";
        let mut diagnostics = Vec::new();
        let root = parse_chunk(SourceId(0), text, 0..text.len(), &mut diagnostics)
            .remove(0)
            .root;
        let when = root.get_path(&["a", "when"]).unwrap();
        let source = scalar_source_span(text, when.span);
        assert!(
            text[source.start as usize..].starts_with("|-  # note\n"),
            "{:?}",
            &text[source.start as usize..]
        );
        let plain = root.get_path(&["a", "other"]).unwrap();
        assert_eq!(scalar_source_span(text, plain.span), plain.span);
        let quoted_text = "w: \"a > 1\"\n";
        let root = parse_chunk(
            SourceId(0),
            quoted_text,
            0..quoted_text.len(),
            &mut diagnostics,
        )
        .remove(0)
        .root;
        let w = root.get("w").unwrap();
        assert_eq!(scalar_source_span(quoted_text, w.span), w.span);
    }
}
