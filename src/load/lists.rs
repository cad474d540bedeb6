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
use crate::yaml::{self, Node, Part, Value};
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
    // Never fewer nodes than the whole document has (see `list_keys`).
    let mut nodes = list_keys(source, text, &layout.keys)?;
    let runs: Vec<Run<'_>> = runs(text, &layout, cut.run_bytes)?;
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
        stats += &chunk.stats;
    }
    (nodes <= cut.max_nodes).then_some(ChunkResult {
        objects,
        diagnostics,
        stats,
    })
}

/// Reads the List's other keys: the nodes the document holds besides its items, when they
/// are those of a `List`.
fn list_keys(source: SourceId, text: &str, keys: &yaml::list::Keys) -> Option<usize> {
    let read = |range: Range<usize>, depth| clean_part(source, text, range, depth);
    // The `items` key, the root mapping, and the items' sequence.
    let mut nodes = 1;
    let mut entries: Vec<(crate::name::Name, Option<Node>)> = Vec::new();
    match keys {
        yaml::list::Keys::Block { head, tail } => {
            // The root mapping is counted with each of them, the sequence with each run.
            if yaml::list::ends_open(&text[head.clone()]) {
                return None;
            }
            for range in [head, tail] {
                let part = read(range.clone(), 0)?;
                nodes += part.nodes;
                for document in part.documents {
                    for entry in document.root.as_map()? {
                        entries.push((entry.key.text.clone(), Some(entry.value.clone())));
                    }
                }
            }
        }
        yaml::list::Keys::Json(pairs) => {
            nodes += 2;
            for (key, value) in pairs {
                let (key, value) = (read(key.clone(), 1)?, read(value.clone(), 1)?);
                nodes += key.nodes + value.nodes;
                let key = crate::name::Name::new(key.documents.first()?.root.as_str()?);
                let value = value.documents.into_iter().next().map(|d| d.root);
                entries.push((key, value));
            }
        }
    }
    let mut seen = HashSet::new();
    if entries
        .iter()
        .any(|(key, _)| &**key == "items" || !seen.insert(key))
    {
        return None;
    }
    let value = |name: &str| {
        let (_, value) = entries.iter().find(|(key, _)| &**key == name)?;
        value.as_ref()?.as_str()
    };
    let is_list = value("kind").is_some_and(|kind| kind.ends_with("List"));
    (is_list && value("apiVersion").is_some()).then_some(nodes)
}

/// Consecutive items read by one task.
struct Run<'a> {
    /// Each item's lines (block style) or value (JSON).
    items: &'a [Range<usize>],
    /// Whether the items are JSON values, each read on its own; block-style lines are read
    /// together as one sequence.
    json: bool,
}

/// `text[range]` parsed as a part sitting `depth` collections deep in its document, when it
/// reads cleanly as at most one document, without an alias.
fn clean_part(source: SourceId, text: &str, range: Range<usize>, depth: usize) -> Option<Part> {
    let mut errors = Vec::new();
    let part = yaml::parse_part(source, text, range, depth, &mut errors);
    (errors.is_empty() && !part.aliases && part.documents.len() <= 1).then_some(part)
}

/// Whether a block-style item ends in a node the next line could give (see
/// [`yaml::list::ends_open`]): a run does not end there, and the item is not read again alone.
/// A JSON item ends at its closing bracket.
fn ends_open(text: &str, json: bool, item: &Range<usize>) -> bool {
    !json && yaml::list::ends_open(&text[item.clone()])
}

/// The items cut into runs of at least `run_bytes` (the last may be shorter); `None` when the
/// last item ends open, so that reading it before the List's tail could differ.
fn runs<'a>(text: &str, layout: &'a yaml::ListLayout, run_bytes: usize) -> Option<Vec<Run<'a>>> {
    let json = matches!(layout.keys, yaml::list::Keys::Json(_));
    let items = &layout.items;
    if ends_open(text, json, &items[items.len() - 1]) {
        return None;
    }
    let mut runs = Vec::new();
    let mut first = 0;
    for (i, item) in items.iter().enumerate() {
        let full = item.end - items[first].start >= run_bytes && !ends_open(text, json, item);
        if i + 1 == items.len() || full {
            runs.push(Run {
                items: &layout.items[first..=i],
                json,
            });
            first = i + 1;
        }
    }
    Some(runs)
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
    let (items, nodes) = run_items(source, text, &run)?;
    let (mut objects, mut diagnostics): (Vec<T>, Vec<Diagnostic>) = (Vec::new(), Vec::new());
    let (mut stats, mut found) = (LoadStats::default(), Vec::new());
    for ((item, alone), range) in items.into_iter().zip(run.items) {
        objects::extract(item, options, &mut stats, &mut found, &mut diagnostics, 1);
        if let [object] = found.as_mut_slice()
            && alone
        {
            object.document = Some(range.start as u32..range.end as u32);
        }
        objects.extend(found.drain(..).map(prepare));
    }
    let chunk = ChunkResult {
        objects,
        diagnostics,
        stats,
    };
    Some((chunk, nodes))
}

