//! `dopol diff`.

use super::args::{DiffArgs, InputArgs, ReportFormat};
use super::session::{self, Exit, Session, UsageError, worst};
use crate::engine::Engine;
use crate::engine::observed::Observed;
use crate::load::files::{FileTree, WorkTree};
use crate::load::git::{GitTree, is_safe_revision};
use crate::pipeline::{self, Evaluated, InputOptions};
use crate::render::diff::{Palette, human, stat};
use crate::report::diff;
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
        SideSource::Files(files) => {
            let options = InputOptions {
                files: files.clone(),
                ..options.clone()
            };
            pipeline::evaluate(&options, &WorkTree, &mut std::io::stdin().lock())
        }
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

/// Runs `dopol diff`.
pub fn run(args: &DiffArgs) -> Result<Exit, UsageError> {
    let session = Session::new(&args.input.display);
    let base = session::input_options(&args.input)?;
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
            eprintln!("error: {message}");
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
    let old = evaluate(&old_source, &old_options);
    let new = evaluate(&new_source, &base);
    session::check_overlay(&new)?;

    let (old_engine, mut old_diagnostics) = Engine::new(&old.model, &old.topology);
    let (new_engine, mut new_diagnostics) = Engine::new(&new.model, &new.topology);
    let (old_observed, more) = Observed::new(&old_engine);
    old_diagnostics.extend(more);
    let (new_observed, more) = Observed::new(&new_engine);
    new_diagnostics.extend(more);
    let exit = worst(
        session.report_input(&old, old_diagnostics),
        session.report_input(&new, new_diagnostics),
    );

    let report = diff::build(&old_observed, &new_observed);
    if report.is_empty() && args.output == ReportFormat::Table {
        eprintln!("No differences.");
        return Ok(exit);
    }
    let palette = Palette {
        color: session.stdout_color,
    };
    let written = session::write_report(args.output, &report, || {
        if args.stat {
            stat(&report, palette)
        } else {
            human(&report, palette)
        }
    });
    let differs = if report.is_empty() {
        Exit::Success
    } else {
        Exit::Findings
    };
    // The process exits next: skip freeing two models, one node at a time.
    crate::platform::discard(report);
    crate::platform::discard((old_observed, new_observed));
    crate::platform::discard((old_engine, new_engine));
    crate::platform::discard((old, new));
    Ok(worst(worst(exit, written), differs))
}
