//! Validation against the CRDs, as the Kubernetes API server does it on create.
//!
//! dopol used to decide "the API server would reject this object" with hand-written decoders,
//! complete for a few shapes and absent for the rest. The API server decides it from the CRD:
//! defaults, strict unknown fields, the structural schema, and `x-kubernetes-validations` CEL
//! rules. This module does the same, offline, from the CRDs bundled with dopol
//! ([`bundle`], vendored unchanged under `crds/`) or given with `--crds` ([`catalog`]).
//!
//! [`check`] runs for every object of a kind with a known CRD, in parallel with decoding
//! (`model::Model::build`): an object with a violation is left out, as the API server would
//! refuse it, and each violation is a located diagnostic with the API server's own message and
//! the schema path that decided. Families then decode the defaulted object, so a defaulted
//! field takes part in merges; the semantic checks stay with them.

pub mod bundle;
pub mod catalog;
pub mod cel;
pub mod defaults;
pub mod diags;
pub mod formats;
mod hints;
mod memo;
pub mod schema;
pub mod validate;

pub use bundle::Channel;
pub use catalog::Catalog;

use crate::diag::Diagnostic;
use crate::load::Object;
use crate::yaml::Node;

/// What checking one object found.
#[derive(Debug, Default)]
pub struct Checked {
    /// Violations (the object is rejected when any is an error).
    pub diagnostics: Vec<Diagnostic>,
    /// Whether the API server would reject the object.
    pub rejected: bool,
    /// Whether a CRD was found for the object's kind and version (`-v` counts the others).
    pub validated: bool,
}

/// Applies the defaults of `object`'s CRD in `catalog` to `root`, a tree of `object` read
/// again after [`crate::load::Object::trim`], as [`check`] applied them to the first one.
pub fn apply_defaults(root: &mut Node, object: &Object, catalog: &Catalog) {
    let Some(version) = catalog
        .get(&object.group, &object.kind)
        .and_then(|crd| crd.version(&object.version))
    else {
        return;
    };
    if let (true, Ok(schema)) = (version.served, version.schema()) {
        defaults::apply(root, schema, version.status_subresource);
    }
}

/// Checks one object against its CRD in `catalog`, after applying the CRD's defaults to it in
/// place, as the API server does before validating. `view` gives the object as the CRD should
/// judge it, when its family reads documented fields beyond the CRD (defaults still apply to
/// the whole object).
pub fn check(
    object: &mut Object,
    catalog: &Catalog,
    view: impl Fn(&Node) -> Option<Node>,
) -> Checked {
    let Some(crd) = catalog.get(&object.group, &object.kind) else {
        return Checked::default();
    };
    let Some(version) = crd.version(&object.version) else {
        // Versions the CRD does not list are reported by the model's version check.
        return Checked::default();
    };
    if !version.served {
        let display = object.display();
        let not_served = diags::VersionNotServed {
            object: &display,
            api_version: &object.api_version(),
            served: &crd.served(),
            origin: &crd.origin,
        };
        return Checked {
            diagnostics: vec![
                Diagnostic::from(not_served)
                    .with_label(object.api_version_span(), "not served")
                    .with_object(display),
            ],
            rejected: true,
            validated: true,
        };
    }
    let schema = match version.schema() {
        Ok(schema) => schema,
        Err(_) => return Checked::default(),
    };
    let skip_status = version.status_subresource;
    defaults::apply(&mut object.root, schema, skip_status);
    let root = &object.root;
    let viewed = view(root);
    let result = validate::validate(viewed.as_ref().unwrap_or(root), schema, skip_status);
    let diagnostics: Vec<Diagnostic> = result
        .violations
        .into_iter()
        .map(|violation| {
            let rejected = diags::Rejected {
                violation: &violation,
                origin: &crd.origin,
                version: &object.version,
            };
            let label = rejected.label();
            Diagnostic::from(rejected)
                .with_label(violation.span, label)
                .with_object(object.display())
        })
        .collect();
    Checked {
        rejected: !diagnostics.is_empty(),
        diagnostics,
        validated: true,
    }
}
