//! The `PolicyTestReport`: every case's result, the suites' problems, coverage and the gate's
//! findings — one value every output format renders (`render::suite`).

use super::check::{CaseResult, Outcome};
use super::coverage::Coverage;
use super::gate::{Verdict, Weakening};
use serde::Serialize;

/// Counts of the report.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Summary {
    /// Cases run.
    pub cases: usize,
    /// Cases passed.
    pub passed: usize,
    /// Cases failed.
    pub failed: usize,
    /// Problems of the suites (each is an error: exit 2).
    pub problems: usize,
}

/// The report of one `dopol test` run.
#[derive(Clone, Debug, Default)]
pub struct TestReport {
    /// Per case, in suite then case order.
    pub results: Vec<CaseResult>,
    /// The suites' problems, in order (rendered with the suites' sources).
    pub problems: Vec<crate::diag::Diagnostic>,
    /// With `--coverage`: per group of suites sharing inputs, in order.
    pub coverage: Vec<Coverage>,
    /// With `--fail-under`: the threshold.
    pub fail_under: Option<f64>,
    /// With `--against`: the revision and what it found.
    pub against: Option<(String, Vec<Weakening>)>,
}

impl TestReport {
    /// The counts.
    pub fn summary(&self) -> Summary {
        let passed = self
            .results
            .iter()
            .filter(|r| r.outcome == Outcome::Passed)
            .count();
        Summary {
            cases: self.results.len(),
            passed,
            failed: self.results.len() - passed,
            problems: self.problems.len(),
        }
    }

    /// Whether the coverage is under `--fail-under` (in some group).
    pub fn under_threshold(&self) -> bool {
        self.fail_under
            .is_some_and(|pct| self.coverage.iter().any(|c| c.total.percent < pct))
    }

    /// Whether the gate found a weakened path (or one whose family cannot say).
    pub fn weakened(&self) -> bool {
        self.against.as_ref().is_some_and(|(_, w)| !w.is_empty())
    }

    /// Whether anything failed: a case, the coverage threshold or the gate.
    pub fn failed(&self) -> bool {
        self.summary().failed > 0 || self.under_threshold() || self.weakened()
    }
}

impl Verdict {
    /// As the table prints it.
    pub fn word(self) -> &'static str {
        match self {
            Verdict::Weaker => "WEAKER",
            Verdict::CannotSay => "CANNOT SAY",
        }
    }
}
