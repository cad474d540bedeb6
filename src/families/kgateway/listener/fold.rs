//! One listener's effective ListenerPolicy (docs/families.md §2.9) and every rule's outcome, a
//! pure function of the policies on its Gateway and on the listener itself.
//!
//! Each key is read from the policy list of its [`Scope`]: listener keys from the whole-Gateway
//! policies; filter-chain keys, on an HTTPS listener, from its `sectionName` policies then the
//! whole-Gateway ones (each list in kgateway's order, §2.3), elsewhere from the whole-Gateway
//! ones; `clientCertificateValidation` from the HTTPS listener's `sectionName` policies, all
//! combined. Within a list the earlier policy keeps a field and later ones fill unset fields
//! (AugmentedShallow), and when some policy of the list has a `perPort` entry for the listener's
//! port, the merged entry replaces `default` for the keys of that list.

use super::keys::{CLIENT_CERT, Scope, split};
use crate::engine::fold::{Effective, EffectiveRule, Merged, RuleEvent, RuleRef};
use crate::families::kgateway::contribution::{entry, map_node, seq_node};
use crate::model::Model;
use crate::name::Name;
use crate::yaml::{Node, Shared, Value};
use std::collections::BTreeMap;
use std::sync::Arc;

/// What the fold needs of the listener.
#[derive(Clone, Copy, Debug)]
pub struct Listener {
    /// Its port (kgateway's Envoy listener `listener~<port>`).
    pub port: i64,
    /// Whether it is an HTTPS listener (a filter chain of its own).
    pub https: bool,
}

/// The policies on the listener's Gateway (no `sectionName`) and on the listener itself, each
/// in kgateway's order.
#[derive(Clone, Copy, Debug)]
pub struct Lists<'a> {
    /// Whole-Gateway policies.
    pub whole: &'a [u32],
    /// `sectionName` policies of this listener.
    pub section: &'a [u32],
}

/// A listener's fold: the effective rules and every rule's outcome.
#[derive(Debug, Default)]
pub struct Fold<'m> {
    /// The effective policy.
    pub effective: Effective<'m>,
    /// Each rule's outcome (a rule met twice keeps the first, which is its best).
    pub events: BTreeMap<RuleRef, RuleEvent>,
}

impl Fold<'_> {
    /// Records `event` for `rule` unless it already has one: effective and merged outcomes are
    /// recorded first, then superseded ones, and `not-applied` last.
    fn record(&mut self, rule: RuleRef, event: RuleEvent) {
        self.events.entry(rule).or_insert(event);
    }
}

/// The policy list a scope reads on `listener`.
pub fn list_of(scope: Scope, listener: Listener, lists: Lists<'_>) -> Vec<u32> {
    match (scope, listener.https) {
        (Scope::Listener, _) | (Scope::FilterChain, false) => lists.whole.to_vec(),
        (Scope::FilterChain, true) => [lists.section, lists.whole].concat(),
        (Scope::ClientCert, true) => lists.section.to_vec(),
        (Scope::ClientCert, false) => Vec::new(),
    }
}

/// Why kgateway does not read a key of a policy attached as `sectionName` (`true`) or to the
/// whole Gateway, on `listener`; `None` when it does.
pub fn ignored(field: &str, section: bool, https: bool) -> Option<&'static str> {
    match (Scope::of(field), section, https) {
        (Scope::Listener, true, _) => {
            Some("kgateway reads this key from ListenerPolicies targeting the whole Gateway only")
        }
        (Scope::FilterChain, true, false) => Some(
            "kgateway reads a sectionName ListenerPolicy's filter-chain keys on HTTPS listeners only",
        ),
        (Scope::ClientCert, false, _) => Some(
            "kgateway reads clientCertificateValidation from sectionName ListenerPolicies only",
        ),
        (Scope::ClientCert, true, false) => {
            Some("clientCertificateValidation applies to HTTPS listeners only")
        }
        _ => None,
    }
}

