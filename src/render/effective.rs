//! Table rendering of `dopol effective`: one section per Gateway, one row per rule, grouped by
//! listener, route rule and policy kind.

use super::table::{blank_if_same, finish, new_table};
use super::value::compact_truncated;
use crate::model::Model;
use crate::report::effective::EffectiveReport;
use crate::topology::Topology;

/// Longest value shown in a table cell.
pub const VALUE_WIDTH: usize = 72;

/// Renders the report as tables.
pub fn render_table(
    report: &EffectiveReport<'_, '_>,
    model: &Model,
    topology: &Topology,
) -> String {
    let mut out = String::new();
    let mut current_gateway: Option<u32> = None;
    let mut table = None;
    let (mut last_listener, mut last_rule, mut last_kind) =
        (String::new(), String::new(), String::new());
    for item in &report.items {
        let path = topology.paths[item.path as usize];
        if current_gateway != Some(path.gateway) {
            if let Some(t) = table.take() {
                out.push_str(&finish(&t));
                out.push('\n');
            }
            let gateway = &model.gateways[path.gateway as usize];
            out.push_str(&format!(
                "Gateway {}/{} (class {}){}\n",
                gateway.namespace,
                gateway.name,
                gateway.class_name,
                if gateway.assumed { " [assumed]" } else { "" }
            ));
            table = Some(new_table(&[
                "LISTENER",
                "ROUTE RULE",
                "KIND",
                "RULE",
                "SOURCE",
                "VALUE",
            ]));
            current_gateway = Some(path.gateway);
            (last_listener, last_rule, last_kind) = (String::new(), String::new(), String::new());
        }
        let gateway = &model.gateways[path.gateway as usize];
        let route = &model.routes[path.route as usize];
        let listener = gateway.listeners[path.listener as usize].name.as_str();
        let rule = format!(
            "{}/{}#{}",
            route.namespace, route.name, route.rules[path.rule as usize].name
        );
        let table = table
            .as_mut()
            .expect("a table is open for the current Gateway");
        for r in &report.rules(item) {
            let source = &model.policies[r.policy as usize];
            let group = format!("{listener}\u{0}{rule}");
            let listener_cell = if last_listener == group {
                String::new()
            } else {
                listener.to_string()
            };
            let rule_cell = if last_listener == group {
                String::new()
            } else {
                rule.clone()
            };
            if last_listener != group {
                last_listener = group.clone();
                last_kind.clear();
            }
            let kind_cell = blank_if_same(&mut last_kind, item.policy_kind);
            last_rule.clear();
            table.add_row(vec![
                listener_cell,
                rule_cell,
                kind_cell,
                r.key.to_string(),
                source.namespaced_name(),
                compact_truncated(r.value, VALUE_WIDTH),
            ]);
        }
    }
    if let Some(t) = table {
        out.push_str(&finish(&t));
    }
    out
}
