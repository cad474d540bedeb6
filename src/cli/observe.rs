//! `dopol overridden`, `status`, `reach`, `explain`, `topology`.

use super::args::{
    ExplainArgs, FilterArgs, ReachArgs, ReportArgs, ReportFormat, TopologyArgs, TopologyOutput,
};
use super::session::{self, Exit, Run, UsageError, worst};
use crate::engine::observed::Observed;
use crate::engine::{Engine, FoldParts};
use crate::model::RuleValues;
use crate::render::json::{PushItem, Streamed};
use crate::render::table::Layout;
use crate::render::topology::{self, TopologyFormat};
use crate::render::{observability, status_json};
use crate::report::filter::{self, matches_name};
use crate::report::topology::Scope;
use crate::report::{LazyList, explain, overridden, reach, status};
use std::io::{self, Write};

/// Runs a report over every rule's outcomes (`overridden`, `status`), keeping `parts` of each
/// fold (`overridden` reads only outcomes): `write` writes it in the chosen format and says
/// whether it showed anything (`empty_message` goes to stderr if not).
fn outcome_report(
    args: &ReportArgs,
    parts: FoldParts,
    empty_message: &str,
    write: impl FnOnce(
        &Observed<'_, '_>,
        &filter::Filters,
        ReportFormat,
        &mut dyn Write,
    ) -> io::Result<bool>,
) -> Result<Exit, UsageError> {
    // Neither report shows a rule value.
    let run = Run::start_keeping(&args.input, RuleValues::Evaluation)?;
    let filters = session::filters(&args.filters, &args.input, &run.evaluated.model)?;
    let (engine, mut diagnostics) = Engine::new(&run.evaluated.model, &run.evaluated.topology);
    run.session.owned_notes(&engine);
    session::check_owned(&filters, &[&engine])?;
    crate::platform::timing::mark("start (rest)");
    let (observed, more) = Observed::keeping(&engine, parts);
    diagnostics.extend(more);
    crate::platform::timing::mark("fold");
    let exit = run.finish(diagnostics);
    crate::platform::timing::mark("diagnostics");
    let mut shown = true;
    let written = session::write_document(|out| {
        shown = write(&observed, &filters, args.output, out)?;
        Ok(())
    });
    crate::platform::timing::mark("write");
    if !shown {
        super::console::say!("{empty_message}");
    }
    crate::platform::discard(observed);
    crate::platform::discard(engine);
    Ok(worst(exit, written))
}

/// Writes `list`: the machine formats as its document, tables through `table`, which is given
/// the items as they are built (one index at a time) and says whether it showed any.
/// `json` appends one item of the JSON document (what `render::json::push_item` writes), the
/// big indices of `streamed` written by it.
fn write_outcomes<F, I>(
    list: &LazyList<F>,
    format: ReportFormat,
    out: &mut dyn Write,
    json: &PushItem<I::Item>,
    streamed: Option<&Streamed<'_>>,
    table: impl FnOnce(&mut dyn Iterator<Item = I::Item>, Layout, &mut dyn Write) -> io::Result<bool>,
) -> io::Result<bool>
where
    F: Fn(u32) -> I + Sync,
    I: IntoIterator<Item: serde::Serialize> + Send,
{
    match format {
        ReportFormat::Json => {
            crate::render::json::write_lazy_with(out, list, json, streamed).map(|()| true)
        }
        ReportFormat::Yaml => crate::render::write_yaml(out, list).map(|()| true),
        ReportFormat::Table | ReportFormat::Wide => {
            table(&mut list.par_iter(), session::table_layout(format), out)
        }
    }
}

/// Runs `dopol overridden`.
pub fn overridden(args: &ReportArgs) -> Result<Exit, UsageError> {
    outcome_report(
        args,
        FoldParts::Outcomes,
        "No rule lost anywhere.",
        |observed, filters, format, out| {
            let list = overridden::stream(observed, filters);
            let json =
                |buffer: &mut Vec<u8>, item: &_| crate::render::json::push_item(buffer, item);
            write_outcomes(&list, format, out, &json, None, |items, layout, out| {
                observability::overridden_table(items, layout, out)
            })
        },
    )
}

/// Runs `dopol status`.
pub fn status(args: &ReportArgs) -> Result<Exit, UsageError> {
    outcome_report(
        args,
        FoldParts::All,
        "No policies.",
        |observed, filters, format, out| {
            let list = status::stream(observed, filters);
            let streamed = Streamed {
                is_big: &|p| status_json::is_big(observed, p),
                write: &|p, out| status_json::write_streamed(out, observed, filters, p),
            };
            let json = status_json::push_item;
            write_outcomes(
                &list,
                format,
                out,
                &json,
                Some(&streamed),
                |items, layout, out| observability::status_table(items, layout, out),
            )
        },
    )
}

