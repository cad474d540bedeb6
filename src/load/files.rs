//! Turning `-f` arguments into file contents.
//!
//! An argument is a file, a directory (walked recursively, sorted, hidden entries skipped, only
//! `.yaml`/`.yml`/`.json`), a glob pattern, or `-` for stdin. The walk is written against the
//! [`FileTree`] trait so the same rules apply to the working tree and to a git revision
//! (`dopol diff git:main ...`).

use crate::diag::{Code, Diagnostic};
use std::collections::HashSet;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

/// What a path is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EntryKind {
    /// A regular file (or a symlink to one).
    File,
    /// A directory.
    Dir,
}

/// A read-only view of a file hierarchy.
pub trait FileTree {
    /// What is at `path`, or `None` when nothing is.
    fn stat(&self, path: &Path) -> io::Result<Option<EntryKind>>;
    /// The entries of a directory: names and kinds (unsorted).
    fn list(&self, dir: &Path) -> io::Result<Vec<(String, EntryKind)>>;
    /// The bytes of a file.
    fn read(&self, path: &Path) -> io::Result<Vec<u8>>;
    /// Paths matching a glob pattern (hidden entries only when the pattern names them).
    fn glob(&self, pattern: &str) -> Result<Vec<PathBuf>, String>;
    /// A canonical key for a path, to read each file once however it was named.
    fn identity(&self, path: &Path) -> PathBuf {
        path.to_path_buf()
    }
    /// How this tree names a file in messages (`manifests/a.yaml`, `git:main:manifests/a.yaml`).
    fn display_name(&self, path: &Path) -> String {
        path.display().to_string()
    }
}

/// The local file system.
#[derive(Clone, Copy, Debug, Default)]
pub struct WorkTree;

impl FileTree for WorkTree {
    fn stat(&self, path: &Path) -> io::Result<Option<EntryKind>> {
        match std::fs::metadata(path) {
            Ok(meta) if meta.is_dir() => Ok(Some(EntryKind::Dir)),
            Ok(_) => Ok(Some(EntryKind::File)),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(e),
        }
    }

    fn list(&self, dir: &Path) -> io::Result<Vec<(String, EntryKind)>> {
        let mut entries = Vec::new();
        for entry in std::fs::read_dir(dir)? {
            let entry = entry?;
            let name = entry.file_name().to_string_lossy().into_owned();
            // Follow symlinks; a dangling one is skipped.
            let Ok(meta) = std::fs::metadata(entry.path()) else {
                continue;
            };
            let kind = if meta.is_dir() {
                EntryKind::Dir
            } else {
                EntryKind::File
            };
            entries.push((name, kind));
        }
        Ok(entries)
    }

    fn read(&self, path: &Path) -> io::Result<Vec<u8>> {
        std::fs::read(path)
    }

    fn glob(&self, pattern: &str) -> Result<Vec<PathBuf>, String> {
        let options = glob::MatchOptions {
            case_sensitive: true,
            require_literal_separator: true,
            require_literal_leading_dot: true,
        };
        let paths = glob::glob_with(pattern, options).map_err(|e| e.to_string())?;
        let mut out: Vec<PathBuf> = paths.filter_map(Result::ok).collect();
        out.sort();
        Ok(out)
    }

    fn identity(&self, path: &Path) -> PathBuf {
        std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
    }
}

/// One input file's raw content.
#[derive(Clone, Debug)]
pub struct RawFile {
    /// Name shown in diagnostics.
    pub name: String,
    /// Bytes as read.
    pub bytes: Vec<u8>,
}

/// Whether a file name has a manifest extension.
pub fn is_manifest_name(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    lower.ends_with(".yaml") || lower.ends_with(".yml") || lower.ends_with(".json")
}

fn looks_like_glob(arg: &str) -> bool {
    arg.contains(['*', '?', '['])
}

/// Deepest directory recursion (a bound on top of the loop detection).
const MAX_WALK_DEPTH: usize = 64;

