//! YAML documents → Kubernetes object envelopes.
//!
//! A document becomes an [`Object`] when it has `apiVersion` and `kind`. `kind: List` (and any
//! `*List` kind with `items`, as `kubectl get -o yaml` prints) is flattened, and so is an Envoy
//! Gateway translator fixture (a mapping of lists of objects, see `load::fixture`). Objects of kinds
//! dopol does not use are counted and dropped; documents that are not objects are reported.
//! Metadata is validated here (name, namespace, labels, annotations, creationTimestamp), since
//! every later stage relies on it.

use super::diags::NotAnObject;
use super::fields::{FieldPath, Fields, name_violation};
use super::names::NameRule;
use crate::diag::Diagnostic;
use crate::name::Name;
use crate::source::Span;
use crate::yaml::{Entry, Node, Value};
use std::fmt;

/// A `(group, kind)` dopol reads, and whether objects of it are cluster-scoped.
#[derive(Clone, Copy, Debug)]
pub struct KindSpec {
    /// API group (`""` for the core group).
    pub group: &'static str,
    /// Kind.
    pub kind: &'static str,
    /// Cluster-scoped kinds have no namespace.
    pub cluster_scoped: bool,
}

/// A point in time (`metadata.creationTimestamp`), comparable.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Timestamp {
    /// Seconds since the Unix epoch.
    pub seconds: i64,
    /// Nanoseconds within the second, plus one: never zero, so that an
    /// `Option<Timestamp>` is 16 bytes, not 24 (every object, route and policy holds one).
    nanos_plus_one: std::num::NonZeroU32,
}

impl Timestamp {
    /// The time `seconds` and `nanos` (below 10^9) after the Unix epoch.
    pub fn new(seconds: i64, nanos: u32) -> Timestamp {
        Timestamp {
            seconds,
            nanos_plus_one: std::num::NonZeroU32::MIN.saturating_add(nanos.min(999_999_999)),
        }
    }

    /// Nanoseconds within the second.
    pub fn nanos(self) -> u32 {
        self.nanos_plus_one.get() - 1
    }

    /// Parses an RFC 3339 date-time (`2024-05-01T10:00:00Z`, optional fraction and offset).
    pub fn parse_rfc3339(text: &str) -> Option<Timestamp> {
        let b = text.as_bytes();
        let num = |range: std::ops::Range<usize>| -> Option<i64> {
            let s = text.get(range)?;
            if s.bytes().all(|c| c.is_ascii_digit()) && !s.is_empty() {
                s.parse().ok()
            } else {
                None
            }
        };
        if b.len() < 20 || b[4] != b'-' || b[7] != b'-' || !matches!(b[10], b'T' | b't' | b' ') {
            return None;
        }
        if b[13] != b':' || b[16] != b':' {
            return None;
        }
        let (year, month, day) = (num(0..4)?, num(5..7)?, num(8..10)?);
        let (hour, minute, second) = (num(11..13)?, num(14..16)?, num(17..19)?);
        if !(1..=12).contains(&month)
            || day < 1
            || day > days_in_month(year, month)
            || hour > 23
            || minute > 59
            || second > 59
        {
            return None;
        }
        let mut i = 19;
        let mut nanos = 0u32;
        if b.get(i) == Some(&b'.') {
            let start = i + 1;
            i = start;
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
            let digits = &text[start..i];
            if digits.is_empty() {
                return None;
            }
            let mut padded: String = digits.chars().take(9).collect();
            while padded.len() < 9 {
                padded.push('0');
            }
            nanos = padded.parse().ok()?;
        }
        let offset_seconds = match b.get(i)? {
            b'Z' | b'z' if i + 1 == b.len() => 0,
            sign @ (b'+' | b'-') if i + 6 == b.len() && b[i + 3] == b':' => {
                let (h, m) = (num(i + 1..i + 3)?, num(i + 4..i + 6)?);
                if h > 23 || m > 59 {
                    return None;
                }
                let magnitude = h * 3600 + m * 60;
                if *sign == b'+' { magnitude } else { -magnitude }
            }
            _ => return None,
        };
        let days = days_from_civil(year, month, day);
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offset_seconds;
        Some(Timestamp::new(seconds, nanos))
    }
}