/// A run's items, each with whether it reads again alone from its range as it was read here.
type Items = Vec<(Node, bool)>;

/// Parses a run's items, and counts their nodes; `None` unless each reads cleanly, within the
/// range the layout gave it.
fn run_items(source: SourceId, text: &str, run: &Run<'_>) -> Option<(Items, usize)> {
    let read = |range: Range<usize>, depth| {
        let part = clean_part(source, text, range, depth)?;
        let [document] = <[yaml::Document; 1]>::try_from(part.documents).ok()?;
        Some((document.root, part.nodes))
    };
    let (items, nodes) = if run.json {
        // Each value sits in the List's root mapping and its `items` array.
        let mut nodes = 0;
        let mut items = Vec::with_capacity(run.items.len());
        for item in run.items {
            let (root, count) = read(item.clone(), 2)?;
            items.push(root);
            nodes += count;
        }
        (items, nodes)
    } else {
        // The run's sequence sits in the List's root mapping.
        let whole = run.items[0].start..run.items[run.items.len() - 1].end;
        let (root, nodes) = read(whole, 1)?;
        let Value::Seq(items) = root.value else {
            return None;
        };
        (items.to_vec(), nodes)
    };
    if items.len() != run.items.len() {
        return None;
    }
    let last = run.items.len() - 1;
    let mut checked = Vec::with_capacity(items.len());
    for (i, (item, range)) in items.into_iter().zip(run.items).enumerate() {
        let span = item.span.start as usize..item.span.end as usize;
        let alone = if run.json {
            (span == *range).then_some(true)?
        } else {
            // An item starts in its lines (or the scan paired lines and items wrongly). One
            // that ends where the next starts took a node from the next line: it cannot be
            // read alone, nor end a run.
            (range.start <= span.start && span.start < range.end).then_some(())?;
            let closed = span.end < range.end;
            (closed || i < last).then_some(())?;
            closed && !yaml::list::ends_open(&text[range.clone()])
        };
        checked.push((item, alone));
    }
    Some((checked, nodes))
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
            documents: Vec::new(),
        };
        let keep = |object: Object| object;
        let range = 0..text.len();
        let whole = read_whole(&file, text, range.clone(), &options, &keep);
        let Some(parts) = read_in_runs(file.id, text, range, &options, &keep, cut) else {
            return false;
        };
        assert_eq!(summary(&parts), summary(&whole), "{text}");
        // An object alone in its item has the item's lines (or JSON value) as its document,
        // and reads again from them alone as it was read.
        for object in &parts.objects {
            if let Some(lines) = object.document.clone() {
                let first = text.as_bytes()[lines.start as usize];
                assert!(matches!(first, b'-' | b'{'), "{text}");
                let range = lines.start as usize..lines.end as usize;
                let again = crate::yaml::parse_chunk(SourceId(0), text, range, &mut Vec::new())
                    .into_iter()
                    .find_map(|d| crate::load::find_object(d.root, object.root.span));
                assert_eq!(
                    format!("{again:?}"),
                    format!("{:?}", Some(&object.root)),
                    "{text}"
                );
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

    /// `documents` (parsed) as a JSON List, as `kubectl get -o json` writes one.
    fn as_json_list(documents: &[&str]) -> String {
        let items: Vec<serde_json::Value> = documents
            .iter()
            .flat_map(|d| crate::yaml::parse_chunk(SourceId(0), d, 0..d.len(), &mut Vec::new()))
            .map(|d| d.root.to_json())
            .collect();
        let list = serde_json::json!({
            "apiVersion": "v1",
            "items": items,
            "kind": "List",
            "metadata": {"resourceVersion": ""},
        });
        serde_json::to_string_pretty(&list).unwrap() + "\n"
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
            as_list(&[&(ROUTE.to_owned() + "status:\n"), &other]),
            as_list(&[&(ROUTE.to_owned() + "status:\n  a: |\n"), &other]),
            as_list(&[&(ROUTE.to_owned() + "status:\n  a: [x, y]\n"), &other]),
            as_list(&[&(ROUTE.to_owned() + "status:\n  -\n"), &other]),
            as_json_list(&[ROUTE, &other, "kind: Foo"]),
            as_json_list(&[ROUTE])
                .replace("\"kind\": \"List\"", "\"kind\": \"List\", \"x\": [1, {}]"),
            as_json_list(&[ROUTE]).replace("\"r\"", "\"r\\u0072\\\"\""),
            as_json_list(&[ROUTE]).replace("\"kind\": \"List\"", "\"ki\\u006ed\": \"List\""),
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
            // JSON: a syntax error in an item, a duplicate key, not a List.
            as_json_list(&[ROUTE, ROUTE]).replacen("\"name\": \"r\"", "\"name\": \"r\" 1", 1),
            as_json_list(&[ROUTE]).replace("\"kind\": \"List\"", "\"kind\": \"List\", \"kind\": 1"),
            as_json_list(&[ROUTE]).replace("\"kind\": \"List\"", "\"kind\": \"Lis\""),
        ];
        for (i, text) in cases.iter().enumerate() {
            for run_bytes in [1, 1 << 20] {
                assert!(!check(text, run_bytes), "case {i} ({run_bytes}):\n{text}");
            }
        }
    }

    /// Inputs a review found where reading in parts once differed from reading whole: block
    /// headers the line scan missed, lone carriage returns, document markers and directives in
    /// the List's keys, YAML indicators as JSON scalars, form feeds. Read in parts or whole,
    /// they must agree (and most must be read whole).
    #[test]
    fn lists_at_the_edges_of_the_layout_agree() {
        let tabbed = ROUTE.replace("  - name: gw", "  - name: gw\n    note: |\t# c");
        let quoted = ROUTE.replace("  - name: gw", "  - name: gw\n    \"x #y\": |");
        let other = ROUTE.replace("name: r", "name: s");
        let agree = [
            as_list(&[ROUTE, &tabbed, &other]),
            as_list(&[ROUTE, &quoted, &other]),
            as_list(&[ROUTE, &tabbed]),
            as_list(&[ROUTE, "- \"x\n- y\"", &other]),
        ];
        for text in &agree {
            for run_bytes in [1, 100, 1 << 20] {
                check(text, run_bytes);
            }
        }
        let route = &as_list(&[ROUTE])["apiVersion: v1\nkind: List\nitems:\n".len()..];
        let whole = [
            format!("apiVersion: v1\nkind: List\nitems: # c\r- z\n{route}"),
            format!("apiVersion: v1\nkind: List\nitems:\n# c\r- z\n{route}"),
            format!("apiVersion: v1\nkind: List\n...\nitems:\n{route}"),
            format!("%YAML 1.1\n---\napiVersion: v1\nkind: List\n---\nitems:\n{route}"),
            format!("%TAG ! tag:yaml.org,2002:\n---\napiVersion: v1\nkind: List\nitems:\n{route}"),
            format!("apiVersion: v1\nkind: List\nitems:\x0c\n{route}"),
            format!("apiVersion: v1\nkind: List\nitems:\n\x0c# c\n{route}"),
            as_json_list(&[ROUTE]).replace("\"items\": [", "\"items\": [-, "),
            as_json_list(&[ROUTE]).replace("\"kind\": \"List\"", "\"kind\": \"List\", \"x\": -"),
            as_json_list(&[ROUTE, ROUTE]).replace("},\n    {", "},\x0c{"),
        ];
        for (i, text) in whole.iter().enumerate() {
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

    /// Every YAML file of the repository as one List of its documents (in block style and in
    /// JSON), read in parts and whole; then with edits at line starts (items cut, keys moved to
    /// column 0, comments, anchors) or, in JSON, where values start (brackets, quotes).
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
        const BLOCK_EDITS: &[&str] = &[
            "- ", "-\n", "# c\n", "x: 1\n", "  ", "&a ", "*a\n", "\t", "\n",
        ];
        const JSON_EDITS: &[&str] = &[
            "'", "#", ",", "]", "}", "{", "[", "\"", "\\", "x", ": 1", "&a ", "*a",
        ];
        let (mut lists, mut in_parts, mut json_in_parts) = (0, 0, 0);
        // `DOPOL_YAML_SOAK=N` runs N times as many edits.
        let soak: usize = std::env::var("DOPOL_YAML_SOAK")
            .ok()
            .and_then(|n| n.parse().ok())
            .unwrap_or(1)
            .max(1);
        let mut state = 0x9e37_79b9_u64 ^ soak as u64;
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
            let (list, json) = (as_list(&documents), as_json_list(&documents));
            lists += 1;
            in_parts += usize::from(check(&list, 1));
            json_in_parts += usize::from(check(&json, 1));
            for (text, edits) in [(&list, BLOCK_EDITS), (&json, JSON_EDITS)] {
                for _ in 0..4 * soak {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    let starts: Vec<usize> = std::iter::once(0)
                        .chain(text.match_indices('\n').map(|(i, _)| i + 1))
                        .filter(|&i| i < text.len())
                        .collect();
                    let line = starts[state as usize % starts.len()];
                    // At a line start, or (JSON) after the line's indentation.
                    let at = line
                        + (state >> 20) as usize % 2 * text[line..].find(|c| c != ' ').unwrap_or(0);
                    let edit = edits[(state >> 32) as usize % edits.len()];
                    let edited = format!("{}{edit}{}", &text[..at], &text[at..]);
                    check(&edited, 1 + (state >> 40) as usize % 4096);
                }
            }
        }
        // Most files are manifests: as Lists, nearly all of them read in parts.
        assert!(
            in_parts * 10 > lists * 7 && json_in_parts * 10 > lists * 7,
            "{in_parts} and {json_in_parts} (JSON) of {lists} read in parts"
        );
    }
}
