//! Rule values with the policies that contributed to them.
//!
//! A merged kgateway value can mix several policies' values (deep merges, scope combination), so
//! every value travels with its `origins` (docs/families.md §1: highest priority first, `source` =
//! `origins[0]`). `extAuth`/`extProc` merges also need to know which *providers* a value already
//! holds — kgateway compares GatewayExtension names, not values, and keeps comparing them after a
//! `disable` hid them — so a contribution privately keeps that bookkeeping next to the value.
//!
//! **Origins never repeat a policy.** A policy attached twice to one path takes part twice (§2.2),
//! so both sides of a step can name it; joined origin lists keep the first occurrence of each index
//! and otherwise their order (the contract is silent on repeats; kgateway keeps origins in a set).

use crate::source::Span;
use crate::yaml::{Entry, Key, Node, Value};
use std::fmt;

/// "Set" = present and not null; `{}` is set (kgateway tests for a non-nil IR, `sdk/merge.go`
/// IsMergeable).
pub fn is_set(node: Option<&Node>) -> bool {
    node.is_some_and(|n| !n.is_null())
}

/// A provider of `extAuth`, `extProc`, `jwtAuth`, `oauth2` or `rateLimit.global`: the
/// GatewayExtension its `extensionRef` names (namespace defaulting to the policy's).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ProviderId {
    /// The GatewayExtension `namespace/name`.
    Extension {
        /// Namespace (the policy's when the reference omits it).
        namespace: String,
        /// Name.
        name: String,
    },
    /// A value without a usable `extensionRef` (not valid for kgateway): identified by its JSON
    /// text, so that two equal values count as one provider.
    Inline(String),
}

impl fmt::Display for ProviderId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProviderId::Extension { namespace, name } => write!(f, "{namespace}/{name}"),
            ProviderId::Inline(json) => write!(f, "inline provider {json}"),
        }
    }
}

/// What a contribution knows about the providers of its value.
#[derive(Clone, Debug)]
enum Book {
    /// The providers are read from the value itself: one provider, identified by this
    /// `extensionRef` (or, when `None`, by the value), or none when the value is a `disable`.
    Value(Option<ProviderId>),
    /// The value is `{"providers": [...]}` built by a merge: one identity per item, in order.
    Listed(Vec<ProviderId>),
    /// The value is a `disable` set or kept by a merge; these providers were merged in before or
    /// under it (hidden, but still known to later steps, as kgateway keeps `providerNames`).
    Disabled(Vec<ProviderId>),
}

/// A rule value with the policies that contributed to it, highest priority first
/// (`origins[0]` = source). Origins never repeat a policy index (see the module docs).
///
/// Build values with [`Contribution::whole`] and the merge functions: a merged provider list keeps
/// one private identity per item, which editing `value` by hand would put out of step.
#[derive(Clone, Debug)]
pub struct Contribution {
    /// The value.
    pub value: Node,
    /// Contributing policies, highest priority first.
    pub origins: Vec<u32>,
    book: Book,
}

impl Contribution {
    /// A single policy's value verbatim. `namespace` is the policy's, the default namespace of an
    /// `extensionRef`.
    pub fn whole(value: Node, policy: u32, namespace: &str) -> Self {
        let id = extension_ref(&value, namespace);
        Contribution {
            value,
            origins: vec![policy],
            book: Book::Value(id),
        }
    }

    /// A value built from others (no provider bookkeeping beyond the value).
    pub(crate) fn built(value: Node, origins: Vec<u32>) -> Self {
        Contribution {
            value,
            origins,
            book: Book::Value(None),
        }
    }

    /// A `{"providers": [...]}` value with one identity per item.
    pub(crate) fn listed(items: Vec<(ProviderId, Node)>, origins: Vec<u32>) -> Self {
        let (ids, nodes): (Vec<_>, Vec<_>) = items.into_iter().unzip();
        let value = map_node(vec![entry("providers", seq_node(nodes))]);
        Contribution {
            value,
            origins,
            book: Book::Listed(ids),
        }
    }

    /// A `disable` value that has seen `ids`.
    pub(crate) fn disabled(value: Node, origins: Vec<u32>, ids: Vec<ProviderId>) -> Self {
        Contribution {
            value,
            origins,
            book: Book::Disabled(ids),
        }
    }

    /// Whether the value is a `{disable: ...}` (set `disable` field).
    pub fn is_disable(&self) -> bool {
        is_set(self.value.get("disable"))
    }

    /// The providers this value has merged, in order (repeats kept; hidden ones of a `disable`
    /// included).
    pub fn provider_ids(&self) -> Vec<ProviderId> {
        match &self.book {
            Book::Listed(ids) | Book::Disabled(ids) => ids.clone(),
            Book::Value(_) if self.is_disable() => Vec::new(),
            Book::Value(id) => vec![id.clone().unwrap_or_else(|| inline_id(&self.value))],
        }
    }

    /// The providers the value shows, with their settings: a merged list's items, one provider
    /// for another value, none for a `disable`.
    pub fn provider_items(&self) -> Vec<(ProviderId, Node)> {
        match &self.book {
            Book::Listed(ids) => {
                let items = self.value.get("providers").and_then(Node::as_seq);
                ids.iter()
                    .cloned()
                    .zip(items.unwrap_or(&[]).iter().cloned())
                    .collect()
            }
            Book::Disabled(_) => Vec::new(),
            Book::Value(_) if self.is_disable() => Vec::new(),
            Book::Value(_) => {
                let ids = self.provider_ids();
                ids.into_iter().map(|id| (id, self.value.clone())).collect()
            }
        }
    }
}

/// The GatewayExtension an `extensionRef` names (an empty or absent namespace is the policy's).
fn extension_ref(value: &Node, policy_namespace: &str) -> Option<ProviderId> {
    let reference = value.get("extensionRef")?;
    let name = reference.get("name")?.as_str()?;
    let namespace = reference.get("namespace").and_then(Node::as_str);
    let namespace = namespace
        .filter(|ns| !ns.is_empty())
        .unwrap_or(policy_namespace);
    Some(ProviderId::Extension {
        namespace: namespace.to_owned(),
        name: name.to_owned(),
    })
}

fn inline_id(value: &Node) -> ProviderId {
    ProviderId::Inline(value.to_json().to_string())
}

/// `first` then the indices of `then` not already listed.
pub(crate) fn join_origins(first: &[u32], then: &[u32]) -> Vec<u32> {
    let mut out = Vec::with_capacity(first.len() + then.len());
    for &index in first.iter().chain(then) {
        if !out.contains(&index) {
            out.push(index);
        }
    }
    out
}

/// A computed mapping.
pub(crate) fn map_node(entries: Vec<Entry>) -> Node {
    Node::synthetic(Value::Map(entries.into()))
}

/// A computed sequence.
pub(crate) fn seq_node(items: Vec<Node>) -> Node {
    Node::synthetic(Value::Seq(items.into()))
}

/// A computed `key: value` entry.
pub(crate) fn entry(key: &str, value: Node) -> Entry {
    Entry {
        key: Key {
            text: key.into(),
            span: Span::default(),
        },
        value,
    }
}

/// `source`'s key with a new value (keeps where the key is written).
pub(crate) fn rekeyed(source: &Entry, value: Node) -> Entry {
    Entry {
        key: source.key.clone(),
        value,
    }
}

/// The mapping entries of a node, or none.
pub(crate) fn entries(node: &Node) -> &[Entry] {
    node.as_map().unwrap_or(&[])
}
