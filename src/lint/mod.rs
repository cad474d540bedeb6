//! `dopol lint`: every diagnostic about the inputs, with suppression and thresholds, for CI and
//! pre-commit.
//!
//! The findings come from three places: reading the input (`load`, `model`, `topology`), the
//! engine (constraints, `unset`), the checks that exist only for lint (`checks`: listeners,
//! ordering, suppression), and each family's own checks (`Evaluator::lint`). Suppression applies per object (annotation
//! `dopol.io/ignore: "DPL1001,granularity-trap"` or `"*"`) and per run (`--ignore`).

pub mod checks;
pub mod doc;

use crate::diag::{self, Code, Diagnostic, Severity};
use crate::engine::Engine;
use crate::engine::observed::Observed;
use crate::model::Model;
use crate::pipeline::Evaluated;
use crate::words::counted;
use rayon::prelude::*;
use std::collections::BTreeMap;

/// What to report and what fails the run.
#[derive(Clone, Debug)]
pub struct LintOptions {
    /// Findings at or above this severity fail the run (exit 1).
    pub fail_on: Severity,
    /// Findings below this severity are not printed (they still count as hidden).
    pub min_severity: Severity,
    /// Codes suppressed for the whole run.
    pub ignore: Vec<Code>,
    /// `-n`: only findings about objects in this namespace (input errors are always kept).
    pub namespace: Option<String>,
}

impl Default for LintOptions {
    fn default() -> Self {
        LintOptions {
            fail_on: Severity::Error,
            min_severity: Severity::Info,
            ignore: Vec::new(),
            namespace: None,
        }
    }
}

/// How a lint run ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LintStatus {
    /// Nothing at or above `--fail-on`.
    Passed,
    /// Findings at or above `--fail-on` (exit 1).
    Failed,
    /// The input is malformed (exit 3), whatever the threshold or suppression.
    InputErrors,
}

/// The result of a lint run.
#[derive(Debug)]
pub struct LintResult {
    /// Findings to print, sorted by file and position.
    pub shown: Vec<Diagnostic>,
    /// Findings suppressed by annotation or `--ignore`.
    pub suppressed: usize,
    /// Findings below `--min-severity`.
    pub hidden: usize,
    /// Findings about objects outside `-n`'s namespace.
    pub elsewhere: usize,
    /// The hidden findings that fail the run anyway (at or above `--fail-on`), per code: a run
    /// that fails because of findings it does not print says which.
    pub hidden_failing: Vec<(Code, usize)>,
    /// Objects checked.
    pub objects: usize,
    /// Files read.
    pub files: usize,
    /// The verdict.
    pub status: LintStatus,
}

impl LintResult {
    /// How many shown findings have `severity`.
    pub fn count(&self, severity: Severity) -> usize {
        self.shown.iter().filter(|d| d.severity == severity).count()
    }

    /// A one-line summary, e.g. `2 errors, 1 warning, 3 infos (1 suppressed) in 12 objects from 3 files`.
    pub fn summary(&self) -> String {
        let mut parts = Vec::new();
        if self.shown.is_empty() && self.hidden > 0 {
            parts.push("nothing shown".to_string());
        } else if self.shown.is_empty() {
            parts.push("no issues".to_string());
        } else {
            parts.push(counted(self.count(Severity::Error), "error"));
            parts.push(counted(self.count(Severity::Warning), "warning"));
            parts.push(counted(self.count(Severity::Info), "info"));
        }
        let mut extra = Vec::new();
        if self.suppressed > 0 {
            extra.push(format!("{} suppressed", self.suppressed));
        }
        if self.hidden > 0 {
            extra.push(format!("{} below --min-severity", self.hidden));
        }
        if self.elsewhere > 0 {
            extra.push(format!("{} in other namespaces", self.elsewhere));
        }
        let extra = if extra.is_empty() {
            String::new()
        } else {
            format!(" ({})", extra.join(", "))
        };
        format!(
            "{}{extra} in {} from {}",
            parts.join(", "),
            counted(self.objects, "object"),
            counted(self.files, "file")
        )
    }
}

impl LintResult {
    /// Why a run fails when the findings that fail it are not printed (`--min-severity`, `-q`):
    /// `lint failed on 3 findings not shown by --min-severity error: DPL4001 (...) ×2, ...`.
    /// `hidden_by` names the option that hid them.
    pub fn hidden_failure(&self, fail_on: Severity, hidden_by: &str) -> Option<String> {
        if self.status != LintStatus::Failed || self.hidden_failing.is_empty() {
            return None;
        }
        let total: usize = self.hidden_failing.iter().map(|(_, n)| n).sum();
        let codes: Vec<String> = self
            .hidden_failing
            .iter()
            .map(|(code, n)| match n {
                1 => format!("{code} ({})", code.name()),
                n => format!("{code} ({}) ×{n}", code.name()),
            })
            .collect();
        let lead = if self.shown.iter().any(|d| d.severity >= fail_on) {
            "lint also fails on"
        } else {
            "lint failed on"
        };
        Some(format!(
            "{lead} {} not shown by {hidden_by}: {}",
            counted(total, "finding"),
            codes.join(", ")
        ))
    }
}

