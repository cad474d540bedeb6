//! `dopol lint`.

use super::args::{Level, LintArgs, LintFormat};
use super::session::{self, Exit, Run, UsageError};
use crate::diag::Code;
use crate::lint::{self, LintOptions, LintStatus, doc};
use crate::render;
use crate::render::table::{Column, Table, finish};

fn parse_codes(values: &[String]) -> Result<Vec<Code>, UsageError> {
    values
        .iter()
        .flat_map(|v| v.split(','))
        .map(str::trim)
        .filter(|v| !v.is_empty())
        .map(|v| {
            Code::parse(v).ok_or_else(|| {
                UsageError(format!(
                    "unknown diagnostic code `{v}` (see `dopol lint --list`)"
                ))
            })
        })
        .collect()
}

fn catalogue() -> String {
    let mut table = Table::new(vec![
        Column::Id("CODE"),
        Column::Id("NAME"),
        Column::Id("SEVERITY"),
        Column::Text("SUMMARY"),
    ]);
    for code in Code::all() {
        table.add_row(vec![
            code.as_str(),
            code.name(),
            code.default_severity().as_str(),
            code.summary(),
        ]);
    }
    finish(&table, session::table_width())
}

/// Runs `dopol lint`.
pub fn run(args: &LintArgs) -> Result<Exit, UsageError> {
    if args.list {
        return Ok(session::write_document(|out| {
            out.write_all(catalogue().as_bytes())
        }));
    }
    if let Some(code) = &args.explain {
        let code = parse_codes(std::slice::from_ref(code))?[0];
        return Ok(session::write_document(|out| {
            out.write_all(doc::explain(code).as_bytes())
        }));
    }
    if let Some(rejected) = &args.input.resolved.rejected {
        return stopped(
            args,
            rejected.diagnostics.clone(),
            &rejected.sources,
            || super::config::rejected(&args.input, rejected.clone()),
        );
    }
    // The flags win over the config file's `lint` settings; ignored codes add up.
    let defaults = &args.input.resolved.lint;
    let ignore: Vec<String> = defaults
        .ignore
        .iter()
        .chain(&args.ignore)
        .cloned()
        .collect();
    let options = LintOptions {
        fail_on: args
            .fail_on
            .or(defaults.fail_on)
            .unwrap_or(Level::Error)
            .severity(),
        // `-q` prints only errors, as in every command.
        min_severity: if args.input.display.quiet {
            crate::diag::Severity::Error
        } else {
            args.min_severity
                .or(defaults.min_severity)
                .unwrap_or(Level::Info)
                .severity()
        },
        ignore: parse_codes(&ignore)?,
        namespace: args.input.namespace.clone(),
    };
    let declared = match session::declared(&args.input) {
        Ok(declared) => declared,
        Err(rejected) => {
            let (diagnostics, sources) = (rejected.diagnostics.clone(), rejected.sources.clone());
            return stopped(args, diagnostics, &sources, || {
                session::rejected(&args.input, rejected)
            });
        }
    };
    if !args.input.crds.is_empty()
        && let Err(rejected) = crate::crd::catalog::with_user_crds(
            args.input.gateway_api_channel.into(),
            &args.input.crds,
        )
    {
        return stopped(args, rejected.diagnostics, &rejected.sources, || {
            session::catalog(&args.input)
                .err()
                .unwrap_or_else(|| session::UsageError("--crds: the CRDs could not be read".into()))
        });
    }
    // Of the values evaluation does not read, the checks read few (`Model::rule_value`).
    let run = Run::start_with(&args.input, &declared, crate::model::RuleValues::Evaluation)?;
    let model = &run.evaluated.model;
    session::check_names(&args.input, (None, None), model)?;
    crate::platform::timing::mark("start (rest)");
    let collected = lint::collect(&run.evaluated);
    crate::platform::timing::mark("drop folds");
    let mut result = lint::apply(collected, model, &options);
    crate::diag::complete_commands(&mut result.shown, &session::input_flags(&args.input));
    crate::platform::timing::mark("sort and filter findings");

    let text = match args.output {
        LintFormat::Human => None,
        LintFormat::Json => Some(pretty(&render::lint::json(&result, &model.sources))),
        LintFormat::Sarif => Some(pretty(&render::lint::sarif::sarif(&result, &model.sources))),
        LintFormat::Github => Some(render::lint::github::github(&result, &model.sources)),
        LintFormat::Junit => Some(render::lint::junit::junit(&result, model, options.fail_on)),
    };
    let written = session::write_document(|out| match &text {
        Some(text) => out.write_all(text.as_bytes()),
        // Written as it is rendered.
        None => render::diagnostics::write_human(
            &result.shown,
            &model.sources,
            run.session.stdout_color,
            out,
        ),
    });
    crate::platform::timing::mark("write");
    if written != Exit::Success {
        return Ok(written);
    }
    if !args.input.display.quiet {
        super::console::say!("{}", result.summary());
    }
    let hidden_by = if args.input.display.quiet {
        "-q".to_string()
    } else {
        format!("--min-severity {}", options.min_severity.as_str())
    };
    if let Some(why) = result.hidden_failure(options.fail_on, &hidden_by) {
        super::console::say!("error: {why}");
    }
    Ok(match result.status {
        LintStatus::Passed => Exit::Success,
        LintStatus::Failed => Exit::Findings,
        LintStatus::InputErrors => Exit::Input,
    })
}

/// A bad config file, families file or `--crds` file stops the run (exit 2): its problems are the findings,
/// in the lint format asked for (human and JUnit: `human()`, on stderr as for every command).
fn stopped(
    args: &LintArgs,
    mut shown: Vec<crate::diag::Diagnostic>,
    sources: &crate::source::SourceMap,
    human: impl FnOnce() -> UsageError,
) -> Result<Exit, UsageError> {
    crate::diag::sort_and_dedup(&mut shown, sources);
    let result = lint::LintResult {
        shown,
        suppressed: 0,
        hidden: 0,
        elsewhere: 0,
        hidden_failing: Vec::new(),
        objects: 0,
        files: sources.len(),
        status: LintStatus::InputErrors,
    };
    let text = match args.output {
        LintFormat::Json => pretty(&render::lint::json(&result, sources)),
        LintFormat::Sarif => pretty(&render::lint::sarif::sarif(&result, sources)),
        LintFormat::Github => render::lint::github::github(&result, sources),
        LintFormat::Human | LintFormat::Junit => return Err(human()),
    };
    let written = session::write_document(|out| out.write_all(text.as_bytes()));
    if written != Exit::Success {
        return Ok(written);
    }
    if !args.input.display.quiet {
        super::console::say!("{}", result.summary());
    }
    Ok(Exit::Usage)
}

fn pretty(value: &serde_json::Value) -> String {
    let mut text = serde_json::to_string_pretty(value).unwrap_or_default();
    text.push('\n');
    text
}