fn days_in_month(year: i64, month: i64) -> i64 {
    match month {
        2 if (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// A Kubernetes object of a kind dopol reads, with validated metadata.
#[derive(Clone, Debug)]
pub struct Object {
    /// API group (`""` for core). Group, version, kind and namespace are shared (see
    /// [`Name`]): a few values recur in every object.
    pub group: Name,
    /// API version within the group.
    pub version: Name,
    /// Kind.
    pub kind: Name,
    /// Namespace (`None` for cluster-scoped kinds).
    pub namespace: Option<Name>,
    /// Whether the namespace came from `-n` / `default` rather than `metadata.namespace` (as
    /// when a guide's YAML is applied with `kubectl -n X`); hints about namespaces depend on it.
    pub namespace_defaulted: bool,
    /// Whether the API server would reject the object for its name or namespace: it is decoded
    /// (so that its other errors are reported too) and then left out.
    pub rejected: bool,
    /// Name.
    pub name: Box<str>,
    /// Parsed `metadata.creationTimestamp`.
    pub creation_timestamp: Option<Timestamp>,
    /// The whole object, or (once [`Object::trim`]med) the parts of `metadata` read after
    /// decoding.
    pub root: Node,
    /// Where `apiVersion` is written (kept apart: a trimmed root no longer has it).
    api_version_span: Span,
    /// Where `metadata.name` is written, or the root's span (kept apart, as `apiVersion`'s).
    name_span: Span,
    /// The byte range of the document chunk the object was read from, when it is the only
    /// object of that chunk, or the lines of its item when its `List` was read in parts
    /// (`load::lists`): reading it again then parses just those. Only such an object is
    /// [`Object::trim`]med (an item of a `List` read whole would parse the whole List).
    pub document: Option<std::ops::Range<u32>>,
    /// Whether [`Object::trim`] dropped the rest of the tree.
    trimmed: bool,
    /// The whole tree, once read again (trimmed objects only).
    reread: std::sync::OnceLock<Box<Node>>,
}

/// `(group, kind, namespace, name)`: two objects with the same identity are the same object.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Identity {
    /// API group.
    pub group: Box<str>,
    /// Kind.
    pub kind: Box<str>,
    /// Namespace (empty for cluster-scoped).
    pub namespace: Box<str>,
    /// Name.
    pub name: Box<str>,
}

impl fmt::Display for Identity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.namespace.is_empty() {
            write!(f, "{} {}", self.kind, self.name)
        } else {
            write!(f, "{} {}/{}", self.kind, self.namespace, self.name)
        }
    }
}

impl Object {
    /// The object's identity.
    pub fn identity(&self) -> Identity {
        Identity {
            group: self.group.as_str().into(),
            kind: self.kind.as_str().into(),
            namespace: self.namespace.as_deref().unwrap_or_default().into(),
            name: self.name.clone(),
        }
    }

    /// `group/version`, or `version` for the core group.
    pub fn api_version(&self) -> String {
        if self.group.is_empty() {
            self.version.to_string()
        } else {
            format!("{}/{}", self.group, self.version)
        }
    }

    /// `ns/name`, or `name` when cluster-scoped.
    pub fn namespaced_name(&self) -> String {
        match &self.namespace {
            Some(ns) => format!("{ns}/{}", self.name),
            None => self.name.to_string(),
        }
    }

    /// `Kind ns/name`, for messages.
    pub fn display(&self) -> String {
        format!("{} {}", self.kind, self.namespaced_name())
    }

    /// The namespace, or `""` when cluster-scoped.
    pub fn namespace_str(&self) -> &str {
        self.namespace.as_deref().unwrap_or("")
    }

    /// [`Object::namespace_str`] as a [`Name`], sharing the object's own.
    pub fn namespace_name(&self) -> Name {
        self.namespace.clone().unwrap_or_else(|| Name::new(""))
    }

