//! The codes of a families file (`--families`, `.dopol/families.yaml`), and the finding types
//! that word them.

use super::file::{API_VERSION, Declaration, KIND};
use crate::diag::{Class, Code, CodeDef, Severity, Violation};
use crate::load::fields::FieldPath;
use crate::policy::PolicyKind;

/// The codes declared here, in catalogue order.
pub const CODES: &[Code] = &[Code::INVALID_FAMILIES, Code::FAMILY_OVERRIDES_BUILTIN];

impl Code {
    /// DPL1014 `invalid-families`: A families file (`--families`, `.dopol/families.yaml`) is not valid: the run stops before manifests are read (exit 2).
    pub const INVALID_FAMILIES: Code = Code::new(&CodeDef {
        id: "DPL1014",
        name: "invalid-families",
        severity: Severity::Error,
        class: Class::Input,
        summary: "A families file (`--families`, `.dopol/families.yaml`) is not valid: the run stops before manifests are read (exit 2).",
        explanation: "A families file (`--families FILE`, or `.dopol/families.yaml` in the working directory) is not valid: YAML syntax, a wrong apiVersion or kind, an unknown key, a missing required key, a value outside its enumeration, both or neither of `rules` and `fields`, a rule path that is not `spec.<field>...` or that cannot exist (inside the targets, a reserved field, another rule's value, or `when`), a key template without exactly one `{name}`, two rules with one key, `blocks` on a model other than kuadrant, `mergeType`/`listMergeKeys` on a model other than envoy-gateway, or the same group and kind twice. The run stops before any manifest is read (exit 2), with one error per problem.",
        fix: "Fix the families file at the position shown; `docs/families.md` (User-defined families) has the schema.",
        example: "families:
- group: platform.example.com
  kind: TimeoutPolicy
  model: kuadrnt",
    });

    /// DPL4012 `family-overrides-builtin`: A families file declares a kind with the group and kind of a built-in one; the declaration replaces the built-in.
    pub const FAMILY_OVERRIDES_BUILTIN: Code = Code::new(&CodeDef {
        id: "DPL4012",
        name: "family-overrides-builtin",
        severity: Severity::Info,
        class: Class::Finding,
        summary: "A families file declares a kind with the group and kind of a built-in one; the declaration replaces the built-in.",
        explanation: "A families file declares a kind with the group and kind of one dopol knows (a Kuadrant policy, kgateway's TrafficPolicy). The declaration replaces the built-in kind for the whole run: its decoding, layout and merge model are the declared ones. That is how a team pins or adapts a kind, and also how a copied example silently changes results.",
        fix: "Keep the declaration if the replacement is intended; otherwise remove it (or give the declared kind its own group).",
        example: "families:
- group: kuadrant.io
  kind: RateLimitPolicy
  model: kuadrant",
    });
}

/// A families file that is not valid (`invalid-families`), for the reasons found outside the
/// field-by-field validation.
pub enum InvalidFamilies<'a> {
    /// The file cannot be read.
    Unreadable {
        /// The file.
        path: &'a str,
        /// Why (the I/O error).
        why: &'a str,
    },
    /// The file holds no document.
    Empty {
        /// The file.
        path: &'a str,
    },
    /// The same group and kind are declared twice (in one file or across files).
    DeclaredTwice {
        /// The kind.
        kind: &'a str,
        /// Its group.
        group: &'a str,
    },
    /// A value outside its enumeration.
    NotOneOf {
        /// The field.
        path: &'a FieldPath<'a>,
        /// The value written.
        text: &'a str,
        /// The values allowed.
        options: &'a [&'a str],
    },
}

impl Violation for InvalidFamilies<'_> {
    fn code(&self) -> Code {
        Code::INVALID_FAMILIES
    }
    fn message(&self) -> String {
        match self {
            InvalidFamilies::Unreadable { path, why } => {
                format!("cannot read the families file `{path}`: {why}")
            }
            InvalidFamilies::Empty { path } => format!("the families file `{path}` is empty"),
            InvalidFamilies::DeclaredTwice { kind, group } => {
                format!("{kind}.{group} is declared twice")
            }
            InvalidFamilies::NotOneOf {
                path,
                text,
                options,
            } => {
                let options: Vec<String> = options.iter().map(|n| format!("`{n}`")).collect();
                format!("`{path}`: `{text}` is not one of {}", options.join(", "))
            }
        }
    }
    fn help(&self) -> Option<String> {
        match self {
            InvalidFamilies::Empty { .. } => Some(format!(
                "start it with `apiVersion: {API_VERSION}` and `kind: {KIND}`"
            )),
            InvalidFamilies::NotOneOf { text, options, .. } => {
                crate::suggest::did_you_mean_help(text, options.iter().copied())
            }
            _ => None,
        }
    }
}

/// A declared kind that replaces a built-in one (`family-overrides-builtin`).
pub struct FamilyOverridesBuiltin<'a> {
    /// The declaration.
    pub declaration: &'a Declaration,
    /// The built-in kind it replaces.
    pub builtin: &'a PolicyKind,
}

impl Violation for FamilyOverridesBuiltin<'_> {
    fn code(&self) -> Code {
        Code::FAMILY_OVERRIDES_BUILTIN
    }
    fn message(&self) -> String {
        let declaration = self.declaration;
        format!(
            "{}.{} is declared in a families file: the declaration (model `{}`) replaces dopol's built-in {} kind",
            declaration.kind,
            declaration.group,
            declaration.model.as_str(),
            self.builtin.kind
        )
    }
}
