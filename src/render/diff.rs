//! Human renderings of `dopol diff`: by default each distinct change once, with where it
//! happens said by the topology ("on 5000 paths: Gateway infra/public, all routes"); with
//! `--paths`, changes by Gateway → route → rule (listeners with identical changes merged); with
//! `--stat`, one line per path. Each ends with the same totals line.

use crate::policy::locator_name as short;
use crate::report::diff::{ChangeKind, DiffReport, KeyChange, RuleChange};
use crate::report::diff_scope::{Part, Scope, ScopePart, parts};
use crate::report::status::Condition;
use crate::topology::PathId;
use crate::words::counted;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt::Write;

/// ANSI colouring of `+`/`-`/`~` lines, or none.
#[derive(Clone, Copy, Debug)]
pub struct Palette {
    /// Whether to emit escape codes.
    pub color: bool,
}

impl Palette {
    fn paint(&self, text: &str, code: &str) -> String {
        if self.color {
            format!("\u{1b}[{code}m{text}\u{1b}[0m")
        } else {
            text.to_string()
        }
    }
    fn added(&self, text: &str) -> String {
        self.paint(text, "32")
    }
    fn removed(&self, text: &str) -> String {
        self.paint(text, "31")
    }
    fn changed(&self, text: &str) -> String {
        self.paint(text, "33")
    }
}

/// A change's first line: `+`, `-` or `~`, the label (the rule key, or kind and key), and what
/// happened.
fn headline(change: &KeyChange<'_>, label: &str, palette: Palette) -> String {
    match change.change {
        ChangeKind::Added => {
            let after = change.after.as_ref().expect("added rules have an after");
            palette.added(&format!("+ {label}  from {}", short(after.source())))
        }
        ChangeKind::Removed => {
            let before = change.before.as_ref().expect("removed rules have a before");
            palette.removed(&format!("- {label}  was from {}", short(before.source())))
        }
        ChangeKind::Changed => {
            let (before, after) = (
                change.before.as_ref().expect("before"),
                change.after.as_ref().expect("after"),
            );
            let what = match (change.value_changed, change.source_changed) {
                (true, true) => format!(
                    "value and source changed ({} → {})",
                    short(before.source()),
                    short(after.source())
                ),
                (true, false) => format!("value changed (from {})", short(after.source())),
                _ => format!(
                    "same value, source changed: {} → {}",
                    short(before.source()),
                    short(after.source())
                ),
            };
            palette.changed(&format!("~ {label}  {what}"))
        }
    }
}

/// The value's line diff of a changed rule, indented by four spaces, one line each.
fn value_lines(change: &KeyChange<'_>, palette: Palette) -> Vec<String> {
    let Some(diff) = &change.value_diff else {
        return Vec::new();
    };
    diff.lines()
        .map(|line| {
            let painted = match line.chars().next() {
                Some('+') => palette.added(line),
                Some('-') => palette.removed(line),
                _ => line.to_string(),
            };
            format!("    {painted}")
        })
        .collect()
}

fn describe(change: &RuleChange<'_>, palette: Palette) -> String {
    let mut out = headline(change, change.key, palette);
    out.push('\n');
    for line in value_lines(change, palette) {
        out.push_str(&line);
        out.push('\n');
    }
    out
}

/// At most this many routes are named in one part of a scope, and this many parts.
const ROUTES_SHOWN: usize = 6;
const PARTS_SHOWN: usize = 10;

/// `items` joined with `, `, the ones past `cap` counted: `a, b, … and 3 more`.
fn capped(items: &[String], cap: usize) -> String {
    if items.len() <= cap {
        return items.join(", ");
    }
    format!(
        "{}, … and {} more",
        items[..cap].join(", "),
        items.len() - cap
    )
}

