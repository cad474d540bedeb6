//! A `List` document read in parts, in parallel.
//!
//! `kubectl get -o yaml` writes a cluster dump as one `List` document. Read whole, one thread
//! parses it and its whole tree is alive at once: the 49 MB benchmark corpus written that way
//! took twice the time and three times the memory of the same objects written as documents.
//! So the document is cut where [`yaml::list_layout`] finds its items: the List's other keys
//! (head and tail) are read on their own, and the items in runs of about [`RUN_BYTES`], each
//! run parsed, its objects extracted and handed to `prepare` in a task of its own, as if it were
//! a document. Each object alone in its item records the item's lines as its
//! [`Object::document`], so it is trimmed and read again from those lines alone.
//!
//! Reading in parts gives what reading whole gives only when every part reads cleanly, so the
//! parts are used only when:
//!
//! - no part has a syntax error (its message could differ from the whole document's) or an
//!   alias (an anchor may sit in another part, and the alias limits are per document);
//! - each run parses to a sequence of as many items as the layout found `-` lines;
//! - the head and tail are mappings with `apiVersion` and a `kind` ending in `List` between
//!   them, no `items` key, and no key written in both (that would be a duplicate key);
//! - the parts' nodes together stay within `yaml-document-nodes` (they are counted with the
//!   head's and tail's own mappings, so the sum is never below the whole document's count).
//!
//! Otherwise the document is read whole, with exactly the diagnostics of reading it whole.

use super::objects::{self, LoadStats, Object, ObjectOptions};
use super::{ChunkResult, DecodedFile};
use crate::diag::Diagnostic;
use crate::source::SourceId;
use crate::yaml::{self, Node, Value};
use rayon::prelude::*;
use std::collections::HashSet;
use std::ops::Range;

/// About how much text one task parses: small enough that both cores stay busy to the end of
/// a dump, large enough that a task costs far more than scheduling it.
const RUN_BYTES: usize = 64 << 10;

/// The chunk's objects read in parts, when it is a `List` that can be (see the module doc).
pub(super) fn read<T: Send>(
    file: &DecodedFile,
    text: &str,
    range: Range<usize>,
    options: &ObjectOptions<'_>,
    prepare: &(dyn Fn(Object) -> T + Sync),
) -> Option<ChunkResult<T>> {
    if file
        .invalid_at
        .iter()
        .any(|&at| range.contains(&(at as usize)))
    {
        return None;
    }
    read_in_runs(file.id, text, range, options, prepare, Cut::DUMP)
}

/// How a List is cut: about how many bytes a run holds, and the most nodes the document may.
#[derive(Clone, Copy)]
struct Cut {
    run_bytes: usize,
    max_nodes: usize,
}

impl Cut {
    const DUMP: Cut = Cut {
        run_bytes: RUN_BYTES,
        max_nodes: yaml::MAX_DOCUMENT_NODES,
    };
}

/// [`read`], cut as `cut` says.
fn read_in_runs<T: Send>(
    source: SourceId,
    text: &str,
    range: Range<usize>,
    options: &ObjectOptions<'_>,
    prepare: &(dyn Fn(Object) -> T + Sync),
    cut: Cut,
) -> Option<ChunkResult<T>> {
    let layout = yaml::list_layout(text, range)?;
    // `items` is counted here; the root mapping with the head and with the tail, the sequence
    // with each run: never fewer nodes than the whole document has.
    let mut nodes = 1 + list_keys(source, text, &layout)?;
    let runs: Vec<Run<'_>> = runs(&layout, cut.run_bytes);
    let read: Vec<Option<(ChunkResult<T>, usize)>> = runs
        .into_par_iter()
        .map(|run| read_run(source, text, run, options, prepare))
        .collect();
    let (mut objects, mut diagnostics) = (Vec::new(), Vec::new());
    let mut stats = LoadStats {
        documents: 1,
        ..LoadStats::default()
    };
    for run in read {
        let (mut chunk, run_nodes) = run?;
        nodes += run_nodes;
        objects.append(&mut chunk.objects);
        diagnostics.append(&mut chunk.diagnostics);
        stats.objects += chunk.stats.objects;
        stats.skipped_other_kinds += chunk.stats.skipped_other_kinds;
    }
    (nodes <= cut.max_nodes).then_some(ChunkResult {
        objects,
        diagnostics,
        stats,
    })
}