/// Splits `POLICY#RULEKEY` at the first `#` (rule keys contain `#` themselves).
fn split_policy_and_key(reference: &str) -> (&str, Option<&str>) {
    match reference.split_once('#') {
        Some((policy, key)) => (policy, Some(key)),
        None => (reference, None),
    }
}

/// `POLICY#RULEKEY` naming no rule of the policy is a usage error, with the nearest key. A
/// policy of an owned hierarchy has the keys of the paths it takes part in (its spec's shape is
/// its family's: Kuma's `to[].default` leaves).
fn check_rule_key(engine: &Engine<'_>, policy: u32, key: &str) -> Result<(), UsageError> {
    let p = &engine.model.policies[policy as usize];
    let mut keys: Vec<&str> = p.rules().map(|(_, r)| r.key.as_str()).collect();
    keys.extend(reach::owned_keys(engine, policy));
    if keys.contains(&key) {
        return Ok(());
    }
    let hint = crate::suggest::did_you_mean(key, keys.iter().copied());
    Err(UsageError(format!(
        "{} has no rule `{key}` (its rules: {}){hint}",
        p.display(),
        keys.join(", ")
    )))
}

/// Runs `dopol reach`.
pub fn reach(args: &ReachArgs) -> Result<Exit, UsageError> {
    // Where a rule reaches, not its value.
    let run = Run::start_keeping(&args.input, RuleValues::Evaluation)?;
    let model = &run.evaluated.model;
    session::check_names(&args.input, (None, None), model)?;
    let Some(policy_arg) = args.policy.as_deref().or(args.policy_flag.as_deref()) else {
        return Err(UsageError(
            "name a policy: dopol reach POLICY[#RULEKEY]".into(),
        ));
    };
    let (reference, key) = split_policy_and_key(policy_arg);
    // A bare name is looked for in `-n`'s namespace when one is given, else in every one.
    let in_namespace = match &args.input.namespace {
        Some(ns) if !reference.contains(['/', ':']) => format!("{ns}/{reference}"),
        _ => reference.to_string(),
    };
    let matches = filter::resolve_policy_ref(model, &in_namespace).map_err(UsageError)?;
    let policy = match matches.as_slice() {
        [one] => *one,
        several => {
            let names: Vec<String> = several
                .iter()
                .map(|&p| {
                    let policy = &model.policies[p as usize];
                    format!("{} ({})", policy.locator, policy.display())
                })
                .collect();
            return Err(UsageError(format!(
                "`{reference}` matches {} policies; name one:\n  {}",
                several.len(),
                names.join("\n  ")
            )));
        }
    };
    let (engine, mut diagnostics) = Engine::new(model, &run.evaluated.topology);
    run.session.owned_notes(&engine);
    if let Some(key) = key {
        check_rule_key(&engine, policy, key)?;
    }
    let (observed, more) = Observed::of_policy(&engine, policy);
    diagnostics.extend(more);
    let exit = run.finish(diagnostics);
    let filters = crate::report::filter::Filters {
        namespace: args.input.namespace.clone(),
        ..Default::default()
    };
    let report = reach::build(&observed, policy, key, &filters);
    Ok(worst(
        exit,
        session::write_report_with(args.output, &report, |layout| {
            observability::reach_text(&report, layout)
        }),
    ))
}

/// `--rule` naming no rule of the routes `--route` names: the message, with the nearest rule
/// name and the rules there are.
fn unknown_rule(model: &crate::model::Model, route: &str, rule: &str) -> Option<String> {
    let names: Vec<&str> = model
        .routes
        .iter()
        .filter(|r| crate::report::filter::matches_route(route, r))
        .flat_map(|r| r.rules.iter().map(|rule| rule.name.as_str()))
        .collect();
    if names.contains(&rule) {
        return None;
    }
    let hint = crate::suggest::did_you_mean(rule, names.iter().copied());
    Some(format!(
        "route `{route}` has no rule `{rule}` (its rules: {}){hint}",
        names.join(", ")
    ))
}

/// Runs `dopol explain`.
pub fn explain(args: &ExplainArgs) -> Result<Exit, UsageError> {
    let run = Run::start(&args.input)?;
    let model = &run.evaluated.model;
    session::check_names(
        &args.input,
        (args.gateway.as_deref(), args.route.as_deref()),
        model,
    )?;
    let topology = &run.evaluated.topology;
    let kinds = filter::parse_kinds(&model.registry, &args.kinds).map_err(UsageError)?;
    let (engine, diagnostics) = Engine::new(model, topology);
    run.session.owned_notes(&engine);
    let owned = (args.path.as_deref()).and_then(|id| {
        explain::explain_owned(&engine, id, |k| {
            kinds.is_empty() || kinds.iter().any(|s| std::ptr::eq(*s, k))
        })
    });
    let items = match owned {
        Some(explained) => vec![explained],
        None => explained_paths(args, model, topology, &engine)?
            .into_iter()
            .map(|p| {
                explain::explain_path(&engine, p, |k| {
                    filter::shows_kind_index(&model.registry, &kinds, k)
                })
            })
            .collect(),
    };
    let report = explain::ExplainReport { items };
    let exit = run.finish(diagnostics);
    Ok(worst(
        exit,
        session::write_report_with(args.output, &report, |layout| {
            observability::explain_text(&report, layout)
        }),
    ))
}