/// Collects the files named by `-f` arguments, in argument order (directories sorted by name).
/// Each file is read once even if named twice. Problems become diagnostics.
pub fn collect(
    args: &[String],
    tree: &dyn FileTree,
    stdin: &mut dyn Read,
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<RawFile> {
    let mut collector = Collector {
        tree,
        seen: HashSet::new(),
        walked: HashSet::new(),
        files: Vec::new(),
        diagnostics,
    };
    let mut stdin_read = false;
    for arg in args {
        if arg == "-" {
            if stdin_read {
                continue;
            }
            stdin_read = true;
            let mut bytes = Vec::new();
            match stdin.read_to_end(&mut bytes) {
                Ok(_) => collector.files.push(RawFile {
                    name: "<stdin>".into(),
                    bytes,
                }),
                Err(e) => collector.diagnostics.push(
                    Diagnostic::new(Code::UnreadableInput, format!("cannot read stdin: {e}"))
                        .with_file("<stdin>"),
                ),
            }
            continue;
        }
        let path = Path::new(arg);
        match tree.stat(path) {
            Ok(Some(EntryKind::File)) => collector.add_file(path),
            Ok(Some(EntryKind::Dir)) => {
                let before = collector.files.len();
                collector.walk(path, 0);
                if collector.files.len() == before {
                    collector.diagnostics.push(
                        Diagnostic::new(
                            Code::UnreadableInput,
                            format!(
                                "directory `{}` holds no .yaml, .yml or .json file",
                                tree.display_name(path)
                            ),
                        )
                        .with_file(tree.display_name(path)),
                    );
                }
            }
            Ok(None) if looks_like_glob(arg) => collector.expand_glob(arg),
            Ok(None) => collector.diagnostics.push(
                Diagnostic::new(
                    Code::UnreadableInput,
                    format!("`{}` does not exist", tree.display_name(path)),
                )
                .with_file(tree.display_name(path)),
            ),
            Err(e) => collector.diagnostics.push(
                Diagnostic::new(
                    Code::UnreadableInput,
                    format!("cannot access `{}`: {e}", tree.display_name(path)),
                )
                .with_file(tree.display_name(path)),
            ),
        }
    }
    collector.files
}

struct Collector<'a> {
    tree: &'a dyn FileTree,
    /// Files already read (by canonical path).
    seen: HashSet<PathBuf>,
    /// Directories already walked (by canonical path): symlinks back to an ancestor or to a
    /// sibling are walked once, so loops end.
    walked: HashSet<PathBuf>,
    files: Vec<RawFile>,
    diagnostics: &'a mut Vec<Diagnostic>,
}

impl Collector<'_> {
    fn add_file(&mut self, path: &Path) {
        if !self.seen.insert(self.tree.identity(path)) {
            return;
        }
        let name = self.tree.display_name(path);
        match self.tree.read(path) {
            Ok(bytes) => self.files.push(RawFile { name, bytes }),
            Err(e) => self.diagnostics.push(
                Diagnostic::new(Code::UnreadableInput, format!("cannot read `{name}`: {e}"))
                    .with_file(name),
            ),
        }
    }

    fn walk(&mut self, dir: &Path, depth: usize) {
        if !self.walked.insert(self.tree.identity(dir)) {
            return;
        }
        if depth > MAX_WALK_DEPTH {
            self.diagnostics.push(
                Diagnostic::new(
                    Code::UnreadableInput,
                    format!(
                        "`{}` is nested more than {MAX_WALK_DEPTH} directories deep (a symlink loop?); not read",
                        self.tree.display_name(dir)
                    ),
                )
                .with_file(self.tree.display_name(dir)),
            );
            return;
        }
        let mut entries = match self.tree.list(dir) {
            Ok(entries) => entries,
            Err(e) => {
                self.diagnostics.push(
                    Diagnostic::new(
                        Code::UnreadableInput,
                        format!("cannot list `{}`: {e}", self.tree.display_name(dir)),
                    )
                    .with_file(self.tree.display_name(dir)),
                );
                return;
            }
        };
        entries.sort_by(|a, b| a.0.cmp(&b.0));
        for (name, kind) in entries {
            if name.starts_with('.') {
                continue;
            }
            let path = dir.join(&name);
            match kind {
                EntryKind::Dir => self.walk(&path, depth + 1),
                EntryKind::File if is_manifest_name(&name) => self.add_file(&path),
                EntryKind::File => {}
            }
        }
    }

    fn expand_glob(&mut self, pattern: &str) {
        match self.tree.glob(pattern) {
            Err(e) => self.diagnostics.push(
                Diagnostic::new(
                    Code::UnreadableInput,
                    format!("invalid glob pattern `{pattern}`: {e}"),
                )
                .with_file(pattern),
            ),
            Ok(paths) if paths.is_empty() => self.diagnostics.push(
                Diagnostic::new(
                    Code::UnreadableInput,
                    format!("`{pattern}` matches no file"),
                )
                .with_file(pattern),
            ),
            Ok(paths) => {
                for path in paths {
                    match self.tree.stat(&path) {
                        Ok(Some(EntryKind::Dir)) => self.walk(&path, 0),
                        Ok(Some(EntryKind::File)) => self.add_file(&path),
                        _ => {}
                    }
                }
            }
        }
    }
}
