//! `dopol diff`.

use super::args::{DiffArgs, FilterArgs, InputArgs};
use super::session::{self, Exit, Session, UsageError, worst};
use crate::engine::observed::Observed;
use crate::engine::{Engine, FoldParts};
use crate::load::files::FileTree;
use crate::load::git::{GitTree, is_safe_revision};
use crate::model::Model;
use crate::pipeline::{self, Evaluated, InputOptions};
use crate::render::diff::{Palette, by_path, human, stat};
use crate::report::diff;
use crate::report::filter::{self, Filters};
use std::path::Path;

/// Where one side's manifests come from.
enum SideSource {
    /// The working tree (`-f` paths, or paths under a directory side).
    Files(Vec<String>),
    /// A git revision.
    Git(GitTree),
}

/// Resolves a side argument. `Err(Ok(..))` is a usage error (exit 2), `Err(Err(..))` an input
/// error (exit 3).
fn side(spec: Option<&str>, input: &InputArgs) -> Result<SideSource, Result<UsageError, String>> {
    let files = input.files.clone();
    match spec {
        None if files.is_empty() => Err(Ok(UsageError(
            "name the manifests with -f (or give OLD and NEW)".into(),
        ))),
        None => Ok(SideSource::Files(files)),
        Some(spec) => match spec.strip_prefix("git:") {
            Some(revision) if !is_safe_revision(revision) => Err(Ok(UsageError(format!(
                "`{spec}`: `{revision}` is not a revision"
            )))),
            Some(revision) => GitTree::open(revision).map(SideSource::Git).map_err(Err),
            // The config file's inputs name where manifests are in this checkout: they apply
            // to git sides, not to directories given as sides.
            None if input.resolved.inputs_from_config => {
                Ok(SideSource::Files(vec![spec.to_string()]))
            }
            None if !files.is_empty() && Path::new(spec).is_dir() => {
                // Under a directory side, -f paths are relative to that directory; an absolute
                // path or stdin would be the same input on both sides and hide every change.
                if let Some(f) = files
                    .iter()
                    .find(|f| *f == "-" || Path::new(f).is_absolute())
                {
                    return Err(Ok(UsageError(format!(
                        "-f {f}: with directory sides, -f names paths relative to each side (`{spec}/<path>`)"
                    ))));
                }
                Ok(SideSource::Files(
                    files
                        .iter()
                        .map(|f| Path::new(spec).join(f).display().to_string())
                        .collect(),
                ))
            }
            None => Ok(SideSource::Files(vec![spec.to_string()])),
        },
    }
}

fn evaluate(source: &SideSource, options: &InputOptions) -> Evaluated {
    match source {
        SideSource::Files(files) => evaluate_files(files, options),
        SideSource::Git(tree) => {
            let files = if options.files.is_empty() {
                vec![".".to_string()]
            } else {
                options.files.clone()
            };
            let options = InputOptions {
                files,
                ..options.clone()
            };
            pipeline::evaluate(&options, tree as &dyn FileTree, &mut std::io::empty())
        }
    }
}

/// Evaluates files (stdin for `-`; only a side that reads stdin locks it, so the other can load
/// beside it).
fn evaluate_files(files: &[String], options: &InputOptions) -> Evaluated {
    let options = InputOptions {
        files: files.to_vec(),
        ..options.clone()
    };
    pipeline::evaluate_files(&options)
}

/// Both sides, evaluated at once: each is parallel inside, but its serial steps (model,
/// topology) leave a core idle that the other side's parsing fills. When both read stdin the
/// old side goes first, so it is the one that gets the bytes.
fn evaluate_both(
    (old, old_options): (&SideSource, &InputOptions),
    (new, new_options): (&SideSource, &InputOptions),
) -> (Evaluated, Evaluated) {
    match (old, new) {
        (SideSource::Files(old_files), SideSource::Files(new_files))
            if !(pipeline::reads_stdin(old_files) && pipeline::reads_stdin(new_files)) =>
        {
            rayon::join(
                || evaluate_files(old_files, old_options),
                || evaluate_files(new_files, new_options),
            )
        }
        // A git side reads its objects through one repository handle: sides in turn.
        _ => (evaluate(old, old_options), evaluate(new, new_options)),
    }
}

/// How a side is named in messages: its argument, or the `-f` inputs.
fn side_name(spec: Option<&str>, overlaid: bool) -> String {
    match spec {
        Some(spec) => format!("`{spec}`"),
        None if overlaid => "the -f inputs with --with/--without".into(),
        None => "the -f inputs".into(),
    }
}

/// The filters of a diff: `--kind`, `--gateway`, `--route` and `-n` as in the other reports,
/// checked against both sides (a name either side has is a name); `--policy` as the locators
/// of the policies it names on either side.
fn diff_filters(
    args: &FilterArgs,
    input: &InputArgs,
    old: &Evaluated,
    new: &Evaluated,
) -> Result<diff::DiffFilters, UsageError> {
    let (old_model, new_model) = (&old.model, &new.model);
    let filters = Filters {
        kinds: filter::parse_kinds(&new_model.registry, &args.kinds).map_err(UsageError)?,
        namespace: input.namespace.clone(),
        gateway: args.gateway.clone(),
        route: args.route.clone(),
        policies: None,
        owned: (args.families.0.iter())
            .map(|(flag, value)| (flag, value.to_string()))
            .collect(),
    };
    session::check_matches(&filters, &[old_model, new_model])?;
    let policies = match &args.policy {
        None => None,
        Some(reference) => {
            let locators = |model: &Model| {
                filter::resolve_policy_ref(model, reference).map(|found| {
                    found
                        .into_iter()
                        .map(|p| model.policies[p as usize].locator.clone())
                        .collect::<Vec<_>>()
                })
            };
            match (locators(old_model), locators(new_model)) {
                (Err(_), Err(message)) => return Err(UsageError(message)),
                (old, new) => {
                    let mut all: Vec<String> = old.into_iter().chain(new).flatten().collect();
                    all.sort();
                    all.dedup();
                    Some(all)
                }
            }
        }
    };
    Ok(diff::DiffFilters {
        old: filters.clone(),
        new: filters,
        policies,
    })
}

