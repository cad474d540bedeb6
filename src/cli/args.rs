//! Command-line definition (clap). Completions and man pages are generated from it.

use clap::builder::{PossibleValue, TypedValueParser};
use clap::{Args, Parser, Subcommand, ValueEnum};

/// Offline evaluator and linter for Gateway API inherited policies with defaults and overrides.
///
/// dopol reads Kubernetes manifests (Gateways, HTTPRoutes, GRPCRoutes and their policies: Kuadrant
/// AuthPolicy, RateLimitPolicy and TokenRateLimitPolicy; kgateway TrafficPolicy, ListenerPolicy
/// and BackendConfigPolicy (with the BackendTLSPolicy that replaces its tls); Envoy Gateway
/// BackendTrafficPolicy, ClientTrafficPolicy, SecurityPolicy and EnvoyExtensionPolicy;
/// agentgateway AgentgatewayPolicy; and the kinds declared in a families file), builds the Gateway → listener → route → rule hierarchy,
/// and runs each policy controller's merge locally: what is enforced on every path, which policy
/// gave each rule, and why. It also reads Kuma's mesh (Mesh, Dataplanes, MeshServices) and its
/// targetRef policies (MeshTimeout, MeshCircuitBreaker, MeshRateLimit, MeshTLS, MeshAccessLog,
/// MeshFaultInjection, MeshRetry, MeshHealthCheck, MeshLoadBalancingStrategy,
/// MeshTrafficPermission, MeshTrace, MeshMetric, MeshProxyPatch, MeshPassthrough): what each
/// resolves to for every Dataplane's inbounds and outbounds, and which policies gave it.
#[derive(Debug, Parser)]
#[command(
    name = "dopol",
    version,
    propagate_version = true,
    max_term_width = 100
)]
#[command(
    after_help = "Exit codes: 0 success, 1 lint findings or differences, 2 usage error, 3 input errors or output that cannot be written, 4 internal error."
)]
pub struct Cli {
    /// The command to run.
    #[command(subcommand)]
    pub command: Command,
}

/// dopol's commands.
#[derive(Debug, Clone, Subcommand)]
pub enum Command {
    /// Show the effective policy of every path, with the source of every rule.
    Effective(EffectiveArgs),
    /// Show the rules that lost somewhere (superseded, overridden, deactivated, not applied), where, and to whom.
    Overridden(ReportArgs),
    /// Show the status conditions each policy's controller would write (Kuadrant's Accepted and Enforced, kgateway's, Envoy Gateway's and agentgateway's per Gateway, Kuma's Accepted and Enforced) and every rule's outcomes.
    Status(ReportArgs),
    /// Show where a policy (or one of its rules) is effective, and where it lost.
    Reach(ReachArgs),
    /// Explain one path's effective policy step by step.
    Explain(ExplainArgs),
    /// Show the Gateway → listener → route → rule tree with the policies attached to each node.
    Topology(TopologyArgs),
    /// Write one self-contained HTML page: the graph of every hierarchy with its policies, and the effective-policy stack of each path (who won each rule, and why).
    View(ViewArgs),
    /// Check the manifests and report every problem with a stable code (for CI and pre-commit).
    Lint(LintArgs),
    /// Compare the effective policy of every path between two revisions, or with a what-if.
    Diff(DiffArgs),
    /// Simulate one request: which route rule it reaches, and which policy rules apply to it.
    Request(RequestArgs),
    /// Run policy test suites (`*.dopoltest.yaml`): expectations on the effective policy of paths and on requests, coverage, and a no-weakening gate against a git revision.
    Test(TestArgs),
    /// Print a shell completion script.
    Completions(CompletionsArgs),
    /// Print dopol's man pages (or write one page per command into a directory).
    Man(ManArgs),
}

/// Manifest paths given as arguments, on the commands that have no other positional argument.
#[derive(Debug, Args, Clone, Default)]
pub struct PathArgs {
    /// Manifest files, directories (recursive) or glob patterns, as with -f, read after the -f
    /// ones; an unquoted shell glob works (`dopol lint manifests/*.yaml`).
    #[arg(value_name = "PATH")]
    pub paths: Vec<String>,
}