/// Reads the head and tail: the nodes they hold, when together they are a `List`'s other keys.
fn list_keys(source: SourceId, text: &str, layout: &yaml::ListLayout) -> Option<usize> {
    let (mut nodes, mut keys) = (0, HashSet::new());
    let (mut api_version, mut kind) = (None, None);
    for range in [layout.head.clone(), layout.tail.clone()] {
        let mut errors = Vec::new();
        let part = yaml::parse_part(source, text, range, 0, &mut errors);
        if !errors.is_empty() || part.aliases || part.documents.len() > 1 {
            return None;
        }
        nodes += part.nodes;
        for document in part.documents {
            for entry in document.root.as_map()? {
                if &*entry.key.text == "items" || !keys.insert(entry.key.text.clone()) {
                    return None;
                }
            }
            api_version = api_version.or(document.root.get("apiVersion").cloned());
            kind = kind.or(document.root.get("kind").cloned());
        }
    }
    let is_list = kind
        .as_ref()
        .and_then(Node::as_str)
        .is_some_and(|k| k.ends_with("List"));
    (is_list && api_version.as_ref().and_then(Node::as_str).is_some()).then_some(nodes)
}

/// Consecutive items read by one task: where each starts, and where the last ends.
struct Run<'a> {
    starts: &'a [usize],
    end: usize,
}

/// The items cut into runs of at least `run_bytes` (the last may be shorter).
fn runs(layout: &yaml::ListLayout, run_bytes: usize) -> Vec<Run<'_>> {
    let items = &layout.items;
    let end_of = |i: usize| items.get(i).copied().unwrap_or(layout.items_end);
    let mut runs = Vec::new();
    let mut first = 0;
    for next in 1..=items.len() {
        if next == items.len() || end_of(next) - items[first] >= run_bytes {
            runs.push(Run {
                starts: &items[first..next],
                end: end_of(next),
            });
            first = next;
        }
    }
    runs
}

/// Parses one run and hands its objects to `prepare`; also returns the nodes it holds.
/// `None` when the run does not read cleanly as the layout's items.
fn read_run<T>(
    source: SourceId,
    text: &str,
    run: Run<'_>,
    options: &ObjectOptions<'_>,
    prepare: &(dyn Fn(Object) -> T + Sync),
) -> Option<(ChunkResult<T>, usize)> {
    let mut errors = Vec::new();
    // The run's sequence sits in the List's root mapping.
    let part = yaml::parse_part(source, text, run.starts[0]..run.end, 1, &mut errors);
    let [document] = <[yaml::Document; 1]>::try_from(part.documents).ok()?;
    let Value::Seq(items) = document.root.value else {
        return None;
    };
    if !errors.is_empty() || part.aliases || items.len() != run.starts.len() {
        return None;
    }
    let (mut objects, mut diagnostics): (Vec<T>, Vec<Diagnostic>) = (Vec::new(), Vec::new());
    let (mut stats, mut found) = (LoadStats::default(), Vec::new());
    for (i, item) in items.iter().enumerate() {
        objects::extract(
            item.clone(),
            options,
            &mut stats,
            &mut found,
            &mut diagnostics,
            1,
        );
        if let [object] = found.as_mut_slice() {
            let end = run.starts.get(i + 1).copied().unwrap_or(run.end);
            object.document = Some(run.starts[i] as u32..end as u32);
        }
        objects.extend(found.drain(..).map(prepare));
    }
    let chunk = ChunkResult {
        objects,
        diagnostics,
        stats,
    };
    Some((chunk, part.nodes))
}

#[cfg(test)]
mod tests {
    //! Differential tests: wherever a `List` is read in parts, what it gives must be what
    //! reading it whole gives, object for object (spans included) and diagnostic for
    //! diagnostic.

