//! Help for the commonest way to miss a required field: a target reference without `group`.
//!
//! Gateway API's target references (`targetRef`, `targetRefs[]`, `parentRefs` of policies)
//! name their object by `group`, `kind` and `name`, and policy CRDs require `group` (there is
//! no default, unlike a route's `parentRefs`). Guides often leave it out, and the API server's
//! `spec.targetRefs[0].group: Required value` does not say what to write: the `kind` beside it
//! does, for the kinds whose group is fixed.

use crate::yaml::Entry;

/// The Gateway API kinds (their group is `gateway.networking.k8s.io`).
const GATEWAY_API_KINDS: &[&str] = &[
    "Gateway",
    "GatewayClass",
    "HTTPRoute",
    "GRPCRoute",
    "TCPRoute",
    "TLSRoute",
    "UDPRoute",
    "ListenerSet",
    "BackendTLSPolicy",
    "ReferenceGrant",
];

/// Core kinds a policy may target (their group is `""`).
const CORE_KINDS: &[&str] = &["Service", "Namespace"];

/// What to write for the required field `name` missing from the mapping `entries`, when the
/// mapping says it: `group` beside a `kind` whose group is known.
pub fn missing_field_help(name: &str, entries: &[Entry]) -> Option<String> {
    if name != "group" {
        return None;
    }
    let kind = entries
        .iter()
        .find(|e| &*e.key.text == "kind")
        .and_then(|e| e.value.as_str())?;
    if GATEWAY_API_KINDS.contains(&kind) {
        Some(format!(
            "add `group: gateway.networking.k8s.io` (the API group of `{kind}`; a target reference has no default group)"
        ))
    } else if CORE_KINDS.contains(&kind) {
        Some(format!(
            "add `group: \"\"` (`{kind}` is in the core API group; a target reference has no default group)"
        ))
    } else {
        None
    }
}

/// The note on the first error that kept the CRD's validation rules from running: the API
/// server answers it with an error of its own, told here rather than as a second finding.
pub fn rules_not_checked_note(rules_not_checked: &str) -> String {
    format!(
        "the CRD's validation rules run once this is fixed; until then the API server also answers `<nil>: Invalid value: \"null\": {rules_not_checked}`"
    )
}

#[cfg(test)]
mod tests {
    use super::missing_field_help;
    use crate::source::SourceId;

    fn help(text: &str) -> Option<String> {
        let docs = crate::yaml::parse_chunk(SourceId(0), text, 0..text.len(), &mut Vec::new());
        missing_field_help("group", docs[0].root.as_map().unwrap())
    }

    #[test]
    fn the_kind_says_which_group_to_add() {
        assert!(
            help("{kind: GRPCRoute, name: a}").unwrap().starts_with(
                "add `group: gateway.networking.k8s.io` (the API group of `GRPCRoute`;"
            )
        );
        assert!(
            help("{kind: Service, name: a}")
                .unwrap()
                .starts_with("add `group: \"\"` (`Service` is in the core API group;")
        );
        assert_eq!(help("{kind: Backend, name: a}"), None);
        assert_eq!(help("{name: a}"), None);
        assert_eq!(missing_field_help("name", &[]), None);
    }
}