/// Where the manifests come from and how they are read.
#[derive(Debug, Args, Clone)]
pub struct InputArgs {
    /// Manifest file, directory (recursive), glob pattern, or `-` for stdin. Repeatable, or
    /// comma-separated as kubectl reads it (`-f a.yaml,b.yaml`).
    #[arg(
        short = 'f',
        long = "filename",
        value_name = "PATH",
        value_delimiter = ','
    )]
    pub files: Vec<String>,
    /// Leave paths matching this gitignore-style pattern out of directory walks and glob
    /// matches (`charts/`, `*.tmpl.yaml`, `/deploy/generated`), on top of .gitignore and
    /// .dopolignore; anchored at the working directory. Repeatable.
    #[arg(long = "exclude", value_name = "GLOB")]
    pub exclude: Vec<String>,
    /// Read settings from this config file instead of the `.dopol.yaml` found upward from the
    /// working directory.
    #[arg(long, value_name = "FILE", conflicts_with = "no_config")]
    pub config: Option<std::path::PathBuf>,
    /// Read no config file.
    #[arg(long)]
    pub no_config: bool,
    /// Set from the config file and `--exclude` before the command runs.
    #[arg(skip)]
    pub resolved: Resolved,
    /// Namespace of objects without one (default `default`); also shows only paths whose route
    /// or Gateway (and policies) are in this namespace.
    #[arg(short = 'n', long)]
    pub namespace: Option<String>,
    /// Create a stand-in for every Gateway that routes reference but the input lacks.
    #[arg(long)]
    pub assume_gateways: bool,
    /// What if: add the manifests in this file or directory, replacing objects with the same
    /// identity. Repeatable.
    #[arg(long = "with", value_name = "FILE|DIR")]
    pub with: Vec<String>,
    /// What if: remove this object (`Kind/namespace/name`, or `Kind/name` if cluster-scoped). Repeatable.
    #[arg(long = "without", value_name = "KIND/NS/NAME")]
    pub without: Vec<String>,
    /// A families file declaring policy kinds (group, kind, targets, rule layout, merge model).
    /// Repeatable. Without it, `.dopol/families.yaml` is read when it exists.
    #[arg(long = "families", value_name = "FILE")]
    pub families: Vec<String>,
    /// Validate objects against the CRDs in this file or directory (`kubectl get crd -o yaml`
    /// output works) instead of the bundled ones, kind by kind; also gives the CRD of a kind
    /// declared with `--families`. Repeatable.
    #[arg(long = "crds", value_name = "PATH")]
    pub crds: Vec<String>,
    /// The Gateway API CRD channel objects are validated against: `experimental` (the default,
    /// a superset) or `standard` (experimental fields are then unknown fields).
    #[arg(long, value_enum, default_value_t = GatewayApiChannel::Experimental, value_name = "CHANNEL")]
    pub gateway_api_channel: GatewayApiChannel,
    /// The families' controller settings, each family's own flags (`Registry::options`).
    #[command(flatten)]
    pub settings: super::options::FamilySettings,
    #[command(flatten)]
    pub display: DisplayArgs,
}

/// What the config file and `--exclude` resolve to, filled in before a command runs.
#[derive(Debug, Clone, Default)]
pub struct Resolved {
    /// The compiled exclude patterns (the config's, then `--exclude`).
    pub excludes: crate::load::ignores::Excludes,
    /// Whether the inputs are the config file's `inputs` (none were given on the command line).
    pub inputs_from_config: bool,
    /// The config file's `lint` settings, under the lint flags.
    pub lint: LintDefaults,
    /// A config file that cannot be used, for `lint` to report in its output format.
    pub rejected: Option<super::config::Rejected>,
    /// The config file's `tests`: the suites `dopol test` runs when none are named.
    pub tests: Vec<String>,
}

