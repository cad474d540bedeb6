//! Reading `-f` paths as they are at a git revision (`dopol diff git:main git:HEAD -f manifests/`).
//!
//! Everything goes through the `git` program run with argument vectors (never a shell). The
//! revision is resolved once to a commit; revisions that look like options are refused. The
//! file list of the commit is read once (`git ls-tree`), so directory walks and globs are
//! answered in memory with the same rules as for the working tree, and blobs are streamed
//! through one `git cat-file --batch` process.
//!
//! Failures say which of the usual causes it is: `git` not installed, not a repository, a
//! revision unknown because the clone is shallow (CI checkouts often are), a missing object.

use super::files::{EntryKind, FileTree};
use std::cell::RefCell;
use std::collections::BTreeSet;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::{Component, Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

/// A commit of the git repository around the current directory, read as a file tree.
pub struct GitTree {
    revision: String,
    commit: String,
    /// The current directory relative to the repository root (`""` at the root).
    prefix: PathBuf,
    /// Every file of the commit, relative to the repository root.
    files: BTreeSet<PathBuf>,
    reader: RefCell<Option<BatchReader>>,
}

struct BatchReader {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

/// How a failure to start `git` begins.
const CANNOT_RUN: &str = "cannot run the `git` program";

fn git(args: &[&str]) -> Result<Vec<u8>, String> {
    let output = Command::new("git")
        .args(args)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| match e.kind() {
            io::ErrorKind::NotFound => format!("{CANNOT_RUN}: it is not installed or not on PATH"),
            _ => format!("{CANNOT_RUN}: {e}"),
        })?;
    if output.status.success() {
        Ok(output.stdout)
    } else {
        Err(String::from_utf8_lossy(&output.stderr).trim().to_string())
    }
}

fn text(bytes: Vec<u8>) -> String {
    String::from_utf8_lossy(&bytes)
        .trim_end_matches('\n')
        .to_string()
}

/// Whether a revision may be passed to git (not an option, no control characters).
pub fn is_safe_revision(revision: &str) -> bool {
    !revision.is_empty() && !revision.starts_with('-') && !revision.chars().any(char::is_control)
}

/// Why a revision did not resolve, with the likely cause when the clone is shallow.
fn unknown_revision(revision: &str) -> String {
    let shallow = git(&["rev-parse", "--is-shallow-repository"]).map(text);
    let mut message = format!("unknown revision `{revision}` in this git repository");
    if shallow.as_deref() == Ok("true") {
        message.push_str(
            "; the repository is a shallow clone, so older commits are missing \
             (fetch them: `git fetch --unshallow`, or clone with more depth)",
        );
    }
    message
}

impl GitTree {
    /// Resolves `revision` in the repository around the current directory.
    pub fn open(revision: &str) -> Result<GitTree, String> {
        if !is_safe_revision(revision) {
            return Err(format!("`{revision}` is not a revision"));
        }
        let inside = git(&["rev-parse", "--is-inside-work-tree"]).map_err(|e| {
            if e.starts_with(CANNOT_RUN) {
                format!("git:{revision}: {e}")
            } else {
                format!(
                    "git:{revision} needs a git repository, and the current directory is not inside one"
                )
            }
        })?;
        if text(inside) != "true" {
            return Err(format!("git:{revision} needs a git work tree"));
        }
        let commit = git(&[
            "rev-parse",
            "--verify",
            "--quiet",
            "--end-of-options",
            &format!("{revision}^{{commit}}"),
        ])
        .map(text)
        .ok()
        .filter(|c| !c.is_empty())
        .ok_or_else(|| unknown_revision(revision))?;
        let prefix = PathBuf::from(text(git(&["rev-parse", "--show-prefix"])?));
        let listing = git(&["ls-tree", "-r", "-z", "--full-tree", "--name-only", &commit])
            .map_err(|e| format!("cannot list the files of git:{revision} ({commit}): {e}"))?;
        let files = listing
            .split(|&b| b == 0)
            .filter(|name| !name.is_empty())
            .map(|name| PathBuf::from(String::from_utf8_lossy(name).into_owned()))
            .collect();
        Ok(GitTree {
            revision: revision.to_string(),
            commit,
            prefix,
            files,
            reader: RefCell::new(None),
        })
    }

    /// The commit the revision resolved to.
    pub fn commit(&self) -> &str {
        &self.commit
    }

    /// A path as given (relative to the current directory) → relative to the repository root.
    fn in_repository(&self, path: &Path) -> Option<PathBuf> {
        let joined = self.prefix.join(path);
        let mut parts: Vec<Component<'_>> = Vec::new();
        for component in joined.components() {
            match component {
                Component::CurDir => {}
                Component::ParentDir => {
                    parts.pop()?;
                }
                Component::Normal(_) => parts.push(component),
                Component::RootDir | Component::Prefix(_) => return None,
            }
        }
        Some(parts.iter().collect())
    }

    /// The files at or below `path`. Paths order component by component, so they are one
    /// contiguous range of the sorted set.
    fn under<'a>(&'a self, path: &'a Path) -> impl Iterator<Item = &'a PathBuf> + 'a {
        self.files
            .range::<Path, _>((std::ops::Bound::Included(path), std::ops::Bound::Unbounded))
            .take_while(move |f| f.starts_with(path))
    }

    fn is_dir(&self, path: &Path) -> bool {
        path.as_os_str().is_empty() || self.under(path).any(|f| f != path)
    }

    fn read_blob(&self, path: &Path) -> io::Result<Vec<u8>> {
        let mut slot = self.reader.borrow_mut();
        if slot.is_none() {
            let mut child = Command::new("git")
                .args(["cat-file", "--batch"])
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::null())
                .spawn()?;
            let stdin = child
                .stdin
                .take()
                .ok_or_else(|| io::Error::other("no stdin"))?;
            let stdout = BufReader::new(
                child
                    .stdout
                    .take()
                    .ok_or_else(|| io::Error::other("no stdout"))?,
            );
            *slot = Some(BatchReader {
                child,
                stdin,
                stdout,
            });
        }
        let reader = slot.as_mut().expect("just started");
        writeln!(reader.stdin, "{}:{}", self.commit, path.display())?;
        reader.stdin.flush()?;
        let mut header = String::new();
        reader.stdout.read_line(&mut header)?;
        let fields: Vec<&str> = header.split_whitespace().collect();
        match fields.as_slice() {
            [_, "blob", size] => {
                let size: usize = size.parse().map_err(io::Error::other)?;
                let mut content = vec![0; size + 1];
                reader.stdout.read_exact(&mut content)?;
                content.pop(); // the newline git prints after each object
                Ok(content)
            }
            _ => Err(io::Error::new(
                io::ErrorKind::NotFound,
                format!("not a file at {}", self.revision),
            )),
        }
    }
}

