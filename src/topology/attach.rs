//! Route attachment: which listeners accept which routes (Gateway API rules, docs/semantics.md#2-topology-and-paths).
//!
//! For each parentRef: find the Gateway (else `ParentNotFound`), narrow its listeners by
//! `sectionName`/`port` (else `NoMatchingParent`), keep those whose `allowedRoutes` admit the
//! route's namespace and kind (else `NotAllowedByListeners`), then those whose hostname
//! intersects the route's hostnames (else `NoMatchingListenerHostname`). A `Selector` over
//! Namespaces that are not in the input cannot be decided offline: the route is assumed
//! accepted and an info diagnostic says so.

use super::diags::{
    ListenerRefusal, ParentRefRefused, RefusedBecause, RouteNotAttached, SelectorUndecidable,
};
use super::hostname::listener_accepts_hostnames;
use crate::diag::{Code, Diagnostic};
use crate::model::gateway::{
    FromNamespaces, GATEWAY_GROUP, Gateway, Listener, ParentRef, Route, X_GATEWAY_GROUP,
    is_listener_set,
};
use crate::model::{Model, elsewhere};
use std::collections::{HashMap, HashSet};

/// Why a parentRef produced no attachment.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RejectionReason {
    /// The Gateway is not in the input.
    ParentNotFound,
    /// No listener matches `sectionName`/`port`.
    NoMatchingParent,
    /// No matching listener allows the route's namespace or kind.
    NotAllowedByListeners,
    /// No allowed listener's hostname intersects the route's hostnames.
    NoMatchingListenerHostname,
}

impl RejectionReason {
    /// The Gateway API reason string (dopol's own for a missing Gateway).
    pub fn as_str(self) -> &'static str {
        match self {
            RejectionReason::ParentNotFound => "ParentNotFound",
            RejectionReason::NoMatchingParent => "NoMatchingParent",
            RejectionReason::NotAllowedByListeners => "NotAllowedByListeners",
            RejectionReason::NoMatchingListenerHostname => "NoMatchingListenerHostname",
        }
    }

    /// The diagnostic code that reports the refusal.
    pub fn code(self) -> Code {
        match self {
            RejectionReason::ParentNotFound => Code::PARENT_NOT_FOUND,
            RejectionReason::NoMatchingParent => Code::NO_MATCHING_PARENT,
            RejectionReason::NotAllowedByListeners => Code::NOT_ALLOWED_BY_LISTENERS,
            RejectionReason::NoMatchingListenerHostname => Code::NO_MATCHING_LISTENER_HOSTNAME,
        }
    }
}

/// A parentRef that attached the route nowhere.
#[derive(Clone, Debug)]
pub struct Rejection {
    /// Index into `Model::routes`.
    pub route: u32,
    /// Index into the route's parentRefs.
    pub parent_ref: u32,
    /// The Gateway, when it exists.
    pub gateway: Option<u32>,
    /// Why.
    pub reason: RejectionReason,
    /// Explanation.
    pub message: String,
}

/// Result of attaching every route.
pub struct Attachments {
    /// Per route: accepted `(gateway, listener)` pairs, in parentRef then listener order.
    pub route_listeners: Vec<Vec<(u32, u32)>>,
    /// Refused parentRefs.
    pub rejections: Vec<Rejection>,
    /// Routes attached to nothing, each with the index of its `route-not-attached` diagnostic
    /// in the diagnostics passed to [`attach_routes`] (withdrawn for a route reached by
    /// delegation).
    pub not_attached: Vec<(u32, usize)>,
}

struct Context<'m> {
    model: &'m Model,
    gateways: HashMap<(&'m str, &'m str), u32>,
    undecidable_reported: HashSet<(u32, u32, String)>,
    /// Gateways by name, built on the first parentRef that misses.
    by_name: std::cell::OnceCell<elsewhere::ByName<'m>>,
}