/// The fold of one listener; `ports(policy)`: the ports of its `perPort` entries.
pub fn fold<'m, 'p>(
    model: &'m Model,
    listener: Listener,
    lists: Lists<'_>,
    ports: &dyn Fn(u32) -> &'p [i64],
) -> Fold<'m> {
    // An invalid policy (a bad weight) takes part in no merge (docs/families.md §2.5).
    let valid = |list: &[u32]| -> Vec<u32> {
        let ok = |p: &&u32| model.policies[**p as usize].errors.is_empty();
        list.iter().filter(ok).copied().collect()
    };
    let (whole, section) = (valid(lists.whole), valid(lists.section));
    let lists = Lists {
        whole: &whole,
        section: &section,
    };
    let mut out = Fold::default();
    for scope in [Scope::Listener, Scope::FilterChain] {
        merge_scope(
            model,
            &mut out,
            scope,
            &list_of(scope, listener, lists),
            listener.port,
            ports,
        );
    }
    client_cert(
        model,
        &mut out,
        &list_of(Scope::ClientCert, listener, lists),
    );
    for (section, list) in [(false, lists.whole), (true, lists.section)] {
        for &policy in list {
            for (i, rule) in model.policies[policy as usize].blocks[0]
                .rules
                .iter()
                .enumerate()
            {
                let (port, field) = split(&rule.key);
                let reason = ignored(field, section, listener.https);
                if let Some(reason) = reason.filter(|_| port.is_none_or(|p| p == listener.port)) {
                    let reason = Name::new(reason);
                    out.record(RuleRef::new(policy, 0, i), RuleEvent::NotApplied { reason });
                }
            }
        }
    }
    out
}

/// The keys of `scope` merged over `list` (AugmentedShallow), the port's entry replacing
/// `default` when some policy of the list has one.
fn merge_scope<'m, 'p>(
    model: &'m Model,
    out: &mut Fold<'m>,
    scope: Scope,
    list: &[u32],
    port: i64,
    ports: &dyn Fn(u32) -> &'p [i64],
) {
    let by_port: Vec<u32> = (list.iter().copied())
        .filter(|&p| ports(p).contains(&port))
        .collect();
    let wanted = (!by_port.is_empty()).then_some(port);
    let mut replaced = Vec::new();
    for &policy in list {
        for (i, rule) in model.policies[policy as usize].blocks[0]
            .rules
            .iter()
            .enumerate()
        {
            let (rule_port, field) = split(&rule.key);
            if Scope::of(field) != scope || rule_port.is_some_and(|p| p != port) {
                continue;
            }
            let here = RuleRef::new(policy, 0, i);
            if rule_port != wanted {
                replaced.push((here, field));
                continue;
            }
            match out.effective.get(field) {
                None => {
                    out.effective.insert(field, EffectiveRule::whole(here));
                    out.record(here, RuleEvent::Added);
                }
                Some(winner) if winner.rule != here => {
                    let by = Shared::from(vec![winner.policy]);
                    out.record(here, RuleEvent::Superseded { by });
                }
                Some(_) => {}
            }
        }
    }
    for (rule, field) in replaced {
        let by = match out.effective.get(field) {
            Some(winner) => winner.origins().to_vec(),
            None => by_port.clone(),
        };
        let by = Shared::from(by);
        out.record(rule, RuleEvent::Superseded { by });
    }
}

/// `clientCertificateValidation` of every contributor combined (`getCertValidationFromAttached`):
/// the union of their `caCertificateRefs` in order, `mode: Require` if any requires.
fn client_cert<'m>(model: &'m Model, out: &mut Fold<'m>, list: &[u32]) {
    let mut found: Vec<(RuleRef, &'m Node)> = Vec::new();
    for &policy in list {
        let block = &model.policies[policy as usize].blocks[0];
        if let Some(i) = block.rule_index(CLIENT_CERT) {
            let here = RuleRef::new(policy, 0, i);
            if !found.iter().any(|(r, _)| *r == here) {
                found.push((here, &block.rules[i].value));
            }
        }
    }
    let Some(&(source, _)) = found.first() else {
        return;
    };
    let merged = (found.len() > 1).then(|| {
        let origins: Vec<u32> = found.iter().map(|(r, _)| r.policy).collect();
        Arc::new(Merged {
            value: combined(found.iter().map(|(_, v)| *v)),
            origins,
        })
    });
    out.effective.insert(
        CLIENT_CERT,
        EffectiveRule {
            rule: source,
            merged,
        },
    );
    out.record(source, RuleEvent::Added);
    for &(rule, _) in &found[1..] {
        out.record(rule, RuleEvent::Merged { by: source.policy });
    }
}

/// Several `clientCertificateValidation` values as one.
fn combined<'n>(values: impl Iterator<Item = &'n Node>) -> Node {
    let mut refs: Vec<Node> = Vec::new();
    let mut require = false;
    for value in values {
        require |= value.get("mode").and_then(Node::as_str) == Some("Require");
        for r in (value.get("caCertificateRefs").and_then(Node::as_seq)).unwrap_or(&[]) {
            if !refs.iter().any(|known| known.same_value(r)) {
                refs.push(r.clone());
            }
        }
    }
    let mode = if require { "Require" } else { "Optional" };
    map_node(vec![
        entry("caCertificateRefs", seq_node(refs)),
        entry("mode", Node::synthetic(Value::String(mode.into()))),
    ])
}