/// The config file's `lint` settings.
#[derive(Debug, Clone, Default)]
pub struct LintDefaults {
    /// `fail-on`.
    pub fail_on: Option<Level>,
    /// `min-severity`.
    pub min_severity: Option<Level>,
    /// `ignore`.
    pub ignore: Vec<String>,
}

/// Terminal behaviour.
#[derive(Debug, Args, Clone)]
pub struct DisplayArgs {
    /// When to use colours on stderr diagnostics (never in machine formats).
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto, value_name = "WHEN")]
    pub color: ColorChoice,
    /// Print input statistics and info-level diagnostics.
    #[arg(short, long, conflicts_with = "quiet")]
    pub verbose: bool,
    /// Print only error diagnostics.
    #[arg(short, long)]
    pub quiet: bool,
}

/// Colour choice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    /// Colour when stderr is a terminal and NO_COLOR is unset.
    Auto,
    /// Always colour.
    Always,
    /// Never colour.
    Never,
}

/// Report filters.
#[derive(Debug, Args, Clone, Default)]
pub struct FilterArgs {
    /// Only this policy kind, `Kind` or `Kind.group` (AuthPolicy, TrafficPolicy, BackendTrafficPolicy, SecurityPolicy, ...). Repeatable.
    #[arg(long = "kind", value_name = "KIND", value_parser = Completed::Kinds, hide_possible_values = true)]
    pub kinds: Vec<String>,
    /// Only paths through this Gateway (`name` or `ns/name`).
    #[arg(long, value_name = "[NS/]NAME")]
    pub gateway: Option<String>,
    /// Only paths through this route (`name` or `ns/name`; `ns/name[Kind]` as path ids write a namesake of another kind).
    #[arg(long, value_name = "[NS/]NAME")]
    pub route: Option<String>,
    /// Only what involves this policy (`name`, `ns/name`, `Kind/ns/name` or a locator).
    #[arg(long, value_name = "POLICY")]
    pub policy: Option<String>,
    /// The filters of the families' own hierarchies, each family's own flags.
    #[command(flatten)]
    pub families: super::options::FamilyFilters,
}

/// Output formats of reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ReportFormat {
    /// Human-readable tables, sized to the terminal (or `COLUMNS`): free text such as values is
    /// cut with `…`, names never are. Not cut when stdout is a file or a pipe.
    Table,
    /// Tables with whole values, every row naming its whole path (Gateway, listener, route
    /// rule), so each line found with `grep` keeps its context.
    Wide,
    /// A YAML document.
    Yaml,
    /// A JSON document (its contract and schema: docs/json.md).
    Json,
}

impl ReportFormat {
    /// Whether the format is for people (`table` or `wide`).
    pub fn is_table(self) -> bool {
        matches!(self, ReportFormat::Table | ReportFormat::Wide)
    }
}

/// Output formats of `diff`: those of reports, and a page.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DiffFormat {
    /// Each distinct change once, where it happens and its value diff, sized to the terminal.
    Table,
    /// The same with whole values.
    Wide,
    /// The `EffectivePolicyDiff` document as YAML.
    Yaml,
    /// The `EffectivePolicyDiff` document (docs/json.md).
    Json,
    /// One self-contained HTML page: the changes grouped as in the table, before and after side
    /// by side (docs/view.md).
    Html,
}

impl DiffFormat {
    /// The report format, or `None` for the page.
    pub fn report(self) -> Option<ReportFormat> {
        match self {
            DiffFormat::Table => Some(ReportFormat::Table),
            DiffFormat::Wide => Some(ReportFormat::Wide),
            DiffFormat::Yaml => Some(ReportFormat::Yaml),
            DiffFormat::Json => Some(ReportFormat::Json),
            DiffFormat::Html => None,
        }
    }
}

/// Arguments of `effective`, `overridden` and `status`.
#[derive(Debug, Clone, Args)]
pub struct ReportArgs {
    #[command(flatten)]
    pub paths: PathArgs,
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub filters: FilterArgs,
    /// Output format.
    #[arg(short, long, value_enum, default_value_t = ReportFormat::Table)]
    pub output: ReportFormat,
}