    /// Keeps only the parts of `metadata` read after decoding ([`KEPT_METADATA`]; the root
    /// keeps its span). Once an object is decoded, most of its tree is read by nobody; dropping
    /// it right away is what keeps memory near the input's size (and a cluster dump's
    /// `managedFields` go too). [`Object::tree`] reads the rest again. An object without its
    /// own [`Object::document`] is left whole.
    pub fn trim(&mut self) {
        let (Some(entries), Some(_)) = (self.root.as_map(), &self.document) else {
            return;
        };
        let kept = entries
            .iter()
            .find(|e| &*e.key.text == "metadata")
            .and_then(|e| kept_metadata(&e.value));
        // Most objects have neither labels nor annotations: their root keeps no tree at all
        // (a map of a map was a sixth of a big input's model). The others keep the entries of
        // `metadata` in the root itself ([`Object::metadata`]): a level of maps above the
        // labels of every route was 3 MB of the 49 MB benchmark's model.
        self.root.value = kept.unwrap_or(Value::Null);
        // What is left lives until the run ends: moved apart from the freed document, into
        // kept storage ([`crate::platform::kept`]).
        if !self.root.is_null() {
            self.root = crate::platform::kept::keep(|| self.root.copied_apart());
        }
        self.trimmed = true;
    }

    /// The whole tree: [`Object::root`], or for a trimmed object the tree `reread` builds from
    /// the source (once; later calls share it).
    pub fn tree(&self, reread: impl FnOnce(&Object) -> Node) -> &Node {
        if !self.trimmed {
            return &self.root;
        }
        self.reread.get_or_init(|| Box::new(reread(self)))
    }

    /// A copy of the object holding `tree`, its whole tree (read again when trimmed): what a
    /// decoder reads.
    pub fn with_tree(&self, tree: Node) -> Object {
        Object {
            root: tree,
            trimmed: false,
            reread: std::sync::OnceLock::new(),
            ..self.clone()
        }
    }

    /// The whole tree when the object holds it already: its root when untrimmed, or the tree
    /// [`Object::tree`] read again.
    pub fn held_tree(&self) -> Option<&Node> {
        if self.trimmed {
            self.reread.get().map(|tree| &**tree)
        } else {
            Some(&self.root)
        }
    }

    /// Where the object's name is written (the best place to point at the whole object).
    pub fn name_span(&self) -> Span {
        self.name_span
    }

    /// Where `apiVersion` is written.
    pub fn api_version_span(&self) -> Span {
        self.api_version_span
    }

    /// Labels (validated to be strings).
    pub fn labels(&self) -> impl Iterator<Item = (&str, &str)> {
        string_map(self.metadata("labels"))
    }

    /// An annotation's value.
    pub fn annotation(&self, key: &str) -> Option<&str> {
        string_map(self.metadata("annotations"))
            .find(|(k, _)| *k == key)
            .map(|(_, v)| v)
    }

    /// `metadata.<field>` as written, for the fields a trimmed object keeps
    /// ([`KEPT_METADATA`]; the root of a trimmed object holds them without the `metadata`
    /// level).
    pub fn metadata(&self, field: &str) -> Option<&Node> {
        debug_assert!(KEPT_METADATA.contains(&field), "`{field}` is not kept");
        if self.trimmed {
            self.root.get(field)
        } else {
            self.root.get_path(&["metadata", field])
        }
    }
}

/// The `metadata` fields a trimmed object keeps: what [`Object::labels`],
/// [`Object::annotation`] and the checks of annotations read once the object is decoded (the
/// name's span is kept apart; `explain` reads the creation time as written from
/// [`Object::tree`]).
pub const KEPT_METADATA: [&str; 2] = ["labels", "annotations"];

/// The entries of `metadata` in [`KEPT_METADATA`], or `None` when it has none of them.
fn kept_metadata(metadata: &Node) -> Option<Value> {
    let kept: Vec<Entry> = metadata
        .as_map()?
        .iter()
        .filter(|e| KEPT_METADATA.contains(&&*e.key.text))
        .cloned()
        .collect();
    (!kept.is_empty()).then(|| Value::Map(kept.into()))
}

fn string_map(node: Option<&Node>) -> impl Iterator<Item = (&str, &str)> {
    node.and_then(Node::as_map)
        .unwrap_or_default()
        .iter()
        .filter_map(|e| Some((&*e.key.text, e.value.as_str()?)))
}

/// Splits `apiVersion` into group and version.
pub fn split_api_version(api_version: &str) -> (&str, &str) {
    match api_version.rsplit_once('/') {
        Some((group, version)) => (group, version),
        None => ("", api_version),
    }
}

