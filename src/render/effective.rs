//! Table rendering of `dopol effective`: one section per Gateway, one row per rule, grouped by
//! listener, route rule and policy kind; a path that lacks a kind other paths have shows a
//! `(none)` row for it, so a missing AuthPolicy is seen rather than inferred from a gap. With
//! `-o wide`, one table whose every row names its Gateway, listener and route rule. Also the
//! table of `--uncovered`.
//!
//! The column names come from each hierarchy ([`gateway_api::COLUMNS`], `OwnedPaths::columns`).
//! The Gateway API table keeps a layout of its own (a section per Gateway with its class, the
//! listeners without routes, shared folds' cells cached), which an owned hierarchy's table (a
//! section per value of its first column) does not have, so the two are written apart.

use super::table::{Column, Layout, Table, blank_if_same, finish, write};
use super::value::{compact, compact_json};
use crate::model::Model;
use crate::policy::PolicyKind;
use crate::report::effective::{EffectiveItem, EffectiveReport};
use crate::report::uncovered::{UncoveredPath, UncoveredReport};
use crate::topology::Topology;
use crate::topology::gateway_api::{self, GatewayApi};
use crate::topology::hierarchy::Hierarchy;
use std::io;

/// The columns after the path's: kind, rule key, source, value.
const RULE_COLUMNS: [Column; 4] = [
    Column::Id("KIND"),
    Column::Id("RULE KEY"),
    Column::Id("SOURCE"),
    Column::Text("VALUE"),
];

/// A new table: `GATEWAY` first with `-o wide`, then listener and route rule (group headings
/// when the table is too wide for the terminal).
fn effective_table(layout: Layout) -> Table {
    let [gateway, listener, rule] = gateway_api::COLUMNS;
    let mut columns = Vec::new();
    if layout.wide {
        columns.push(Column::Id(gateway));
    }
    columns.extend([Column::Group(listener), Column::Group(rule)]);
    columns.extend(RULE_COLUMNS);
    Table::new(columns)
}

/// What one path shows for one kind: its effective policy, or that it has none.
enum KindEntry {
    Effective(EffectiveItem),
    None(&'static PolicyKind),
}

/// The entries of each path, in path order, kinds in registry order.
fn entries_by_path<'m>(
    report: &EffectiveReport<'_, 'm>,
    none: &[UncoveredPath<'m>],
    model: &Model,
) -> Vec<(u32, Vec<KindEntry>)> {
    let rank = |kind: &PolicyKind| model.registry.kind_index(kind);
    let mut rows: Vec<(u32, usize, KindEntry)> = report
        .items
        .iter()
        .map(|item| (item.path, rank(item.kind), KindEntry::Effective(item)))
        .chain(none.iter().flat_map(|u| {
            u.missing
                .iter()
                .map(move |&k| (u.path, rank(k), KindEntry::None(k)))
        }))
        .collect();
    rows.sort_by_key(|(path, kind, _)| (*path, *kind));
    let mut grouped: Vec<(u32, Vec<KindEntry>)> = Vec::new();
    for (path, _, entry) in rows {
        match grouped.last_mut() {
            Some((last, entries)) if *last == path => entries.push(entry),
            _ => grouped.push((path, vec![entry])),
        }
    }
    grouped
}

/// How many folds' cells [`RecentFolds`] keeps.
const RECENT_FOLDS: usize = 16;

/// The rule cells (key, source, compact value) of the folds met last: neighbouring paths (the
/// rules of one route) mostly share a fold, and rendering a value is the costly part of a row.
#[derive(Default)]
struct RecentFolds {
    folds: std::collections::VecDeque<(u32, Vec<[String; 3]>)>,
}

impl RecentFolds {
    fn cells(
        &mut self,
        report: &EffectiveReport<'_, '_>,
        model: &Model,
        fold: u32,
    ) -> &[[String; 3]] {
        let found = self.folds.iter().position(|(f, _)| *f == fold);
        let index = match found {
            Some(index) => index,
            None => {
                if self.folds.len() == RECENT_FOLDS {
                    self.folds.pop_front();
                }
                let rules = crate::report::effective::rules_of(model, report.fold_effective(fold));
                let cells = rules
                    .iter()
                    .map(|r| {
                        [
                            r.key.to_string(),
                            model.policies[r.policy as usize].namespaced_name(),
                            compact(r.value),
                        ]
                    })
                    .collect();
                self.folds.push_back((fold, cells));
                self.folds.len() - 1
            }
        };
        &self.folds[index].1
    }
}

/// The `Gateway ns/name (class c)` line that opens a section.
fn gateway_heading(model: &Model, gateway: u32) -> String {
    let gateway = &model.gateways[gateway as usize];
    format!(
        "Gateway {}/{} (class {}){}\n",
        gateway.namespace,
        gateway.name,
        gateway.class_name,
        if gateway.assumed { " [assumed]" } else { "" }
    )
}

/// The tables being written: one per Gateway (one in all with `-o wide`), each opened by its
/// heading and written out when the next Gateway starts.
struct Sections<'w> {
    layout: Layout,
    out: &'w mut dyn io::Write,
    table: Option<Table>,
    gateway: Option<u32>,
}