/// Arguments of `effective`.
#[derive(Debug, Clone, Args)]
pub struct EffectiveArgs {
    #[command(flatten)]
    pub report: ReportArgs,
    /// With `-o json`: print each distinct effective policy once and map every path id to the
    /// ids of its policies (`kind: EffectivePolicyIndex`; `jq '.paths["<pathId>"]'`).
    #[arg(long)]
    pub compact: bool,
    /// List the paths with no effective policy of the kinds given with `--kind` (default: every
    /// kind the input has a policy of), and which kinds each lacks (`kind: UncoveredPathList`).
    #[arg(long, conflicts_with_all = ["compact", "policy"])]
    pub uncovered: bool,
}

/// `dopol reach`.
#[derive(Debug, Clone, Args)]
pub struct ReachArgs {
    /// The policy (`name`, `ns/name`, `Kind/ns/name` or a locator), optionally with `#` and a rule key:
    /// `infra/gw-auth#authentication#jwt`.
    #[arg(
        value_name = "POLICY[#RULEKEY]",
        required_unless_present = "policy_flag"
    )]
    pub policy: Option<String>,
    /// The policy, as with the other commands' `--policy` (same as the positional argument).
    #[arg(
        long = "policy",
        id = "policy_flag",
        value_name = "POLICY[#RULEKEY]",
        conflicts_with = "policy"
    )]
    pub policy_flag: Option<String>,
    #[command(flatten)]
    pub input: InputArgs,
    /// Output format.
    #[arg(short, long, value_enum, default_value_t = ReportFormat::Table)]
    pub output: ReportFormat,
}

/// `dopol explain`.
#[derive(Debug, Clone, Args)]
pub struct ExplainArgs {
    #[command(flatten)]
    pub paths: PathArgs,
    #[command(flatten)]
    pub input: InputArgs,
    /// The path id to explain.
    #[arg(long, value_name = "PATHID", conflicts_with_all = ["route", "rule"])]
    pub path: Option<String>,
    /// Explain the paths of this route (`name` or `ns/name`); with several, each is explained.
    #[arg(long, value_name = "[NS/]NAME", required_unless_present = "path")]
    pub route: Option<String>,
    /// Only this rule of the route (its name, or `rule-N`).
    #[arg(long, value_name = "NAME", requires = "route")]
    pub rule: Option<String>,
    /// Only paths through this listener (`name`: the Gateway's or a ListenerSet's; `[ns/]gateway#name`; `[ns/]listenerset#name`; `[ns/]gateway>[ns/]listenerset#name`).
    #[arg(long, value_name = "LISTENER", requires = "route")]
    pub listener: Option<String>,
    /// Only paths through this Gateway (`name` or `ns/name`), as with the other reports'
    /// `--gateway`.
    #[arg(long, value_name = "[NS/]NAME", requires = "route")]
    pub gateway: Option<String>,
    /// Only this policy kind. Repeatable.
    #[arg(long = "kind", value_name = "KIND", value_parser = Completed::Kinds, hide_possible_values = true)]
    pub kinds: Vec<String>,
    /// Output format (`table` prints the explanation as text).
    #[arg(short, long, value_enum, default_value_t = ReportFormat::Table)]
    pub output: ReportFormat,
}

/// Output formats of `dopol topology`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TopologyOutput {
    /// An indented tree.
    Tree,
    /// Graphviz DOT.
    Dot,
    /// A Mermaid flowchart.
    Mermaid,
    /// A JSON document (`kind: Topology`).
    Json,
    /// A YAML document (`kind: Topology`).
    Yaml,
}

/// `dopol topology`.
#[derive(Debug, Clone, Args)]
pub struct TopologyArgs {
    #[command(flatten)]
    pub paths: PathArgs,
    #[command(flatten)]
    pub input: InputArgs,
    /// Only this Gateway (`name` or `ns/name`), with what is attached to it.
    #[arg(long, value_name = "[NS/]NAME")]
    pub gateway: Option<String>,
    /// Only this route (`name` or `ns/name`), under the listeners that accepted it, and the
    /// routes it delegates to.
    #[arg(long, value_name = "[NS/]NAME")]
    pub route: Option<String>,
    /// The filters of the families' own hierarchies (`--mesh`, `--dataplane`).
    #[command(flatten)]
    pub families: super::options::FamilyFilters,
    /// Output format.
    #[arg(short, long, value_enum, default_value_t = TopologyOutput::Tree)]
    pub output: TopologyOutput,
}

