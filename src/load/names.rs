//! Names the API server rejects: object names and namespaces (Kubernetes' DNS-1123 rules) and the
//! Gateway API string types with a pattern (`Hostname`, `SectionName`, `Namespace`).
//!
//! A manifest with an unfilled template placeholder (`name: ${KUADRANT_GATEWAY_NAME}`, listener
//! `hostname: maas.${CLUSTER_DOMAIN}`) reads as valid YAML and names nothing that exists; the
//! API server refuses it at apply time. dopol refuses it the same way (input error, object left
//! out) and names the rule it broke, with a hint when the value looks like an unexpanded
//! `${VAR}` or `{{ }}` template. The checks are hand-written equivalents of the regular
//! expressions the API server and the Gateway API CRDs use, quoted in the messages.

/// A naming rule, as the API server applies it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NameRule {
    /// `metadata.name` of most kinds: a lowercase RFC 1123 subdomain, at most 253 characters.
    Subdomain,
    /// `metadata.namespace`, and the name of a Namespace: an RFC 1123 label, at most 63.
    Label,
    /// Gateway API `Hostname` (listener `hostname`, route `hostnames`): an optional `*.`
    /// prefix, then a subdomain; 1 to 253 characters.
    Hostname,
    /// Gateway API `SectionName` (listener and rule names, `sectionName`): 1 to 253 characters.
    SectionName,
    /// Gateway API `Namespace` (e.g. `parentRef.namespace`): 1 to 63 characters.
    Namespace,
}

const LABEL_REGEX: &str = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
const SUBDOMAIN_REGEX: &str = r"[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";

impl NameRule {
    /// The longest value the rule allows.
    fn max_len(self) -> usize {
        match self {
            NameRule::Label | NameRule::Namespace => 63,
            NameRule::Subdomain | NameRule::Hostname | NameRule::SectionName => 253,
        }
    }

    /// What the value is, for messages.
    pub fn noun(self) -> &'static str {
        match self {
            NameRule::Subdomain => "name",
            NameRule::Label | NameRule::Namespace => "namespace name",
            NameRule::Hostname => "hostname",
            NameRule::SectionName => "section name",
        }
    }

    fn matches(self, value: &str) -> bool {
        match self {
            NameRule::Label | NameRule::Namespace => is_label(value),
            NameRule::Subdomain | NameRule::SectionName => is_subdomain(value),
            NameRule::Hostname => is_subdomain(value.strip_prefix("*.").unwrap_or(value)),
        }
    }

    /// The rule in words, as the API server states it.
    fn statement(self) -> String {
        match self {
            NameRule::Subdomain => format!(
                "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (regex used for validation is '{SUBDOMAIN_REGEX}')"
            ),
            NameRule::Label => format!(
                "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (regex used for validation is '{LABEL_REGEX}')"
            ),
            NameRule::Hostname => {
                format!(r"a Gateway API Hostname must match '^(\*\.)?{SUBDOMAIN_REGEX}$'")
            }
            NameRule::SectionName => {
                format!("a Gateway API SectionName must match '^{SUBDOMAIN_REGEX}$'")
            }
            NameRule::Namespace => {
                format!("a Gateway API Namespace must match '^{LABEL_REGEX}$'")
            }
        }
    }

    /// Why `value` breaks the rule, or `None` when it is valid.
    pub fn violation(self, value: &str) -> Option<String> {
        if value.is_empty() {
            return Some("must not be empty".into());
        }
        let len = value.chars().count();
        if len > self.max_len() {
            return Some(format!(
                "must be no more than {} characters (it has {len})",
                self.max_len()
            ));
        }
        (!self.matches(value)).then(|| self.statement())
    }
}

/// One DNS label: `[a-z0-9]([-a-z0-9]*[a-z0-9])?`.
fn is_label(s: &str) -> bool {
    let bytes = s.as_bytes();
    let alnum = |b: &u8| b.is_ascii_lowercase() || b.is_ascii_digit();
    match (bytes.first(), bytes.last()) {
        (Some(first), Some(last)) => {
            alnum(first) && alnum(last) && bytes.iter().all(|b| alnum(b) || *b == b'-')
        }
        _ => false,
    }
}

