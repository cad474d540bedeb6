//! The config file, `.dopol.yaml`: a project's default inputs and settings, so pre-commit hooks,
//! CI jobs and people run `dopol lint` without repeating flags.
//!
//! Found like ruff's: the first `.dopol.yaml` in the working directory or above it (up to the
//! filesystem root) is the one, and nothing merges across levels; `--config FILE` names one,
//! `--no-config` reads none. Paths in it are relative to its directory. The command line wins:
//! paths given as arguments or with `-f` replace `inputs`, `--families`/`--crds` replace theirs,
//! `--fail-on`/`--min-severity` replace the lint settings, while `--exclude` and `--ignore` add
//! to the file's lists (a project's exclusions stay in force when someone adds one).
//!
//! A file dopol cannot fully understand stops the run (exit 2) before any manifest is read, with
//! one located `invalid-config` error per problem: an unknown key is a typo whose setting would
//! silently not apply. The format is documented in `docs/config.md`.

use super::args::{Command, InputArgs, Level, LintDefaults, PathArgs};
use super::session::{Session, UsageError};
use crate::diag::{Class, Code, CodeDef, Diagnostic, Severity, Violation};
use crate::load::fields::{FieldPath, Fields};
use crate::load::ignores::Excludes;
use crate::source::SourceMap;
use crate::yaml::{Entry, Node, Value, parse_chunk};
use clap::ValueEnum;
use std::path::{Path, PathBuf};

/// The file name looked for.
pub const FILE_NAME: &str = ".dopol.yaml";

const FILE_KEYS: &[&str] = &["inputs", "exclude", "families", "crds", "lint", "tests"];
const LINT_KEYS: &[&str] = &["fail-on", "min-severity", "ignore"];

/// A config file's settings, paths already made relative to the working directory.
#[derive(Debug, Default)]
pub struct Config {
    /// Default inputs (`-f`).
    pub inputs: Vec<String>,
    /// Exclude patterns, each with the directory it is anchored at.
    pub exclude: Vec<(PathBuf, String)>,
    /// `--families` files.
    pub families: Vec<String>,
    /// `--crds` paths.
    pub crds: Vec<String>,
    /// `lint` settings.
    pub lint: LintDefaults,
    /// `tests`: the suites `dopol test` runs when none are named.
    pub tests: Vec<String>,
}

/// The config file of a run and the directory its paths are relative to: `--config`, else the
/// first `.dopol.yaml` upward from the working directory (named by a relative path, `../..`,
/// so messages stay short).
fn locate(input: &InputArgs) -> Option<(PathBuf, PathBuf)> {
    if input.no_config {
        return None;
    }
    if let Some(file) = &input.config {
        let dir = file.parent().map(Path::to_path_buf).unwrap_or_default();
        return Some((file.clone(), dir));
    }
    let cwd = std::env::current_dir().ok()?;
    let mut up = PathBuf::new();
    for dir in cwd.ancestors() {
        if dir.join(FILE_NAME).is_file() {
            return Some((up.join(FILE_NAME), up));
        }
        up.push("..");
    }
    None
}

/// `path` as seen from the working directory, for a path written in a config file in `dir`.
fn from_config(dir: &Path, path: &str) -> String {
    if dir.as_os_str().is_empty() {
        path.to_string()
    } else {
        dir.join(path).display().to_string()
    }
}

/// Reads and checks the config file at `file` (paths in it relative to `dir`).
pub fn read(file: &Path, dir: &Path) -> Result<Config, (Vec<Diagnostic>, SourceMap)> {
    let name = file.display().to_string();
    let mut sources = SourceMap::new();
    let text = match std::fs::read(file).map(String::from_utf8) {
        Ok(Ok(text)) => text,
        Ok(Err(_)) => return Err((vec![unreadable(&name, "it is not valid UTF-8")], sources)),
        Err(e) => return Err((vec![unreadable(&name, &e.to_string())], sources)),
    };
    let id = sources.add(name.clone(), text.as_str());
    let mut syntax = Vec::new();
    let documents = parse_chunk(id, &text, 0..text.len(), &mut syntax);
    if !syntax.is_empty() {
        return Err((
            crate::diag::as_file_errors(syntax, Code::INVALID_CONFIG),
            sources,
        ));
    }
    let mut fields = Fields::new(format!("config file {name}"));
    let config = match documents.as_slice() {
        [] => Config::default(),
        [document] => read_root(&mut fields, &document.root, dir),
        [_, second, ..] => {
            fields.invalid(
                second.root.span,
                "a config file holds one document".into(),
                "second document",
            );
            Config::default()
        }
    };
    let diagnostics = fields.into_diagnostics();
    if diagnostics.is_empty() {
        Ok(config)
    } else {
        Err((
            crate::diag::as_file_errors(diagnostics, Code::INVALID_CONFIG),
            sources,
        ))
    }
}

