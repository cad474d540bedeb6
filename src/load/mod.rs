//! Loading: `-f` arguments → files → documents → Kubernetes objects.
//!
//! Files are cut into documents and parsed in parallel (YAML parsing dominates dopol's run
//! time); objects keep spans (in their tree, and in what the caller keeps of it) so every later
//! diagnostic can point into the file.
//! Problems never abort loading: each becomes a located diagnostic, the broken document or
//! object is left out, and the rest is returned.
//!
//! Each object is handed to the caller's `prepare` inside the parse task that read it, so that
//! what the caller keeps (typically the decoded object with most of its tree dropped) replaces
//! the tree while it is still in that thread's cache, and the trees of all documents are never
//! alive at once.

pub mod diags;
pub mod fields;
pub mod files;
mod fixture;
pub mod git;
pub mod ignores;
mod lists;
pub mod names;
pub mod objects;
pub mod template;
pub mod text;

use crate::diag::{Code, Diagnostic};
use crate::source::{SourceId, SourceMap};
use crate::yaml;
use files::{FileTree, RawFile};
pub use objects::{Identity, KindSpec, LoadStats, Object, ObjectOptions, Timestamp};
use rayon::prelude::*;
use rustc_hash::FxHashMap;
use std::borrow::Borrow;
use std::collections::HashSet;
use std::io::Read;

/// Everything read from the inputs: `T` is what `prepare` made of each object.
#[derive(Debug)]
pub struct Loaded<T> {
    /// The files, for rendering diagnostics.
    pub sources: SourceMap,
    /// Objects of the kinds dopol reads (as prepared), in input order, unique by identity.
    pub objects: Vec<T>,
    /// Problems found while loading.
    pub diagnostics: Vec<Diagnostic>,
    /// Counters for `-v`.
    pub stats: LoadStats,
    /// `--without` selectors that matched no object.
    pub unmatched_without: Vec<String>,
}

/// What-if changes to the inputs (`--with`, `--without`).
#[derive(Clone, Debug, Default)]
pub struct Overlay {
    /// Files or directories whose objects are added, replacing inputs with the same identity
    /// (read from the working tree).
    pub with: Vec<String>,
    /// Objects to remove.
    pub without: Vec<ObjectSelector>,
}

/// `KIND/NS/NAME` (or `KIND/NAME` for cluster-scoped kinds), as given to `--without`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ObjectSelector {
    /// Kind, compared case-insensitively.
    pub kind: String,
    /// Namespace, when given.
    pub namespace: Option<String>,
    /// Name.
    pub name: String,
}

impl ObjectSelector {
    /// Parses `KIND/NS/NAME` or `KIND/NAME`.
    pub fn parse(text: &str) -> Result<ObjectSelector, String> {
        match text.split('/').collect::<Vec<_>>().as_slice() {
            [kind, namespace, name] if !kind.is_empty() && !name.is_empty() => Ok(ObjectSelector {
                kind: kind.to_string(),
                namespace: Some(namespace.to_string()),
                name: name.to_string(),
            }),
            [kind, name] if !kind.is_empty() && !name.is_empty() => Ok(ObjectSelector {
                kind: kind.to_string(),
                namespace: None,
                name: name.to_string(),
            }),
            _ => Err(format!(
                "`{text}` is not KIND/NAMESPACE/NAME (or KIND/NAME for cluster-scoped kinds)"
            )),
        }
    }

    /// Whether it selects `object`.
    pub fn matches(&self, object: &Object) -> bool {
        self.kind.eq_ignore_ascii_case(&object.kind)
            && *object.name == *self.name
            && self
                .namespace
                .as_deref()
                .is_none_or(|ns| ns == object.namespace_str())
    }
}

impl std::fmt::Display for ObjectSelector {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.namespace {
            Some(ns) => write!(f, "{}/{ns}/{}", self.kind, self.name),
            None => write!(f, "{}/{}", self.kind, self.name),
        }
    }
}

