//! `dopol test`: finds the suites, reads them (a wrong suite stops the run, exit 2), evaluates
//! each group of suites that share inputs once, runs their cases, and writes the report.

use super::args::{InputArgs, TestArgs, TestFormat};
use super::session::{self, Exit, Run, UsageError, worst};
use crate::diag::Diagnostic;
use crate::engine::Engine;
use crate::engine::observed::Observed;
use crate::model::RuleValues;
use crate::report::suite::results::TestReport;
use crate::report::suite::{self, Suite, parse, select};
use crate::source::SourceMap;
use std::path::{Path, PathBuf};

/// Runs `dopol test`.
pub fn run(args: &TestArgs) -> Result<Exit, UsageError> {
    let filter = match &args.run {
        Some(pattern) => {
            Some(regex::Regex::new(pattern).map_err(|e| UsageError(format!("--run: {e}")))?)
        }
        None => None,
    };
    if args.show_untested && !args.coverage {
        return Err(UsageError("--show-untested needs --coverage".into()));
    }
    let files = discover(args)?;
    let mut sources = SourceMap::new();
    let mut report = TestReport {
        fail_under: args.fail_under,
        ..TestReport::default()
    };
    let mut suites = Vec::new();
    for file in &files {
        match std::fs::read(file).map(String::from_utf8) {
            Ok(Ok(text)) => match parse::read(file, text, &mut sources) {
                Ok(suite) => suites.push(suite),
                Err(problems) => report.problems.extend(problems),
            },
            Ok(Err(_)) => report
                .problems
                .push(unreadable(file, "it is not valid UTF-8".into())),
            Err(e) => report.problems.push(unreadable(file, e.to_string())),
        }
    }
    let mut exit = Exit::Success;
    if report.problems.is_empty() {
        for (files, group) in groups(&suites, &args.input)? {
            let input = InputArgs {
                files,
                ..args.input.clone()
            };
            let group_exit =
                run_group(args, &input, &group, &sources, filter.as_ref(), &mut report)?;
            exit = worst(exit, group_exit);
        }
    }
    finish(args, report, &sources, exit)
}

/// A suite that cannot be read.
fn unreadable(file: &str, why: String) -> Diagnostic {
    Diagnostic::from(suite::diags::SuiteProblem::Unreadable { file, why }).with_file(file)
}

/// Prints the suites' problems, writes the report, and says the exit code.
fn finish(
    args: &TestArgs,
    mut report: TestReport,
    sources: &SourceMap,
    exit: Exit,
) -> Result<Exit, UsageError> {
    let display = session::Session::new(&args.input.display);
    crate::diag::sort_and_dedup(&mut report.problems, sources);
    let mut shown = report.problems.clone();
    display.print_diagnostics(&mut shown, sources);
    let written = session::write_document(|out| {
        let text = match args.output {
            TestFormat::Table => crate::render::suite::table(&report),
            TestFormat::Json => crate::render::suite::json(&report, sources),
            TestFormat::Junit => crate::render::suite::junit(&report),
            TestFormat::Sarif => crate::render::suite::sarif(&report, sources),
            TestFormat::Github => crate::render::suite::github(&report, sources),
        };
        out.write_all(text.as_bytes())
    });
    let outcome = if !report.problems.is_empty() {
        Exit::Usage
    } else if report.failed() {
        Exit::Findings
    } else {
        Exit::Success
    };
    Ok(worst(worst(exit, written), outcome))
}

/// The suite files: those named (a directory: its `*.dopoltest.yaml`), else the config file's
/// `tests`, else the working directory's.
fn discover(args: &TestArgs) -> Result<Vec<String>, UsageError> {
    let named: Vec<String> = if !args.suites.is_empty() {
        args.suites.clone()
    } else if !args.input.resolved.tests.is_empty() {
        args.input.resolved.tests.clone()
    } else {
        vec![".".into()]
    };
    let mut files = Vec::new();
    for name in &named {
        let path = Path::new(name);
        if path.is_dir() {
            let mut found = Vec::new();
            walk(path, &mut found);
            found.sort();
            files.extend(found.into_iter().map(|p| p.display().to_string()));
        } else if path.exists() {
            files.push(name.clone());
        } else {
            return Err(UsageError(format!(
                "{name}: no such suite file or directory"
            )));
        }
    }
    // The gate alone needs no suite: it compares the -f inputs with a revision.
    if files.is_empty() && !(args.against.is_some() && args.suites.is_empty()) {
        return Err(UsageError(format!(
            "no suites: no `*{}` file under {}",
            suite::FILE_SUFFIX,
            named.join(", ")
        )));
    }
    Ok(files)
}

