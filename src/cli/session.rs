//! What every command shares: turning flags into pipeline options and filters, printing
//! diagnostics to stderr, writing documents to stdout, and exit codes.

use super::args::{ColorChoice, DisplayArgs, FilterArgs, GatewayApiChannel, InputArgs};
use super::console::{self, Stream};
use crate::diag::{self, Diagnostic, Severity};
use crate::engine::Engine;
use crate::model::{Model, RuleValues};
use crate::pipeline::InputOptions;
use crate::render::table::Layout;
use crate::report::filter::{self, Filters};
use crate::source::SourceMap;
use crate::words::{counted, counted_as};
use std::io::{self, IsTerminal, Write};

/// Process exit codes (docs/json.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    /// 0: success.
    Success = 0,
    /// 1: lint findings at or above `--fail-on`, or differences in `diff`.
    Findings = 1,
    /// 2: usage error.
    Usage = 2,
    /// 3: input errors, or the output could not be written (a full disk).
    Input = 3,
    /// 4: internal error.
    Internal = 4,
}

/// A usage problem detected after argument parsing (exit code 2).
#[derive(Debug)]
pub struct UsageError(pub String);

/// How diagnostics are shown.
#[derive(Clone, Copy, Debug)]
pub struct Session {
    /// Colour on stderr.
    pub color: bool,
    /// Colour in human documents on stdout (`lint`, `diff`): `auto` also needs stdout to be a
    /// terminal.
    pub stdout_color: bool,
    /// Show info-level diagnostics and statistics.
    pub verbose: bool,
    /// Show errors only.
    pub quiet: bool,
}

impl Session {
    /// From the display flags and the environment (`NO_COLOR`, whether stderr is a terminal).
    pub fn new(display: &DisplayArgs) -> Session {
        let color = match display.color {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => {
                console::env("NO_COLOR").is_none_or(|v| v.is_empty())
                    && console::is_terminal(Stream::Err)
            }
        };
        let stdout_color = match display.color {
            ColorChoice::Auto => color && console::is_terminal(Stream::Out),
            _ => color,
        };
        Session {
            color,
            stdout_color,
            verbose: display.verbose,
            quiet: display.quiet,
        }
    }

    /// The least severe diagnostic shown.
    pub fn min_severity(&self) -> Severity {
        if self.quiet {
            Severity::Error
        } else if self.verbose {
            Severity::Info
        } else {
            Severity::Warning
        }
    }

    /// Sorts, dedupes and prints diagnostics at or above the session's threshold to stderr.
    pub fn print_diagnostics(&self, diagnostics: &mut Vec<Diagnostic>, sources: &SourceMap) {
        diag::sort_and_dedup(diagnostics, sources);
        let min = self.min_severity();
        let shown: Vec<Diagnostic> = diagnostics
            .iter()
            .filter(|d| reported_severity(d) >= min)
            .map(as_reported)
            .collect();
        let mut stderr = console::stderr();
        if !shown.is_empty() {
            let text = crate::render::diagnostics::render_human(&shown, sources, self.color);
            let _ = stderr.write_all(text.as_bytes());
        }
        let hidden_infos = diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Info && d.severity < min)
            .count();
        if hidden_infos > 0 && !self.quiet {
            let _ = writeln!(
                stderr,
                "note: {} not shown (use -v)",
                crate::words::counted(hidden_infos, "info diagnostic")
            );
        }
    }

    /// Prints the diagnostics of an evaluated input plus `more` (the engine's), and returns the
    /// exit code they call for (3 on input errors).
    pub fn report_input(
        &self,
        evaluated: &crate::pipeline::Evaluated,
        more: Vec<Diagnostic>,
    ) -> Exit {
        let mut diagnostics: Vec<Diagnostic> = evaluated.diagnostics().cloned().collect();
        diagnostics.extend(more);
        self.print_diagnostics(&mut diagnostics, &evaluated.model.sources);
        input_exit(&diagnostics)
    }

    /// Prints a line to stderr when verbose.
    pub fn info(&self, message: &str) {
        if self.verbose {
            console::say!("{message}");
        }
    }

    /// With `-v`: what the families' own hierarchies say of how they were built (Kuma: how
    /// the local zone was chosen).
    pub fn owned_notes(&self, engine: &Engine<'_>) {
        for note in engine.owned().flat_map(|paths| &paths.notes) {
            self.info(note);
        }
    }
}

