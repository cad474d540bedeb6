//! Turning `-f` arguments into file contents.
//!
//! An argument is a file, a directory (walked recursively, sorted, hidden entries skipped, only
//! `.yaml`/`.yml`/`.json`), a glob pattern, or `-` for stdin. The walk is written against the
//! [`FileTree`] trait so the same rules apply to the working tree and to a git revision
//! (`dopol diff git:main ...`).
//!
//! Only regular files are read from walks and globs: a named pipe would block the run and a
//! device may never end, so they are skipped with a warning, like a dangling symlink (a file
//! that vanished). Named explicitly, a pipe is read (`-f <(kubectl get ...)`) without waiting
//! for a writer, `/dev/null` is the empty input, other devices are refused. Sizes are checked
//! before reading (see [`super::text::MAX_FILE_BYTES`]).

use super::diags::{Skip, UnreadableInput};
use super::ignores::{Excludes, IgnoreStack};
use crate::diag::Diagnostic;
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
    /// A named or anonymous pipe (read only when named explicitly).
    Pipe,
    /// A device or socket (`"a character device"`): never read, except `/dev/null`.
    Other(&'static str),
    /// Listed but gone: a dangling symlink, a symlink loop, or a file removed during the walk.
    Gone,
}

/// A read-only view of a file hierarchy.
pub trait FileTree {
    /// What is at `path`, or `None` when nothing is.
    fn stat(&self, path: &Path) -> io::Result<Option<EntryKind>>;
    /// The entries of a directory: names and kinds (unsorted).
    fn list(&self, dir: &Path) -> io::Result<Vec<(String, EntryKind)>>;
    /// The bytes of a file.
    fn read(&self, path: &Path) -> io::Result<FileBytes>;
    /// Paths matching a glob pattern (hidden entries only when the pattern names them).
    fn glob(&self, pattern: &str) -> Result<Vec<PathBuf>, String>;
    /// A canonical key for a path, to read each file once however it was named.
    fn identity(&self, path: &Path) -> PathBuf {
        path.to_path_buf()
    }
    /// The identity and the bytes of each file, in order (one at a time by default).
    fn identify_and_read(&self, paths: &[&Path]) -> Vec<(PathBuf, io::Result<FileBytes>)> {
        paths
            .iter()
            .map(|path| (self.identity(path), self.read(path)))
            .collect()
    }
    /// How this tree names a file in messages (`manifests/a.yaml`, `git:main:manifests/a.yaml`).
    fn display_name(&self, path: &Path) -> String {
        path.display().to_string()
    }
    /// The directories above `dir`, nearest first, each with `dir` relative to it: where ignore
    /// files that apply to a walk of `dir` may be. None by default.
    fn ancestors(&self, _dir: &Path) -> Vec<(PathBuf, PathBuf)> {
        Vec::new()
    }
    /// Whether the tree is a git revision (its `.gitignore` files count without a `.git`).
    fn is_git_revision(&self) -> bool {
        false
    }
}

/// The local file system.
#[derive(Clone, Copy, Debug, Default)]
pub struct WorkTree;

impl FileTree for WorkTree {
    fn stat(&self, path: &Path) -> io::Result<Option<EntryKind>> {
        match std::fs::metadata(path) {
            Ok(meta) => Ok(Some(kind_of(&meta))),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(e),
        }
    }

    fn list(&self, dir: &Path) -> io::Result<Vec<(String, EntryKind)>> {
        let mut entries = Vec::new();
        for entry in std::fs::read_dir(dir)? {
            let entry = entry?;
            let name = entry.file_name().to_string_lossy().into_owned();
            // Follow symlinks; a dangling one is listed as gone. Other entries are typed by the
            // listing itself, without a `stat` each.
            let kind = match entry.file_type() {
                Ok(t) if t.is_file() => EntryKind::File,
                Ok(t) if t.is_dir() => EntryKind::Dir,
                _ => std::fs::metadata(entry.path()).map_or(EntryKind::Gone, |m| kind_of(&m)),
            };
            entries.push((name, kind));
        }
        Ok(entries)
    }