/// `dopol view`.
#[derive(Debug, Clone, Args)]
#[command(
    after_help = "The page opens from file:// and makes no network request; open a path's \
stack directly with FILE.html#path=<path id>. See docs/view.md."
)]
pub struct ViewArgs {
    #[command(flatten)]
    pub paths: PathArgs,
    #[command(flatten)]
    pub input: InputArgs,
    /// The HTML file to write (`-` for stdout).
    #[arg(short, long, value_name = "FILE", default_value = "dopol-view.html")]
    pub output: String,
}

/// `dopol diff`.
#[derive(Debug, Clone, Args)]
pub struct DiffArgs {
    /// The old side: a directory or file, or `git:<rev>` (the -f paths at that revision). Without
    /// sides, OLD is the -f inputs and NEW the same with --with/--without applied.
    #[arg(value_name = "OLD")]
    pub old: Option<String>,
    /// The new side (same forms). Omitted: the -f inputs in the working tree. --with/--without
    /// apply to this side.
    #[arg(value_name = "NEW")]
    pub new: Option<String>,
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub filters: FilterArgs,
    /// Output format.
    #[arg(short, long, value_enum, default_value_t = DiffFormat::Table)]
    pub output: DiffFormat,
    /// Print one line per path with the number of rules added, removed and changed (table format).
    #[arg(long, conflicts_with = "paths")]
    pub stat: bool,
    /// List every path's changes, by Gateway, route and rule, instead of each distinct change
    /// once with where it happens (table format).
    #[arg(long)]
    pub paths: bool,
}

/// Severity levels on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Level {
    /// Errors only.
    Error,
    /// Warnings and errors.
    Warning,
    /// Everything.
    Info,
}

impl Level {
    /// As a diagnostic severity.
    pub fn severity(self) -> crate::diag::Severity {
        match self {
            Level::Error => crate::diag::Severity::Error,
            Level::Warning => crate::diag::Severity::Warning,
            Level::Info => crate::diag::Severity::Info,
        }
    }
}

/// Output formats of `dopol lint`. The format never changes the exit code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum LintFormat {
    /// Diagnostics with source snippets.
    Human,
    /// A JSON document (`kind: LintReport`).
    Json,
    /// SARIF 2.1.0 (GitHub code scanning).
    Sarif,
    /// GitHub Actions workflow commands (annotations).
    Github,
    /// JUnit XML.
    Junit,
}

/// `dopol lint`.
#[derive(Debug, Clone, Args)]
#[command(after_help = "Suppressing findings on one object: the annotation
  metadata:
    annotations:
      dopol.io/ignore: \"DPL4004,granularity-trap\"   # codes or names, comma-separated; \"*\" for all
silences the findings about that object (a Gateway, route or policy). --ignore does the same for
the whole run. Suppressed findings are counted in the summary; input errors (exit 3) are never
suppressed.")]
pub struct LintArgs {
    #[command(flatten)]
    pub paths: PathArgs,
    #[command(flatten)]
    pub input: InputArgs,
    /// Output format.
    #[arg(short, long, value_enum, default_value_t = LintFormat::Human)]
    pub output: LintFormat,
    /// Fail (exit 1) when a finding has at least this severity [default: error, or the config
    /// file's `lint.fail-on`].
    #[arg(long, value_enum, value_name = "LEVEL")]
    pub fail_on: Option<Level>,
    /// Print only findings with at least this severity [default: info, or the config file's
    /// `lint.min-severity`].
    #[arg(long, value_enum, value_name = "LEVEL")]
    pub min_severity: Option<Level>,
    /// Suppress a code (`DPL4004` or `ordered-by-name`) for the whole run, on top of the config
    /// file's `lint.ignore`. Repeatable, or comma-separated.
    #[arg(long = "ignore", value_name = "CODE", value_parser = Completed::LintCodes, hide_possible_values = true)]
    pub ignore: Vec<String>,
    /// Print the catalogue of checks and exit.
    #[arg(long, conflicts_with = "explain")]
    pub list: bool,
    /// Print the documentation of one check and exit.
    #[arg(long, value_name = "CODE", value_parser = Completed::LintCodes, hide_possible_values = true)]
    pub explain: Option<String>,
}