/// `Gateway infra/public, all routes`, `Gateway infra/public, listener http, all routes`,
/// `Gateway infra/public, listeners http, https: shop/cart, shop/catalog#rule-1`.
fn part_text(part: &ScopePart) -> String {
    let mut text = format!("Gateway {}", part.gateway);
    if !part.listeners.is_empty() {
        let noun = if part.listeners.len() == 1 {
            "listener"
        } else {
            "listeners"
        };
        let _ = write!(text, ", {noun} {}", part.listeners.join(", "));
    }
    if part.routes.is_empty() {
        text.push_str(", all routes");
    } else {
        let _ = write!(text, ": {}", capped(&part.routes, ROUTES_SHOWN));
    }
    text
}

/// `{lead}{N paths}: {part}` on one line, or with several parts one per line below, indented
/// by `indent`.
fn scope_lines(out: &mut String, lead: &str, scope: &Scope, indent: &str) {
    let paths = counted(scope.paths, "path");
    match scope.parts.as_slice() {
        [one] => {
            let _ = writeln!(out, "{lead}{paths}: {}", part_text(one));
        }
        parts => {
            let _ = writeln!(out, "{lead}{paths}:");
            let texts: Vec<String> = parts.iter().map(part_text).collect();
            for text in &texts[..texts.len().min(PARTS_SHOWN)] {
                let _ = writeln!(out, "{indent}{text}");
            }
            if texts.len() > PARTS_SHOWN {
                let _ = writeln!(out, "{indent}… and {} more", texts.len() - PARTS_SHOWN);
            }
        }
    }
}

/// Where a group of changes is, as the table says it (`5 paths: Gateway infra/public, all
/// routes`, a part per line when there are several), for the page of `diff -o html`.
pub fn scope_text(scope: &Scope) -> String {
    let mut out = String::new();
    scope_lines(&mut out, "", scope, "  ");
    out.trim_end().to_string()
}

/// The diff for a reviewer: each distinct change once, where it happens, its value diff; then
/// paths that appeared or disappeared, status changes, totals.
pub fn human(report: &DiffReport<'_>, palette: Palette) -> String {
    if report.is_empty() {
        return String::new();
    }
    let mut out = String::new();
    for group in report.groups() {
        let change = &report.changes[group.changes[0]];
        let label = format!("{} {}", change.policy_kind, change.key);
        let _ = writeln!(out, "{}", headline(change, &label, palette));
        scope_lines(&mut out, "  on ", &group.scope, "    ");
        for line in value_lines(change, palette) {
            let _ = writeln!(out, "{line}");
        }
    }
    if !report.paths.is_empty() {
        out.push_str("Paths:\n");
        for (change, sign) in [("added", "+"), ("removed", "-")] {
            let scope = report.path_scope(change);
            if scope.paths > 0 {
                let lead = if change == "added" {
                    palette.added(&format!("  {sign} "))
                } else {
                    palette.removed(&format!("  {sign} "))
                };
                scope_lines(&mut out, &lead, &scope, "      ");
            }
        }
    }
    listener_section(&mut out, report, palette);
    owned_section(&mut out, report);
    status_section(&mut out, report);
    out.push_str(&totals(report));
    out
}