/// Pipeline options from the input flags (a malformed `--without` is a usage error), the
/// families files read first.
pub fn input_options(args: &InputArgs) -> Result<InputOptions, UsageError> {
    let declared = declared(args).map_err(|r| rejected(args, r))?;
    input_options_with(args, &declared)
}

/// [`input_options`] with the declared families already read.
pub fn input_options_with(
    args: &InputArgs,
    declared: &crate::families::declared::Declared,
) -> Result<InputOptions, UsageError> {
    let without = args
        .without
        .iter()
        .map(|s| crate::load::ObjectSelector::parse(s).map_err(UsageError))
        .collect::<Result<Vec<_>, _>>()?;
    if let Some(namespace) = &args.namespace
        && let Some(why) = crate::load::names::NameRule::Label.violation(namespace)
    {
        let hint = crate::load::names::template_help(namespace)
            .map_or(String::new(), |h| format!(" ({h})"));
        return Err(UsageError(format!(
            "-n `{namespace}` is not a valid namespace name: {why}{hint}"
        )));
    }
    Ok(InputOptions {
        files: args.files.clone(),
        excludes: args.resolved.excludes.clone(),
        default_namespace: args.namespace.clone().unwrap_or_else(|| "default".into()),
        assume_gateways: args.assume_gateways,
        registry: registry_with(args, declared)?,
        catalog: catalog(args)?,
        overlay: crate::load::Overlay {
            with: args.with.clone(),
            without,
        },
        rule_values: crate::model::RuleValues::All,
    })
}

/// The CRDs of a run: the bundled ones of the chosen Gateway API channel, replaced kind by kind
/// by `--crds` (a file that cannot be used is a usage error, its problems printed first).
pub fn catalog(args: &InputArgs) -> Result<std::sync::Arc<crate::crd::Catalog>, UsageError> {
    match crate::crd::catalog::with_user_crds(args.gateway_api_channel.into(), &args.crds) {
        Ok(catalog) => Ok(std::sync::Arc::new(catalog)),
        Err(rejected) => {
            let mut diagnostics = rejected.diagnostics;
            let count = diagnostics.len();
            Session::new(&args.display).print_diagnostics(&mut diagnostics, &rejected.sources);
            Err(UsageError(format!(
                "--crds: {}; nothing was evaluated",
                counted(count, "problem")
            )))
        }
    }
}

/// The declared families of a run: the `--families` files, or `.dopol/families.yaml` when it
/// exists (said at `-v`).
pub fn declared(
    args: &InputArgs,
) -> Result<crate::families::declared::Declared, crate::families::declared::Rejected> {
    use crate::families::declared::{DEFAULT_FILE, load};
    if !args.families.is_empty() {
        return load(&args.families);
    }
    if !std::path::Path::new(DEFAULT_FILE).is_file() {
        return Ok(Default::default());
    }
    Session::new(&args.display).info(&format!("reading policy families from {DEFAULT_FILE}"));
    load(&[DEFAULT_FILE.to_string()])
}

/// Prints why the families files cannot be used and returns the usage error that stops the run.
pub fn rejected(args: &InputArgs, rejected: crate::families::declared::Rejected) -> UsageError {
    let mut diagnostics = rejected.diagnostics;
    let count = diagnostics.len();
    Session::new(&args.display).print_diagnostics(&mut diagnostics, &rejected.sources);
    UsageError(format!(
        "the families file is not valid ({}); nothing was evaluated",
        counted(count, "problem")
    ))
}

/// The policy families of a run, with the controller settings given as flags (malformed
/// settings are a usage error; unknown values a warning), and the declared families (a bad
/// families file is a usage error, its problems printed first).
pub fn registry(args: &InputArgs) -> Result<std::sync::Arc<crate::policy::Registry>, UsageError> {
    let declared = declared(args).map_err(|r| rejected(args, r))?;
    registry_with(args, &declared)
}

/// [`registry`] with the declared families already read.
pub fn registry_with(
    args: &InputArgs,
    declared: &crate::families::declared::Declared,
) -> Result<std::sync::Arc<crate::policy::Registry>, UsageError> {
    let values = &args.settings.0;
    let configured =
        crate::policy::Registry::configured(values).map_err(|e| UsageError(e.to_string()))?;
    for warning in configured.warnings {
        console::say!("warning: {warning}");
    }
    let mut registry = configured.family;
    declared.register(&mut registry, values);
    Ok(std::sync::Arc::new(registry))
}