/// Counters for `-v` output.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LoadStats {
    /// Files read.
    pub files: usize,
    /// Non-empty YAML documents parsed.
    pub documents: usize,
    /// Objects of kinds dopol reads.
    pub objects: usize,
    /// Objects of other kinds, skipped.
    pub skipped_other_kinds: usize,
    /// Documents read as Envoy Gateway translator fixtures (`load::fixture`).
    pub fixtures: usize,
}

impl std::ops::AddAssign<&LoadStats> for LoadStats {
    fn add_assign(&mut self, other: &LoadStats) {
        self.files += other.files;
        self.documents += other.documents;
        self.objects += other.objects;
        self.skipped_other_kinds += other.skipped_other_kinds;
        self.fixtures += other.fixtures;
    }
}

/// How objects are read.
#[derive(Clone, Debug)]
pub struct ObjectOptions<'a> {
    /// Namespace for namespaced objects without one.
    pub default_namespace: &'a str,
    /// The kinds to keep.
    pub kinds: &'a [KindSpec],
}

/// Most levels of nested `List`s flattened (`list-nesting`). kubectl writes one level; a
/// deeper List is left out with a warning naming the limit, the rest of the input is read.
/// The tree's depth is already bounded by the YAML reader; this keeps flattening shallow too.
const MAX_LIST_NESTING: usize = 4;

/// Extracts the objects of `root` (flattening Lists), appending diagnostics. `depth` is how
/// many Lists `root` is an item of: 0 for a document's root, 1 for an item of a document's
/// List read in parts (`load::lists`).
pub fn extract(
    root: Node,
    options: &ObjectOptions<'_>,
    stats: &mut LoadStats,
    out: &mut Vec<Object>,
    diagnostics: &mut Vec<Diagnostic>,
    depth: usize,
) {
    let api_version = root.get("apiVersion").and_then(Node::as_str);
    let kind = root.get("kind").and_then(Node::as_str);
    let (Some(api_version), Some(kind)) = (api_version, kind) else {
        if depth == 0
            && let Some(entries) = super::fixture::entries(&root)
        {
            stats.fixtures += 1;
            for entry in entries {
                for item in super::fixture::objects_of(entry, diagnostics) {
                    extract(item, options, stats, out, diagnostics, depth + 1);
                }
            }
            return;
        }
        let what = match &root.value {
            Value::Map(_) => NotAnObject::Untyped,
            _ => NotAnObject::NotAMapping,
        };
        let span = root
            .as_map()
            .and_then(|m| m.first())
            .map_or(root.span, |e| e.key.span);
        diagnostics.push(Diagnostic::from(what).with_label(span, "document starts here"));
        return;
    };
    if kind.ends_with("List")
        && let Some(items) = root
            .get("items")
            .filter(|n| n.as_seq().is_some() || n.is_null())
    {
        if depth >= MAX_LIST_NESTING {
            diagnostics.push(
                Diagnostic::from(NotAnObject::NestedTooDeep {
                    limit: MAX_LIST_NESTING,
                })
                .with_label(root.get("kind").map_or(root.span, |n| n.span), "this list"),
            );
            return;
        }
        let items: Vec<Node> = items.as_seq().unwrap_or_default().to_vec();
        for item in items {
            extract(item, options, stats, out, diagnostics, depth + 1);
        }
        return;
    }
    let (group, version) = split_api_version(api_version);
    let Some(spec) = options
        .kinds
        .iter()
        .find(|k| k.group == group && k.kind == kind)
    else {
        stats.skipped_other_kinds += 1;
        return;
    };
    let (group, version, kind) = (Name::new(group), Name::new(version), Name::new(kind));
    if let Some(object) = read_metadata(root, spec, group, version, kind, options, diagnostics) {
        stats.objects += 1;
        out.push(object);
    }
}