    use super::*;
    use crate::load::read_whole;

    /// Objects (identity and tree), diagnostics and counters, as text to compare.
    fn summary(chunk: &ChunkResult<Object>) -> String {
        let mut out = format!("{:?}\n", chunk.stats);
        for object in &chunk.objects {
            out += &format!("{} {:?}\n", object.identity(), object.root);
        }
        for diagnostic in &chunk.diagnostics {
            out += &format!("{diagnostic:?}\n");
        }
        out
    }

    /// Reads `text` in runs of `run_bytes` (when it can be) and whole; checks they agree and
    /// says whether it was read in parts.
    fn check(text: &str, run_bytes: usize) -> bool {
        check_cut(
            text,
            Cut {
                run_bytes,
                ..Cut::DUMP
            },
        )
    }

    /// [`check`], cut as `cut` says.
    fn check_cut(text: &str, cut: Cut) -> bool {
        let registry = crate::pipeline::InputOptions::default().registry;
        let kinds = crate::model::known_kinds(&registry);
        let options = ObjectOptions {
            default_namespace: "default",
            kinds: &kinds,
        };
        let file = DecodedFile {
            id: SourceId(0),
            invalid_at: Vec::new(),
        };
        let keep = |object: Object| object;
        let range = 0..text.len();
        let whole = read_whole(&file, text, range.clone(), &options, &keep);
        let Some(parts) = read_in_runs(file.id, text, range, &options, &keep, cut) else {
            return false;
        };
        assert_eq!(summary(&parts), summary(&whole), "{text}");
        // An object alone in its item has the item's lines (which hold it) as its document.
        for object in &parts.objects {
            if let Some(lines) = object.document.clone() {
                let span = object.root.span;
                assert!(lines.start <= span.start && span.end <= lines.end, "{text}");
                assert_eq!(text.as_bytes()[lines.start as usize], b'-', "{text}");
            }
        }
        true
    }

    /// `documents` as the items of a List written the way kubectl writes one.
    fn as_list(documents: &[&str]) -> String {
        let mut out = String::from("apiVersion: v1\nkind: List\nitems:\n");
        for document in documents {
            let body = document.strip_prefix("---\n").unwrap_or(document);
            for (i, line) in body.lines().enumerate() {
                let indent = if i == 0 {
                    "- "
                } else if line.is_empty() {
                    ""
                } else {
                    "  "
                };
                out += &format!("{indent}{line}\n");
            }
        }
        out + "metadata:\n  resourceVersion: \"\"\n"
    }

    const ROUTE: &str = "apiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\n\
                         metadata:\n  name: r\n  namespace: a\nspec:\n  parentRefs:\n  - name: gw\n";

    #[test]
    fn lists_that_read_in_parts() {
        let other = ROUTE.replace("name: r", "name: s");
        let cases = [
            as_list(&[ROUTE, &other]),
            as_list(&[ROUTE, "kind: Foo", "just text", &other]),
            as_list(&[ROUTE]).replace("apiVersion: v1\nkind: List\n", "")
                + "kind: List\napiVersion: v1\n",
            as_list(&[
                ROUTE,
                &ROUTE.replace("namespace: a", "namespace: a\n  labels: {}"),
            ]),
            as_list(&[
                ROUTE,
                &ROUTE.replace("  - name: gw", "  - name: gw\n# a comment"),
            ]),
            as_list(&[&ROUTE.replace("name: r", "name: \"r\\\n      r\""), &other]),
            as_list(&[ROUTE, &other]).replace("kind: List", "kind: HTTPRouteList"),
            // A List inside an item, and the same route twice (duplicates are found later).
            as_list(&[&as_list(&[ROUTE]), ROUTE]),
        ];
        for (i, text) in cases.iter().enumerate() {
            for run_bytes in [1, 100, 1 << 20] {
                assert!(check(text, run_bytes), "case {i} ({run_bytes}):\n{text}");
            }
        }
    }

