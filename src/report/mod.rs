//! Reports: the data behind each command's output, independent of the output format.
//!
//! Each report is a plain data structure built from the engine's results and serializable to
//! the JSON contracts of docs/json.md; the renderers in [`crate::render`] turn the same data into
//! tables and YAML.

pub mod diff;
pub mod diff_owned;
pub mod diff_scope;
pub mod effective;
pub mod effective_index;
pub mod explain;
pub mod filter;
pub mod overridden;
pub mod owned;
pub mod path_fields;
pub mod reach;
pub mod request;
pub mod status;
pub mod status_targets;
pub mod suite;
pub mod topology;
pub mod uncovered;
pub mod view;

use rayon::prelude::*;

/// The `apiVersion` of every machine-readable document dopol prints.
pub const API_VERSION: &str = "dopol/v1";

/// Serializes `{"apiVersion": "dopol/v1", "kind": KIND, "items": [...]}`.
pub fn list_document<S: serde::Serializer, T: serde::Serialize + ?Sized>(
    serializer: S,
    kind: &str,
    items: &T,
) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeStruct;
    let mut s = serializer.serialize_struct("List", 3)?;
    s.serialize_field("apiVersion", API_VERSION)?;
    s.serialize_field("kind", kind)?;
    s.serialize_field("items", items)?;
    s.end()
}

/// A list document whose items are built as they are written, the items of one index at a
/// time, each dropped before the next are built: a document of a million outcomes is written
/// without being held. Writes what [`list_document`] writes for the built items, byte for byte.
pub struct LazyList<F> {
    /// The document's `kind`.
    pub kind: &'static str,
    /// What to build, in order.
    pub order: Vec<u32>,
    /// Builds the items of one index.
    pub items: F,
}

impl<F, I> LazyList<F>
where
    F: Fn(u32) -> I,
    I: IntoIterator,
{
    /// The items, each index's built when the iteration reaches it.
    pub fn iter<'a>(&'a self) -> impl Iterator<Item = I::Item> + 'a
    where
        I: 'a,
    {
        self.order.iter().flat_map(|&i| (self.items)(i))
    }

    /// What [`LazyList::iter`] yields, the indices of each batch built in parallel: for tables,
    /// which take the items one by one on one thread.
    pub fn par_iter<'a>(&'a self) -> impl Iterator<Item = I::Item> + 'a
    where
        F: Sync,
        I: Send + 'a,
    {
        self.order.chunks(PARALLEL_BATCH).flat_map(move |batch| {
            let built: Vec<I> = batch.par_iter().map(|&i| (self.items)(i)).collect();
            built.into_iter().flatten()
        })
    }
}

/// Indices a [`LazyList::par_iter`] batch builds at once (one index can be a policy on every
/// path of a Gateway: tens of thousands of outcomes).
const PARALLEL_BATCH: usize = 16;

/// The `items` of a [`LazyList`].
struct LazyItems<'a, F>(&'a LazyList<F>);

impl<F, I> serde::Serialize for LazyItems<'_, F>
where
    F: Fn(u32) -> I,
    I: IntoIterator<Item: serde::Serialize>,
{
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter())
    }
}

impl<F, I> serde::Serialize for LazyList<F>
where
    F: Fn(u32) -> I,
    I: IntoIterator<Item: serde::Serialize>,
{
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        list_document(serializer, self.kind, &LazyItems(self))
    }
}

#[cfg(test)]
mod lazy_tests {
    use super::LazyList;
    use serde::Serialize;

    /// Items 0..n of index n, so some indices have none.
    fn items(n: u32) -> Vec<(u32, String)> {
        (0..n).map(|i| (i, format!("item {i} of {n}"))).collect()
    }

    /// A built list, as the reports write it.
    struct Built(Vec<(u32, String)>);

    impl Serialize for Built {
        fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            super::list_document(serializer, "TestList", &self.0)
        }
    }

    fn written<T: Serialize>(document: &T) -> (String, String) {
        let (mut json, mut yaml) = (Vec::new(), Vec::new());
        crate::render::write_json(&mut json, document).expect("json");
        crate::render::write_yaml(&mut yaml, document).expect("yaml");
        (
            String::from_utf8(json).expect("utf-8"),
            String::from_utf8(yaml).expect("utf-8"),
        )
    }

    #[test]
    fn a_lazy_list_writes_what_the_built_list_writes() {
        for order in [vec![], vec![0], vec![0, 0], vec![2, 0, 3, 0, 1]] {
            let built = Built(order.iter().flat_map(|&i| items(i)).collect());
            let lazy = LazyList {
                kind: "TestList",
                order: order.clone(),
                items,
            };
            assert_eq!(written(&lazy), written(&built), "{order:?}");
        }
        assert!(written(&Built(items(2))).0.contains("\"item 1 of 2\""));
    }
}