/// Labels joined by dots.
fn is_subdomain(s: &str) -> bool {
    s.split('.').all(is_label)
}

/// The placeholder in `value` when it looks like an unexpanded template: `${VAR}`, `$(VAR)`,
/// `{{ .Values.x }}`, or `$VAR`.
pub fn template_placeholder(value: &str) -> Option<&str> {
    for (open, close) in [("${", "}"), ("$(", ")"), ("{{", "}}")] {
        if let Some(start) = value.find(open) {
            let end = value[start..]
                .find(close)
                .map_or(value.len(), |e| start + e + close.len());
            return Some(&value[start..end]);
        }
    }
    let start = value.find('$')?;
    let rest = &value[start + 1..];
    let len = rest
        .find(|c: char| !(c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_'))
        .unwrap_or(rest.len());
    (len > 0 && rest.starts_with(|c: char| c.is_ascii_uppercase()))
        .then(|| &value[start..=start + len])
}

/// The hint for a value that looks like a template, or `None`.
pub fn template_help(value: &str) -> Option<String> {
    let placeholder = template_placeholder(value)?;
    let how = if placeholder.starts_with("{{") {
        "`helm template ... | dopol lint -f -`"
    } else {
        "`envsubst < manifest.yaml | dopol lint -f -`"
    };
    Some(format!(
        "`{placeholder}` looks like an unexpanded template placeholder; render the manifest before checking it, e.g. {how}"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dns_rules_follow_the_api_server() {
        assert_eq!(NameRule::Subdomain.violation("toystore"), None);
        assert_eq!(NameRule::Subdomain.violation("a.b-c.1"), None);
        for bad in ["Toystore", "-a", "a-", "a..b", "a_b", "${GW}", "a.", "ä"] {
            assert!(NameRule::Subdomain.violation(bad).is_some(), "{bad}");
        }
        assert!(NameRule::Subdomain.violation(&"a".repeat(253)).is_none());
        assert_eq!(
            NameRule::Subdomain.violation(&"a".repeat(254)).unwrap(),
            "must be no more than 253 characters (it has 254)"
        );
        assert!(NameRule::Label.violation("a.b").is_some());
        assert!(NameRule::Label.violation(&"a".repeat(63)).is_none());
        assert!(NameRule::Label.violation(&"a".repeat(64)).is_some());
        assert_eq!(
            NameRule::Label.violation("").as_deref(),
            Some("must not be empty")
        );
    }

    #[test]
    fn gateway_api_patterns() {
        assert_eq!(NameRule::Hostname.violation("*.example.com"), None);
        assert_eq!(NameRule::Hostname.violation("api.example.com"), None);
        for bad in [
            "maas.${CLUSTER_DOMAIN}",
            "*",
            "a.*.com",
            "Example.com",
            "*.",
            "a:80",
        ] {
            assert!(NameRule::Hostname.violation(bad).is_some(), "{bad}");
        }
        assert_eq!(NameRule::SectionName.violation("rule-1"), None);
        assert!(NameRule::SectionName.violation("*.x").is_some());
        assert!(NameRule::Namespace.violation("gateway-system").is_none());
        assert!(NameRule::Namespace.violation("a.b").is_some());
    }

    #[test]
    fn template_placeholders_are_recognised() {
        let p = template_placeholder;
        assert_eq!(
            p("${KUADRANT_GATEWAY_NAME}"),
            Some("${KUADRANT_GATEWAY_NAME}")
        );
        assert_eq!(p("maas.${CLUSTER_DOMAIN}"), Some("${CLUSTER_DOMAIN}"));
        assert_eq!(p("{{ .Values.name }}-gw"), Some("{{ .Values.name }}"));
        assert_eq!(p("$(NAMESPACE)"), Some("$(NAMESPACE)"));
        assert_eq!(p("api.$DOMAIN"), Some("$DOMAIN"));
        assert_eq!(p("Toystore"), None);
        assert_eq!(p("a$b"), None);
        assert!(template_help("{{ x }}").unwrap().contains("helm template"));
        assert!(template_help("${X}").unwrap().contains("envsubst"));
    }
}