impl Sections<'_> {
    /// Makes `gateway` the current section (a new table and heading unless `-o wide`).
    fn enter(&mut self, model: &Model, gateway: u32) -> io::Result<()> {
        if self.layout.wide || self.gateway == Some(gateway) {
            self.gateway = Some(gateway);
            return Ok(());
        }
        if let Some(t) = self.table.take() {
            write(&t, self.layout.width, self.out)?;
            self.out.write_all(b"\n")?;
        }
        self.out
            .write_all(gateway_heading(model, gateway).as_bytes())?;
        self.gateway = Some(gateway);
        Ok(())
    }

    fn table(&mut self) -> &mut Table {
        let layout = self.layout;
        self.table.get_or_insert_with(|| effective_table(layout))
    }

    fn finish(self) -> io::Result<()> {
        match self.table {
            Some(t) => write(&t, self.layout.width, self.out),
            None => Ok(()),
        }
    }
}

/// Where a Gateway's section comes: paths are ordered by the Gateway's namespace and name.
fn gateway_rank(model: &Model, gateway: u32) -> (&str, &str, u32) {
    let g = &model.gateways[gateway as usize];
    (g.namespace.as_str(), g.name.as_str(), gateway)
}

/// The rows of the listener items not written yet whose Gateway `due` accepts: each listener no
/// route is attached to, `(no route)` in the route rule column, at the end of its Gateway's
/// section (a section of its own when the Gateway has no path shown).
fn listener_rows(
    report: &EffectiveReport<'_, '_>,
    next: &mut usize,
    due: &dyn Fn(u32) -> bool,
    sections: &mut Sections<'_>,
    model: &Model,
) -> io::Result<()> {
    while let Some(item) = report.listeners.get(*next) {
        if !due(item.gateway) {
            break;
        }
        *next += 1;
        sections.enter(model, item.gateway)?;
        let gateway = &model.gateways[item.gateway as usize];
        let mut prefix = Vec::new();
        if sections.layout.wide {
            prefix.push(format!("{}/{}", gateway.namespace, gateway.name));
        }
        let listener = &gateway.listeners[item.listener as usize];
        prefix.push(listener.qualified_name().to_string());
        prefix.push("(no route)".to_string());
        let layout = sections.layout;
        let table = sections.table();
        let mut last_kind = String::new();
        for (i, rule) in crate::report::effective::rules_of(model, &item.effective)
            .iter()
            .enumerate()
        {
            let mut row: Vec<String> = if i == 0 || layout.wide {
                prefix.clone()
            } else {
                vec![String::new(); prefix.len()]
            };
            row.push(blank_if_same(layout, &mut last_kind, item.kind.kind));
            row.push(rule.key.to_string());
            row.push(model.policies[rule.policy as usize].namespaced_name());
            row.push(compact(rule.value));
            table.add_row(row);
        }
    }
    Ok(())
}

