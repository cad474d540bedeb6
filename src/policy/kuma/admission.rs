//! STUB (drop at merge: the `kfix` helper writes the real §K11 checks here). Only the
//! `kuma.io/origin` value check, so that `kuma-invalid-policy` has a fixture until then.

/// An object as the admission checks read it.
pub struct Admission<'a> {
    /// Its kind.
    pub kind: &'a str,
    /// Its namespace.
    pub namespace: &'a str,
    /// Its labels as written, sorted by key.
    pub labels: &'a [(String, String)],
    /// Its spec.
    pub spec: &'a crate::yaml::Node,
    /// The control plane's settings.
    pub settings: &'a super::settings::KumaSettings,
}

/// Every §K11 violation: message and where (the offending field, else the spec).
pub fn check(admission: &Admission<'_>) -> Vec<(String, crate::source::Span)> {
    admission
        .labels
        .iter()
        .filter(|(k, v)| k == "kuma.io/origin" && v != "zone" && v != "global")
        .map(|(_, v)| {
            (
                format!(
                    "label kuma.io/origin has an invalid value `{v}`: it must be `zone` or `global`"
                ),
                admission.spec.span,
            )
        })
        .collect()
}
