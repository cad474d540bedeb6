//! The kinds dopol reads, as a value.
//!
//! A [`Registry`] lists the policy families of one run and their kinds. The model owns it (see
//! `crate::model::Model::registry`), so that a run can add families — the built-in ones today,
//! families declared in a file next — without any global table. A kind's position in the
//! registry is its compact index (used by the topology's dense per-kind slots and by reports).
//!
//! The registry lives below the model, which knows a family only as its kinds half
//! ([`FamilyKinds`]). Each family is also kept as each upper floor's contract names it (its
//! *faces*: `Arc<dyn crate::policy::PolicyFamily>`, ...), type-erased here; the floor that
//! defines a contract adds its own accessors (`crate::policy::registry`), so that no floor names
//! a contract above it.
//!
//! The families built into dopol, their options and `Registry::builtin` are listed in
//! [`crate::families`], which the contract does not name.
//!
//! Kinds are `&'static` so that a decoded [`super::Policy`] can point at its kind without a
//! lifetime; a family built at run time leaks its (small, once per process) declarations.

use super::{FamilyKinds, PolicyKind};
use crate::source::SourceMap;
use std::any::Any;
use std::sync::Arc;

/// The families of one run and their kinds, in registration order.
#[derive(Clone)]
pub struct Registry {
    families: Vec<Arc<dyn FamilyKinds>>,
    /// Per family, the same family as the contracts above the model name it (one value of each
    /// face type).
    faces: Vec<Vec<Arc<dyn Any + Send + Sync>>>,
    /// Every kind with the index of its family.
    kinds: Vec<(&'static PolicyKind, usize)>,
    /// The families files the declared families come from (diagnostics point into them).
    declared_sources: SourceMap,
    /// Lint findings about the registry itself (a declared kind replacing a built-in one).
    notes: Vec<crate::diag::Diagnostic>,
}

impl std::fmt::Debug for Registry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list()
            .entries(self.kinds.iter().map(|(k, _)| k.kind))
            .finish()
    }
}

impl Registry {
    /// An empty registry.
    pub fn empty() -> Registry {
        Registry {
            families: Vec::new(),
            faces: Vec::new(),
            kinds: Vec::new(),
            declared_sources: SourceMap::new(),
            notes: Vec::new(),
        }
    }

    /// The families files of the declared families: the first sources of every model built
    /// with this registry.
    pub fn declared_sources(&self) -> &SourceMap {
        &self.declared_sources
    }

    /// Lint findings about the families of this run, not about any input object.
    pub fn notes(&self) -> &[crate::diag::Diagnostic] {
        &self.notes
    }

    /// Records a lint finding about the families of this run.
    pub fn add_note(&mut self, note: crate::diag::Diagnostic) {
        self.notes.push(note);
    }

    /// Records the families files the declared families come from.
    pub fn set_declared_sources(&mut self, sources: SourceMap) {
        self.declared_sources = sources;
    }

    /// Adds a family: its kinds half, and its faces (the same family as each contract above the
    /// model names it; the contract's floor adds it with all of them, see
    /// `crate::policy::Registry::add`). A kind with the group and kind of one already registered
    /// replaces it; a family left without kinds is dropped (its evaluator would have nothing to
    /// evaluate).
    pub fn add_faces(
        &mut self,
        family: Arc<dyn FamilyKinds>,
        faces: Vec<Arc<dyn Any + Send + Sync>>,
    ) {
        let index = self.families.len();
        for kind in family.kinds() {
            match self
                .kinds
                .iter()
                .position(|(k, _)| k.group == kind.group && k.kind == kind.kind)
            {
                Some(existing) => self.kinds[existing] = (kind, index),
                None => self.kinds.push((kind, index)),
            }
        }
        self.families.push(family);
        self.faces.push(faces);
        self.drop_unused();
    }