/// Attaches every route of the model.
pub fn attach_routes(model: &Model, diagnostics: &mut Vec<Diagnostic>) -> Attachments {
    let gateways = model
        .gateways
        .iter()
        .enumerate()
        .map(|(i, g)| ((g.namespace.as_str(), g.name.as_str()), i as u32))
        .collect();
    let mut context = Context {
        model,
        gateways,
        undecidable_reported: HashSet::new(),
        by_name: std::cell::OnceCell::new(),
    };
    let mut route_listeners = Vec::with_capacity(model.routes.len());
    let mut rejections = Vec::new();
    let mut not_attached = Vec::new();
    for (route_index, route) in model.routes.iter().enumerate() {
        let mut accepted: Vec<(u32, u32)> = Vec::new();
        for (ref_index, parent) in route.parent_refs.iter().enumerate() {
            let attached = if is_listener_set(&parent.group, &parent.kind) {
                context.attach_to_set(route, parent, diagnostics)
            } else if parent.group == GATEWAY_GROUP && parent.kind == "Gateway" {
                context.attach(route, parent, diagnostics)
            } else {
                continue; // mesh or other parents: not part of the Gateway hierarchy
            };
            match attached {
                Ok(listeners) => {
                    for pair in listeners {
                        if !accepted.contains(&pair) {
                            accepted.push(pair);
                        }
                    }
                }
                Err(refused) => {
                    let Refused {
                        reason,
                        gateway,
                        message,
                        mut diagnostic,
                    } = *refused;
                    diagnostic = diagnostic.with_object(route.display());
                    diagnostics.push(diagnostic);
                    rejections.push(Rejection {
                        route: route_index as u32,
                        parent_ref: ref_index as u32,
                        gateway,
                        reason,
                        message,
                    });
                }
            }
        }
        // A route whose parentRefs were all refused is already explained by the refusals.
        let refused = rejections
            .iter()
            .any(|r: &Rejection| r.route == route_index as u32);
        if accepted.is_empty() && !refused {
            not_attached.push((route_index as u32, diagnostics.len()));
            diagnostics.push(
                Diagnostic::from(RouteNotAttached { route })
                    .with_label(route.name_span, "this route")
                    .with_object(route.display()),
            );
        }
        // Kept to the end of the run: one pair grown by a push holds room for four.
        crate::platform::kept::keep_list(&mut accepted);
        route_listeners.push(accepted);
    }
    Attachments {
        route_listeners,
        rejections,
        not_attached,
    }
}

/// A refused parentRef: the rejection and the diagnostic that reports it.
struct Refused {
    reason: RejectionReason,
    gateway: Option<u32>,
    message: String,
    diagnostic: Diagnostic,
}

type Refusal = Box<Refused>;

/// The refused parentRef's rejection and diagnostic; `gateway` is the Gateway's index, when it
/// exists. Labelled at the parentRef's sectionName (else its name) with the reason, then at what
/// refused it.
fn refusal(refused: ParentRefRefused<'_>, gateway: Option<u32>) -> Refusal {
    let reason = refused.reason();
    let message = refused.explanation();
    let parent = refused.parent;
    let mut labels = vec![(
        parent.section_span.unwrap_or(parent.name_span),
        reason.as_str().to_string(),
    )];
    match &refused.why {
        RefusedBecause::ParentNotFound { .. } | RefusedBecause::ListenerSetNotJoined { .. } => {}
        RefusedBecause::NoMatchingParent { gateway, .. } => {
            labels.push((gateway.name_span, "this Gateway".into()));
        }
        RefusedBecause::NotAllowedByListeners { refusals, .. } => {
            if let Some((listener, _)) = refusals.first() {
                let span = listener.allowed_routes_span.unwrap_or(listener.name_span);
                labels.push((span, "listener's allowedRoutes".into()));
            }
        }
        RefusedBecause::NoMatchingListenerHostname { .. } => {
            labels.extend(refused.hostname_labels())
        }
    }
    let mut diagnostic = Diagnostic::from(refused);
    for (span, text) in labels {
        diagnostic = diagnostic.with_label(span, text);
    }
    Box::new(Refused {
        reason,
        gateway,
        message,
        diagnostic,
    })
}