fn unreadable(name: &str, why: &str) -> Diagnostic {
    Diagnostic::from(InvalidConfig::Unreadable { name, why }).with_file(name)
}

fn read_root(fields: &mut Fields<'_>, root: &Node, dir: &Path) -> Config {
    let path = FieldPath::ROOT;
    let mut config = Config::default();
    let Some(entries) = fields.map(root, &path) else {
        return config;
    };
    unknown_keys(fields, entries, "", FILE_KEYS);
    let paths = |fields: &mut Fields<'_>, key: &str| -> Vec<String> {
        strings(fields, root.get(key), &path.key(key))
            .into_iter()
            .map(|(p, _)| from_config(dir, p))
            .collect()
    };
    config.inputs = paths(fields, "inputs");
    config.families = paths(fields, "families");
    config.crds = paths(fields, "crds");
    config.tests = paths(fields, "tests");
    if let Some(node) = root.get("inputs")
        && config.inputs.iter().any(|i| i == &from_config(dir, "-"))
    {
        fields.invalid(
            node.span,
            "`-` (stdin) cannot be a default input: pipe manifests with `-f -` on the command line"
                .into(),
            "stdin",
        );
    }
    for (pattern, node) in strings(fields, root.get("exclude"), &path.key("exclude")) {
        let anchored = (dir.to_path_buf(), pattern.to_string());
        match Excludes::new(std::slice::from_ref(&anchored)) {
            Ok(_) => config.exclude.push(anchored),
            Err(e) => fields.invalid(node.span, e, "not a gitignore pattern"),
        }
    }
    if let Some(lint) = root.get("lint") {
        config.lint = read_lint(fields, lint, &path.key("lint"));
    }
    config
}

fn read_lint(fields: &mut Fields<'_>, node: &Node, path: &FieldPath<'_>) -> LintDefaults {
    let mut lint = LintDefaults::default();
    let Some(entries) = fields.map(node, path) else {
        return lint;
    };
    unknown_keys(fields, entries, "lint.", LINT_KEYS);
    lint.fail_on = level(fields, node, "fail-on", path);
    lint.min_severity = level(fields, node, "min-severity", path);
    for (code, at) in strings(fields, node.get("ignore"), &path.key("ignore")) {
        if Code::parse(code).is_some() {
            lint.ignore.push(code.to_string());
        } else {
            let unknown = InvalidConfig::UnknownCode { path, code };
            fields.push(Diagnostic::from(unknown).with_label(at.span, "not a code or check name"));
        }
    }
    lint
}

/// An error per key outside `known` (a typo would otherwise leave a setting silently unset).
fn unknown_keys(fields: &mut Fields<'_>, entries: &[Entry], prefix: &str, known: &[&str]) {
    for entry in entries {
        let key = &*entry.key.text;
        if known.contains(&key) {
            continue;
        }
        let unknown = InvalidConfig::UnknownKey { prefix, key, known };
        fields.push(Diagnostic::from(unknown).with_label(entry.key.span, "not a setting"));
    }
}

/// A severity level under `key`, one of `error`, `warning`, `info`.
fn level(fields: &mut Fields<'_>, parent: &Node, key: &str, path: &FieldPath<'_>) -> Option<Level> {
    let text = fields.opt_str(parent, key, path)?;
    let found = Level::from_str(text, false).ok();
    if found.is_none() {
        let node = parent.get(key)?;
        let near = crate::suggest::closest(text, ["error", "warning", "info"])
            .or_else(|| {
                Level::from_str(text, true)
                    .ok()
                    .map(|l| l.severity().as_str())
            })
            .or_else(|| Severity::parse(text).map(Severity::as_str));
        let bad = InvalidConfig::BadLevel {
            path,
            key,
            text,
            near,
        };
        fields.push(Diagnostic::from(bad).with_label(node.span, "not a level"));
    }
    found
}

