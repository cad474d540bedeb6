//! `dopol test`: policy suites that CI runs. A suite (`*.dopoltest.yaml`, `kind: PolicyTest`)
//! states what must hold of the *effective, inherited* result — a kind present on every path a
//! selector names, a rule's source and value as `dopol effective` shows them, where a request
//! lands — and each case passes or fails with its first difference.
//!
//! The stages are plain data, like the pipeline's: [`parse`] reads a suite (the YAML loader's
//! spanned tree, so a wrong suite is located like a wrong manifest), [`select`] resolves its
//! selectors and names against the input (a name that matches nothing is an error, never a
//! vacuous pass), [`check`] evaluates each case over the engine's effective set and the request
//! simulator, [`coverage`] says which paths no case selects, and [`gate`] compares two
//! revisions for paths a change weakens. What "authentication" or "weaker" means is each
//! family's to say ([`crate::policy::gate`]).

pub mod check;
pub mod coverage;
pub mod diags;
pub mod gate;
pub mod index;
pub mod parse;
pub mod results;
pub mod select;

use crate::source::Span;
use crate::yaml::Node;

/// A suite's `apiVersion`.
pub const API_VERSION: &str = "dopol.dev/v1alpha1";
/// A suite's `kind`.
pub const KIND: &str = "PolicyTest";
/// How suite files are named, for directory walks.
pub const FILE_SUFFIX: &str = ".dopoltest.yaml";

/// A string of a suite with where it is written.
#[derive(Clone, Debug)]
pub struct Text {
    /// The string.
    pub text: String,
    /// Where.
    pub span: Span,
}

/// One suite file.
#[derive(Clone, Debug)]
pub struct Suite {
    /// The file, as named.
    pub file: String,
    /// `inputs`, relative to the suite's directory.
    pub inputs: Vec<Text>,
    /// The cases, in order.
    pub cases: Vec<Case>,
}

/// One case.
#[derive(Clone, Debug)]
pub struct Case {
    /// Its name.
    pub name: Text,
    /// What it selects.
    pub body: CaseBody,
    /// What it expects.
    pub expect: Expect,
}

/// What a case runs on.
#[derive(Clone, Debug)]
pub enum CaseBody {
    /// The paths a selector names, less the `except` ones.
    Paths {
        /// `paths`.
        selector: Selector,
        /// `except`.
        except: Vec<Selector>,
    },
    /// One simulated request.
    Request(RequestSpec),
}

/// A path selector: `gateway` and `route` match as `--gateway`/`--route` do, `listener` and
/// `rule` by name.
#[derive(Clone, Debug)]
pub struct Selector {
    /// The selector as written.
    pub span: Span,
    /// `gateway`.
    pub gateway: Option<Text>,
    /// `listener`.
    pub listener: Option<Text>,
    /// `route`.
    pub route: Option<Text>,
    /// `rule`.
    pub rule: Option<Text>,
}

/// A request case's request, as `dopol request` takes it.
#[derive(Clone, Debug)]
pub struct RequestSpec {
    /// The request as written.
    pub span: Span,
    /// `method`.
    pub method: Text,
    /// `url`.
    pub url: Text,
    /// `headers`, as `Name: value`.
    pub headers: Vec<String>,
    /// `attributes`, as `key=value`.
    pub attributes: Vec<String>,
    /// `gateway`.
    pub gateway: Option<Text>,
}

/// A case's `expect`.
#[derive(Clone, Debug, Default)]
pub struct Expect {
    /// Per policy kind.
    pub kinds: Vec<KindExpect>,
    /// Family-neutral checks (`authentication: true`), as written (resolved in [`select`]).
    pub checks: Vec<(Text, bool)>,
    /// A request case's route (`ns/name`).
    pub route: Option<Text>,
    /// A request case's route rule.
    pub rule: Option<Text>,
}

impl Expect {
    /// Whether it expects nothing.
    pub fn is_empty(&self) -> bool {
        self.kinds.is_empty()
            && self.checks.is_empty()
            && self.route.is_none()
            && self.rule.is_none()
    }
}

/// What a case expects of one policy kind.
#[derive(Clone, Debug)]
pub struct KindExpect {
    /// The kind as written.
    pub kind: Text,
    /// `present`: any effective rule of the kind (or none).
    pub present: Option<bool>,
    /// Per rule key.
    pub rules: Vec<RuleExpect>,
    /// What happened to other policies' rules (`overridden`, `conflicted`, ...).
    pub outcomes: Vec<OutcomeExpect>,
    /// The expectation as written.
    pub span: Span,
}

/// What a case expects of one rule key.
#[derive(Clone, Debug)]
pub struct RuleExpect {
    /// The key.
    pub key: Text,
    /// `absent: true`.
    pub absent: bool,
    /// `source`: the policy that gives it.
    pub source: Option<Text>,
    /// `value`, compared exactly with what `effective` shows.
    pub value: Option<Node>,
    /// `origins`, in order.
    pub origins: Option<Vec<Text>>,
    /// `block`: `defaults`, `overrides`, `bare` or `spec`, of the source policy's block.
    pub block: Option<Text>,
    /// `strategy`: `atomic` or `merge`, of that block.
    pub strategy: Option<Text>,
    /// `applies` (request cases): the family's verdict for the request.
    pub applies: Option<bool>,
}

/// An expected outcome: what happened on the selected paths to rule `rule` of `policy`
/// (`effective`, `superseded`, `overridden`, `deactivated`, `merged`, `not-applied`, as
/// `dopol overridden` and `status` name them), or that the policy is `conflicted`.
#[derive(Clone, Debug)]
pub struct OutcomeExpect {
    /// The policy, as `--policy` names one.
    pub policy: Text,
    /// The rule key (not for `conflicted`).
    pub rule: Option<Text>,
    /// The outcome word.
    pub outcome: Text,
}