/// `--paths`: every path's changes, by Gateway → route → rule → policy kind (listeners whose
/// changes are the same are shown once), then every path that appeared or disappeared, status
/// changes, totals.
pub fn by_path(report: &DiffReport<'_>, palette: Palette) -> String {
    if report.is_empty() {
        return String::new();
    }
    // (gateway, route, rule, kind) → listener → rendered changes
    let mut grouped: BTreeMap<(Part<'_>, Part<'_>, Part<'_>, &str), BTreeMap<Part<'_>, String>> =
        BTreeMap::new();
    for change in &report.changes {
        let [gateway, listener, route, rule] = parts(change.path_id);
        grouped
            .entry((gateway, route, rule, change.policy_kind))
            .or_default()
            .entry(listener)
            .or_default()
            .push_str(&describe(change, palette));
    }
    let mut out = String::new();
    let (mut last_gateway, mut last_route, mut last_rule) = ("", "", "");
    for ((gateway, route, rule, kind), listeners) in &grouped {
        let (gateway, route, rule) = (&**gateway, &**route, &**rule);
        if gateway != last_gateway {
            let _ = writeln!(out, "Gateway {gateway}");
            (last_gateway, last_route, last_rule) = (gateway, "", "");
        }
        if route != last_route {
            let _ = writeln!(out, "  route {route}");
            (last_route, last_rule) = (route, "");
        }
        if rule != last_rule {
            let _ = writeln!(out, "    rule {rule}");
            last_rule = rule;
        }
        // Listeners whose changes are the same are shown once.
        let mut by_text: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
        for (listener, text) in listeners {
            by_text.entry(text.as_str()).or_default().push(listener);
        }
        for (text, names) in by_text {
            let _ = writeln!(
                out,
                "      {kind} (listener{} {})",
                if names.len() == 1 { "" } else { "s" },
                names.join(", ")
            );
            for line in text.lines() {
                let _ = writeln!(out, "        {line}");
            }
        }
    }
    if !report.paths.is_empty() {
        out.push_str("Paths:\n");
        for path in &report.paths {
            let line = if path.change == "added" {
                palette.added(&format!("+ {}", path.path_id))
            } else {
                palette.removed(&format!("- {}", path.path_id))
            };
            let _ = writeln!(out, "  {line}");
        }
    }
    listener_section(&mut out, report, palette);
    owned_section(&mut out, report);
    status_section(&mut out, report);
    out.push_str(&totals(report));
    out
}

/// `Listeners without routes:` and, listener by listener, the rules that changed there (kinds
/// whose policies configure listeners).
fn listener_section(out: &mut String, report: &DiffReport<'_>, palette: Palette) {
    if report.listeners.is_empty() {
        return;
    }
    out.push_str("Listeners without routes:\n");
    let mut last = "";
    for change in &report.listeners {
        if change.listener_id != last {
            let _ = writeln!(out, "  {}", change.listener_id);
            last = &change.listener_id;
        }
        let label = format!("{} {}", change.policy_kind, change.key);
        let _ = writeln!(out, "    {}", headline(change, &label, palette));
        for line in value_lines(change, palette) {
            let _ = writeln!(out, "    {line}");
        }
    }
}

/// The values that changed on the paths of owned hierarchies, path by path.
fn owned_section(out: &mut String, report: &DiffReport<'_>) {
    let mut last = "";
    for change in &report.owned {
        if change.path_id != last {
            let _ = writeln!(out, "{}", change.path_id);
            last = &change.path_id;
        }
        let render = |v: &crate::report::diff_owned::OwnedVersion| {
            format!(
                "{} ({})",
                crate::render::value::compact_json(&v.value),
                short(&v.source)
            )
        };
        let line = match (&change.before, &change.after) {
            (Some(b), Some(a)) => format!(
                "~ {} {}: {} → {}",
                change.policy_kind,
                change.key,
                render(b),
                render(a)
            ),
            (None, Some(a)) => format!("+ {} {}: {}", change.policy_kind, change.key, render(a)),
            (Some(b), None) => format!("- {} {}: {}", change.policy_kind, change.key, render(b)),
            (None, None) => continue,
        };
        let _ = writeln!(out, "  {line}");
    }
}

/// `Status:` and, policy by policy, the conditions that changed.
fn status_section(out: &mut String, report: &DiffReport<'_>) {
    if report.status.is_empty() {
        return;
    }
    out.push_str("Status:\n");
    for change in &report.status {
        let _ = writeln!(out, "  {}", short(&change.policy));
        for line in condition_changes(&change.before, &change.after) {
            let _ = writeln!(out, "    {line}");
        }
    }
}

/// Rule changes counted per path, `[added, removed, changed]`, in the report's path order;
/// paths that appeared or disappeared without a rule change come last with zeros.
fn per_path<'r>(report: &DiffReport<'r>) -> Vec<(PathId<'r>, [usize; 3])> {
    let mut per_path: Vec<(PathId<'r>, [usize; 3])> = Vec::new();
    for change in &report.changes {
        if per_path.last().is_none_or(|(p, _)| *p != change.path_id) {
            per_path.push((change.path_id, [0; 3]));
        }
        let counts = &mut per_path.last_mut().expect("just pushed").1;
        counts[match change.change {
            ChangeKind::Added => 0,
            ChangeKind::Removed => 1,
            ChangeKind::Changed => 2,
        }] += 1;
    }
    let listed: HashSet<PathId<'r>> = per_path.iter().map(|(p, _)| *p).collect();
    for path in &report.paths {
        if !listed.contains(&path.path_id) {
            per_path.push((path.path_id, [0; 3]));
        }
    }
    per_path
}

/// `N paths changed: A rules added, R removed, C changed; S status changes`.
pub fn totals(report: &DiffReport<'_>) -> String {
    let per_path = per_path(report);
    let [added, removed, changed] = per_path.iter().fold([0; 3], |sum, (_, counts)| {
        [0, 1, 2].map(|i| sum[i] + counts[i])
    });
    let mut listeners = match report.listeners.len() {
        0 => String::new(),
        n => format!(
            "; {} changed on listeners without routes",
            counted(n, "rule")
        ),
    };
    if !report.owned.is_empty() {
        let mut paths: Vec<&str> = report.owned.iter().map(|c| c.path_id.as_str()).collect();
        paths.dedup();
        listeners.push_str(&format!(
            "; {} changed on {}",
            counted(report.owned.len(), "value"),
            counted(paths.len(), &format!("{} path", report.owned[0].hierarchy))
        ));
    }
    format!(
        "{} changed: {} added, {removed} removed, {changed} changed; {}{listeners}\n",
        counted(per_path.len(), "path"),
        counted(added, "rule"),
        counted(report.status.len(), "status change")
    )
}

/// `--stat`: one line per path (in the report's path order), then totals.
pub fn stat(report: &DiffReport<'_>, palette: Palette) -> String {
    // Paths that appeared or disappeared: path id → `added` / `removed`.
    let path_changes: HashMap<PathId<'_>, &str> =
        report.paths.iter().map(|p| (p.path_id, p.change)).collect();
    let mut out = String::new();
    for (path, [a, r, c]) in per_path(report) {
        let mark = match path_changes.get(&path).copied() {
            Some("added") => " (new path)",
            Some(_) => " (path gone)",
            None => "",
        };
        let _ = writeln!(
            out,
            "{} {} {}  {path}{mark}",
            palette.added(&format!("+{a:<3}")),
            palette.removed(&format!("-{r:<3}")),
            palette.changed(&format!("~{c:<3}"))
        );
    }
    out.push_str(&totals(report));
    out
}

/// One line per condition type that changed: the state change with the new message, or, when
/// only the message changed, the old and the new message.
fn condition_changes(before: &[Condition], after: &[Condition]) -> Vec<String> {
    let state = |c: Option<&Condition>| {
        c.map_or("(absent)".to_string(), |c| {
            format!("{} ({})", c.status, c.reason)
        })
    };
    // Every condition type either side has, in order of appearance (Accepted, Enforced; Attached,
    // Merged, Overridden: whatever the families write).
    let mut kinds: Vec<&str> = Vec::new();
    for condition in before.iter().chain(after) {
        if !kinds.contains(&condition.kind) {
            kinds.push(condition.kind);
        }
    }
    kinds
        .into_iter()
        .filter_map(|kind| {
            let old = before.iter().find(|c| c.kind == kind);
            let new = after.iter().find(|c| c.kind == kind);
            match (old, new) {
                (old, new) if old == new => None,
                (Some(o), Some(n)) if (o.status, o.reason) == (n.status, n.reason) => {
                    Some(format!(
                        "{kind} {}: \"{}\" → \"{}\"",
                        state(Some(o)),
                        o.message,
                        n.message
                    ))
                }
                (old, new) => Some(format!(
                    "{kind} {} → {}{}",
                    state(old),
                    state(new),
                    new.map_or(String::new(), |n| format!(": {}", n.message))
                )),
            }
        })
        .collect()
}