    fn read(&self, path: &Path) -> io::Result<FileBytes> {
        read_local(path)
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

    /// In parallel: a walk of many small files spends its time in system calls.
    fn identify_and_read(&self, paths: &[&Path]) -> Vec<(PathBuf, io::Result<FileBytes>)> {
        use rayon::prelude::*;
        paths
            .par_iter()
            .map(|path| (self.identity(path), self.read(path)))
            .collect()
    }

    fn ancestors(&self, dir: &Path) -> Vec<(PathBuf, PathBuf)> {
        let Ok(full) = std::fs::canonicalize(dir) else {
            return Vec::new();
        };
        full.ancestors()
            .skip(1)
            .filter_map(|above| {
                let lead = full.strip_prefix(above).ok()?;
                Some((above.to_path_buf(), lead.to_path_buf()))
            })
            .collect()
    }
}

/// What a path's metadata says it is (symlinks followed).
fn kind_of(meta: &std::fs::Metadata) -> EntryKind {
    let kind = meta.file_type();
    if kind.is_dir() {
        return EntryKind::Dir;
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return EntryKind::Pipe;
        }
        if kind.is_char_device() {
            return EntryKind::Other("a character device");
        }
        if kind.is_block_device() {
            return EntryKind::Other("a block device");
        }
        if kind.is_socket() {
            return EntryKind::Other("a socket");
        }
    }
    EntryKind::File
}

/// Opens without blocking on a pipe that has no writer yet (a writer-less named pipe then reads
/// as empty instead of hanging the run); reads block again once it is open.
fn open_local(path: &Path) -> io::Result<std::fs::File> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        use std::os::unix::io::AsRawFd;
        let file = std::fs::OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_NONBLOCK)
            .open(path)?;
        let fd = file.as_raw_fd();
        // SAFETY: fcntl on a descriptor this function owns, with integer flags only.
        let cleared = unsafe {
            let flags = libc::fcntl(fd, libc::F_GETFL);
            flags >= 0 && libc::fcntl(fd, libc::F_SETFL, flags & !libc::O_NONBLOCK) == 0
        };
        if !cleared {
            return Err(io::Error::last_os_error());
        }
        Ok(file)
    }
    #[cfg(not(unix))]
    std::fs::File::open(path)
}

/// A file's bytes as read: in memory, or (a big local file) mapped.
#[derive(Debug)]
pub enum FileBytes {
    /// Read into memory.
    Owned(Vec<u8>),
    /// A regular local file read into memory: its text can be read again from the file (see
    /// [`crate::source::Again`]).
    Local(Vec<u8>, crate::source::ReadAgain),
    /// Mapped (see [`crate::platform::Mapped`]).
    #[cfg(unix)]
    Mapped(crate::platform::Mapped),
}

impl FileBytes {
    /// The bytes.
    pub fn as_slice(&self) -> &[u8] {
        match self {
            FileBytes::Owned(bytes) | FileBytes::Local(bytes, _) => bytes,
            #[cfg(unix)]
            FileBytes::Mapped(mapped) => mapped.bytes(),
        }
    }
}

impl From<Vec<u8>> for FileBytes {
    fn from(bytes: Vec<u8>) -> FileBytes {
        FileBytes::Owned(bytes)
    }
}

/// Reads a local file, refusing one over the size limit before reading it (and stopping a
/// stream at the limit). A big regular file is mapped rather than copied.
fn read_local(path: &Path) -> io::Result<FileBytes> {
    let file = open_local(path)?;
    let meta = file.metadata()?;
    if meta.len() > super::text::MAX_FILE_BYTES as u64 {
        return Err(io::Error::other(super::text::too_large(Some(meta.len()))));
    }
    #[cfg(unix)]
    if meta.is_file() && meta.len() >= MAPPED_BYTES {
        // Where mapping fails (a file system without it), the file is read.
        if let Ok(mapped) = crate::platform::Mapped::map(&file, meta.len() as usize) {
            return Ok(FileBytes::Mapped(mapped));
        }
        if let Some(bytes) = read_in_halves(&file, meta.len() as usize)? {
            return Ok(bytes.into());
        }
    }
    let bytes = read_limited(file, meta.len())?;
    if bytes.is_empty() && kind_of(&meta) == EntryKind::Pipe {
        return Err(io::Error::other(
            "it is a pipe and nothing wrote to it (no writer was connected)",
        ));
    }
    // What is under /dev or /proc (`/dev/stdin` redirected from a file) is read once.
    if !meta.is_file() || path.starts_with("/dev") || path.starts_with("/proc") {
        return Ok(bytes.into());
    }
    let again = crate::source::ReadAgain {
        path: path.into(),
        stamp: stamp(&meta),
        read: read_text_again,
    };
    Ok(FileBytes::Local(bytes, again))
}