/// `--without` selectors that matched nothing are a usage error.
pub fn check_overlay(evaluated: &crate::pipeline::Evaluated) -> Result<(), UsageError> {
    match evaluated.unmatched_without.as_slice() {
        [] => Ok(()),
        unmatched => Err(UsageError(format!(
            "--without {} matches no object",
            unmatched.join(", ")
        ))),
    }
}

/// Report filters from the flags (unknown kinds or policies are usage errors).
pub fn filters(args: &FilterArgs, input: &InputArgs, model: &Model) -> Result<Filters, UsageError> {
    let kinds = filter::parse_kinds(&model.registry, &args.kinds).map_err(UsageError)?;
    let policies = match &args.policy {
        Some(reference) => Some(filter::resolve_policy_ref(model, reference).map_err(UsageError)?),
        None => None,
    };
    let filters = Filters {
        kinds,
        namespace: input.namespace.clone(),
        gateway: args.gateway.clone(),
        route: args.route.clone(),
        policies,
        owned: (args.families.0.iter())
            .map(|(flag, value)| (flag, value.to_string()))
            .collect(),
    };
    check_matches(&filters, &[model])?;
    Ok(filters)
}

/// `-n` (and a command's own `--gateway` and `--route`) checked like the report filters, for
/// the commands that take no [`FilterArgs`] (`reach`, `explain`, `lint`).
pub fn check_names(
    input: &InputArgs,
    (gateway, route): (Option<&str>, Option<&str>),
    model: &Model,
) -> Result<(), UsageError> {
    let filters = Filters {
        namespace: input.namespace.clone(),
        gateway: gateway.map(str::to_string),
        route: route.map(str::to_string),
        ..Filters::default()
    };
    check_matches(&filters, &[model])
}

/// A `--gateway`, `--route` or `-n` that names nothing in the input (of any of `models`) is a
/// usage error naming the nearest name.
pub fn check_matches(filters: &Filters, models: &[&Model]) -> Result<(), UsageError> {
    match filter::unmatched(filters, models) {
        Some(message) => Err(UsageError(message)),
        None => Ok(()),
    }
}

/// A filter of a family's own hierarchy (`--mesh`, `--dataplane`) that matches no path the
/// families built (on any of `engines`: the two sides of a diff) is a usage error naming the
/// nearest value, as [`check_matches`] makes it of `--gateway`.
pub fn check_owned(filters: &Filters, engines: &[&Engine<'_>]) -> Result<(), UsageError> {
    if filters.owned.is_empty() {
        return Ok(());
    }
    let owned: Vec<&crate::policy::owned::OwnedPaths> =
        engines.iter().flat_map(|e| e.owned()).collect();
    match filter::unmatched_owned(filters, &owned) {
        Some(message) => Err(UsageError(message)),
        None => Ok(()),
    }
}

/// Exit code for report commands: 3 when an input error was found, else 0.
pub fn input_exit(diagnostics: &[Diagnostic]) -> Exit {
    if diagnostics.iter().any(Diagnostic::is_input_error) {
        Exit::Input
    } else {
        Exit::Success
    }
}

/// Writes to stdout through a buffer; a closed pipe (`dopol ... | head`) is not an error.
///
/// Nothing is written once the input changed while it was read: the answer would be built on
/// what could not be read again ([`crate::model::ChangedMeanwhile`]; `cli::run` says so).
pub fn write_stdout(write: impl FnOnce(&mut dyn Write) -> io::Result<()>) -> io::Result<()> {
    let changed = || crate::model::changed_meanwhile().is_err();
    if changed() {
        return Ok(());
    }
    let mut out = io::BufWriter::with_capacity(1 << 16, UnlessChanged(console::stdout()));
    match write(&mut out).and_then(|()| out.flush()) {
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        Err(_) if changed() => Ok(()),
        other => other,
    }
}

/// Stdout that takes no more once the input changed while it was read (found while the answer
/// was being rendered): what follows would be built on what could not be read again.
struct UnlessChanged<W>(W);

impl<W: Write> Write for UnlessChanged<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match crate::model::changed_meanwhile() {
            Ok(()) => self.0.write(buf),
            Err(changed) => Err(io::Error::other(changed.to_string())),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        self.0.flush()
    }
}