/// A string or a list of strings (absent or `null`: none), each with its node.
fn strings<'n>(
    fields: &mut Fields<'_>,
    node: Option<&'n Node>,
    path: &FieldPath<'_>,
) -> Vec<(&'n str, &'n Node)> {
    let Some(node) = node else {
        return Vec::new();
    };
    match &node.value {
        Value::String(s) => vec![(s.as_ref(), node)],
        _ => fields
            .seq(node, path)
            .unwrap_or_default()
            .iter()
            .enumerate()
            .filter_map(|(i, item)| Some((fields.non_empty_str(item, &path.index(i))?, item)))
            .collect(),
    }
}

/// The input flags of a command, its positional paths (`None` for commands whose positionals
/// mean something else), and whether it is `lint` (which reports a bad config file in the
/// format asked for). `None` for commands that read no manifests.
fn input_of(command: &mut Command) -> Option<(&mut InputArgs, Option<&mut PathArgs>, bool)> {
    match command {
        Command::Effective(args) => {
            Some((&mut args.report.input, Some(&mut args.report.paths), false))
        }
        Command::Overridden(args) | Command::Status(args) => {
            Some((&mut args.input, Some(&mut args.paths), false))
        }
        Command::Explain(args) => Some((&mut args.input, Some(&mut args.paths), false)),
        Command::Topology(args) => Some((&mut args.input, Some(&mut args.paths), false)),
        Command::View(args) => Some((&mut args.input, Some(&mut args.paths), false)),
        Command::Lint(args) if args.list || args.explain.is_some() => None,
        Command::Lint(args) => Some((&mut args.input, Some(&mut args.paths), true)),
        Command::Reach(args) => Some((&mut args.input, None, false)),
        Command::Diff(args) => Some((&mut args.input, None, false)),
        Command::Request(args) => Some((&mut args.input, None, false)),
        Command::Test(args) => Some((&mut args.input, None, false)),
        Command::Completions(_) | Command::Man(_) => None,
    }
}

/// A config file that cannot be used: its problems, and the file to render them with.
#[derive(Clone, Debug)]
pub struct Rejected {
    /// The file, as named to the user.
    pub file: PathBuf,
    /// One `invalid-config` error per problem.
    pub diagnostics: Vec<Diagnostic>,
    /// The config file's text.
    pub sources: SourceMap,
}

/// Prints why the config file cannot be used and returns the usage error that stops the run.
pub fn rejected(input: &InputArgs, rejected: Rejected) -> UsageError {
    let mut diagnostics = rejected.diagnostics;
    let count = diagnostics.len();
    Session::new(&input.display).print_diagnostics(&mut diagnostics, &rejected.sources);
    let hint = if input.config.is_none() {
        " (--no-config ignores it)"
    } else {
        ""
    };
    UsageError(format!(
        "the config file `{}` is not valid ({}); nothing was evaluated{hint}",
        rejected.file.display(),
        crate::words::counted(count, "problem")
    ))
}

/// Resolves a command's inputs before it runs: positional paths join `-f`, the config file
/// fills in what the command line left unset, and the exclude patterns are compiled. A bad
/// config file stops the run (exit 2): printed here, or by `lint` in its output format.
pub fn prepare(command: &mut Command) -> Result<(), UsageError> {
    let Some((input, paths, lint)) = input_of(command) else {
        return Ok(());
    };
    if let Some(paths) = paths {
        input.files.append(&mut paths.paths);
    }
    let config = match locate(input) {
        None => Config::default(),
        Some((file, dir)) => match read(&file, &dir) {
            Ok(config) => {
                Session::new(&input.display).info(&format!("using config file {}", file.display()));
                config
            }
            Err((diagnostics, sources)) => {
                let found = Rejected {
                    file,
                    diagnostics,
                    sources,
                };
                if lint {
                    input.resolved.rejected = Some(found);
                    return Ok(());
                }
                return Err(rejected(input, found));
            }
        },
    };
    apply(input, config)
}

