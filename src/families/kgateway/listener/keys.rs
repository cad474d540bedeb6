//! A ListenerPolicy `spec` cut into rule keys (docs/families.md §2.9).
//!
//! kgateway merges `default` field by field, `default.httpSettings` field by field, and each
//! `perPort` entry field by field (`listenerpolicy/merge.go`, `merge_http.go`), so each of those
//! fields is one rule: `proxyProtocol`, `httpSettings.idleTimeout`, and for a port entry
//! `perPort[8080].proxyProtocol`. The effective key on a path drops the `perPort[<port>].`
//! prefix: a port's entry replaces `default` there.

use crate::families::kgateway::contribution::is_set;
use crate::families::kgateway::family::PlainFields;
use crate::load::fields::{FieldPath, Fields};
use crate::name::Name;
use crate::policy::Rule;
use crate::yaml::Node;
use std::collections::BTreeMap;

/// `clientCertificateValidation` (`default` only).
pub const CLIENT_CERT: &str = "clientCertificateValidation";

/// The fields kgateway writes on the Envoy listener itself (`listener~<port>`).
const LISTENER_FIELDS: [&str; 4] = [
    "proxyProtocol",
    "tcpKeepalive",
    "perConnectionBufferLimitBytes",
    "httpSettings.healthCheck",
];

/// Which policies kgateway reads a field from (`irtranslator/gateway.go`, `fc.go`,
/// `gateway_listener_translator.go`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// Written on the Envoy listener: whole-Gateway policies only.
    Listener,
    /// Written on a filter chain: an HTTPS listener's `sectionName` policies, then the
    /// whole-Gateway ones; elsewhere the whole-Gateway ones only.
    FilterChain,
    /// An HTTPS listener's TLS validation: its `sectionName` policies only, combined.
    ClientCert,
}

impl Scope {
    /// The scope of an effective key (no `perPort[...]` prefix).
    pub fn of(field: &str) -> Scope {
        if field == CLIENT_CERT {
            Scope::ClientCert
        } else if LISTENER_FIELDS.contains(&field) {
            Scope::Listener
        } else {
            Scope::FilterChain
        }
    }
}

/// A rule key split into its `perPort` port (`None`: `default`) and its effective key.
pub fn split(key: &str) -> (Option<i64>, &str) {
    let Some(rest) = key.strip_prefix("perPort[") else {
        return (None, key);
    };
    match rest.split_once("].") {
        Some((port, field)) => (port.parse().ok(), field),
        None => (None, key),
    }
}

/// The rules of a ListenerPolicy `spec`, sorted by key (a port written twice: its last entry,
/// as kgateway's map keeps it). Null values are not rules.
pub fn rules(spec: &Node) -> Vec<Rule> {
    let mut rules = Vec::new();
    if let Some(default) = spec.get("default") {
        config_rules(default, "", &mut rules);
    }
    for entry in spec.get("perPort").and_then(Node::as_seq).unwrap_or(&[]) {
        let (Some(port), Some(listener)) = (
            entry.get("port").and_then(Node::as_i64),
            entry.get("listener"),
        ) else {
            continue;
        };
        rules.retain(|r: &Rule| split(&r.key).0 != Some(port));
        config_rules(listener, &format!("perPort[{port}]."), &mut rules);
    }
    rules.sort_by(|x, y| x.key.cmp(&y.key));
    rules
}

/// ListenerPolicy's cut of a spec into rules, as kgateway's decoder takes a declared cut.
#[derive(Clone, Copy, Debug)]
pub struct ListenerFields;

impl PlainFields for ListenerFields {
    fn rules(&self, _fields: &mut Fields<'_>, spec: &Node, _path: &FieldPath<'_>) -> Vec<Rule> {
        rules(spec)
    }

    /// `default` and `perPort` rebuilt from the rules (the `spec` a CEL constraint sees).
    fn spec_shape(&self, rules: &[(&str, &Node)]) -> serde_json::Value {
        let mut default = serde_json::Map::new();
        let mut ports: BTreeMap<i64, serde_json::Map<String, serde_json::Value>> = BTreeMap::new();
        for (key, value) in rules {
            let (port, field) = split(key);
            let config = match port {
                Some(port) => ports.entry(port).or_default(),
                None => &mut default,
            };
            match field.split_once('.') {
                Some((outer, inner)) => {
                    let entry = config.entry(outer).or_insert(serde_json::json!({}));
                    entry[inner] = value.to_json();
                }
                None => {
                    config.insert(field.to_string(), value.to_json());
                }
            }
        }
        let per_port: Vec<serde_json::Value> = (ports.into_iter())
            .map(|(port, listener)| serde_json::json!({"port": port, "listener": listener}))
            .collect();
        serde_json::json!({"default": default, "perPort": per_port})
    }
}

/// The ports of a spec's `perPort` entries, each once, in order.
pub fn ports(spec: &Node) -> Vec<i64> {
    let mut ports: Vec<i64> = (spec.get("perPort").and_then(Node::as_seq).unwrap_or(&[]))
        .iter()
        .filter_map(|e| e.get("port").and_then(Node::as_i64))
        .collect();
    ports.sort_unstable();
    ports.dedup();
    ports
}

/// The fields of one `ListenerConfig` (or `default`), `httpSettings` split, keys prefixed.
fn config_rules(config: &Node, prefix: &str, rules: &mut Vec<Rule>) {
    for entry in config.as_map().unwrap_or(&[]) {
        let key = &*entry.key.text;
        if !is_set(Some(&entry.value)) {
            continue;
        }
        match entry.value.as_map() {
            Some(fields) if key == "httpSettings" => rules.extend(
                (fields.iter().filter(|f| is_set(Some(&f.value)))).map(|f| Rule {
                    key: Name::new(&format!("{prefix}httpSettings.{}", f.key.text)),
                    value: f.value.clone(),
                    key_span: f.key.span,
                }),
            ),
            _ => rules.push(Rule {
                key: Name::new(&format!("{prefix}{key}")),
                value: entry.value.clone(),
                key_span: entry.key.span,
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::families::kgateway::testing::yaml;

    #[test]
    fn default_and_port_fields_are_rules() {
        let spec = yaml(
            "targetRefs: [{kind: Gateway, name: gw}]\n\
             default: {proxyProtocol: {}, httpSettings: {idleTimeout: 5s, healthCheck: {path: /h}}}\n\
             perPort:\n- {port: 8080, listener: {perConnectionBufferLimitBytes: 1}}\n\
             - {port: 9090, listener: {tcpKeepalive: null}}\n",
        );
        let keys: Vec<String> = rules(&spec).iter().map(|r| r.key.to_string()).collect();
        assert_eq!(
            keys,
            [
                "httpSettings.healthCheck",
                "httpSettings.idleTimeout",
                "perPort[8080].perConnectionBufferLimitBytes",
                "proxyProtocol",
            ]
        );
        assert_eq!(ports(&spec), [8080, 9090]);
        assert_eq!(
            split("perPort[8080].httpSettings.idleTimeout"),
            (Some(8080), "httpSettings.idleTimeout")
        );
        assert_eq!(split("proxyProtocol"), (None, "proxyProtocol"));
        assert_eq!(Scope::of("httpSettings.healthCheck"), Scope::Listener);
        assert_eq!(Scope::of("httpSettings.idleTimeout"), Scope::FilterChain);
        assert_eq!(Scope::of(CLIENT_CERT), Scope::ClientCert);
    }
}