/// Shells for completion scripts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Shell {
    /// Bash.
    Bash,
    /// Zsh.
    Zsh,
    /// Fish.
    Fish,
    /// PowerShell.
    Powershell,
    /// Elvish.
    Elvish,
}

/// `dopol completions`.
#[derive(Debug, Clone, Args)]
pub struct CompletionsArgs {
    /// The shell.
    #[arg(value_enum)]
    pub shell: Shell,
}

/// `dopol man`.
#[derive(Debug, Clone, Args)]
pub struct ManArgs {
    /// Write `dopol.1` and one `dopol-<command>.1` per command into this directory instead of
    /// printing the main page.
    #[arg(long, value_name = "DIR")]
    pub out_dir: Option<std::path::PathBuf>,
}

/// `dopol request`.
#[derive(Debug, Clone, Args)]
#[command(after_help = "Examples:
  dopol request -f manifests/ GET https://shop.example.com/cart?id=3 -H 'x-team: a'
  dopol request -f manifests/ POST http://api.toystore.com/toys --attr auth.identity.userid=bob
  dopol request -f manifests/ --grpc shop.v1.Cart/Add --authority grpc.example.com:50051

Here -n only sets the namespace of objects without one; it filters nothing.

Exit codes: 0 a route rule matched, 1 no route matched (404 / UNIMPLEMENTED) or every request
the rule matches gets a 500 from backends that cannot be resolved, 2 usage error, 3 input errors (the trace is still printed) or output that cannot be written, 4 internal error.")]
pub struct RequestArgs {
    /// HTTP method (case-sensitive; GET, POST, ...). Omit with --grpc.
    #[arg(
        value_name = "METHOD",
        required_unless_present = "grpc",
        requires = "url"
    )]
    pub method: Option<String>,
    /// Absolute `http://` or `https://` URL; its port (default 80/443) picks the listener.
    #[arg(value_name = "URL")]
    pub url: Option<String>,
    /// A request header, `Name: value`. Repeatable; `Host` replaces the URL's host.
    #[arg(short = 'H', long = "header", value_name = "NAME: VALUE")]
    pub headers: Vec<String>,
    /// A request attribute predicates and counters may read (`auth.identity.userid=bob`,
    /// `source.address=10.0.0.1`); VALUE is JSON when it parses as JSON. Repeatable.
    #[arg(long = "attr", value_name = "KEY=VALUE")]
    pub attributes: Vec<String>,
    /// A gRPC call instead of METHOD URL: `SERVICE/METHOD`.
    #[arg(long, value_name = "SERVICE/METHOD", conflicts_with_all = ["method", "url"], requires = "authority")]
    pub grpc: Option<String>,
    /// The gRPC `:authority` (required with --grpc); PORT picks the listener.
    #[arg(long, value_name = "HOST[:PORT]", requires = "grpc")]
    pub authority: Option<String>,
    /// The gRPC call uses TLS (scheme https, default port 443).
    #[arg(long, requires = "grpc")]
    pub tls: bool,
    /// The Gateway that receives the request (`name` or `ns/name`), when several could.
    #[arg(long, value_name = "[NS/]NAME")]
    pub gateway: Option<String>,
    /// Only this policy kind in the policies section. Repeatable.
    #[arg(long = "kind", value_name = "KIND", value_parser = Completed::Kinds, hide_possible_values = true)]
    pub kinds: Vec<String>,
    #[command(flatten)]
    pub input: InputArgs,
    /// Output format.
    #[arg(short, long, value_enum, default_value_t = ReportFormat::Table)]
    pub output: ReportFormat,
}