/// Where [`load`] reads from: the `-f` arguments, what leaves files out, the what-if overlay.
pub struct Inputs<'a> {
    /// The `-f` arguments.
    pub args: &'a [String],
    /// Paths left out (besides the ignore files).
    pub excludes: &'a ignores::Excludes,
    /// `--with` and `--without`.
    pub overlay: &'a Overlay,
    /// The file tree the arguments name.
    pub tree: &'a dyn FileTree,
}

/// Reads the `-f` arguments from the tree (stdin for `-`), walks leaving out what `excludes`
/// and the ignore files exclude, hands each object to `prepare` in its parse task, then applies
/// the overlay. `sources` holds files read before (the families files), whose spans stay valid.
pub fn load<T: Borrow<Object> + Send>(
    sources: SourceMap,
    inputs: &Inputs<'_>,
    options: &ObjectOptions<'_>,
    prepare: &(dyn Fn(Object) -> T + Sync),
    stdin: &mut dyn Read,
) -> Loaded<T> {
    let Inputs {
        args,
        excludes,
        overlay,
        tree,
    } = *inputs;
    let mut diagnostics = Vec::new();
    let raw = files::collect(args, excludes, tree, stdin, &mut diagnostics);
    crate::platform::timing::mark("list and open files");
    let seeded = sources.len();
    let (mut loaded, identities) = load_files_hashed(raw, options, prepare, sources);
    let objects = std::mem::take(&mut loaded.objects);
    let mut objects = dedupe(objects, &identities, &mut diagnostics);
    drop(identities);
    crate::platform::timing::mark("duplicates");
    if !overlay.with.is_empty() {
        let raw = files::collect(
            &overlay.with,
            excludes,
            &files::WorkTree,
            &mut std::io::empty(),
            &mut diagnostics,
        );
        let sources = std::mem::take(&mut loaded.sources);
        let (mut added, identities) = load_files_hashed(raw, options, prepare, sources);
        loaded.sources = std::mem::take(&mut added.sources);
        loaded.diagnostics.append(&mut added.diagnostics);
        // Its objects are counted below, once duplicates and replaced ones are out.
        loaded.stats += &added.stats;
        let added = dedupe(added.objects, &identities, &mut diagnostics);
        let replaced: HashSet<Identity> = added.iter().map(|o| o.borrow().identity()).collect();
        objects.retain(|o| !replaced.contains(&o.borrow().identity()));
        objects.extend(added);
    }
    for selector in &overlay.without {
        if objects.iter().any(|o| selector.matches(o.borrow())) {
            objects.retain(|o| !selector.matches(o.borrow()));
        } else {
            loaded.unmatched_without.push(selector.to_string());
        }
    }
    loaded.stats.objects = objects.len();
    loaded.objects = objects;
    // Everything is parsed: a mapped input is read again only where a diagnostic points or
    // a trimmed object is read again, so its pages need not stay.
    for (_, file) in loaded.sources.iter() {
        file.release();
    }
    diagnostics.append(&mut loaded.diagnostics);
    loaded.diagnostics = diagnostics;
    if loaded.stats.objects + loaded.stats.skipped_other_kinds == 0
        && overlay.without.is_empty()
        && !loaded.diagnostics.iter().any(Diagnostic::is_input_error)
    {
        let templates = loaded
            .diagnostics
            .iter()
            .any(|d| d.code == Code::TEMPLATE_SKIPPED);
        let mut diagnostic = Diagnostic::from(diags::EmptyInput { templates });
        if let Some((id, _)) = loaded.sources.iter().nth(seeded) {
            diagnostic = diagnostic.with_label(crate::source::Span::new(id, 0, 0), "empty");
        }
        loaded.diagnostics.push(diagnostic);
    }
    loaded
}

/// What one chunk of a file produced.
struct ChunkResult<T> {
    objects: Vec<T>,
    diagnostics: Vec<Diagnostic>,
    stats: LoadStats,
}

struct DecodedFile {
    id: SourceId,
    invalid_at: Vec<u32>,
    /// Where its documents are ([`yaml::split_documents`]), until they are batched.
    documents: Vec<std::ops::Range<usize>>,
}

/// From how many bytes a file's template check and its cut into documents run side by side.
const SCAN_APART_FROM: usize = 1 << 20;