/// The `*.dopoltest.yaml` files under `dir`, hidden directories and `target/` skipped.
fn walk(dir: &Path, found: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().to_string();
        if path.is_dir() && !name.starts_with('.') && name != "target" {
            walk(&path, found);
        } else if name.ends_with(suite::FILE_SUFFIX) {
            found.push(path);
        }
    }
}

/// The manifests some suites run on, and those suites.
type Group<'s> = (Vec<String>, Vec<&'s Suite>);

/// Suites grouped by the manifests they run on: `-f` given on the command line, else the
/// suite's `inputs` (relative to it), else the config file's `inputs`. No suite (the gate
/// alone): one group, the `-f` inputs.
fn groups<'s>(suites: &'s [Suite], input: &InputArgs) -> Result<Vec<Group<'s>>, UsageError> {
    if suites.is_empty() {
        return Ok(vec![(input.files.clone(), Vec::new())]);
    }
    let mut groups: Vec<Group<'s>> = Vec::new();
    for suite in suites {
        let files = if !input.files.is_empty() && !input.resolved.inputs_from_config {
            input.files.clone()
        } else if !suite.inputs.is_empty() {
            let dir = Path::new(&suite.file).parent().unwrap_or(Path::new(""));
            suite
                .inputs
                .iter()
                .map(|i| dir.join(&i.text).display().to_string())
                .collect()
        } else if !input.files.is_empty() {
            input.files.clone()
        } else {
            return Err(UsageError(format!(
                "{}: no manifests: give the suite `inputs`, name them with -f, or list them under `inputs:` in {}",
                suite.file,
                super::config::FILE_NAME
            )));
        };
        match groups.iter_mut().find(|(f, _)| *f == files) {
            Some((_, group)) => group.push(suite),
            None => groups.push((files, vec![suite])),
        }
    }
    Ok(groups)
}

/// Evaluates one group's input and runs its suites' cases (and coverage and the gate).
fn run_group(
    args: &TestArgs,
    input: &InputArgs,
    group: &[&Suite],
    sources: &SourceMap,
    filter: Option<&regex::Regex>,
    report: &mut TestReport,
) -> Result<Exit, UsageError> {
    let run = Run::start_keeping(input, RuleValues::All)?;
    let (engine, mut diagnostics) = Engine::new(&run.evaluated.model, &run.evaluated.topology);
    let (set, more) = engine.effective_all();
    diagnostics.extend(more);
    let exit = run.finish(diagnostics);
    let keep = |case: &suite::Case| filter.is_none_or(|f| f.is_match(&case.name.text));
    match select::resolve(group, &engine, keep) {
        Err(problems) => report.problems.extend(problems),
        Ok(cases) => {
            let needs = |c: &select::Resolved<'_>| c.kinds.iter().any(|k| !k.outcomes.is_empty());
            let observed = cases.iter().any(needs).then(|| Observed::new(&engine).0);
            let results = (cases.iter())
                .map(|c| suite::check::run(&engine, &set, observed.as_ref(), c, sources));
            report.results.extend(results);
            if args.coverage {
                report.coverage.push(suite::coverage::compute(
                    &engine,
                    &set,
                    &cases,
                    args.show_untested,
                ));
            }
        }
    }
    if let Some(revision) = &args.against {
        let old = against(revision, input)?;
        let (old_engine, _) = Engine::new(&old.model, &old.topology);
        let (old_set, _) = old_engine.effective_all();
        let found = suite::gate::compare((&old_engine, &old_set), (&engine, &set));
        report
            .against
            .get_or_insert_with(|| (revision.clone(), Vec::new()))
            .1
            .extend(found);
    }
    crate::platform::discard(set);
    crate::platform::discard(engine);
    Ok(exit)
}

/// The group's input at `revision` (an input error there is a usage error of the gate).
fn against(revision: &str, input: &InputArgs) -> Result<crate::pipeline::Evaluated, UsageError> {
    let options = session::input_options(input)?;
    match super::diff::evaluate_revision(revision, input, &options) {
        Ok(evaluated) => Ok(evaluated),
        Err(Ok(usage)) => Err(usage),
        Err(Err(message)) => Err(UsageError(format!("--against {revision}: {message}"))),
    }
}