impl<'m> Context<'m> {
    /// `ParentNotFound`, saying where a Gateway of that name is when it is in another
    /// namespace (and then not offering `--assume-gateways`, which would hide the cause).
    fn parent_not_found(&self, route: &Route, parent: &ParentRef) -> Refusal {
        let elsewhere = self
            .by_name
            .get_or_init(|| elsewhere::ByName::of_model(self.model))
            .find("Gateway", &parent.name, &parent.namespace);
        let why = RefusedBecause::ParentNotFound { elsewhere };
        refusal(ParentRefRefused { route, parent, why }, None)
    }

    /// Attaches `route` through a parentRef naming a Gateway: its own listeners only (a
    /// ListenerSet's listeners are reached through the set, GEP-1713).
    fn attach(
        &mut self,
        route: &Route,
        parent: &ParentRef,
        diagnostics: &mut Vec<Diagnostic>,
    ) -> Result<Vec<(u32, u32)>, Refusal> {
        let Some(&gateway_index) = self
            .gateways
            .get(&(parent.namespace.as_str(), parent.name.as_str()))
        else {
            return Err(self.parent_not_found(route, parent));
        };
        self.attach_listeners(route, parent, gateway_index, None, diagnostics)
    }

    /// Attaches `route` through a parentRef naming a ListenerSet: the listeners the set added
    /// to its Gateway. A set not in the input, or one no Gateway of the input admits, is a
    /// parent not found.
    fn attach_to_set(
        &mut self,
        route: &Route,
        parent: &ParentRef,
        diagnostics: &mut Vec<Diagnostic>,
    ) -> Result<Vec<(u32, u32)>, Refusal> {
        let legacy = parent.group == X_GATEWAY_GROUP;
        let set = (self.model.listener_sets.iter()).position(|s| {
            s.legacy == legacy && s.namespace == *parent.namespace && s.name == *parent.name
        });
        let joined = set.and_then(|s| Some((s, self.model.listener_sets[s].gateway?)));
        let Some((set, gateway_index)) = joined else {
            let set = set.map(|s| &self.model.listener_sets[s]);
            let why = RefusedBecause::ListenerSetNotJoined { set };
            return Err(refusal(ParentRefRefused { route, parent, why }, None));
        };
        self.attach_listeners(route, parent, gateway_index, Some(set as u32), diagnostics)
    }

    /// Attaches `route` to the listeners of Gateway `gateway_index` that ListenerSet `scope`
    /// added (the Gateway's own for `None`), as the parentRef's `sectionName`, `port`,
    /// `allowedRoutes` and hostnames allow. A conflicted listener takes no route.
    fn attach_listeners(
        &mut self,
        route: &Route,
        parent: &ParentRef,
        gateway_index: u32,
        scope: Option<u32>,
        diagnostics: &mut Vec<Diagnostic>,
    ) -> Result<Vec<(u32, u32)>, Refusal> {
        let gateway = &self.model.gateways[gateway_index as usize];
        let candidates: Vec<u32> = (0..gateway.listeners.len() as u32)
            .filter(|&i| {
                let l = &gateway.listeners[i as usize];
                l.set == scope
                    && !l.conflicted
                    && parent.section_name.as_ref().is_none_or(|s| *s == l.name)
                    && (gateway.assumed || parent.port.is_none_or(|p| p == l.port))
            })
            .collect();
        if candidates.is_empty() {
            return Err(self.no_matching_parent(route, gateway_index, gateway, parent, scope));
        }
        if gateway.assumed {
            return Ok(candidates.into_iter().map(|l| (gateway_index, l)).collect());
        }

        let mut refusals = Vec::new();
        let allowed: Vec<u32> = candidates
            .iter()
            .copied()
            .filter(|&i| {
                let listener = &gateway.listeners[i as usize];
                match self.allows(gateway_index, i, gateway, listener, route, diagnostics) {
                    Ok(()) => true,
                    Err(why) => {
                        refusals.push((listener, why));
                        false
                    }
                }
            })
            .collect();
        if allowed.is_empty() {
            let why = RefusedBecause::NotAllowedByListeners { gateway, refusals };
            let refused = ParentRefRefused { route, parent, why };
            return Err(refusal(refused, Some(gateway_index)));
        }

        let matching: Vec<u32> = allowed
            .iter()
            .copied()
            .filter(|&i| {
                listener_accepts_hostnames(
                    gateway.listeners[i as usize].hostname.as_deref(),
                    &route.hostnames,
                )
            })
            .collect();
        if matching.is_empty() {
            // Every allowed listener has a hostname here (one without intersects everything).
            let allowed = allowed
                .iter()
                .map(|&i| &gateway.listeners[i as usize])
                .collect();
            let why = RefusedBecause::NoMatchingListenerHostname { gateway, allowed };
            let refused = ParentRefRefused { route, parent, why };
            return Err(refusal(refused, Some(gateway_index)));
        }
        Ok(matching.into_iter().map(|l| (gateway_index, l)).collect())
    }