/// Parses already-read files into objects, each handed to `prepare` in its parse task, and
/// registers the files in `sources` (duplicates are not removed yet: see [`dedupe`]).
pub fn load_files<T: Send>(
    raw: Vec<RawFile>,
    options: &ObjectOptions<'_>,
    prepare: &(dyn Fn(Object) -> T + Sync),
    sources: SourceMap,
) -> Loaded<T> {
    load_files_hashed(raw, options, prepare, sources).0
}

/// [`load_files`], with each object's [`identity_hash`] in the same order as the objects: it is
/// taken in the parse task, while the object is in that thread's cache, so that [`dedupe`]
/// need not chase four pointers per object on one core (about 0.1 s on 72,000 objects).
fn load_files_hashed<T: Send>(
    raw: Vec<RawFile>,
    options: &ObjectOptions<'_>,
    prepare: &(dyn Fn(Object) -> T + Sync),
    mut sources: SourceMap,
) -> (Loaded<T>, Vec<u64>) {
    let prepare = &|object: Object| (identity_hash(&object), prepare(object));
    let mut diagnostics = Vec::new();
    let mut stats = LoadStats {
        files: raw.len(),
        ..LoadStats::default()
    };
    let mut decoded = Vec::with_capacity(raw.len());
    for file in raw {
        let text = text::decode(file.bytes);
        if let Some(reason) = text.fatal {
            let unreadable = diags::InvalidEncoding::Unreadable {
                name: &file.name,
                reason: &reason,
            };
            diagnostics.push(Diagnostic::from(unreadable).with_file(file.name));
            continue;
        }
        let content = text.text.as_str();
        let find_template = || match file.origin {
            files::Origin::Stdin => None,
            _ => template::action(content),
        };
        // Both scans read the whole text: a big one's run on both cores. A small file is cut
        // only when it is read (a template is not).
        let (template, documents) = if content.len() >= SCAN_APART_FROM {
            rayon::join(find_template, || yaml::split_documents(content))
        } else {
            let template = find_template();
            let documents = match template {
                None => yaml::split_documents(content),
                Some(_) => Vec::new(),
            };
            (template, documents)
        };
        let id = sources.add(file.name, text.text);
        if let Some(range) = template {
            let source = sources.get(id);
            let span = crate::source::Span::new(id, range.start as u32, range.end as u32);
            let named = file.origin == files::Origin::Named;
            diagnostics.push(template::skipped(source.name(), source.text(), span, named));
            continue;
        }
        if let Some(d) = text::invalid_encoding_diagnostic(id, &text.invalid_at) {
            diagnostics.push(d);
        }
        decoded.push(DecodedFile {
            id,
            invalid_at: text.invalid_at,
            documents,
        });
    }

    crate::platform::timing::mark("read and check UTF-8");
    // Cut every file into documents and parse all of them in parallel, keeping input order.
    let chunks: Vec<(usize, std::ops::Range<usize>)> = (decoded.iter_mut().enumerate())
        .flat_map(|(i, f)| {
            std::mem::take(&mut f.documents)
                .into_iter()
                .map(move |r| (i, r))
        })
        .collect();
    // Parsing and object extraction are per document, so both run in the parallel workers, a
    // batch of documents at a time: once a batch is read, the pages of a mapped file it covers
    // are handed back, so a big input is not resident whole while its objects are built.
    crate::platform::timing::mark("cut documents");
    let (mut objects, mut identities) = (Vec::new(), Vec::new());
    for batch in batches(&chunks) {
        let parsed: Vec<ChunkResult<(u64, T)>> = batch
            .par_iter()
            .map(|(i, range)| {
                let (file, text) = (&decoded[*i], sources.get(decoded[*i].id).text());
                lists::read(file, text, range.clone(), options, prepare)
                    .unwrap_or_else(|| read_whole(file, text, range.clone(), options, prepare))
            })
            .collect();
        // A file's documents in a batch are consecutive: release from the first to the last.
        // A file followed by another in the batch is read whole: a small one's text goes
        // (it is read again if a diagnostic points into it, see `SourceMap::hand_back`).
        let runs: Vec<_> = batch.chunk_by(|a, b| a.0 == b.0).collect();
        for (n, run) in runs.iter().enumerate() {
            let (first, last) = (&run[0], &run[run.len() - 1]);
            let id = decoded[first.0].id;
            sources.get(id).release_range(first.1.start..last.1.end);
            if n + 1 < runs.len() {
                sources.hand_back(id);
            }
        }
        for mut chunk in parsed {
            diagnostics.append(&mut chunk.diagnostics);
            objects.reserve(chunk.objects.len());
            identities.reserve(chunk.objects.len());
            for (identity, object) in chunk.objects {
                identities.push(identity);
                objects.push(object);
            }
            stats += &chunk.stats;
        }
    }
    for file in &decoded {
        sources.hand_back(file.id);
    }
    crate::platform::timing::mark("parse and decode");

    let loaded = Loaded {
        unmatched_without: Vec::new(),
        sources,
        objects,
        diagnostics,
        stats,
    };
    (loaded, identities)
}

