//! The order of entries (§K6; lowest priority first, later entries win): top-level kind,
//! Dataplane ref shape, origin, role, to-kind, display name (descending), then input order.

use super::role::Role;
use super::spec::Ref;
use std::cmp::Ordering;

/// A `targetRef` kind's rank (✓ `targetref.go` order).
pub fn kind_rank(kind: &str) -> u8 {
    match kind {
        "Mesh" => 1,
        "Dataplane" => 2,
        "MeshSubset" => 3,
        "MeshGateway" => 4,
        "MeshService" => 5,
        "MeshExternalService" => 6,
        "MeshMultiZoneService" => 7,
        "MeshServiceSubset" => 8,
        "MeshHTTPRoute" => 9,
        _ => 0,
    }
}

/// An origin's rank (✓ `dp_helpers.go` originOrder): global 1 < none 2 < zone 3, other 0.
pub fn origin_rank(origin: Option<&str>) -> u8 {
    match origin {
        Some("global") => 1,
        None => 2,
        Some("zone") => 3,
        Some(_) => 0,
    }
}

/// The sort key of one entry.
#[derive(Clone, Debug)]
pub struct SortKey {
    /// The top-level kind.
    pub top: String,
    /// A top-level `Dataplane` ref: (has a name, has labels, has a section).
    pub dataplane: (bool, bool, bool),
    /// The origin label.
    pub origin: Option<String>,
    /// The role.
    pub role: Option<Role>,
    /// Outbound entries: the `to[].targetRef` kind, and whether a MeshService ref has a section.
    pub to: Option<(String, bool)>,
    /// The display name.
    pub display: String,
    /// `<namespace>/<name>` (dopol's tie-break).
    pub locator: String,
    /// The index in `to[]`/`rules[]`/`from[]`.
    pub index: usize,
}

impl SortKey {
    /// The key of an entry of a policy with top level `top`.
    pub fn new(
        top: &Ref,
        origin: Option<&str>,
        role: Option<Role>,
        display: &str,
        locator: String,
    ) -> SortKey {
        SortKey {
            top: top.kind.clone(),
            dataplane: (
                top.name.is_some(),
                !top.labels.is_empty(),
                top.section.is_some(),
            ),
            origin: origin.map(str::to_string),
            role,
            to: None,
            display: display.to_string(),
            locator,
            index: 0,
        }
    }

    /// The same key for an outbound entry aimed at `to` (`to_section`: a MeshService ref with
    /// `sectionName`).
    pub fn with_to(mut self, to: &str, to_section: bool, index: usize) -> SortKey {
        self.to = Some((to.to_string(), to_section && to == "MeshService"));
        self.index = index;
        self
    }

    /// The same key at `index`.
    pub fn at(mut self, index: usize) -> SortKey {
        self.index = index;
        self
    }

    /// The values shown per column: top, origin, role, to, name.
    pub fn columns(&self) -> Vec<String> {
        let mut top = self.top.clone();
        if self.top == "Dataplane" {
            let (name, labels, section) = self.dataplane;
            let shape = [(name, "name"), (labels, "labels"), (section, "section")];
            let parts: Vec<&str> = shape
                .iter()
                .filter(|(on, _)| *on)
                .map(|(_, p)| *p)
                .collect();
            if !parts.is_empty() {
                top = format!("{top}({})", parts.join(","));
            }
        }
        vec![
            top,
            self.origin.clone().unwrap_or_else(|| "-".to_string()),
            self.role.map_or("?", Role::as_str).to_string(),
            match &self.to {
                Some((kind, true)) => format!("{kind}#section"),
                Some((kind, false)) => kind.clone(),
                None => "-".to_string(),
            },
            self.display.clone(),
        ]
    }
}

/// The column names of [`SortKey::columns`].
pub const COLUMNS: [&str; 5] = ["top", "origin", "role", "to", "name"];

/// Both top levels `Dataplane`: a name ref above a labels ref, otherwise with `sectionName`
/// above without (✓ `targetref.go` CompareDataplaneKind; not transitive).
fn compare_dataplane(a: (bool, bool, bool), b: (bool, bool, bool)) -> Ordering {
    match (a, b) {
        ((true, _, _), (_, true, _)) => Ordering::Greater,
        ((_, true, _), (true, _, _)) => Ordering::Less,
        _ => a.2.cmp(&b.2),
    }
}

/// The §K6 order without the name and input-order tie-breaks (1–5).
pub fn compare_ranks(a: &SortKey, b: &SortKey) -> Ordering {
    kind_rank(&a.top)
        .cmp(&kind_rank(&b.top))
        .then_with(|| {
            if a.top == "Dataplane" && b.top == "Dataplane" {
                compare_dataplane(a.dataplane, b.dataplane)
            } else {
                Ordering::Equal
            }
        })
        .then_with(|| origin_rank(a.origin.as_deref()).cmp(&origin_rank(b.origin.as_deref())))
        .then_with(|| Role::rank(a.role).cmp(&Role::rank(b.role)))
        .then_with(|| {
            let to = |k: &SortKey| {
                k.to.as_ref()
                    .map_or((0, false), |(kind, s)| (kind_rank(kind), *s))
            };
            to(a).cmp(&to(b))
        })
}

/// The full §K6 order: ranks, display name descending, `<ns>/<name>` descending, index.
pub fn compare(a: &SortKey, b: &SortKey) -> Ordering {
    compare_ranks(a, b)
        .then_with(|| b.display.cmp(&a.display))
        .then_with(|| b.locator.cmp(&a.locator))
        .then_with(|| a.index.cmp(&b.index))
}

/// Sorts `items` by `key` with [`compare`], lowest priority first. An insertion sort, as the
/// comparator is not a total order (Dataplane ref shapes) and the lists are short.
pub fn sort<T>(items: &mut [T], key: impl Fn(&T) -> &SortKey) {
    for i in 1..items.len() {
        let mut j = i;
        while j > 0 && compare(key(&items[j - 1]), key(&items[j])) == Ordering::Greater {
            items.swap(j - 1, j);
            j -= 1;
        }
    }
}