/// Writes a document to stdout. A failed write (a full disk, a closed file) is the
/// environment's fault, not a bug: it is said and exits 3, as an input that cannot be used.
pub fn write_document(write: impl FnOnce(&mut dyn Write) -> io::Result<()>) -> Exit {
    match write_stdout(write) {
        Ok(()) => Exit::Success,
        Err(e) => {
            console::say!("error: cannot write the output to stdout: {e}");
            Exit::Input
        }
    }
}

/// The flags that name this run's input, shell-quoted, with a leading space: what a suggested
/// command needs to run on the same objects (`-f`, `-n`, what-ifs, families, CRDs, settings).
pub fn input_flags(input: &InputArgs) -> String {
    let mut flags: Vec<(&str, &str)> = Vec::new();
    flags.extend(input.files.iter().map(|f| ("-f", f.as_str())));
    flags.extend(input.exclude.iter().map(|e| ("--exclude", e.as_str())));
    flags.extend(input.namespace.iter().map(|n| ("-n", n.as_str())));
    flags.extend(input.with.iter().map(|w| ("--with", w.as_str())));
    flags.extend(input.without.iter().map(|w| ("--without", w.as_str())));
    flags.extend(input.families.iter().map(|f| ("--families", f.as_str())));
    flags.extend(input.crds.iter().map(|c| ("--crds", c.as_str())));
    if input.gateway_api_channel == GatewayApiChannel::Standard {
        flags.push(("--gateway-api-channel", "standard"));
    }
    if input.assume_gateways {
        flags.push(("--assume-gateways", ""));
    }
    let settings: Vec<(String, &str)> = (input.settings.0.iter())
        .map(|(flag, value)| (format!("--{flag}"), value))
        .collect();
    flags.extend(settings.iter().map(|(flag, value)| (flag.as_str(), *value)));
    flags
        .iter()
        .map(|(flag, value)| match value {
            &"" => format!(" {flag}"),
            value => format!(" {flag} {}", shell_quoted(value)),
        })
        .collect()
}

/// `value` as a POSIX shell word.
fn shell_quoted(value: &str) -> String {
    let plain = !value.is_empty()
        && value
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"_./:=,@%+-".contains(&b));
    if plain {
        value.to_string()
    } else {
        format!("'{}'", value.replace('\'', "'\\''"))
    }
}

/// A diagnostic as a report command shows it. Only input errors make such a run fail (exit 3);
/// an error-level *finding* (a policy whose target is missing: `Accepted=False`) is what the
/// report is about, not an error of the run, so it is shown as a warning — `lint` keeps its
/// severity, since there it fails the run.
fn as_reported(diagnostic: &Diagnostic) -> Diagnostic {
    let mut shown = diagnostic.clone();
    shown.severity = reported_severity(diagnostic);
    shown
}

/// The severity [`as_reported`] shows `diagnostic` with.
fn reported_severity(diagnostic: &Diagnostic) -> Severity {
    if diagnostic.severity == Severity::Error && !diagnostic.is_input_error() {
        Severity::Warning
    } else {
        diagnostic.severity
    }
}

/// `-f -` with stdin a terminal is a usage error: reading would wait for typed manifests, which
/// looks like a hang.
pub fn check_stdin(files: &[String]) -> Result<(), UsageError> {
    if files.iter().any(|f| f == "-") && io::stdin().is_terminal() {
        return Err(UsageError(
            "-f - reads manifests from stdin, and stdin is a terminal: pipe them in \
             (`kubectl get ... -o yaml | dopol ... -f -`) or name files with -f"
                .into(),
        ));
    }
    Ok(())
}

/// A command's evaluated input and its display settings; prints diagnostics once at the end.
pub struct Run {
    /// How to print.
    pub session: Session,
    /// The model and topology.
    pub evaluated: crate::pipeline::Evaluated,
}

impl Run {
    /// Reads the inputs named by the flags (at least one `-f` is required).
    pub fn start(input: &InputArgs) -> Result<Run, UsageError> {
        Run::start_keeping(input, RuleValues::All)
    }

    /// [`Run::start`] for a report that reads only the rule `values` it says (one that shows
    /// no value: [`RuleValues::Evaluation`]).
    pub fn start_keeping(input: &InputArgs, values: RuleValues) -> Result<Run, UsageError> {
        let declared = declared(input).map_err(|r| rejected(input, r))?;
        Run::start_with(input, &declared, values)
    }