    fn no_matching_parent(
        &self,
        route: &Route,
        gateway_index: u32,
        gateway: &Gateway,
        parent: &ParentRef,
        scope: Option<u32>,
    ) -> Refusal {
        let why = RefusedBecause::NoMatchingParent { gateway, scope };
        refusal(ParentRefRefused { route, parent, why }, Some(gateway_index))
    }

    /// Whether a listener's `allowedRoutes` admit the route; `Err` says why not.
    fn allows<'g>(
        &mut self,
        gateway_index: u32,
        listener_index: u32,
        gateway: &'g Gateway,
        listener: &'g Listener,
        route: &'g Route,
        diagnostics: &mut Vec<Diagnostic>,
    ) -> Result<(), ListenerRefusal<'g>>
    where
        'm: 'g,
    {
        let kind = route.kind.as_str();
        if !listener.allows_kind(kind) {
            return Err(match &listener.kinds {
                Some(_) => ListenerRefusal::KindNotListed { kind },
                None => ListenerRefusal::Protocol {
                    protocol: &listener.protocol,
                    kind,
                },
            });
        }
        // `Same` is the namespace of the object that declares the listener: a ListenerSet's
        // listener admits routes of the set's namespace (GEP-1713).
        let own_namespace = match listener.set {
            Some(s) => &self.model.listener_sets[s as usize].namespace,
            None => &gateway.namespace,
        };
        match &listener.from {
            FromNamespaces::All => Ok(()),
            FromNamespaces::Same if route.namespace == *own_namespace => Ok(()),
            FromNamespaces::Same => Err(ListenerRefusal::OtherNamespace {
                gateway_namespace: own_namespace,
            }),
            FromNamespaces::Selector(selector) => {
                let labels = match self.model.namespace(&route.namespace) {
                    Some(ns) => ns.labels.clone(),
                    None if selector.keys().all(|k| k == "kubernetes.io/metadata.name") => {
                        vec![(
                            "kubernetes.io/metadata.name".to_string(),
                            route.namespace.to_string(),
                        )]
                    }
                    None => {
                        let key = (gateway_index, listener_index, route.namespace.to_string());
                        if self.undecidable_reported.insert(key) {
                            let finding = SelectorUndecidable {
                                gateway,
                                listener,
                                namespace: &route.namespace,
                            };
                            let span = listener.allowed_routes_span.unwrap_or(listener.name_span);
                            diagnostics.push(
                                Diagnostic::from(finding).with_label(span, "namespace selector"),
                            );
                        }
                        return Ok(());
                    }
                };
                if selector.matches(&labels) {
                    Ok(())
                } else {
                    Err(ListenerRefusal::SelectorMismatch {
                        namespace: &route.namespace,
                    })
                }
            }
        }
    }
}