/// `--gateway-api-channel`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum GatewayApiChannel {
    /// The standard channel.
    Standard,
    /// The experimental channel.
    Experimental,
}

impl From<GatewayApiChannel> for crate::crd::Channel {
    fn from(channel: GatewayApiChannel) -> Self {
        match channel {
            GatewayApiChannel::Standard => crate::crd::Channel::Standard,
            GatewayApiChannel::Experimental => crate::crd::Channel::Experimental,
        }
    }
}

/// An argument that takes any string but completes a fixed list: a value outside the list may
/// still be valid (`Kind.group`, a kind of a families file, a lint code in any case), so the
/// command decides and reports it, while shells offer the list.
#[derive(Clone, Copy, Debug)]
pub enum Completed {
    /// The bundled policy kinds (`AuthPolicy`, `TrafficPolicy`, …).
    Kinds,
    /// Lint codes and their names (`DPL4004`, `ordered-by-name`).
    LintCodes,
}

impl Completed {
    /// The values a shell offers, with their help.
    fn candidates(self) -> Vec<PossibleValue> {
        match self {
            Completed::Kinds => crate::policy::registry::Registry::builtin()
                .kinds()
                .map(|k| PossibleValue::new(k.kind).help(k.locator_prefix()))
                .collect(),
            Completed::LintCodes => crate::diag::Code::all()
                .flat_map(|code| {
                    [
                        PossibleValue::new(code.as_str()).help(code.name()),
                        PossibleValue::new(code.name()).help(code.as_str()),
                    ]
                })
                .collect(),
        }
    }
}

impl TypedValueParser for Completed {
    type Value = String;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<String, clap::Error> {
        clap::builder::StringValueParser::new().parse_ref(cmd, arg, value)
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(self.candidates().into_iter()))
    }
}

/// Output formats of `dopol test`. Every one is well-formed whether cases pass or fail.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TestFormat {
    /// One line per case, the first difference under a failed one.
    Table,
    /// A JSON document (`kind: PolicyTestReport`; schema: docs/schema/policy-test-report.schema.json).
    Json,
    /// JUnit XML: one test suite per suite file, one test case per case.
    Junit,
    /// SARIF 2.1.0: one result per failed case, at the case in its suite.
    Sarif,
    /// GitHub Actions workflow commands: an error annotation per failed case.
    Github,
}

/// `dopol test`.
#[derive(Debug, Clone, Args)]
#[command(
    after_help = "Exit codes: 0 every case passed (and coverage and the gate held), 1 a case failed, coverage is under --fail-under or --against found a weakened path, 2 usage error or a suite that is wrong, 3 input errors in the manifests or output that cannot be written, 4 internal error."
)]
pub struct TestArgs {
    /// Suite files, or directories searched for `*.dopoltest.yaml` (default: the config file's
    /// `tests`, else the working directory). A file named here must be a PolicyTest.
    #[arg(value_name = "SUITE")]
    pub suites: Vec<String>,
    #[command(flatten)]
    pub input: InputArgs,
    /// Run only the cases whose name matches this regular expression.
    #[arg(long, value_name = "REGEX")]
    pub run: Option<String>,
    /// Output format.
    #[arg(short, long, value_enum, default_value_t = TestFormat::Table)]
    pub output: TestFormat,
    /// Report, per policy kind and per Gateway, the share of paths some case selects.
    #[arg(long)]
    pub coverage: bool,
    /// With --coverage: list the paths no case selects.
    #[arg(long)]
    pub show_untested: bool,
    /// Fail (exit 1) when the share of paths some case selects is under PCT percent.
    #[arg(long, value_name = "PCT")]
    pub fail_under: Option<f64>,
    /// The no-weakening gate: fail (exit 1) when a path is weaker than at this git revision
    /// (the -f paths read at REV, as `dopol diff git:REV` reads them).
    #[arg(long, value_name = "REV")]
    pub against: Option<String>,
}