/// Runs `dopol diff`.
pub fn run(args: &DiffArgs) -> Result<Exit, UsageError> {
    let session = Session::new(&args.input.display);
    // Rule values are compared as written, and read again where they differ (`same_value`).
    let base = InputOptions {
        rule_values: crate::model::RuleValues::Evaluation,
        ..session::input_options(&args.input)?
    };
    let overlaid = !base.overlay.with.is_empty() || !base.overlay.without.is_empty();
    if args.old.is_none() && !overlaid {
        return Err(UsageError(
            "nothing to compare: give OLD and NEW, or --with/--without for a what-if".into(),
        ));
    }
    let sources = (
        side(args.old.as_deref(), &args.input),
        side(args.new.as_deref(), &args.input),
    );
    let (old_source, new_source) = match sources {
        (Ok(old), Ok(new)) => (old, new),
        (Err(Ok(usage)), _) | (_, Err(Ok(usage))) => return Err(usage),
        (Err(Err(message)), _) | (_, Err(Err(message))) => {
            super::console::say!("error: {message}");
            return Ok(Exit::Input);
        }
    };
    for source in [&old_source, &new_source] {
        if let SideSource::Files(files) = source {
            session::check_stdin(files)?;
        }
    }
    let old_options = InputOptions {
        overlay: Default::default(),
        ..base.clone()
    };
    let (old, new) = evaluate_both((&old_source, &old_options), (&new_source, &base));
    session::check_overlay(&new)?;

    let (old_engine, mut old_diagnostics) = Engine::new(&old.model, &old.topology);
    let (new_engine, mut new_diagnostics) = Engine::new(&new.model, &new.topology);
    session.owned_notes(&new_engine);
    // Rule changes and conditions read no outcome.
    let observe = |engine| Observed::keeping(engine, FoldParts::Effective);
    let ((old_observed, more_old), (new_observed, more_new)) =
        rayon::join(|| observe(&old_engine), || observe(&new_engine));
    old_diagnostics.extend(more_old);
    new_diagnostics.extend(more_new);
    let old_exit = session.report_input(&old, old_diagnostics);
    let new_exit = session.report_input(&new, new_diagnostics);
    let failed: Vec<String> = [
        (old_exit, "old", args.old.as_deref(), false),
        (new_exit, "new", args.new.as_deref(), overlaid),
    ]
    .into_iter()
    .filter(|(exit, ..)| *exit == Exit::Input)
    .map(|(_, which, spec, overlaid)| format!("the {which} side ({})", side_name(spec, overlaid)))
    .collect();
    if !failed.is_empty() {
        // Objects left out of one side would show as removed or added: no diff is better than
        // a wrong one, and "No differences." would be a wrong answer.
        super::console::say!(
            "error: cannot compare: {} did not load cleanly (input errors above); no differences are shown",
            failed.join(" and ")
        );
        return Ok(Exit::Input);
    }
    let filters = diff_filters(&args.filters, &args.input, &old, &new)?;
    session::check_owned(&filters.new, &[&old_engine, &new_engine])?;

    let report = diff::build(&old_observed, &new_observed, &filters);
    let differs = if report.is_empty() {
        Exit::Success
    } else {
        Exit::Findings
    };
    let exit = match args.output.report() {
        // The page, even of no change, says so itself.
        None => worst(
            super::view::write_to("-", |out| {
                crate::render::view::write_diff_page(out, &report)
            }),
            differs,
        ),
        Some(output) if report.is_empty() && output.is_table() => {
            super::console::say!("No differences.");
            Exit::Success
        }
        Some(output) => {
            let palette = Palette {
                color: session.stdout_color,
            };
            let written = session::write_report(output, &report, || {
                if args.stat {
                    stat(&report, palette)
                } else if args.paths {
                    by_path(&report, palette)
                } else {
                    human(&report, palette)
                }
            });
            worst(written, differs)
        }
    };
    // The process exits next: skip freeing two models, one node at a time.
    crate::platform::discard(report);
    crate::platform::discard((old_observed, new_observed));
    crate::platform::discard((old_engine, new_engine));
    crate::platform::discard((old, new));
    Ok(exit)
}

/// The -f inputs at git revision `revision`, read as `dopol diff git:REV` reads its side (for
/// `dopol test --against`). `Err(Ok(..))` is a usage error, `Err(Err(..))` an input error.
pub fn evaluate_revision(
    revision: &str,
    input: &InputArgs,
    options: &InputOptions,
) -> Result<Evaluated, Result<UsageError, String>> {
    let source = side(Some(&format!("git:{revision}")), input)?;
    Ok(evaluate(&source, options))
}