/// Bytes of input a batch of documents covers (one document bigger than this is a batch).
const BATCH_BYTES: usize = 4 << 20;

/// `chunks` cut into runs of about [`BATCH_BYTES`], in order.
fn batches(
    chunks: &[(usize, std::ops::Range<usize>)],
) -> impl Iterator<Item = &[(usize, std::ops::Range<usize>)]> {
    let mut rest = chunks;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let mut bytes = 0;
        let count = rest
            .iter()
            .take_while(|(_, range)| {
                let first = bytes == 0;
                bytes += range.len().max(1);
                first || bytes <= BATCH_BYTES
            })
            .count();
        let (batch, after) = rest.split_at(count);
        rest = after;
        Some(batch)
    })
}

/// Parses one chunk and hands its objects to `prepare`.
fn read_whole<T: Send>(
    file: &DecodedFile,
    text: &str,
    range: std::ops::Range<usize>,
    options: &ObjectOptions<'_>,
    prepare: &(dyn Fn(Object) -> T + Sync),
) -> ChunkResult<T> {
    let (mut diagnostics, mut stats, mut objects) = (Vec::new(), LoadStats::default(), Vec::new());
    let document = range.start as u32..range.end as u32;
    for doc in yaml::parse_chunk(file.id, text, range, &mut diagnostics) {
        let span = doc.root.span;
        if file
            .invalid_at
            .iter()
            .any(|&at| at >= span.start && at < span.end)
        {
            continue;
        }
        stats.documents += 1;
        objects::extract(
            doc.root,
            options,
            &mut stats,
            &mut objects,
            &mut diagnostics,
            0,
        );
    }
    ChunkResult {
        objects: prepare_all(objects, document, prepare),
        diagnostics,
        stats,
    }
}

/// Hands a chunk's objects to `prepare`: the usual one inline, with its chunk recorded as its
/// [`Object::document`]; the several of a `List` (a `kubectl get -o yaml` dump is one document)
/// in parallel, without one.
fn prepare_all<T: Send>(
    mut objects: Vec<Object>,
    document: std::ops::Range<u32>,
    prepare: &(dyn Fn(Object) -> T + Sync),
) -> Vec<T> {
    if let [object] = objects.as_mut_slice() {
        object.document = Some(document);
        objects.into_iter().map(prepare).collect()
    } else {
        objects.into_par_iter().map(prepare).collect()
    }
}

/// The tree of `object` read again from its document chunk, as it was parsed (before the
/// CRD's defaults): the document's root when it is the object, or the entry of a List's
/// `items` (or of a translator fixture's lists, or of the one-item sequence a List item's
/// lines are, see `lists`) that is. `None`
/// when the object has no chunk of its own, or (a bug) is not in it.
pub fn reread(sources: &SourceMap, object: &Object) -> Option<yaml::Node> {
    let span = object.root.span;
    let range = object.document.clone()?;
    let range = range.start as usize..range.end as usize;
    let mut ignored = Vec::new();
    yaml::parse_chunk(
        span.source,
        sources.get(span.source).text(),
        range,
        &mut ignored,
    )
    .into_iter()
    .find_map(|doc| find_object(doc.root, span))
}

