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
    // The path whose rows are being written (listener and route rule are shown on its first
    // row only), and the last kind shown within it.
    let (mut last_path, mut last_kind) = (None, String::new());
    for item in &report.items {
        let path = topology.paths[item.path as usize];
        let gateway = &model.gateways[path.gateway as usize];
        if current_gateway != Some(path.gateway) {
            if let Some(t) = table.take() {
                out.push_str(&finish(&t));
                out.push('\n');
            }
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
        }
        let table = table
            .as_mut()
            .expect("a table is open for the current Gateway");
        for r in &report.rules(item) {
            let (listener_cell, rule_cell) = if last_path == Some(item.path) {
                (String::new(), String::new())
            } else {
                last_path = Some(item.path);
                last_kind.clear();
                (
                    gateway.listeners[path.listener as usize].name.clone(),
                    topology.rule_label(model, &path),
                )
            };
            table.add_row(vec![
                listener_cell,
                rule_cell,
                blank_if_same(&mut last_kind, item.policy_kind),
                r.key.to_string(),
                model.policies[r.policy as usize].namespaced_name(),
                compact_truncated(r.value, VALUE_WIDTH),
            ]);
        }
    }
    if let Some(t) = table {
        out.push_str(&finish(&t));
    }
    out
}