fn read_metadata(
    root: Node,
    spec: &KindSpec,
    group: Name,
    version: Name,
    kind: Name,
    options: &ObjectOptions<'_>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<Object> {
    let root_path = FieldPath::ROOT;
    let metadata_path = root_path.key("metadata");
    let provisional_name = root
        .get_path(&["metadata", "name"])
        .and_then(Node::as_str)
        .unwrap_or("<unnamed>");
    let mut fields = Fields::new(format!("{kind} {provisional_name}"));
    let metadata = fields.required(&root, "metadata", &root_path);
    let mut name = None;
    let mut namespace = None;
    let mut rejected = false;
    let mut creation_timestamp = None;
    if let Some(metadata) = metadata
        && fields.map(metadata, &metadata_path).is_some()
    {
        // A Namespace's own name is a label; every other kind's name is a subdomain.
        let name_rule = if group.is_empty() && kind == "Namespace" {
            NameRule::Label
        } else {
            NameRule::Subdomain
        };
        // A name that breaks its rule rejects the object, but the object is still decoded so
        // that every other error in it is reported in the same run, as the API server does.
        let name_path = metadata_path.key("name");
        if let Some(node) = fields.required(metadata, "name", &metadata_path) {
            name = fields.non_empty_str(node, &name_path);
            if let Some(d) = name.and_then(|v| name_violation(node, v, &name_path, name_rule)) {
                fields.report(d);
                rejected = true;
            }
        }
        // An empty namespace means "not set", as kubectl reads it.
        let namespace_path = metadata_path.key("namespace");
        if let Some(node) = metadata.get("namespace").filter(|n| !n.is_null()) {
            namespace = fields
                .str(node, &namespace_path)
                .filter(|ns| !ns.is_empty());
            let violation =
                namespace.and_then(|v| name_violation(node, v, &namespace_path, NameRule::Label));
            if let Some(d) = violation {
                fields.report(d);
                rejected = true;
            }
        }
        for field in ["labels", "annotations"] {
            let path = metadata_path.key(field);
            if let Some(map) = metadata.get(field)
                && let Some(entries) = fields.map(map, &path)
            {
                for entry in entries {
                    fields.str(&entry.value, &path.key(&entry.key.text));
                }
            }
        }
        if let Some(ts) = metadata.get("creationTimestamp").filter(|n| !n.is_null()) {
            let path = metadata_path.key("creationTimestamp");
            if let Some(text) = fields.str(ts, &path) {
                creation_timestamp = Timestamp::parse_rfc3339(text);
                if creation_timestamp.is_none() {
                    fields.invalid(
                        ts.span,
                        format!("`{path}` must be an RFC 3339 date-time, found `{text}`"),
                        "expected e.g. 2024-05-01T10:00:00Z",
                    );
                }
            }
        }
    }
    let failed = fields.failed();
    let name = name.map(str::to_owned);
    let namespace_defaulted = !spec.cluster_scoped && namespace.is_none();
    let namespace = if spec.cluster_scoped {
        None
    } else {
        Some(Name::new(namespace.unwrap_or(options.default_namespace)))
    };
    diagnostics.extend(fields.into_diagnostics());
    if failed {
        return None;
    }
    Some(Object {
        group,
        version,
        kind,
        namespace,
        namespace_defaulted,
        rejected,
        name: name?.into(),
        creation_timestamp,
        api_version_span: root.get("apiVersion").map_or(root.span, |n| n.span),
        name_span: root
            .get_path(&["metadata", "name"])
            .map_or(root.span, |n| n.span),
        root,
        document: None,
        trimmed: false,
        reread: std::sync::OnceLock::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc3339_timestamps() {
        let t = |s| Timestamp::parse_rfc3339(s);
        assert_eq!(t("1970-01-01T00:00:00Z"), Some(Timestamp::new(0, 0)));
        assert_eq!(t("2024-02-29T12:00:00Z").unwrap().seconds, 1_709_208_000);
        assert_eq!(
            t("2024-02-29T13:30:00+01:30").unwrap(),
            t("2024-02-29T12:00:00Z").unwrap()
        );
        assert_eq!(t("2024-01-01T00:00:00.5Z").unwrap().nanos(), 500_000_000);
        assert_eq!(
            std::mem::size_of::<Option<Timestamp>>(),
            std::mem::size_of::<Timestamp>()
        );
        assert!(Timestamp::new(5, 999_999_999) < Timestamp::new(6, 0));
        assert!(Timestamp::new(5, 0) < Timestamp::new(5, 1));
        assert!(t("2023-02-29T00:00:00Z").is_none());
        assert!(t("2024-01-01").is_none());
        assert!(t("2024-01-01T00:00:00").is_none());
        assert!(t("yesterday").is_none());
    }
}