/// The node written at `span`: `node` itself, or one found down the collections holding it
/// (the `items` of Lists, the items of a sequence, the keys of a translator fixture).
fn find_object(node: yaml::Node, span: crate::source::Span) -> Option<yaml::Node> {
    // An object is a mapping; a one-item sequence can be written at its item's very span.
    if node.span == span && node.as_map().is_some() {
        return Some(node);
    }
    let holds = |child: &&yaml::Node| child.span.start <= span.start && span.end <= child.span.end;
    let child = match &node.value {
        yaml::Value::Seq(items) => items.iter().find(holds),
        yaml::Value::Map(entries) => entries.iter().map(|e| &e.value).find(holds),
        _ => None,
    }?
    .clone();
    find_object(child, span)
}

/// Keeps the first object of each identity and reports the others.
///
/// `identities` holds each object's [`identity_hash`]. Objects are compared by it, and by their
/// identities only where two hashes are equal; should two different identities share a hash,
/// every object is compared by identity instead. The objects stay where they are unless
/// there is a duplicate to take out.
pub fn dedupe<T: Borrow<Object>>(
    mut objects: Vec<T>,
    identities: &[u64],
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<T> {
    let identity = |index: usize| IdentityRef::of(objects[index].borrow());
    let mut duplicates = first_duplicates(identities.iter());
    if !(duplicates.iter()).all(|&(again, first)| identity(again) == identity(first)) {
        duplicates = first_duplicates((0..objects.len()).map(identity));
    }
    if duplicates.is_empty() {
        return objects;
    }
    for &(again, first) in &duplicates {
        let (again_object, first_object) = (objects[again].borrow(), objects[first].borrow());
        let identity = again_object.identity();
        diagnostics.push(
            Diagnostic::from(diags::DuplicateObject {
                identity: &identity,
            })
            .with_label(again_object.name_span(), "defined again here")
            .with_label(first_object.name_span(), "first defined here")
            .with_object(identity.to_string()),
        );
    }
    let mut dropped = duplicates.iter().map(|&(again, _)| again).peekable();
    let mut index = 0;
    objects.retain(|_| {
        let keep = dropped.next_if_eq(&index).is_none();
        index += 1;
        keep
    });
    objects
}

/// The hash of an object's identity that [`dedupe`] compares first (FxHash: the same in every
/// run and on every thread).
pub fn identity_hash(object: &Object) -> u64 {
    use std::hash::{BuildHasher, BuildHasherDefault};
    BuildHasherDefault::<rustc_hash::FxHasher>::default().hash_one(IdentityRef::of(object))
}

/// (later, first) index pairs of equal keys, in input order.
fn first_duplicates<K: std::hash::Hash + Eq>(
    keys: impl ExactSizeIterator<Item = K>,
) -> Vec<(usize, usize)> {
    let mut first_index: FxHashMap<K, usize> = FxHashMap::default();
    first_index.reserve(keys.len());
    let mut duplicates = Vec::new();
    for (index, key) in keys.enumerate() {
        match first_index.entry(key) {
            std::collections::hash_map::Entry::Occupied(first) => {
                duplicates.push((index, *first.get()))
            }
            std::collections::hash_map::Entry::Vacant(slot) => {
                slot.insert(index);
            }
        }
    }
    duplicates
}

/// An object's [`Identity`], borrowed.
#[derive(PartialEq, Eq, Hash)]
struct IdentityRef<'a> {
    group: &'a str,
    kind: &'a str,
    namespace: &'a str,
    name: &'a str,
}

impl<'a> IdentityRef<'a> {
    fn of(object: &'a Object) -> IdentityRef<'a> {
        IdentityRef {
            group: &object.group,
            kind: &object.kind,
            namespace: object.namespace.as_deref().unwrap_or_default(),
            name: &object.name,
        }
    }
}

#[cfg(test)]
mod batch_tests {
    use super::{BATCH_BYTES, batches};

