//! Human renderings of `status`, `overridden`, `reach` and `explain`.

use super::table::{Column, Layout, Table, blank_if_same, finish_indented, write, write_late};
use crate::policy::locator_name as short;
use crate::report::explain::{Change, ExplainReport, ExplainedStep, KindExplanation};
use crate::report::overridden::LostRule;
use crate::report::reach::ReachReport;
use crate::report::status::{PolicyStatus, RuleStatus, outcome_counts};
use crate::topology::PathId;
use crate::words::{counted, counted_as};
use rayon::prelude::*;
use std::fmt::Write as _;
use std::io;

fn join_short(locators: &[impl AsRef<str>]) -> String {
    locators
        .iter()
        .map(|l| short(l.as_ref()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Most paths listed in one table cell before "… and N more".
const PATHS_SHOWN: usize = 4;

/// Lost rules whose cells are formatted at once, in parallel.
const CELL_BATCH: usize = 4096;

/// The cells of one lost rule's row that take formatting.
struct LostCells {
    /// `Kind ns/name (block)`.
    policy: String,
    /// The deciding policies, or why the rule was not applied.
    by: String,
    /// How many paths and the first of them (empty with `-o wide`: a row per path).
    place: String,
}

impl LostCells {
    fn of(item: &LostRule<'_>, layout: Layout) -> LostCells {
        let policy = format!(
            "{} {} ({})",
            item.policy_kind,
            short(&item.policy),
            item.block
        );
        let by = match &item.reason {
            Some(reason) => reason.clone(),
            None => join_short(&item.by),
        };
        let place = if layout.wide {
            String::new()
        } else {
            let shown = &item.path_ids[..item.path_ids.len().min(PATHS_SHOWN)];
            place(shown, item.path_ids.len())
        };
        LostCells { policy, by, place }
    }
}

/// How many paths and the first of them (`shown`, of `total`).
fn place(shown: &[PathId<'_>], total: usize) -> String {
    let mut lines: Vec<String> = shown.iter().map(|&id| compact_path(id)).collect();
    if total > shown.len() {
        lines.push(format!("… and {} more", total - shown.len()));
    }
    format!("{}:\n{}", counted(total, "path"), lines.join("\n"))
}

/// What `overridden`'s table keeps of each row's place cell, written when the table is: the
/// paths the cell shows and how many it counts (a row's text was most of the table's).
/// Paths are kept as their numbers, one topology for all: a [`PathId`] is four times the size,
/// and `overridden` on the 49 MB benchmark shows 440,000 of them.
#[derive(Default)]
struct Places<'m> {
    /// The topology of the paths.
    topology: Option<&'m crate::topology::Topology>,
    /// The paths shown, row after row.
    paths: Vec<u32>,
    /// Per row: where its paths start in `paths`, and how many paths it counts.
    rows: Vec<(u32, u32)>,
    /// The cells of the rows about owned hierarchies' paths, by row (few, and written out).
    texts: Vec<(usize, String)>,
}

impl<'m> Places<'m> {
    fn push(&mut self, shown: &[PathId<'m>], total: usize) {
        self.rows.push((self.paths.len() as u32, total as u32));
        if let Some(first) = shown.first() {
            self.topology = Some(first.topology());
        }
        self.paths.extend(shown.iter().map(|id| id.index() as u32));
    }

    /// A row whose cell is `text` (paths of an owned hierarchy).
    fn push_text(&mut self, text: String) {
        self.texts.push((self.rows.len(), text));
        self.rows.push((self.paths.len() as u32, 0));
    }

    /// Row `row`'s cell: its path's id with `-o wide` (a row per path), else [`place`].
    fn write(&self, row: usize, wide: bool, out: &mut String) {
        if let Ok(found) = self.texts.binary_search_by_key(&row, |(r, _)| *r) {
            out.push_str(&self.texts[found].1);
            return;
        }
        let (start, total) = self.rows[row];
        let end = self
            .rows
            .get(row + 1)
            .map_or(self.paths.len(), |r| r.0 as usize);
        let shown: Vec<PathId<'m>> = self
            .topology
            .map(|topology| {
                let paths = &self.paths[start as usize..end];
                paths
                    .iter()
                    .map(|&p| PathId::new(topology, p as usize))
                    .collect()
            })
            .unwrap_or_default();
        if wide {
            let _ = write!(out, "{}", shown[0]);
        } else {
            out.push_str(&place(&shown, total as usize));
        }
    }
}

/// `class|ns/gw|ns/gw#l|ns/r|ns/r#rule` → `ns/gw#l → ns/r#rule`; through delegation, the chain
/// before the rule: `ns/gw#l → ns/p#rule-1>ns/r#rule`.
pub fn compact_path(id: PathId<'_>) -> String {
    match id.fields() {
        Some([_, _, listener, route, rule]) => {
            let (listener, route, rule) = (listener.text(), route.text(), rule.text());
            match route.rsplit_once('>') {
                Some((chain, _)) => format!("{listener} → {chain}>{rule}"),
                None => format!("{listener} → {rule}"),
            }
        }
        None => id.to_string(),
    }
}

/// Writes `dopol status` as tables: conditions, the targets lost to another policy (when any),
/// then rule outcomes; writes nothing and returns `false` when there is no policy. Each
/// policy's status is read once, as it comes, so a caller can build them one at a time and drop
/// each after it (the rows are small; the outcomes behind them are not).
pub fn status_table<'a>(
    items: impl IntoIterator<Item = PolicyStatus<'a>>,
    layout: Layout,
    out: &mut dyn io::Write,
) -> io::Result<bool> {
    let mut conditions = Table::new(vec![
        Column::Group("KIND"),
        Column::Group("POLICY"),
        Column::Id("CONDITION"),
        Column::Id("STATUS"),
        Column::Id("REASON"),
        Column::Text("MESSAGE"),
    ]);
    let mut conflicts = Table::new(vec![
        Column::Group("POLICY"),
        Column::Id("CONFLICTED ON"),
        Column::Id("HELD BY"),
        Column::Text("WHY"),
    ]);
    let mut rules = Table::new(vec![
        Column::Group("POLICY"),
        Column::Id("RULE KEY"),
        Column::Text("OUTCOMES"),
    ]);
    let (mut last_conflict, mut last_rule) = (String::new(), String::new());
    for item in items {
        add_conditions(&mut conditions, &item, layout);
        add_conflicts(&mut conflicts, &item, layout, &mut last_conflict);
        for rule in &item.rules {
            rules.add_row(vec![
                blank_if_same(layout, &mut last_rule, short(item.policy)),
                rule.key.to_string(),
                outcome_summary(rule),
            ]);
        }
    }
    if conditions.row_count() == 0 {
        return Ok(false);
    }
    write(&conditions, layout.width, out)?;
    for table in [conflicts, rules] {
        if table.row_count() > 0 {
            out.write_all(b"\n")?;
            write(&table, layout.width, out)?;
        }
    }
    Ok(true)
}

/// A policy's rows of the conditions table: one per condition its controller writes (Accepted
/// and Enforced, Attached, Merged, Overridden, as its family computes them), each with its own
/// status, reason and message. The kind
/// and name are written on the first (on every row with `-o wide`).
fn add_conditions(table: &mut Table, item: &PolicyStatus<'_>, layout: Layout) {
    for (i, condition) in item.conditions.iter().enumerate() {
        let (kind, policy) = if i == 0 || layout.wide {
            (item.policy_kind, short(item.policy))
        } else {
            ("", "")
        };
        table.add_row(vec![
            kind,
            policy,
            condition.kind,
            condition.status,
            condition.reason,
            &condition.message,
        ]);
    }
}

/// `effective ×3, overridden ×1`, or `on no path`; for a rule that configures listeners no
/// route is attached to, with `on listeners without routes: effective ×2` instead or after.
fn outcome_summary(rule: &RuleStatus<'_>) -> String {
    let counted = |counts: Vec<(&str, usize)>| {
        (counts.iter())
            .map(|(name, n)| format!("{name} ×{n}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let on_paths = outcome_counts(rule.outcomes.iter().map(|o| o.outcome));
    let on_owned = outcome_counts(rule.owned_outcomes.iter().map(|o| o.outcome));
    if on_paths.is_empty() && rule.listener_outcomes.is_empty() && on_owned.is_empty() {
        return "on no path".to_string();
    }
    let mut summary = counted(on_paths);
    if !on_owned.is_empty() {
        if !summary.is_empty() {
            summary.push_str("; ");
        }
        summary.push_str(&counted(on_owned));
    }
    if !rule.listener_outcomes.is_empty() {
        let counts = outcome_counts(rule.listener_outcomes.iter().map(|o| o.outcome));
        if !summary.is_empty() {
            summary.push_str("; ");
        }
        summary.push_str("on listeners without routes: ");
        summary.push_str(&counted(counts));
    }
    summary
}

/// The targets a policy lost to another policy of its kind (per-ancestor `conflictedBy`),
/// with the holder and why it came first.
fn add_conflicts(table: &mut Table, item: &PolicyStatus<'_>, layout: Layout, last: &mut String) {
    let notes = item
        .ancestors
        .iter()
        .flatten()
        .flat_map(|a| &a.conflicted_by);
    let mut seen = Vec::new();
    for note in notes {
        if seen.contains(&note) {
            continue;
        }
        seen.push(note);
        table.add_row(vec![
            blank_if_same(layout, last, short(item.policy)),
            note.target.clone(),
            short(&note.winner).to_string(),
            note.why.clone(),
        ]);
    }
}

/// `dopol overridden` as a table: the paths of each lost rule in one cell, or with `-o wide`
/// one row per path, each row whole.
/// Each lost rule is read once, as it comes (a caller may build them one policy at a time);
/// writes nothing and returns `false` when there is none.
pub fn overridden_table<'m>(
    items: impl IntoIterator<Item = LostRule<'m>>,
    layout: Layout,
    out: &mut dyn io::Write,
) -> io::Result<bool> {
    let mut table = Table::new(vec![
        Column::Group("POLICY"),
        Column::Id("RULE KEY"),
        Column::Id("OUTCOME"),
        Column::Text("BY"),
        Column::Id(if layout.wide { "PATH" } else { "WHERE" }),
    ]);
    let (mut last_policy, mut last_rule) = (String::new(), String::new());
    let mut places = Places::default();
    let mut items = items.into_iter();
    loop {
        // Cells are formatted in parallel; blanking repeats needs the row above, so rows are
        // added in order.
        let batch: Vec<LostRule<'m>> = items.by_ref().take(CELL_BATCH).collect();
        if batch.is_empty() {
            break;
        }
        let cells: Vec<LostCells> = batch
            .par_iter()
            .map(|item| LostCells::of(item, layout))
            .collect();
        for (item, cells) in batch.iter().zip(cells) {
            let policy_cell = blank_if_same(layout, &mut last_policy, &cells.policy);
            if !policy_cell.is_empty() {
                last_rule.clear();
            }
            let rule_cell = blank_if_same(layout, &mut last_rule, &item.key);
            if !item.owned_path_ids.is_empty() {
                owned_rows(
                    item,
                    (&cells, &policy_cell, &rule_cell),
                    layout,
                    &mut table,
                    &mut places,
                );
                continue;
            }
            if layout.wide {
                for id in &item.path_ids {
                    let cells = vec![&*cells.policy, &item.key, item.outcome, &cells.by];
                    table.add_row_late(cells, &id.to_string());
                    places.push(std::slice::from_ref(id), 1);
                }
                continue;
            }
            let row = vec![&*policy_cell, &rule_cell, item.outcome, &cells.by];
            table.add_row_late(row, &cells.place);
            let shown = &item.path_ids[..item.path_ids.len().min(PATHS_SHOWN)];
            places.push(shown, item.path_ids.len());
        }
    }
    if table.row_count() == 0 {
        return Ok(false);
    }
    let late = |row: usize, out: &mut String| places.write(row, layout.wide, out);
    write_late(&table, layout.width, out, &late)?;
    Ok(true)
}

/// The rows of a rule that lost on paths of an owned hierarchy: its path ids in one cell (the
/// first few and a count), or with `-o wide` a row per path.
fn owned_rows(
    item: &LostRule<'_>,
    (cells, policy_cell, rule_cell): (&LostCells, &str, &str),
    layout: Layout,
    table: &mut Table,
    places: &mut Places<'_>,
) {
    let ids = &item.owned_path_ids;
    if layout.wide {
        for id in ids {
            let row = vec![&*cells.policy, &item.key, item.outcome, &cells.by];
            table.add_row_late(row, id);
            places.push_text(id.clone());
        }
        return;
    }
    let mut lines: Vec<String> = ids.iter().take(PATHS_SHOWN).cloned().collect();
    if ids.len() > PATHS_SHOWN {
        lines.push(format!("… and {} more", ids.len() - PATHS_SHOWN));
    }
    let text = format!("{}:\n{}", counted(ids.len(), "path"), lines.join("\n"));
    table.add_row_late(vec![policy_cell, rule_cell, item.outcome, &cells.by], &text);
    places.push_text(text);
}

/// The owned paths of a reach report, grouped by their first two parts (`mesh default`,
/// `ns/dp`), each path's last parts with the keys effective there and those lost.
fn owned_reach_text(out: &mut String, report: &ReachReport<'_>) {
    let mut group: Option<&[String]> = None;
    for reach in &report.owned {
        let split = reach.segments.len().min(2);
        let (head, tail) = reach.segments.split_at(split);
        if group != Some(head) {
            let _ = writeln!(out, "\n{}", head.join(" "));
            group = Some(head);
        }
        let place = tail
            .iter()
            .filter(|s| !s.is_empty())
            .cloned()
            .collect::<Vec<_>>();
        // What is effective there, then what lost (either may be empty, not both).
        let mut parts = Vec::new();
        if !reach.keys.is_empty() {
            parts.push(reach.keys.join(", "));
        }
        if !reach.lost.is_empty() {
            let lost: Vec<String> = (reach.lost.iter())
                .map(|(key, by)| format!("{key} (to {})", short(by)))
                .collect();
            parts.push(format!("lost {}", lost.join(", ")));
        }
        let line = format!("  {} {}: {}", reach.kind, place.join(" "), parts.join("; "));
        let _ = writeln!(out, "{}", line.trim_end());
    }
}

/// `dopol reach` as text.
pub fn reach_text(report: &ReachReport<'_>, layout: Layout) -> String {
    let mut out = String::new();
    let subject = match &report.rule {
        Some(key) => format!("rule {key} of {}", short(&report.policy)),
        None => format!("{} {}", report.policy_kind, short(&report.policy)),
    };
    let listeners = match report.listeners_reached {
        0 => String::new(),
        n => format!(
            ", and {} no route is attached to",
            crate::words::counted(n, "listener")
        ),
    };
    let _ = writeln!(
        out,
        "{subject} reaches {} of {}{listeners}",
        report.reached,
        crate::words::counted(report.paths, "path")
    );
    for gateway in &report.effective {
        let _ = writeln!(out, "\nGateway {}", gateway.gateway);
        for listener in &gateway.listeners {
            if listener.listener_id.is_some() {
                let _ = writeln!(
                    out,
                    "  listener {} (no route): {}",
                    listener.listener,
                    listener.keys.join(", ")
                );
                continue;
            }
            let _ = writeln!(out, "  listener {}", listener.listener);
            for route in &listener.routes {
                let _ = writeln!(out, "    {} {}", route.kind, route.route);
                for rule in &route.rules {
                    let _ = writeln!(out, "      rule {}: {}", rule.rule, rule.keys.join(", "));
                }
            }
        }
    }
    owned_reach_text(&mut out, report);
    if !report.lost.is_empty() {
        out.push_str("\nLost:\n");
        let mut table = Table::new(vec![
            Column::Group("PATH"),
            Column::Id("RULE KEY"),
            Column::Id("OUTCOME"),
            Column::Text("BY"),
        ]);
        let mut last_path = String::new();
        for lost in &report.lost {
            let by = lost
                .outcome
                .reason
                .map_or_else(|| join_short(&lost.outcome.by), str::to_string);
            table.add_row(vec![
                blank_if_same(layout, &mut last_path, &compact_path(lost.outcome.path_id)),
                lost.key.to_string(),
                lost.outcome.outcome.to_string(),
                by,
            ]);
        }
        out.push_str(&finish_indented(&table, layout.width, "  "));
    }
    out
}

/// A merged key's origins, highest priority first: `a & b`.
fn join_merged(origins: &[String]) -> String {
    origins
        .iter()
        .map(|o| short(o))
        .collect::<Vec<_>>()
        .join(" & ")
}

fn action_symbol(action: &str) -> &'static str {
    match action {
        "added" => "+",
        "superseded" => "=",
        "replaced" => "~",
        "dropped" => "-",
        "deactivated" => "x",
        "merged" => "&",
        _ => "!",
    }
}

fn explain_kind(out: &mut String, kind: &KindExplanation, layout: Layout) {
    let _ = writeln!(
        out,
        "\n{} — {}, {}:",
        kind.policy_kind,
        counted_as(kind.policies.len(), "policy", "policies"),
        kind.order.as_deref().unwrap_or("least specific first")
    );
    let mut table = Table::new(vec![
        Column::Id("#"),
        Column::Id("POLICY"),
        Column::Id("TARGET"),
        Column::Id("BLOCKS"),
        Column::Id("CREATED"),
        Column::Text("WHY HERE"),
    ]);
    for p in &kind.policies {
        table.add_row(vec![
            p.position.to_string(),
            p.name.clone(),
            p.target.clone(),
            p.blocks.join(", "),
            p.created.clone().unwrap_or_else(|| "-".into()),
            p.why.clone(),
        ]);
    }
    out.push_str(&finish_indented(&table, layout.width, "  "));
    for note in &kind.notes {
        let _ = writeln!(out, "  Note: {note}");
    }
    defaulted_fields(out, kind);
    out.push_str(if kind.order.is_some() {
        "\n  Merge steps, in order:\n"
    } else {
        "\n  Fold, most specific first (E = effective policy so far, starting empty):\n"
    });
    for step in &kind.steps {
        let _ = writeln!(
            out,
            "  [{}] {}, {} [GEP-713: {}]",
            step.position,
            short(&step.policy),
            step.summary,
            step.gep
        );
        if let Some(reason) = &step.reason {
            let _ = writeln!(out, "      ! {reason}");
        }
        for change in &step.changes {
            let detail = match change.action {
                "added" | "not-applied" => String::new(),
                "superseded" if kind.order.is_some() => {
                    format!("  the value from {} stays", join_short(&change.by))
                }
                "superseded" => superseded_detail(step, change),
                "replaced" => format!("  {} → {}", short(&change.source), join_short(&change.by)),
                "dropped" => format!(
                    "  from {}, by {}",
                    short(&change.source),
                    join_short(&change.by)
                ),
                "deactivated" => format!("  unset by {}", join_short(&change.by)),
                "merged" => format!("  with {}", join_short(&change.by)),
                _ => String::new(),
            };
            let _ = writeln!(
                out,
                "      {} {}{detail}",
                action_symbol(change.action),
                change.key
            );
        }
    }
    if kind.effective.is_empty() {
        out.push_str("  Result: no effective policy\n");
    } else {
        out.push_str("  Result:\n");
        for (key, source) in &kind.effective {
            let origins = kind.origins.iter().find(|o| o.key == *key);
            let from = match origins {
                Some(merged) => join_merged(&merged.origins),
                None => short(source).to_string(),
            };
            let _ = writeln!(out, "      {key} ← {from}");
        }
    }
}

/// How many defaulted fields the text lists per policy (JSON lists them all).
const DEFAULTED_SHOWN: usize = 8;

/// The fields each policy has from its CRD's defaults, which the fold reads as if written.
fn defaulted_fields(out: &mut String, kind: &KindExplanation) {
    if kind.policies.iter().all(|p| p.defaulted.is_empty()) {
        return;
    }
    out.push_str(
        "\n  Defaulted by the CRD (the API server adds them; the fold reads them as written):\n",
    );
    for p in kind.policies.iter().filter(|p| !p.defaulted.is_empty()) {
        for d in p.defaulted.iter().take(DEFAULTED_SHOWN) {
            let _ = writeln!(out, "  [{}] {} = {}", p.position, d.field, d.value);
        }
        if let Some(more) = p
            .defaulted
            .len()
            .checked_sub(DEFAULTED_SHOWN)
            .filter(|n| *n > 0)
        {
            let _ = writeln!(
                out,
                "  [{}] … and {more} more (`-o json` lists them all)",
                p.position
            );
        }
    }
}

/// What happened to a default that lost, stated for this rule: either E already holds the key
/// (from the policy named), or the block was atomic and E already had other rules, so none of
/// the block's rules applied — E then has no rule of that key to "keep".
fn superseded_detail(step: &ExplainedStep, change: &Change) -> String {
    let holder = step
        .effective
        .iter()
        .find(|(key, _)| *key == change.key)
        .map(|(_, holder)| short(holder));
    match (step.strategy, holder) {
        ("merge", Some(holder)) => format!("  E already has it, from {holder}"),
        (_, Some(holder)) => {
            format!("  not applied (atomic defaults, E not empty); E has its own, from {holder}")
        }
        (_, None) => format!(
            "  not applied: atomic defaults apply only to an empty E, and E has rules from {}",
            join_short(&change.by)
        ),
    }
}

/// `dopol explain` as text.
pub fn explain_text(report: &ExplainReport, layout: Layout) -> String {
    let mut out = String::from(
        "Legend: + added  = superseded (a default that lost to E)  ~ replaced  - dropped  & merged  x deactivated  ! not applied\n",
    );
    for item in &report.items {
        let _ = writeln!(out, "\nPath {}", item.path_id);
        if item.kinds.is_empty() {
            out.push_str("  no policies on this path\n");
        }
        for kind in &item.kinds {
            explain_kind(&mut out, kind, layout);
        }
    }
    out
}