    #[test]
    fn lists_that_read_whole() {
        let anchored = ROUTE.replace("namespace: a", "namespace: &ns a");
        let aliased = ROUTE
            .replace("namespace: a", "namespace: *ns")
            .replace("name: r", "name: s");
        let cases = [
            // An alias (here to an anchor in another item).
            as_list(&[&anchored, &aliased]),
            // A syntax error in one item.
            as_list(&[ROUTE, "a: [b"]),
            // Duplicate keys: `items` again, a key in the head and the tail.
            as_list(&[ROUTE]) + "items: []\n",
            as_list(&[ROUTE]).replace("metadata:\n  resourceVersion", "kind:\n  resourceVersion"),
            // Not a List: no `kind`, a kind not ending in List, no apiVersion.
            as_list(&[ROUTE]).replace("kind: List\n", ""),
            as_list(&[ROUTE]).replace("kind: List", "kind: Lists"),
            as_list(&[ROUTE]).replace("apiVersion: v1\n", ""),
            // A quoted string whose next line starts like an item.
            as_list(&[&ROUTE.replace("name: gw", "name: \"gw\n- x\"")]),
            // A line at column 0 inside an item.
            as_list(&[ROUTE, ROUTE]).replacen("\n    namespace: a", "\nnamespace: a", 1),
        ];
        for (i, text) in cases.iter().enumerate() {
            for run_bytes in [1, 1 << 20] {
                assert!(!check(text, run_bytes), "case {i} ({run_bytes}):\n{text}");
            }
        }
    }

    /// The nodes of all parts count against the document's cap: the root mapping, `apiVersion:
    /// v1`, `kind: List`, `items:`, the sequence, and the route's 18 nodes make 25.
    #[test]
    fn the_parts_nodes_add_up_to_the_document_cap() {
        let text = as_list(&[ROUTE]).replace("metadata:\n  resourceVersion: \"\"\n", "");
        let cut = |max_nodes| Cut {
            run_bytes: 1,
            max_nodes,
        };
        assert!(check_cut(&text, cut(25)));
        assert!(!check_cut(&text, cut(24)));
    }

    /// Every YAML file of the repository as one List of its documents, read in parts and whole;
    /// then with edits at line starts (items cut, keys moved to column 0, comments, anchors).
    #[test]
    fn repository_files_as_lists_read_in_parts_as_whole() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut files = Vec::new();
        let mut dirs = vec![root.join("testdata"), root.join("examples")];
        while let Some(dir) = dirs.pop() {
            for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
                let path = entry.path();
                if path.is_dir() {
                    dirs.push(path);
                } else if path.extension().is_some_and(|e| e == "yaml") {
                    files.push(path);
                }
            }
        }
        files.sort();
        const EDITS: &[&str] = &[
            "- ", "-\n", "# c\n", "x: 1\n", "  ", "&a ", "*a\n", "\t", "\n",
        ];
        let (mut lists, mut in_parts, mut state) = (0, 0, 0x9e37_79b9_u64);
        for path in files {
            let Ok(text) = std::fs::read_to_string(&path) else {
                continue;
            };
            if text.contains("\n%") || text.starts_with('%') || text.len() > 200_000 {
                continue;
            }
            let documents: Vec<&str> = crate::yaml::split_documents(&text)
                .into_iter()
                .map(|r| &text[r])
                .collect();
            let list = as_list(&documents);
            lists += 1;
            in_parts += usize::from(check(&list, 1));
            for _ in 0..4 {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                let starts: Vec<usize> = std::iter::once(0)
                    .chain(list.match_indices('\n').map(|(i, _)| i + 1))
                    .filter(|&i| i < list.len())
                    .collect();
                let at = starts[state as usize % starts.len()];
                let edit = EDITS[(state >> 32) as usize % EDITS.len()];
                let edited = format!("{}{edit}{}", &list[..at], &list[at..]);
                check(&edited, 1 + (state >> 40) as usize % 4096);
            }
        }
        // Most files are manifests: as Lists, nearly all of them read in parts.
        assert!(
            in_parts * 10 > lists * 7,
            "{in_parts} of {lists} read in parts"
        );
    }
}