    /// Batches keep every chunk once, in order; a batch stays within the size unless its one
    /// chunk is bigger; empty chunks count.
    #[test]
    fn batches_cover_every_chunk_in_order() {
        let mut at = 0;
        let mut chunks = Vec::new();
        for (file, len) in [
            (0, 100),
            (0, 3 * BATCH_BYTES),
            (0, 10),
            (1, 0),
            (1, BATCH_BYTES - 5),
        ]
        .into_iter()
        .chain((0..100_000).map(|_| (2, 0)))
        .chain((0..3000).map(|i| (3, 1000 + i)))
        {
            chunks.push((file, at..at + len));
            at += len;
        }
        let cut: Vec<&[(usize, std::ops::Range<usize>)]> = batches(&chunks).collect();
        assert_eq!(cut.concat(), chunks);
        for batch in &cut {
            let bytes: usize = batch.iter().map(|(_, r)| r.len().max(1)).sum();
            assert!(!batch.is_empty());
            assert!(batch.len() == 1 || bytes <= BATCH_BYTES, "{bytes}");
        }
        assert_eq!(cut[1].len(), 1, "a chunk bigger than a batch is one");
        assert!(batches(&[]).next().is_none());
    }
}

/// `text` read as one file `t.yaml` with the built-in kinds, objects as extracted (for tests).
#[cfg(test)]
pub(crate) fn load_text(text: &str) -> Loaded<Object> {
    let registry = crate::pipeline::InputOptions::default().registry;
    let kinds = crate::model::known_kinds(&registry);
    let options = ObjectOptions {
        default_namespace: "default",
        kinds: &kinds,
    };
    let raw = vec![RawFile {
        name: "t.yaml".into(),
        bytes: text.as_bytes().to_vec().into(),
        origin: files::Origin::Named,
    }];
    load_files(raw, &options, &|o| o, SourceMap::new())
}

#[cfg(test)]
mod dedupe_tests {
    use super::{dedupe, identity_hash, load_text};

    const OBJECTS: &str = "\
apiVersion: v1\nkind: Namespace\nmetadata: {name: a}\n---\n\
apiVersion: v1\nkind: Namespace\nmetadata: {name: b}\n---\n\
apiVersion: v1\nkind: Namespace\nmetadata: {name: a}\n---\n\
apiVersion: v1\nkind: Namespace\nmetadata: {name: c}\n---\n\
apiVersion: v1\nkind: Namespace\nmetadata: {name: b}\n";

    /// The three names' objects and what `dedupe` keeps of them with `identities` as given
    /// (`None`: their real hashes), with its diagnostics' labels.
    fn kept(identities: Option<Vec<u64>>) -> (Vec<String>, Vec<String>) {
        let loaded = load_text(OBJECTS);
        assert_eq!(loaded.objects.len(), 5, "{:?}", loaded.diagnostics);
        let identities =
            identities.unwrap_or_else(|| loaded.objects.iter().map(identity_hash).collect());
        let mut diagnostics = Vec::new();
        let objects = dedupe(loaded.objects, &identities, &mut diagnostics);
        let names = objects.iter().map(|o| o.name.to_string()).collect();
        let file = loaded.sources.get(crate::source::SourceId(0));
        let found = (diagnostics.iter())
            .map(|d| {
                let lines = d.labels.iter().map(|l| file.line_col(l.span.start).line);
                format!("{} {:?}", d.code.as_str(), lines.collect::<Vec<_>>())
            })
            .collect();
        (names, found)
    }

    /// Later definitions go, each reported at itself and at the first, in input order.
    #[test]
    fn later_definitions_are_dropped_and_reported() {
        let expected = (
            vec!["a".to_string(), "b".into(), "c".into()],
            vec!["DPL1006 [11, 3]".to_string(), "DPL1006 [19, 7]".to_string()],
        );
        assert_eq!(kept(None), expected);
        // Different identities with one hash are told apart by identity: the same answer.
        assert_eq!(kept(Some(vec![7; 5])), expected);
        assert_eq!(kept(Some(vec![1, 2, 1, 1, 2])), expected);
    }
}