/// What identifies a file's contents as read: a hash of its device, inode, size and times of
/// modification and change (a rewrite keeps none of the last two, whatever `touch -r` or
/// `cp -p` set the modification time to; a rename-replace gets another inode).
fn stamp(meta: &std::fs::Metadata) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let (modified, changed) = (
            (meta.mtime(), meta.mtime_nsec()),
            (meta.ctime(), meta.ctime_nsec()),
        );
        (meta.dev(), meta.ino(), meta.size(), modified, changed).hash(&mut hasher);
    }
    #[cfg(not(unix))]
    (meta.len(), meta.modified().ok()).hash(&mut hasher);
    hasher.finish()
}

/// Reads the text of a local file again (see [`crate::source::ReadAgain`]), decoded as it
/// was the first time; `None` when it is not the same file any more (another [`stamp`]) or
/// cannot be read.
fn read_text_again(path: &Path, first: u64) -> Option<String> {
    let file = open_local(path).ok()?;
    let meta = file.metadata().ok()?;
    if !meta.is_file() || stamp(&meta) != first {
        return None;
    }
    let bytes = read_limited(file, meta.len()).ok()?;
    match super::text::decode(FileBytes::Owned(bytes)) {
        super::text::DecodedText {
            text: crate::source::Text::Owned(text),
            fatal: None,
            ..
        } => Some(text),
        _ => None,
    }
}

/// Regular files at least this big are mapped: their pages can be handed back once parsed
/// ([`crate::source::SourceFile::release`]), where a copy in memory stays to the end. Smaller
/// ones are read: a mapping costs more system calls than a small read.
#[cfg(unix)]
const MAPPED_BYTES: u64 = 8 << 20;

/// Reads a regular file of `len` bytes as two halves at once, into one buffer (copying a big
/// file out of the page cache is memory-bound, and one core leaves half the bandwidth unused). `None` when the
/// file is not `len` bytes any more (being written): the caller then reads it as a stream.
#[cfg(unix)]
fn read_in_halves(file: &std::fs::File, len: usize) -> io::Result<Option<Vec<u8>>> {
    use std::os::unix::fs::FileExt;
    let mut bytes = vec![0; len];
    let (first, second) = bytes.split_at_mut(len / 2);
    let at = first.len() as u64;
    let (a, b) = rayon::join(
        || file.read_exact_at(first, 0),
        || file.read_exact_at(second, at),
    );
    match a.and(b) {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => return Ok(None),
        Err(e) => return Err(e),
    }
    let grew = file.read_at(&mut [0], len as u64)? > 0;
    Ok((!grew).then_some(bytes))
}

/// Reads a stream up to one byte past the size limit (so an endless one ends and is reported as
/// too large). `expected` is the size the stream announces (0 when unknown).
///
/// The memory touched stays near the size of the input: the announced size is read into one buffer
/// of exactly that size (a file is not copied again), anything else into 4 MiB chunks joined at
/// the end.
/// `read_to_end` on a limited stream would grow one buffer by doubling and zero its spare
/// capacity, touching up to twice the input, plus the copy of each regrowth.
fn read_limited(mut stream: impl Read, expected: u64) -> io::Result<Vec<u8>> {
    const CHUNK: usize = 4 << 20;
    let limit = super::text::MAX_FILE_BYTES + 1;
    let mut chunks: Vec<Vec<u8>> = Vec::new();
    let mut total = 0;
    let mut size = match expected {
        0 => CHUNK,
        n => n.min(limit as u64) as usize + 1,
    };
    while total < limit {
        let wanted = size.min(limit - total);
        let chunk = fill(&mut stream, wanted)?;
        total += chunk.len();
        let full = chunk.len() == wanted;
        chunks.push(chunk);
        if !full {
            break;
        }
        size = CHUNK;
    }
    if chunks.len() == 1 {
        return Ok(chunks.pop().unwrap_or_default());
    }
    let mut bytes = Vec::with_capacity(total);
    for chunk in chunks {
        bytes.extend_from_slice(&chunk);
    }
    Ok(bytes)
}

