//! The registry as the evaluation contract sees it: each family as a [`PolicyFamily`].
//!
//! [`Registry`] lives below the model ([`crate::kinds::registry`]), which knows a family only by
//! its kinds half; a family is added here with its faces (the same `Arc`, as each contract
//! above the model names it), and these accessors read the [`PolicyFamily`] face back.

use super::{FamilyEvaluation, FamilyHierarchy, PolicyFamily, PolicyKind};
pub use crate::kinds::Registry;
use std::any::Any;
use std::sync::Arc;

impl Registry {
    /// Adds a family (see [`Registry::add_faces`]).
    pub fn add(&mut self, family: Arc<dyn PolicyFamily>) {
        let hierarchy: Arc<dyn FamilyHierarchy> = family.clone();
        let evaluation: Arc<dyn FamilyEvaluation> = family.clone();
        let whole: Arc<dyn PolicyFamily> = family.clone();
        let faces: Vec<Arc<dyn Any + Send + Sync>> =
            vec![Arc::new(hierarchy), Arc::new(evaluation), Arc::new(whole)];
        self.add_faces(family, faces);
    }

    /// The family of the kind at `index`.
    pub fn family_at(&self, index: usize) -> &dyn PolicyFamily {
        self.face::<Arc<dyn PolicyFamily>>(self.family_index(index))
            .as_ref()
    }

    /// The family of `kind`.
    pub fn family_of(&self, kind: &PolicyKind) -> &dyn PolicyFamily {
        self.family_at(self.kind_index(kind))
    }

    /// Every family, in registration order.
    pub fn families(&self) -> impl Iterator<Item = &dyn PolicyFamily> {
        (0..self.family_count()).map(|f| self.face::<Arc<dyn PolicyFamily>>(f).as_ref())
    }

    /// Finds the kind for `(group, kind)`.
    pub fn find(
        &self,
        group: &str,
        kind: &str,
    ) -> Option<(&dyn PolicyFamily, &'static PolicyKind)> {
        let (_, kind) = self.find_decoder(group, kind)?;
        Some((self.family_of(kind), kind))
    }
}