    /// [`Run::start_keeping`] with the declared families already read.
    pub fn start_with(
        input: &InputArgs,
        declared: &crate::families::declared::Declared,
        values: RuleValues,
    ) -> Result<Run, UsageError> {
        if input.files.is_empty() {
            return Err(UsageError(format!(
                "no input: name manifests as paths (`dopol lint manifests/`) or with -f FILE|DIR|GLOB (-f - for stdin), or list them under `inputs:` in {}",
                super::config::FILE_NAME
            )));
        }
        check_stdin(&input.files)?;
        let session = Session::new(&input.display);
        let options = InputOptions {
            rule_values: values,
            ..input_options_with(input, declared)?
        };
        let evaluated = crate::pipeline::evaluate_files(&options);
        check_overlay(&evaluated)?;
        print_stats(&session, &evaluated);
        Ok(Run { session, evaluated })
    }

    /// Prints the input's diagnostics plus `more` (the engine's) and returns the exit code for
    /// report commands.
    pub fn finish(&self, more: Vec<Diagnostic>) -> Exit {
        self.session.report_input(&self.evaluated, more)
    }
}

/// Every command ends by dropping its run: the model of a big input is gigabytes of trees,
/// which the process exiting right after frees at once (see [`crate::platform::discard`]).
impl Drop for Run {
    fn drop(&mut self) {
        crate::platform::discard(std::mem::take(&mut self.evaluated));
    }
}

/// With `-v`: what was read.
fn print_stats(session: &Session, evaluated: &crate::pipeline::Evaluated) {
    let stats = &evaluated.model.stats;
    let model = &evaluated.model;
    session.info(&format!(
        "read {}, {}: {} dopol reads ({}, {}, {}), {} of other kinds skipped; {}",
        counted(stats.files, "file"),
        counted(stats.documents, "document"),
        counted(stats.objects, "object"),
        counted(model.gateways.len(), "gateway"),
        counted(model.routes.len(), "route"),
        counted_as(model.policies.len(), "policy", "policies"),
        counted(stats.skipped_other_kinds, "object"),
        counted(evaluated.topology.paths.len(), "path")
    ));
    if stats.fixtures > 0 {
        session.info(&format!(
            "recognised the Envoy Gateway translator fixture format (one mapping of lists of objects: `gateways:`, `httpRoutes:`, ...) in {}; each object is read at its own place",
            counted(stats.fixtures, "document")
        ));
    }
}

/// Writes a report in a machine format, or runs `table` for the human one.
pub fn write_report<T: serde::Serialize>(
    format: super::args::ReportFormat,
    report: &T,
    table: impl FnOnce() -> String,
) -> Exit {
    write_report_with(format, report, |_| table())
}

/// Writes a report in a machine format, or runs `table` with the table layout of `format`.
pub fn write_report_with<T: serde::Serialize>(
    format: super::args::ReportFormat,
    report: &T,
    table: impl FnOnce(Layout) -> String,
) -> Exit {
    use super::args::ReportFormat;
    write_document(|out| match format {
        ReportFormat::Json => crate::render::write_json(out, report),
        ReportFormat::Yaml => crate::render::write_yaml(out, report),
        ReportFormat::Table | ReportFormat::Wide => {
            out.write_all(table(table_layout(format)).as_bytes())
        }
    })
}

/// The widest a table line may be: `COLUMNS` when set to a number, else the width of the
/// terminal stdout is; `None` (no limit, nothing cut) when stdout is a file or a pipe, so
/// `> file`, `| less -S` and `| grep` see whole values.
pub fn table_width() -> Option<usize> {
    if let Some(columns) = console::env("COLUMNS")
        .and_then(|c| c.to_str().and_then(|c| c.trim().parse::<usize>().ok()))
        .filter(|&c| c > 0)
    {
        return Some(columns);
    }
    if !console::is_terminal(Stream::Out) {
        return None;
    }
    terminal_size::terminal_size_of(io::stdout()).map(|(width, _)| usize::from(width.0))
}

/// How tables of `format` are laid out: `-o wide` has no width limit and names every row's
/// whole path; `-o table` fits [`table_width`].
pub fn table_layout(format: super::args::ReportFormat) -> Layout {
    match format {
        super::args::ReportFormat::Wide => Layout {
            width: None,
            wide: true,
        },
        _ => Layout {
            width: table_width(),
            wide: false,
        },
    }
}

/// The worse of two exit codes (input errors win over success).
pub fn worst(a: Exit, b: Exit) -> Exit {
    if a as i32 >= b as i32 { a } else { b }
}
