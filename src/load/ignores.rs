//! What a directory walk leaves out: ignore files and `--exclude` patterns.
//!
//! Manifests live in repositories next to rendered output, vendored charts and scratch files.
//! A walk skips what the repository already says is not source (`.gitignore`,
//! `.git/info/exclude`), what it says dopol should not read (`.dopolignore`, gitignore syntax)
//! and the `--exclude` patterns (and the config file's `exclude`). Like ripgrep, `.gitignore` is
//! honoured only inside a git work tree, ignore files of the directories above the walked one
//! count too, a deeper file wins over a shallower one, `.dopolignore` wins over `.gitignore` in
//! one directory, and an ignored directory is not entered. A file named on the command line is
//! never skipped: naming it is the user's decision.
//!
//! Walk order is unchanged (the walk itself lists and sorts); this module only answers "is this
//! entry skipped". Matching uses the `ignore` crate's gitignore matcher (ripgrep's).

use super::files::{EntryKind, FileTree};
use ignore::Match;
use ignore::gitignore::{Gitignore, GitignoreBuilder};
use std::path::{Component, Path, PathBuf};

/// The ignore file with dopol-only exclusions.
pub const DOPOLIGNORE: &str = ".dopolignore";
const GITIGNORE: &str = ".gitignore";

/// Gitignore patterns, each anchored at a directory (`--exclude` at the working directory, the
/// config file's `exclude` at the config file's directory).
#[derive(Clone, Debug, Default)]
pub struct Excludes {
    sets: Vec<Gitignore>,
    /// The working directory, to make relative walk paths absolute.
    cwd: PathBuf,
}

impl Excludes {
    /// Compiles `patterns` (base directory, gitignore pattern). A pattern that does not compile
    /// is an error naming it.
    pub fn new(patterns: &[(PathBuf, String)]) -> Result<Excludes, String> {
        let cwd = std::env::current_dir().unwrap_or_default();
        let mut sets = Vec::new();
        for (base, pattern) in patterns {
            let root = normalize(&cwd.join(base));
            let mut builder = GitignoreBuilder::new(&root);
            builder
                .add_line(None, pattern)
                .and_then(|b| b.build())
                .map(|set| sets.push(set))
                .map_err(|e| format!("invalid exclude pattern `{pattern}`: {e}"))?;
        }
        Ok(Excludes { sets, cwd })
    }

    /// Whether `path` (as the walk names it) is excluded.
    pub fn excluded(&self, path: &Path, is_dir: bool) -> bool {
        if self.sets.is_empty() {
            return false;
        }
        let absolute = normalize(&self.cwd.join(path));
        self.sets
            .iter()
            .any(|set| set.matched(&absolute, is_dir).is_ignore())
    }
}

/// `path` with `.` and `..` resolved lexically (`/a/sub/../m` is `/a/m`), so it can be compared
/// with an anchor directory.
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            other => out.push(other),
        }
    }
    out
}

/// One ignore file in force during a walk.
#[derive(Debug)]
struct Frame {
    matcher: Gitignore,
    /// For a file above the walked directory: the walked directory relative to the file's
    /// directory (entries are matched as `lead/<path below the walk root>`). `None` for a file
    /// inside the walk, whose matcher is anchored at its directory's walk-relative path.
    lead: Option<PathBuf>,
}

impl Frame {
    fn decide(&self, rel: &Path, is_dir: bool) -> Match<()> {
        let found = match &self.lead {
            Some(lead) => self.matcher.matched(lead.join(rel), is_dir),
            None => self.matcher.matched(rel, is_dir),
        };
        found.map(|_| ())
    }
}

/// The ignore files in force at the current point of one walk: those above the walked directory,
/// then one level per entered directory.
#[derive(Debug, Default)]
pub struct IgnoreStack {
    frames: Vec<Frame>,
    /// Frames pushed per entered directory, to pop them on the way out.
    levels: Vec<usize>,
    /// Whether `.gitignore` files count (the walk is inside a git work tree).
    git: bool,
}

