//! What a family decides about the Gateway API hierarchy (the topology's half of the family
//! contract): which route kinds and links its policies follow, attachments besides targets and
//! selectors, and how the attachments of one element are ordered.
//!
//! The topology reads a family through this trait ([`Registry::hierarchy_of`]), never through
//! `crate::policy::PolicyFamily`, which extends it and lives above the topology: the registry
//! keeps each family's face of this type, added by `crate::policy::Registry::add`.

use super::Target;
use super::links::RouteLink;
use crate::diag::Diagnostic;
use crate::kinds::{FamilyKinds, Policy, PolicyKind, Registry};
use crate::model::Model;
use crate::model::gateway::RouteKind;
use std::sync::Arc;

/// How a policy reaches an element.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Via {
    /// Its `targetRef`/`targetRefs` entry number `n` (in `Policy::targets`).
    TargetRef(u16),
    /// Its `targetSelectors` entry number `n`.
    Selector(u16),
    /// A route rule filter naming the policy (kgateway ExtensionRef), the filter's position.
    Extension(u16),
}

/// One policy attached to one element.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Attachment {
    /// Index into `Model::policies`.
    pub policy: u32,
    /// The element.
    pub target: Target,
    /// How.
    pub via: Via,
}

/// A family as the topology sees it.
pub trait FamilyHierarchy: FamilyKinds {
    /// The route kinds its policies apply to: a path through a route of another kind takes no
    /// policy of the family, not even from its Gateway or listener (Kuadrant's and kgateway's
    /// data planes act on HTTP only; Envoy Gateway applies policies to TCP, TLS and UDP routes
    /// too). HTTPRoute and GRPCRoute unless the family says otherwise.
    fn route_kinds(&self) -> &'static [RouteKind] {
        RouteKind::HTTP
    }
    /// Whether its policies attach to the Gateway API hierarchy through targets and selectors
    /// (`true`, the common case). A family with a hierarchy of its own (`owned`; Kuma's
    /// policies select proxies) says `false`: the topology then neither resolves its policies'
    /// targets nor reports them as targeting nothing.
    fn attaches_to_routes(&self) -> bool {
        true
    }
    /// Whether its policies apply to paths reached through route delegation.
    fn follows_delegation(&self) -> bool {
        false
    }
    /// Whether its policies apply to paths through a ListenerSet's listeners (`true`, the
    /// common case: a whole-Gateway policy reaches them). A controller that knows nothing of
    /// ListenerSets (Kuadrant) says `false`: such paths take none of its policies, and its lint
    /// says so (never silence).
    fn follows_listener_sets(&self) -> bool {
        true
    }
    /// Whether a policy on a Gateway's listener `G#L` also reaches the listeners named `L` of the
    /// Gateway's ListenerSets (`false`, as Envoy Gateway and kgateway do: lint then reports
    /// `gateway-listener-policy-skips-listenerset` where both exist). A family whose controller
    /// lets it through (agentgateway) says `true` and evaluates that itself.
    fn listener_policy_reaches_listener_sets(&self) -> bool {
        false
    }
    /// Whether the topology resolves its policies' targets of ListenerSet kinds (`false`: the
    /// family leaves them out or resolves them itself — Envoy Gateway's `sets.rs`). A family
    /// that says `true` gets a `ListenerSet` (or `XListenerSet`) `targetRef` resolved like a
    /// Gateway's: without `sectionName` to the whole-set element [`Target::ListenerSet`] (`S`),
    /// with one to that set listener's element `Target::Listener(G, L)` (`S#L`), a missing set
    /// or section `TargetNotFound`; selectors of those kinds select sets by their labels. On a
    /// path through a set listener its levels then carry `S` between the Gateway and the
    /// listener (`crate::engine::Engine::levels`); for every other family they never do.
    fn resolves_listener_sets(&self) -> bool {
        false
    }
    /// Whether a Gateway `targetRef` of `kind` whose `sectionName` none of the Gateway's own
    /// listeners has, but one of its ListenerSets' listeners has, is the family's to resolve
    /// (Envoy Gateway's ClientTrafficPolicy takes the first such listener, a quirk it reports
    /// itself) rather than a `section-not-found`.
    fn gateway_section_reaches_set_listener(&self, _kind: &PolicyKind) -> bool {
        false
    }
    /// The link it contributes to the Gateway API hierarchy (route delegation), if any: the
    /// topology chains routes through the first family's link.
    fn route_link(&self) -> Option<&'static dyn RouteLink> {
        None
    }
    /// Attachments other than targets and selectors (kgateway's ExtensionRef filters), in no
    /// particular order; the diagnostics say which ones do not resolve.
    fn extra_attachments(&self, _model: &Model) -> (Vec<Attachment>, Vec<Diagnostic>) {
        (Vec::new(), Vec::new())
    }
    /// Orders the attachments of one element, in the order the family's fold expects; returns
    /// the neighbouring pairs whose order was decided by name only.
    fn order(&self, model: &Model, attachments: &mut Vec<Attachment>) -> Vec<(u32, u32)> {
        order_by_age(model, attachments)
    }
}

impl Registry {
    /// The family of `kind`, as the topology sees it.
    pub fn hierarchy_of(&self, kind: &PolicyKind) -> &dyn FamilyHierarchy {
        self.hierarchy(self.family_index(self.kind_index(kind)))
    }

    /// Every family as the topology sees it, in registration order.
    pub fn hierarchies(&self) -> impl Iterator<Item = &dyn FamilyHierarchy> {
        (0..self.family_count()).map(|f| self.hierarchy(f))
    }

    fn hierarchy(&self, family: usize) -> &dyn FamilyHierarchy {
        self.face::<Arc<dyn FamilyHierarchy>>(family).as_ref()
    }
}

/// The common order on one element (docs/families.md §1): older `creationTimestamp` first, a missing
/// one newest, then `namespace/name`; returns the pairs ordered by name only.
pub fn order_by_age(model: &Model, attachments: &mut [Attachment]) -> Vec<(u32, u32)> {
    attachments.sort_by_cached_key(|a| {
        let p = &model.policies[a.policy as usize];
        (
            p.creation_timestamp.is_none(),
            p.creation_timestamp,
            p.namespaced_name(),
        )
    });
    name_ties(model, attachments, |a, b| {
        a.creation_timestamp == b.creation_timestamp
    })
}

/// Neighbouring pairs of sorted attachments that `tied` says only their names ordered.
pub fn name_ties(
    model: &Model,
    attachments: &[Attachment],
    tied: impl Fn(&Policy, &Policy) -> bool,
) -> Vec<(u32, u32)> {
    attachments
        .windows(2)
        .filter(|pair| {
            tied(
                &model.policies[pair[0].policy as usize],
                &model.policies[pair[1].policy as usize],
            )
        })
        .map(|pair| (pair[0].policy, pair[1].policy))
        .collect()
}