/// The paths `explain` explains: `--path`'s, or those of `--route` the other filters keep.
fn explained_paths(
    args: &ExplainArgs,
    model: &crate::model::Model,
    topology: &crate::topology::Topology,
    engine: &Engine<'_>,
) -> Result<Vec<usize>, UsageError> {
    match (&args.path, &args.route) {
        (Some(id), _) => match topology.find_path(id) {
            Some(index) => Ok(vec![index]),
            None => {
                let owned = engine
                    .owned()
                    .flat_map(|o| o.items.iter().map(|i| i.path_id.as_str()));
                let ids = topology.written_path_ids();
                let hint = crate::suggest::did_you_mean(id, ids.iter().chain(owned));
                Err(UsageError(format!("no path has id `{id}`{hint}")))
            }
        },
        (None, Some(route)) => {
            let found: Vec<usize> = (topology.paths.iter().enumerate())
                .filter(|(_, p)| explains(args, model, route, p))
                .map(|(i, _)| i)
                .collect();
            match found.is_empty() {
                true => Err(no_explained_path(args, model, route)),
                false => Ok(found),
            }
        }
        (None, None) => Err(UsageError(
            "name a path with --path, or a route with --route".into(),
        )),
    }
}

/// Whether `explain --route route` (with `--gateway`, `--rule`, `--listener`) takes `path`.
fn explains(
    args: &ExplainArgs,
    model: &crate::model::Model,
    route: &str,
    path: &crate::topology::Path,
) -> bool {
    let r = &model.routes[path.route as usize];
    let gateway = &model.gateways[path.gateway as usize];
    let named = |g: &str| matches_name(g, &gateway.namespace, &gateway.name);
    let listener = |pattern: &String| {
        crate::topology::listener_sets::listener_matches(
            model,
            path.gateway,
            path.listener,
            pattern,
        )
    };
    crate::report::filter::matches_route(route, r)
        && args.gateway.as_deref().is_none_or(named)
        && (args.rule.as_ref()).is_none_or(|rule| *rule == r.rules[path.rule as usize].name)
        && (args.listener.as_ref()).is_none_or(listener)
}

/// Why `explain --route route` took no path: an unknown `--rule`, or the filters together.
fn no_explained_path(args: &ExplainArgs, model: &crate::model::Model, route: &str) -> UsageError {
    if let Some(message) = (args.rule.as_deref()).and_then(|r| unknown_rule(model, route, r)) {
        return UsageError(message);
    }
    let also = |what: &str, value: &Option<String>| {
        (value.as_ref())
            .map(|v| format!(", {what} `{v}`"))
            .unwrap_or_default()
    };
    UsageError(format!(
        "no path matches route `{route}`{}{}{} (is the route attached to a listener?)",
        also("rule", &args.rule),
        also("listener", &args.listener),
        also("gateway", &args.gateway),
    ))
}

/// Runs `dopol topology`.
pub fn topology(args: &TopologyArgs) -> Result<Exit, UsageError> {
    let run = Run::start_keeping(&args.input, RuleValues::Evaluation)?;
    let model = &run.evaluated.model;
    let wanted = FilterArgs {
        gateway: args.gateway.clone(),
        route: args.route.clone(),
        families: args.families.clone(),
        ..FilterArgs::default()
    };
    let filters = session::filters(&wanted, &args.input, model)?;
    let scope = Scope::new(model, &run.evaluated.topology, &filters);
    let (engine, diagnostics) = Engine::new(model, &run.evaluated.topology);
    run.session.owned_notes(&engine);
    session::check_owned(&filters, &[&engine])?;
    let trees = crate::report::topology::owned_trees(engine.owned(), &filters);
    let owned: Vec<&crate::policy::owned::OwnedNode> = trees.iter().collect();
    let parts = (model, &run.evaluated.topology);
    let exit = run.finish(diagnostics);
    let format = match args.output {
        TopologyOutput::Tree => TopologyFormat::Tree,
        TopologyOutput::Dot => TopologyFormat::Dot,
        TopologyOutput::Mermaid => TopologyFormat::Mermaid,
        TopologyOutput::Json | TopologyOutput::Yaml => {
            let document = topology::document(parts, &scope, &owned);
            let written = session::write_document(|out| match args.output {
                TopologyOutput::Json => crate::render::write_json(out, &document),
                _ => crate::render::write_yaml(out, &document),
            });
            return Ok(worst(exit, written));
        }
    };
    let written =
        session::write_document(|out| topology::render(parts, &scope, &owned, format, out));
    Ok(worst(exit, written))
}