    /// Removes the families no kind belongs to any more, renumbering the others.
    fn drop_unused(&mut self) {
        let used: Vec<bool> = (0..self.families.len())
            .map(|f| self.kinds.iter().any(|(_, i)| *i == f))
            .collect();
        if used.iter().all(|u| *u) {
            return;
        }
        let mut renumbered = vec![0; used.len()];
        let mut kept = Vec::new();
        let faces = std::mem::take(&mut self.faces);
        for (i, family) in (std::mem::take(&mut self.families).into_iter().zip(faces)).enumerate() {
            if used[i] {
                renumbered[i] = kept.len();
                kept.push(family);
            }
        }
        (self.families, self.faces) = kept.into_iter().unzip();
        for (_, index) in &mut self.kinds {
            *index = renumbered[*index];
        }
    }

    /// Every kind, in registration order.
    pub fn kinds(&self) -> impl Iterator<Item = &'static PolicyKind> + '_ {
        self.kinds.iter().map(|(k, _)| *k)
    }

    /// How many kinds there are.
    pub fn kind_count(&self) -> usize {
        self.kinds.len()
    }

    /// The kind at `index`.
    pub fn kind(&self, index: usize) -> &'static PolicyKind {
        self.kinds[index].0
    }

    /// The position of `kind` (a kind of this registry).
    pub fn kind_index(&self, kind: &PolicyKind) -> usize {
        self.kinds
            .iter()
            .position(|(k, _)| std::ptr::eq(*k, kind))
            .expect("kinds come from the registry")
    }

    /// The position of the family of the kind at `index` (in [`Registry::families`] order).
    pub fn family_index(&self, index: usize) -> usize {
        self.kinds[index].1
    }

    /// The kinds half of the family of `kind`.
    pub fn decoder_of(&self, kind: &PolicyKind) -> &dyn FamilyKinds {
        self.families[self.family_index(self.kind_index(kind))].as_ref()
    }

    /// The kinds half of every family, in registration order.
    pub fn decoders(&self) -> impl Iterator<Item = &dyn FamilyKinds> {
        self.families.iter().map(|f| f.as_ref())
    }

    /// How many families there are.
    pub fn family_count(&self) -> usize {
        self.families.len()
    }

    /// The face of type `F` of the family at `family` (in registration order): the value the
    /// contract that defines `F` added it with.
    pub fn face<F: 'static>(&self, family: usize) -> &F {
        self.faces[family]
            .iter()
            .find_map(|face| face.downcast_ref::<F>())
            .expect("a family is added with the faces of every contract")
    }

    /// The names of the families that read an unnamed route rule's positional `rule-<i+1>` name
    /// as its `sectionName` ([`FamilyKinds::positional_rule_names`]), sorted, each once.
    pub fn positional_families(&self) -> Vec<&'static str> {
        let mut names: Vec<&'static str> = self
            .decoders()
            .filter(|f| f.positional_rule_names())
            .map(|f| f.name())
            .collect();
        names.sort_unstable();
        names.dedup();
        names
    }

    /// Finds the kind for `(group, kind)`, with its family's kinds half.
    pub fn find_decoder(
        &self,
        group: &str,
        kind: &str,
    ) -> Option<(&dyn FamilyKinds, &'static PolicyKind)> {
        self.kinds
            .iter()
            .find(|(k, _)| k.group == group && k.kind == kind)
            .map(|(k, f)| (self.families[*f].as_ref(), *k))
    }

    /// Finds a kind by name, case-insensitively (`AuthPolicy`, `authpolicy`, `authpolicies`),
    /// or by `Kind.group` (`TrafficPolicy.gateway.kgateway.dev`).
    pub fn find_by_name(&self, name: &str) -> Option<&'static PolicyKind> {
        let lower = name.to_ascii_lowercase();
        let (name, group) = match lower.split_once('.') {
            Some((name, group)) => (name.to_string(), Some(group.to_string())),
            None => (lower, None),
        };
        self.kinds().find(|k| {
            let kind = k.kind.to_ascii_lowercase();
            let named = name == kind
                || name == format!("{kind}s")
                || name == kind.replace("policy", "policies");
            named && group.as_deref().is_none_or(|g| g == k.group)
        })
    }
}