impl Drop for GitTree {
    fn drop(&mut self) {
        if let Some(mut reader) = self.reader.borrow_mut().take() {
            drop(reader.stdin);
            let _ = reader.child.wait();
        }
    }
}

impl FileTree for GitTree {
    fn is_git_revision(&self) -> bool {
        true
    }

    fn stat(&self, path: &Path) -> io::Result<Option<EntryKind>> {
        let Some(path) = self.in_repository(path) else {
            return Ok(None);
        };
        Ok(if self.files.contains(&path) {
            Some(EntryKind::File)
        } else if self.is_dir(&path) {
            Some(EntryKind::Dir)
        } else {
            None
        })
    }

    fn list(&self, dir: &Path) -> io::Result<Vec<(String, EntryKind)>> {
        let dir = self
            .in_repository(dir)
            .ok_or_else(|| io::Error::other("outside the repository"))?;
        let mut entries: Vec<(String, EntryKind)> = Vec::new();
        for file in self.under(&dir).filter(|f| **f != dir) {
            let Ok(rest) = file.strip_prefix(&dir) else {
                continue;
            };
            let mut components = rest.components();
            let Some(first) = components.next() else {
                continue;
            };
            let name = first.as_os_str().to_string_lossy().into_owned();
            let kind = if components.next().is_some() {
                EntryKind::Dir
            } else {
                EntryKind::File
            };
            // Files below one entry are adjacent in the sorted set.
            if entries.last().is_none_or(|(last, _)| *last != name) {
                entries.push((name, kind));
            }
        }
        Ok(entries)
    }

    fn read(&self, path: &Path) -> io::Result<super::files::FileBytes> {
        let path = self
            .in_repository(path)
            .ok_or_else(|| io::Error::other("outside the repository"))?;
        self.read_blob(&path).map(Into::into)
    }

    fn glob(&self, pattern: &str) -> Result<Vec<PathBuf>, String> {
        let options = glob::MatchOptions {
            case_sensitive: true,
            require_literal_separator: true,
            require_literal_leading_dot: true,
        };
        let full = self
            .in_repository(Path::new(pattern))
            .ok_or("the pattern leaves the repository")?;
        let matcher = glob::Pattern::new(&full.to_string_lossy()).map_err(|e| e.to_string())?;
        let prefix = self.prefix.clone();
        // Match files and the directories above them; return paths as given (relative to cwd).
        let mut candidates: BTreeSet<PathBuf> = BTreeSet::new();
        for file in &self.files {
            let mut current = file.as_path();
            loop {
                candidates.insert(current.to_path_buf());
                match current.parent() {
                    Some(parent) if !parent.as_os_str().is_empty() => current = parent,
                    _ => break,
                }
            }
        }
        Ok(candidates
            .into_iter()
            .filter(|c| matcher.matches_path_with(c, options))
            .map(|c| relative_to(&c, &prefix))
            .collect())
    }

    fn identity(&self, path: &Path) -> PathBuf {
        self.in_repository(path)
            .unwrap_or_else(|| path.to_path_buf())
    }

    fn display_name(&self, path: &Path) -> String {
        format!("git:{}:{}", self.revision, path.display())
    }
}

/// `path` (relative to the repository root) relative to `prefix` (the current directory).
fn relative_to(path: &Path, prefix: &Path) -> PathBuf {
    match path.strip_prefix(prefix) {
        Ok(rest) => rest.to_path_buf(),
        Err(_) => {
            let ups = prefix.components().count();
            let mut out = PathBuf::new();
            for _ in 0..ups {
                out.push("..");
            }
            out.join(path)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn option_like_revisions_are_refused() {
        assert!(!is_safe_revision("--output=/tmp/x"));
        assert!(!is_safe_revision("-p"));
        assert!(!is_safe_revision(""));
        assert!(!is_safe_revision("main\n--all"));
        assert!(is_safe_revision("main"));
        assert!(is_safe_revision("HEAD~2"));
        assert!(is_safe_revision("v1.2.3^{commit}"));
    }

    #[test]
    fn paths_relative_to_a_subdirectory() {
        assert_eq!(
            relative_to(Path::new("a/b/c.yaml"), Path::new("a/")),
            PathBuf::from("b/c.yaml")
        );
        assert_eq!(
            relative_to(Path::new("x/c.yaml"), Path::new("a")),
            PathBuf::from("../x/c.yaml")
        );
    }
}
