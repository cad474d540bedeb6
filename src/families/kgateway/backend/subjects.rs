//! The backends a policy targets (docs/families.md §2.10): its `targetRefs` in its own
//! namespace, each a *subject* with the id `<Kind>[.<group>]:<ns>/<name>` (the core group
//! omitted: `Service:default/httpbin`; `Backend.gateway.kgateway.dev:ns/b`). A subject id never
//! contains `|`, so it cannot be taken for a Gateway API path id.

use crate::policy::Policy;
use crate::yaml::Node;

/// One targeted backend.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Subject {
    /// `Service`, `Backend` or `Hostname`.
    pub kind: &'static str,
    /// Its API group (`""` for core).
    pub group: &'static str,
    /// Namespace (the policy's).
    pub namespace: String,
    /// Name.
    pub name: String,
}

/// The kinds a BackendConfigPolicy (and a BackendTLSPolicy) may target, with their groups.
const KINDS: [(&str, &str); 3] = [
    ("Service", ""),
    ("Backend", "gateway.kgateway.dev"),
    ("Hostname", "networking.istio.io"),
];

impl Subject {
    /// `Service:default/httpbin`, `Backend.gateway.kgateway.dev:ns/name`.
    pub fn id(&self) -> String {
        match self.group {
            "" => format!("{}:{}/{}", self.kind, self.namespace, self.name),
            group => format!("{}.{group}:{}/{}", self.kind, self.namespace, self.name),
        }
    }

    /// `namespace/name`.
    pub fn namespaced_name(&self) -> String {
        format!("{}/{}", self.namespace, self.name)
    }
}

/// The subjects `policy`'s `targetRefs` name (each once, in order); entries of other kinds are
/// left out (the CRD rejects them for BackendConfigPolicy).
pub fn of(policy: &Policy) -> Vec<Subject> {
    let refs = (policy.spec.as_deref())
        .and_then(|spec| spec.get("targetRefs"))
        .and_then(Node::as_seq)
        .unwrap_or_default();
    let mut out: Vec<Subject> = Vec::new();
    for target in refs {
        let text = |key: &str| target.get(key).and_then(Node::as_str).unwrap_or_default();
        let Some(&(kind, group)) = KINDS
            .iter()
            .find(|(k, g)| *k == text("kind") && *g == text("group"))
        else {
            continue;
        };
        let subject = Subject {
            kind,
            group,
            namespace: policy.namespace.to_string(),
            name: text("name").to_string(),
        };
        if !out.contains(&subject) {
            out.push(subject);
        }
    }
    out
}

/// Whether `policy` has `targetSelectors`, which dopol does not evaluate for backends (it does
/// not read Services' labels).
pub fn has_selectors(policy: &Policy) -> Option<&Node> {
    (policy.spec.as_deref())
        .and_then(|spec| spec.get("targetSelectors"))
        .filter(|s| s.as_seq().is_some_and(|items| !items.is_empty()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subject_ids_leave_out_the_core_group_and_have_no_bar() {
        let subject = |kind, group| Subject {
            kind,
            group,
            namespace: "shop".into(),
            name: "web".into(),
        };
        assert_eq!(subject("Service", "").id(), "Service:shop/web");
        let backend = subject("Backend", "gateway.kgateway.dev").id();
        assert_eq!(backend, "Backend.gateway.kgateway.dev:shop/web");
        assert!(!backend.contains('|'));
    }
}