/// Reads up to `size` bytes (fewer only at the end of the stream) into a buffer of that capacity.
fn fill(stream: &mut impl Read, size: usize) -> io::Result<Vec<u8>> {
    let mut chunk = vec![0; size];
    let mut len = 0;
    while len < size {
        match stream.read(&mut chunk[len..]) {
            Ok(0) => break,
            Ok(n) => len += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    chunk.truncate(len);
    Ok(chunk)
}

/// How an input file came to be read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// Named on the command line: never skipped by ignore rules; a template is a warning.
    Named,
    /// Found by a directory walk or a glob match: a template is a note.
    Listed,
    /// Standard input: read as it is (rendered output is piped in).
    Stdin,
}

/// One input file's raw content.
#[derive(Debug)]
pub struct RawFile {
    /// Name shown in diagnostics.
    pub name: String,
    /// Bytes as read.
    pub bytes: FileBytes,
    /// How it came to be read.
    pub origin: Origin,
}

/// Whether a file name has a manifest extension. A `dopol test` suite (`*.dopoltest.yaml`) is
/// not a manifest: walks leave it out, so suites can sit beside the manifests they test.
pub fn is_manifest_name(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    (lower.ends_with(".yaml") || lower.ends_with(".yml") || lower.ends_with(".json"))
        && !lower.ends_with(".dopoltest.yaml")
}

fn looks_like_glob(arg: &str) -> bool {
    arg.contains(['*', '?', '['])
}

/// Deepest directory recursion (a bound on top of the loop detection).
const MAX_WALK_DEPTH: usize = 64;

/// Collects the files named by `-f` arguments, in argument order (directories sorted by name).
/// Each file is read once even if named twice. Walks and glob matches leave out what `excludes`
/// and the ignore files exclude. Problems become diagnostics.
pub fn collect(
    args: &[String],
    excludes: &Excludes,
    tree: &dyn FileTree,
    stdin: &mut dyn Read,
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<RawFile> {
    let mut collector = Collector {
        tree,
        excludes,
        walked: HashSet::new(),
        named: 0,
        ignored: 0,
        inputs: Vec::new(),
        diagnostics,
    };
    let mut stdin_read = false;
    for arg in args {
        if arg == "-" {
            if stdin_read {
                continue;
            }
            stdin_read = true;
            match read_limited(&mut *stdin, 0) {
                Ok(bytes) => collector.inputs.push(Input::Read(RawFile {
                    name: "<stdin>".into(),
                    bytes: bytes.into(),
                    origin: Origin::Stdin,
                })),
                Err(e) => collector
                    .diagnostics
                    .push(Diagnostic::from(UnreadableInput::Stdin(&e)).with_file("<stdin>")),
            }
            continue;
        }
        collector.argument(arg);
    }
    collector.read_all()
}

/// A file to read, in argument order.
enum Input {
    /// Already read (stdin).
    Read(RawFile),
    /// Named, walked or matched: read once collection is done.
    Listed {
        path: PathBuf,
        origin: Origin,
        /// Where its read error goes among the collector's diagnostics.
        diagnostic_at: usize,
    },
}

struct Collector<'a> {
    tree: &'a dyn FileTree,
    excludes: &'a Excludes,
    /// Directories already walked (by canonical path): symlinks back to an ancestor or to a
    /// sibling are walked once, so loops end.
    walked: HashSet<PathBuf>,
    /// Files named so far, including ones read before through another argument.
    named: usize,
    /// Entries left out by ignore files and excludes so far.
    ignored: usize,
    inputs: Vec<Input>,
    diagnostics: &'a mut Vec<Diagnostic>,
}

impl Collector<'_> {
    /// One path argument (not `-`).
    fn argument(&mut self, arg: &str) {
        let tree = self.tree;
        let path = Path::new(arg);
        let stat = tree.stat(path);
        match &stat {
            Ok(Some(EntryKind::File | EntryKind::Pipe)) => {
                return self.add_file(path, Origin::Named);
            }
            Ok(Some(EntryKind::Other(_))) if path == Path::new("/dev/null") => {
                return self.add_file(path, Origin::Named);
            }
            Ok(Some(EntryKind::Dir)) => return self.walk_root(path),
            Ok(None) if looks_like_glob(arg) => return self.expand_glob(arg),
            _ => {}
        }
        let name = tree.display_name(path);
        let failure = match &stat {
            Ok(Some(EntryKind::Other(what))) => UnreadableInput::NotAFile { arg, what },
            Err(error) => UnreadableInput::Inaccessible { name: &name, error },
            _ => UnreadableInput::Missing { name: &name },
        };
        self.diagnostics
            .push(Diagnostic::from(failure).with_file(name));
    }

    /// Walks a directory named as an argument.
    fn walk_root(&mut self, path: &Path) {
        let tree = self.tree;
        // A directory named twice holds files (read once); said only when the walk found no
        // other reason (an unreadable directory).
        let again = self.walked.contains(&tree.identity(path));
        let before = (self.named, self.diagnostics.len(), self.ignored);
        let mut ignores = IgnoreStack::above(tree, path);
        self.walk(path, Path::new(""), 0, &mut ignores);
        if again || (self.named, self.diagnostics.len()) != (before.0, before.1) {
            return;
        }
        let name = tree.display_name(path);
        let ignored = self.ignored - before.2;
        let empty = UnreadableInput::EmptyDirectory {
            name: &name,
            ignored,
        };
        self.diagnostics
            .push(Diagnostic::from(empty).with_file(name));
    }

    fn add_file(&mut self, path: &Path, origin: Origin) {
        self.named += 1;
        self.inputs.push(Input::Listed {
            path: path.to_path_buf(),
            origin,
            diagnostic_at: self.diagnostics.len(),
        });
    }

    /// Reads the listed files (all at once, see [`FileTree::identify_and_read`]), each once
    /// however often it was named; a read error takes the place among the diagnostics it would
    /// have had if files were read as they were listed.
    fn read_all(self) -> Vec<RawFile> {
        let paths: Vec<&Path> = (self.inputs.iter())
            .filter_map(|input| match input {
                Input::Listed { path, .. } => Some(path.as_path()),
                Input::Read(_) => None,
            })
            .collect();
        let mut read = self.tree.identify_and_read(&paths).into_iter();
        // Files already taken, by identity (canonical path).
        let mut seen = HashSet::new();
        let mut files = Vec::with_capacity(self.inputs.len());
        let mut errors = Vec::new();
        for input in self.inputs {
            let (path, origin, diagnostic_at) = match input {
                Input::Read(file) => {
                    files.push(file);
                    continue;
                }
                Input::Listed {
                    path,
                    origin,
                    diagnostic_at,
                } => (path, origin, diagnostic_at),
            };
            let Some((identity, bytes)) = read.next() else {
                break;
            };
            if !seen.insert(identity) {
                continue;
            }
            let name = self.tree.display_name(&path);
            match bytes {
                Ok(bytes) => files.push(RawFile {
                    name,
                    bytes,
                    origin,
                }),
                Err(e) => errors.push((
                    diagnostic_at,
                    Diagnostic::from(UnreadableInput::ReadFailed {
                        name: &name,
                        error: &e,
                    })
                    .with_file(name),
                )),
            }
        }
        for (at, diagnostic) in errors.into_iter().rev() {
            self.diagnostics.insert(at, diagnostic);
        }
        files
    }

    /// A walked or matched entry that is not a regular file: a warning, the rest is read.
    fn skip(&mut self, path: &Path, kind: EntryKind) {
        let name = self.tree.display_name(path);
        let stat = match kind {
            EntryKind::Pipe | EntryKind::Other(_) => Ok(None),
            _ => self.tree.stat(path),
        };
        let why = match (&kind, &stat) {
            (EntryKind::Pipe, _) => Skip::Pipe,
            (EntryKind::Other(what), _) => Skip::Other(what),
            (_, Err(e)) => Skip::Unstat(e),
            _ => Skip::Gone,
        };
        let skipped = UnreadableInput::Skipped { name: &name, why };
        self.diagnostics.push(
            Diagnostic::from(skipped)
                .with_severity(crate::diag::Severity::Warning)
                .with_file(name),
        );
    }

    /// Walks `dir` (`rel` below the walk root) in name order, skipping hidden entries and what
    /// the ignore files and excludes leave out.
    fn walk(&mut self, dir: &Path, rel: &Path, depth: usize, ignores: &mut IgnoreStack) {
        if !self.walked.insert(self.tree.identity(dir)) {
            return;
        }
        if depth > MAX_WALK_DEPTH {
            let name = self.tree.display_name(dir);
            let deep = UnreadableInput::TooDeep {
                name: &name,
                depth: MAX_WALK_DEPTH,
            };
            self.diagnostics
                .push(Diagnostic::from(deep).with_file(name));
            return;
        }
        let mut entries = match self.tree.list(dir) {
            Ok(entries) => entries,
            Err(e) => {
                let name = self.tree.display_name(dir);
                let unlisted = UnreadableInput::CannotList {
                    name: &name,
                    error: &e,
                };
                self.diagnostics
                    .push(Diagnostic::from(unlisted).with_file(name));
                return;
            }
        };
        entries.sort_by(|a, b| a.0.cmp(&b.0));
        ignores.enter(self.tree, dir, rel, &entries);
        for (name, kind) in entries {
            let is_dir = kind == EntryKind::Dir;
            if name.starts_with('.') || !(is_dir || is_manifest_name(&name)) {
                continue;
            }
            let path = dir.join(&name);
            let below = rel.join(&name);
            if ignores.ignored(&below, is_dir) || self.excludes.excluded(&path, is_dir) {
                self.ignored += 1;
                continue;
            }
            match kind {
                EntryKind::Dir => self.walk(&path, &below, depth + 1, ignores),
                EntryKind::File => self.add_file(&path, Origin::Listed),
                _ => self.skip(&path, kind),
            }
        }
        ignores.leave();
    }

    fn expand_glob(&mut self, pattern: &str) {
        let paths = match self.tree.glob(pattern) {
            Err(e) => {
                let bad = UnreadableInput::BadGlob { pattern, error: &e };
                return self
                    .diagnostics
                    .push(Diagnostic::from(bad).with_file(pattern));
            }
            Ok(paths) => paths,
        };
        let before = self.ignored;
        let mut matched = false;
        for path in paths {
            let kind = self.tree.stat(&path);
            let is_dir = matches!(kind, Ok(Some(EntryKind::Dir)));
            if self.excludes.excluded(&path, is_dir) {
                self.ignored += 1;
                continue;
            }
            matched = true;
            match kind {
                Ok(Some(EntryKind::Dir)) => {
                    let mut ignores = IgnoreStack::above(self.tree, &path);
                    self.walk(&path, Path::new(""), 0, &mut ignores);
                }
                Ok(Some(EntryKind::File)) => self.add_file(&path, Origin::Listed),
                Ok(Some(kind)) => self.skip(&path, kind),
                _ => self.skip(&path, EntryKind::Gone),
            }
        }
        if !matched {
            let excluded = self.ignored - before;
            let none = UnreadableInput::NoMatch { pattern, excluded };
            self.diagnostics
                .push(Diagnostic::from(none).with_file(pattern));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::read_limited;
    #[cfg(unix)]
    use super::{FileBytes, MAPPED_BYTES, read_local};
    use std::io::Read;

    /// A big regular file is mapped, a small one read; both give its bytes, and a mapped one
    /// still does after its pages are handed back.
    #[cfg(unix)]
    #[test]
    fn big_files_are_mapped_and_read_the_same() {
        let dir = tempfile::tempdir().expect("temp dir");
        for len in [1000, MAPPED_BYTES as usize + 4321] {
            let content = bytes(len);
            let path = dir.path().join(format!("f{len}"));
            std::fs::write(&path, &content).expect("written");
            let read = read_local(&path).expect("read");
            assert_eq!(
                matches!(read, FileBytes::Mapped(_)),
                len as u64 >= MAPPED_BYTES
            );
            assert!(read.as_slice() == content.as_slice(), "{len}");
            if let FileBytes::Mapped(mapped) = &read {
                mapped.release_range(4096..len / 2);
                assert!(mapped.bytes() == content.as_slice(), "after releasing part");
                mapped.release_range(0..len);
                assert!(mapped.bytes() == content.as_slice(), "after release");
            }
        }
    }

    /// A small regular file is read into memory, and its text can be read again once handed
    /// back: the same text while the file is unchanged, blanks of the same length once it has
    /// changed (another modification and change time), so that spans never point at other
    /// text.
    #[cfg(unix)]
    #[test]
    fn a_small_files_text_is_read_again_once_handed_back() {
        use crate::source::SourceMap;
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("a.yaml");
        // Invalid UTF-8 and a BOM: read again, decoded as the first time.
        let content = b"\xEF\xBB\xBFkind: A # \xFF\n";
        std::fs::write(&path, content).expect("written");
        let text = |map: &SourceMap, id| map.get(id).text().to_string();
        let mut map = SourceMap::new();
        let read = read_local(&path).expect("read");
        assert!(matches!(read, FileBytes::Local(..)));
        let id = map.add("a.yaml", crate::load::text::decode(read).text);
        let first = text(&map, id);
        assert_eq!(first, "kind: A # \u{FFFD}\n");
        map.hand_back(id);
        assert_eq!(text(&map, id), first, "read again");
        // Held by another map: kept, whatever happens to the file.
        let shared = map.clone();
        map.hand_back(id);
        let file = std::fs::File::options()
            .write(true)
            .open(&path)
            .expect("open");
        file.set_modified(std::time::SystemTime::UNIX_EPOCH)
            .expect("modification time");
        drop(shared);
        let mut changed = SourceMap::new();
        let read = read_local(&path).expect("read");
        let id = changed.add("a.yaml", crate::load::text::decode(read).text);
        std::fs::write(&path, b"kind: B # other\n").expect("rewritten");
        changed.hand_back(id);
        assert_eq!(text(&changed, id), " ".repeat(first.len()), "changed since");
        assert_eq!(text(&map, id), first, "held");
        // Named through /dev (`/dev/stdin` redirected from a file): read once, and held.
        #[cfg(target_os = "linux")]
        {
            use std::os::unix::io::AsRawFd;
            let file = std::fs::File::open(&path).expect("open");
            let fd = std::path::PathBuf::from(format!("/dev/fd/{}", file.as_raw_fd()));
            let read = read_local(&fd).expect("read through /dev/fd");
            assert!(matches!(read, FileBytes::Owned(_)));
        }
    }

    /// A stream that hands out at most 1000 bytes per read, as a pipe does.
    struct Trickle(std::io::Cursor<Vec<u8>>);

    impl Read for Trickle {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let n = buf.len().min(1000);
            self.0.read(&mut buf[..n])
        }
    }

    fn bytes(len: usize) -> Vec<u8> {
        (0..len).map(|i| (i * 7 % 251) as u8).collect()
    }

    #[test]
    fn reads_every_byte_whatever_size_was_announced() {
        let big = bytes((9 << 20) + 12_345);
        for (input, expected) in [
            (big.clone(), 0),                // a pipe: several 4 MiB chunks, joined
            (big.clone(), big.len() as u64), // a file: one exact buffer
            (big.clone(), 1000),             // the file grew after its size was read
            (big[..500].to_vec(), 100_000),  // it shrank
            (Vec::new(), 0),
        ] {
            let read = read_limited(Trickle(std::io::Cursor::new(input.clone())), expected)
                .expect("reads");
            assert_eq!(read.len(), input.len(), "announced {expected}");
            assert!(read == input, "announced {expected}");
        }
    }

    #[test]
    fn an_announced_size_is_the_buffer_size() {
        let input = bytes(100_000);
        let read =
            read_limited(std::io::Cursor::new(input.clone()), input.len() as u64).expect("reads");
        assert_eq!(read, input);
        assert_eq!(read.capacity(), input.len() + 1);
    }
}