/// Writes the report as tables, one per Gateway, each as soon as its rows are known; `none`
/// lists the kinds each path lacks ("(none)" rows). Listeners no route is attached to close
/// their Gateway's section ([`listener_rows`]).
pub fn render_table(
    report: &EffectiveReport<'_, '_>,
    none: &[UncoveredPath<'_>],
    (model, topology): (&Model, &Topology),
    layout: Layout,
    out: &mut dyn io::Write,
) -> io::Result<()> {
    let mut sections = Sections {
        layout,
        out,
        table: None,
        gateway: None,
    };
    let mut next_listener = 0;
    let mut recent = RecentFolds::default();
    for (path_index, entries) in entries_by_path(report, none, model) {
        let path = topology.paths[path_index as usize];
        let gateway = &model.gateways[path.gateway as usize];
        if sections.gateway != Some(path.gateway) {
            // The sections closing, then those of Gateways with listener items only.
            let rank = gateway_rank(model, path.gateway);
            let due = |g: u32| gateway_rank(model, g) < rank;
            listener_rows(report, &mut next_listener, &due, &mut sections, model)?;
            sections.enter(model, path.gateway)?;
        }
        let table = sections.table();
        let mut prefix = Vec::new();
        if layout.wide {
            prefix.push(format!("{}/{}", gateway.namespace, gateway.name));
        }
        let listener = &gateway.listeners[path.listener as usize];
        prefix.push(listener.qualified_name().to_string());
        prefix.push(topology.rule_label(model, &path));
        // The path's cells are written on its first row only (every row with -o wide).
        let mut first = true;
        let mut last_kind = String::new();
        for entry in entries {
            let mut row_of = |kind: &str, key: &str, source: &str, value: &str| {
                let kind = blank_if_same(layout, &mut last_kind, kind);
                let mut row: Vec<&str> = if first || layout.wide {
                    prefix.iter().map(String::as_str).collect()
                } else {
                    vec![""; prefix.len()]
                };
                first = false;
                row.extend([kind.as_str(), key, source, value]);
                table.add_row(row);
            };
            match entry {
                KindEntry::Effective(item) => {
                    for [key, source, value] in recent.cells(report, model, item.fold) {
                        row_of(item.kind.kind, key, source, value);
                    }
                }
                KindEntry::None(kind) => row_of(kind.kind, "(none)", "", ""),
            }
        }
    }
    listener_rows(report, &mut next_listener, &|_| true, &mut sections, model)?;
    let written = sections.table.is_some();
    sections.finish()?;
    owned_tables(report, layout, written, out)
}

/// The items of the hierarchies families build themselves: per hierarchy, one section per
/// value of its first column (`Mesh default`), the other columns grouping the rule rows (with
/// `-o wide`, one table whose every row names every column).
fn owned_tables(
    report: &EffectiveReport<'_, '_>,
    layout: Layout,
    mut written: bool,
    out: &mut dyn io::Write,
) -> io::Result<()> {
    let model = report.model();
    for shown in &report.owned {
        let columns = shown.paths.columns;
        let first = if layout.wide { 0 } else { 1 };
        let new_table = || {
            let mut cols: Vec<Column> = columns[first..].iter().map(|c| Column::Group(c)).collect();
            cols.extend(RULE_COLUMNS);
            Table::new(cols)
        };
        let mut table: Option<Table> = None;
        let mut section: Option<&str> = None;
        for item in &shown.items {
            let head = item.segments.first().map_or("", String::as_str);
            if !layout.wide && section != Some(head) {
                if let Some(t) = table.take() {
                    write(&t, layout.width, out)?;
                }
                if written {
                    out.write_all(b"\n")?;
                }
                writeln!(
                    out,
                    "{} {head}",
                    title(columns.first().copied().unwrap_or(""))
                )?;
                section = Some(head);
            }
            written = true;
            let table = table.get_or_insert_with(new_table);
            let mut last_kind = String::new();
            for (i, rule) in item.rules.iter().enumerate() {
                let mut row: Vec<String> = if i == 0 || layout.wide {
                    item.segments[first..].to_vec()
                } else {
                    vec![String::new(); columns.len() - first]
                };
                row.push(blank_if_same(layout, &mut last_kind, item.kind.kind));
                row.push(rule.key.clone());
                row.push(model.policies[rule.source as usize].namespaced_name());
                row.push(compact_json(&rule.value));
                table.add_row(row);
            }
        }
        if let Some(t) = table {
            write(&t, layout.width, out)?;
        }
    }
    Ok(())
}

/// `MESH` → `Mesh`: a column heading as a section title.
fn title(column: &str) -> String {
    let lower = column.to_ascii_lowercase();
    let mut chars = lower.chars();
    chars
        .next()
        .map(|c| c.to_ascii_uppercase().to_string() + chars.as_str())
        .unwrap_or_default()
}

/// `dopol effective --uncovered` as a table: every row a whole path and the kinds it lacks.
pub fn uncovered_table(
    report: &UncoveredReport<'_>,
    model: &Model,
    topology: &Topology,
    layout: Layout,
) -> String {
    let hierarchy = GatewayApi::new(model, topology);
    let columns = hierarchy.columns().iter().chain(["MISSING"].iter());
    let mut table = Table::new(columns.map(|c| Column::Id(c)).collect());
    for item in &report.items {
        let mut row = hierarchy.segments(item.path as usize);
        let missing: Vec<&str> = item.missing.iter().map(|k| k.kind).collect();
        row.push(missing.join(", "));
        table.add_row(row);
    }
    finish(&table, layout.width)
}