impl IgnoreStack {
    /// The ignore files above `root` (a walked directory), outermost first.
    pub fn above(tree: &dyn FileTree, root: &Path) -> IgnoreStack {
        let mut stack = IgnoreStack {
            git: tree.is_git_revision(),
            ..IgnoreStack::default()
        };
        let ancestors = tree.ancestors(root);
        let repository = std::iter::once(root)
            .chain(ancestors.iter().map(|(dir, _)| dir.as_path()))
            .position(|dir| tree.stat(&dir.join(".git")).ok().flatten().is_some());
        stack.git |= repository.is_some();
        // Ignore files above the walk root: .dopolignore at every level, .gitignore up to the
        // repository root, and the repository's info/exclude under all of them.
        let mut frames = Vec::new();
        for (i, (dir, lead)) in ancestors.iter().enumerate() {
            let in_repository = repository.is_some_and(|top| i < top);
            let names: &[&str] = if in_repository {
                &[DOPOLIGNORE, GITIGNORE]
            } else {
                &[DOPOLIGNORE]
            };
            for name in names {
                if let Some(matcher) = read(tree, &dir.join(name), Path::new("")) {
                    frames.push(Frame {
                        matcher,
                        lead: Some(lead.clone()),
                    });
                }
            }
            if repository == Some(i + 1)
                && let Some(matcher) = read(tree, &dir.join(".git/info/exclude"), Path::new(""))
            {
                frames.push(Frame {
                    matcher,
                    lead: Some(lead.clone()),
                });
            }
        }
        if repository == Some(0)
            && let Some(matcher) = read(tree, &root.join(".git/info/exclude"), Path::new(""))
        {
            frames.push(Frame {
                matcher,
                lead: None,
            });
        }
        frames.reverse();
        stack.frames = frames;
        stack
    }

    /// Enters the walked directory `dir` (`rel` below the walk root), reading its ignore files
    /// when its listing `names` has them.
    pub fn enter(
        &mut self,
        tree: &dyn FileTree,
        dir: &Path,
        rel: &Path,
        names: &[(String, EntryKind)],
    ) {
        let before = self.frames.len();
        let wanted: &[&str] = if self.git {
            &[GITIGNORE, DOPOLIGNORE]
        } else {
            &[DOPOLIGNORE]
        };
        for name in wanted {
            let listed = names
                .iter()
                .any(|(n, kind)| n == name && *kind == EntryKind::File);
            if listed && let Some(matcher) = read(tree, &dir.join(name), rel) {
                self.frames.push(Frame {
                    matcher,
                    lead: None,
                });
            }
        }
        self.levels.push(self.frames.len() - before);
    }

    /// Leaves the directory entered last.
    pub fn leave(&mut self) {
        let pushed = self.levels.pop().unwrap_or(0);
        self.frames.truncate(self.frames.len() - pushed);
    }

    /// Whether the entry at `rel` (below the walk root) is ignored: the nearest ignore file with
    /// a matching pattern decides (a `!pattern` re-includes).
    pub fn ignored(&self, rel: &Path, is_dir: bool) -> bool {
        self.frames
            .iter()
            .rev()
            .map(|frame| frame.decide(rel, is_dir))
            .find(|m| !m.is_none())
            .is_some_and(|m| m.is_ignore())
    }
}

/// Compiles the ignore file at `path`, anchored at `anchor`; `None` when it cannot be read. A
/// line that is not a valid pattern is left out (as git does).
fn read(tree: &dyn FileTree, path: &Path, anchor: &Path) -> Option<Gitignore> {
    if tree.stat(path).ok().flatten() != Some(EntryKind::File) {
        return None;
    }
    let bytes = tree.read(path).ok()?;
    let text = String::from_utf8_lossy(bytes.as_slice());
    let mut builder = GitignoreBuilder::new(anchor);
    for line in text.lines() {
        let _ = builder.add_line(None, line);
    }
    builder.build().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalize_resolves_dots_lexically() {
        assert_eq!(
            normalize(Path::new("/a/sub/../m/./x")),
            PathBuf::from("/a/m/x")
        );
        assert_eq!(normalize(Path::new("../m")), PathBuf::from("../m"));
    }

    #[test]
    fn excludes_are_anchored_at_their_base() {
        let cwd = std::env::current_dir().unwrap();
        let excludes = Excludes::new(&[
            (cwd.clone(), "*.tmpl.yaml".into()),
            (cwd.join("deploy"), "/generated/".into()),
        ])
        .unwrap();
        assert!(excludes.excluded(Path::new("x/a.tmpl.yaml"), false));
        assert!(excludes.excluded(Path::new("deploy/generated"), true));
        assert!(!excludes.excluded(Path::new("deploy/x/generated"), true));
        assert!(!excludes.excluded(Path::new("deploy/generated"), false));
        assert!(!excludes.excluded(Path::new("a.yaml"), false));
    }
}