/// Every diagnostic about the evaluated input.
pub fn collect(evaluated: &Evaluated) -> Vec<Diagnostic> {
    let mut diagnostics: Vec<Diagnostic> = evaluated.diagnostics().cloned().collect();
    let (engine, engine_diagnostics) = Engine::new(&evaluated.model, &evaluated.topology);
    diagnostics.extend(engine_diagnostics);
    crate::platform::timing::mark("engine");
    // Dropped when the checks are done, before the findings are rendered.
    let (observed, constraint_warnings) = Observed::scoped(&engine);
    diagnostics.extend(constraint_warnings);
    crate::platform::timing::mark("fold");
    // The checks read what is built and write nothing shared: each family's lint (one can take
    // a whole core on a big input) runs beside the two small shared checks; findings are joined
    // in order.
    let evaluators: Vec<_> = engine.evaluators().collect();
    let ((ordering, suppression), families) = rayon::join(
        || {
            let mut ordering = checks::ordering::check(&observed);
            ordering.extend(checks::effect::check(&observed));
            ordering.extend(checks::controller::check(&observed));
            (ordering, checks::suppression::check(&evaluated.model))
        },
        || {
            (evaluators.par_iter())
                .map(|evaluator| evaluator.lint(&observed))
                .collect::<Vec<_>>()
        },
    );
    crate::platform::timing::mark("checks and family lints");
    diagnostics.extend(ordering);
    diagnostics.extend(suppression);
    diagnostics.extend(checks::listeners::check(
        &evaluated.model,
        &evaluated.topology,
    ));
    diagnostics.extend(checks::listener_sets::check(
        &evaluated.model,
        &evaluated.topology,
    ));
    diagnostics.extend(families.into_iter().flatten());
    diagnostics.extend(evaluated.model.registry.notes().iter().cloned());
    crate::platform::timing::mark("listener checks");
    diagnostics
}

/// Whether an object's `dopol.io/ignore` annotation (or `--ignore`) suppresses a diagnostic.
fn suppressed(diagnostic: &Diagnostic, model: &Model, options: &LintOptions) -> bool {
    // Input the API server would reject is not a finding to wave away: it is always shown and
    // always exits 3.
    if diagnostic.is_input_error() {
        return false;
    }
    if options.ignore.contains(&diagnostic.code) {
        return true;
    }
    let Some(codes) = diagnostic
        .object
        .as_ref()
        .and_then(|o| model.ignored_codes.get(o))
    else {
        return false;
    };
    codes
        .iter()
        .any(|c| c == "*" || Code::parse(c) == Some(diagnostic.code))
}

/// Whether `-n` keeps a diagnostic: input errors always (they are about files, and exit 3
/// whatever the filter), findings when their object (`Kind ns/name`) is in the namespace.
fn in_namespace(diagnostic: &Diagnostic, namespace: Option<&str>) -> bool {
    let Some(namespace) = namespace else {
        return true;
    };
    if diagnostic.is_input_error() {
        return true;
    }
    let object_namespace = diagnostic
        .object
        .as_deref()
        .and_then(|o| o.split_once(' '))
        .map(|(_, name)| name.split_once('/').map_or("", |(ns, _)| ns));
    object_namespace.is_none_or(|ns| ns == namespace)
}

/// Applies suppression and thresholds.
pub fn apply(mut diagnostics: Vec<Diagnostic>, model: &Model, options: &LintOptions) -> LintResult {
    diag::sort_and_dedup(&mut diagnostics, &model.sources);
    let input_errors = diagnostics.iter().any(Diagnostic::is_input_error);
    let (suppressed, kept): (Vec<Diagnostic>, Vec<Diagnostic>) = diagnostics
        .into_iter()
        .partition(|d| suppressed(d, model, options));
    let (kept, elsewhere): (Vec<Diagnostic>, Vec<Diagnostic>) = kept
        .into_iter()
        .partition(|d| in_namespace(d, options.namespace.as_deref()));
    let failing = kept.iter().any(|d| d.severity >= options.fail_on);
    let (shown, hidden): (Vec<Diagnostic>, Vec<Diagnostic>) = kept
        .into_iter()
        .partition(|d| d.severity >= options.min_severity);
    let mut hidden_failing: BTreeMap<Code, usize> = BTreeMap::new();
    for d in hidden.iter().filter(|d| d.severity >= options.fail_on) {
        *hidden_failing.entry(d.code).or_default() += 1;
    }
    LintResult {
        shown,
        suppressed: suppressed.len(),
        hidden: hidden.len(),
        elsewhere: elsewhere.len(),
        hidden_failing: hidden_failing.into_iter().collect(),
        objects: model.objects.len(),
        files: model.sources.len() - model.registry.declared_sources().len(),
        status: if input_errors {
            LintStatus::InputErrors
        } else if failing {
            LintStatus::Failed
        } else {
            LintStatus::Passed
        },
    }
}