/// Fills the input flags from `config` (the command line wins) and compiles the excludes.
fn apply(input: &mut InputArgs, config: Config) -> Result<(), UsageError> {
    if input.files.is_empty() && !config.inputs.is_empty() {
        input.files = config.inputs;
        input.resolved.inputs_from_config = true;
    }
    if input.families.is_empty() {
        input.families = config.families;
    }
    if input.crds.is_empty() {
        input.crds = config.crds;
    }
    let mut patterns = config.exclude;
    patterns.extend(
        input
            .exclude
            .iter()
            .map(|pattern| (PathBuf::new(), pattern.clone())),
    );
    input.resolved.excludes =
        Excludes::new(&patterns).map_err(|e| UsageError(format!("--exclude: {e}")))?;
    input.resolved.lint = config.lint;
    input.resolved.tests = config.tests;
    Ok(())
}

/// What makes a config file unusable (`invalid-config`), beyond what any YAML reader finds.
enum InvalidConfig<'a> {
    /// The file cannot be read.
    Unreadable { name: &'a str, why: &'a str },
    /// A key that is not a setting (under `prefix`, e.g. `lint.`).
    UnknownKey {
        prefix: &'a str,
        key: &'a str,
        known: &'a [&'a str],
    },
    /// `lint.ignore` names no code.
    UnknownCode {
        path: &'a FieldPath<'a>,
        code: &'a str,
    },
    /// A severity level that is none of error, warning, info (`near` is the closest one).
    BadLevel {
        path: &'a FieldPath<'a>,
        key: &'a str,
        text: &'a str,
        near: Option<&'a str>,
    },
}

impl Violation for InvalidConfig<'_> {
    fn code(&self) -> Code {
        Code::INVALID_CONFIG
    }

    fn message(&self) -> String {
        match self {
            InvalidConfig::Unreadable { name, why } => {
                format!("cannot read the config file `{name}`: {why}")
            }
            InvalidConfig::UnknownKey { prefix, key, .. } => {
                format!("unknown key `{prefix}{key}` in the config file")
            }
            InvalidConfig::UnknownCode { path, code } => {
                format!("`{path}.ignore`: unknown diagnostic code `{code}`")
            }
            InvalidConfig::BadLevel {
                path, key, text, ..
            } => {
                format!("`{path}.{key}` must be one of error, warning, info; found `{text}`")
            }
        }
    }

    fn help(&self) -> Option<String> {
        match self {
            InvalidConfig::Unreadable { .. } => None,
            InvalidConfig::UnknownKey { prefix, key, known } => {
                Some(match crate::suggest::closest(key, known.iter().copied()) {
                    Some(near) => format!("did you mean `{prefix}{near}`?"),
                    None => format!("the keys here: {}", known.join(", ")),
                })
            }
            InvalidConfig::UnknownCode { code, .. } => Some(match Code::closest(code) {
                Some(near) => format!("did you mean `{near}`?"),
                None => "`dopol lint --list` prints the codes and names".into(),
            }),
            InvalidConfig::BadLevel { near, .. } => {
                near.map(|near| format!("did you mean `{near}`?"))
            }
        }
    }
}

/// The codes declared here, in catalogue order.
pub const CODES: &[Code] = &[Code::INVALID_CONFIG];

impl Code {
    /// DPL1020 `invalid-config`: The config file (`.dopol.yaml`, `--config`) is not valid: the run stops before manifests are read (exit 2).
    pub const INVALID_CONFIG: Code = Code::new(&CodeDef {
        id: "DPL1020",
        name: "invalid-config",
        severity: Severity::Error,
        class: Class::Input,
        summary: "The config file (`.dopol.yaml`, `--config`) is not valid: the run stops before manifests are read (exit 2).",
        explanation: "The config file (`.dopol.yaml` found upward from the working directory, or `--config FILE`) cannot be used: it cannot be read, is not valid YAML, has a key dopol does not know (a typo would otherwise be silently ignored), or a value of the wrong type or outside its choices (`fail-on: warn`, an unknown code under `ignore`, a bad `exclude` pattern). The run stops before any manifest is read (exit 2), with one error per problem at its line and column.",
        fix: "Fix the config file at the position shown (`docs/config.md` has the format), or run with `--no-config` to ignore it.",
        example: "inputs: [manifests/]\nlint:\n  fail-on: warn",
    });
}
