//! I/O faults and bad environments, through the real binary: each gives a clear message and the
//! documented exit code (never 4, never a panic, never a hang).
//!
//! Every test works in a fresh temporary directory (mode 0755, so an unprivileged user can
//! reach it when the test runs as root and drops privileges for the child).

use crate::common::Output;
use std::fs;
use std::io::Read;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const SHOP: &str = "testdata/examples/shop";

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_dopol")
}

/// A fresh temporary directory, readable by everyone.
fn temp_dir() -> tempfile::TempDir {
    let dir = tempfile::Builder::new()
        .prefix("dopol-io-faults-")
        .tempdir()
        .expect("temp dir");
    fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o755)).expect("chmod");
    dir
}

/// A directory holding a copy of the shop example (a valid input).
fn shop_copy(dir: &Path) {
    fs::create_dir_all(dir).expect("mkdir");
    for entry in fs::read_dir(crate::common::root().join(SHOP)).expect("shop") {
        let entry = entry.expect("entry");
        fs::copy(entry.path(), dir.join(entry.file_name())).expect("copy");
    }
}

/// Waits for `child` at most `limit`, killing it (and failing) when it takes longer.
fn finish(mut child: Child, limit: Duration) -> Output {
    let start = Instant::now();
    while child.try_wait().expect("wait").is_none() {
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("dopol did not finish within {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let out = child.wait_with_output().expect("output");
    Output {
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        code: out.status.code().unwrap_or(-1),
    }
}

/// Runs `program args...` in `dir` with stdin empty, within a few seconds.
fn run(dir: &Path, program: &str, args: &[&str]) -> Output {
    let child = Command::new(program)
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs");
    finish(child, Duration::from_secs(10))
}

/// `dopol args...` in `dir`.
fn dopol(dir: &Path, args: &[&str]) -> Output {
    run(dir, bin(), args)
}

/// Asserts the run was not treated as a bug.
fn no_bug(out: &Output) -> &Output {
    out.stderr_lacks(&["panicked", "bug", "internal error"])
}

fn is_root() -> bool {
    let out = Command::new("id").arg("-u").output().expect("id runs");
    String::from_utf8_lossy(&out.stdout).trim() == "0"
}

/// `dopol args...` as an unprivileged user (root reads files whatever their mode).
fn dopol_unprivileged(dir: &Path, args: &[&str]) -> Option<Output> {
    if !is_root() {
        return Some(dopol(dir, args));
    }
    let setpriv = ["/usr/bin/setpriv", "/bin/setpriv"]
        .into_iter()
        .find(|p| Path::new(p).exists());
    let Some(setpriv) = setpriv else {
        eprintln!("skipped: running as root and setpriv is not installed to drop privileges");
        return None;
    };
    let mut full = vec![
        "--reuid=65534",
        "--regid=65534",
        "--clear-groups",
        "--",
        bin(),
    ];
    full.extend_from_slice(args);
    Some(run(dir, setpriv, &full))
}

#[test]
fn unreadable_file_is_an_input_error() {
    let tmp = temp_dir();
    fs::write(tmp.path().join("secret.yaml"), "a: 1\n").unwrap();
    fs::set_permissions(
        tmp.path().join("secret.yaml"),
        fs::Permissions::from_mode(0o000),
    )
    .unwrap();
    let Some(out) = dopol_unprivileged(tmp.path(), &["effective", "-f", "secret.yaml"]) else {
        return;
    };
    no_bug(&out)
        .code(3)
        .stderr_has(&["DPL1002", "cannot read `secret.yaml`", "Permission denied"]);
}

#[test]
fn unreadable_directory_is_an_input_error() {
    let tmp = temp_dir();
    fs::create_dir(tmp.path().join("locked")).unwrap();
    fs::write(tmp.path().join("locked/a.yaml"), "a: 1\n").unwrap();
    fs::set_permissions(tmp.path().join("locked"), fs::Permissions::from_mode(0o000)).unwrap();
    let Some(out) = dopol_unprivileged(tmp.path(), &["effective", "-f", "locked"]) else {
        return;
    };
    no_bug(&out)
        .code(3)
        .stderr_has(&["DPL1002", "cannot list `locked`", "Permission denied"])
        // The cause alone: not also "holds no .yaml file".
        .stderr_lacks(&["holds no"]);
}

/// A file that vanishes between listing and reading looks, deterministically, like a dangling
/// symlink: listed, but nothing behind it.
#[test]
fn file_vanished_during_the_walk_is_skipped_with_a_warning() {
    let tmp = temp_dir();
    let dir = tmp.path().join("manifests");
    shop_copy(&dir);
    std::os::unix::fs::symlink("removed.yaml", dir.join("gone.yaml")).unwrap();
    let out = dopol(tmp.path(), &["effective", "-f", "manifests"]);
    no_bug(&out).code(0).stderr_has(&[
        "DPL1002",
        "`manifests/gone.yaml` is a dangling symlink, or vanished during the walk; skipped",
    ]);
    assert!(out.stdout.contains("shop/catalog"), "{}", out.stdout);
}

fn mkfifo(path: &Path) {
    let status = Command::new("mkfifo").arg(path).status().expect("mkfifo");
    assert!(status.success());
}

#[test]
fn named_pipe_without_writer_does_not_hang() {
    let tmp = temp_dir();
    mkfifo(&tmp.path().join("pipe.yaml"));
    let out = dopol(tmp.path(), &["effective", "-f", "pipe.yaml"]);
    no_bug(&out)
        .code(3)
        .stderr_has(&["cannot read `pipe.yaml`", "pipe", "nothing wrote to it"]);
}

#[test]
fn named_pipe_in_a_directory_is_skipped() {
    let tmp = temp_dir();
    let dir = tmp.path().join("manifests");
    shop_copy(&dir);
    mkfifo(&dir.join("pipe.yaml"));
    let out = dopol(tmp.path(), &["effective", "-f", "manifests"]);
    no_bug(&out)
        .code(0)
        .stderr_has(&["`manifests/pipe.yaml` is a named pipe, not a file; skipped"]);
}

#[test]
fn endless_device_is_refused() {
    let tmp = temp_dir();
    let out = dopol(tmp.path(), &["effective", "-f", "/dev/zero"]);
    no_bug(&out)
        .code(3)
        .stderr_has(&["`/dev/zero` is a character device, not a file"]);
}

#[test]
fn dev_null_is_an_empty_input() {
    let tmp = temp_dir();
    let out = dopol(tmp.path(), &["effective", "-f", "/dev/null"]);
    no_bug(&out)
        .code(3)
        .stderr_has(&["DPL1008", "no Kubernetes objects"]);
}

#[test]
fn symlink_loops_in_a_walk_end() {
    let tmp = temp_dir();
    let dir = tmp.path().join("manifests");
    shop_copy(&dir);
    // A directory link back to its parent, and two file links pointing at each other.
    std::os::unix::fs::symlink("..", dir.join("up")).unwrap();
    std::os::unix::fs::symlink(".", dir.join("here")).unwrap();
    std::os::unix::fs::symlink("b.yaml", dir.join("a.yaml")).unwrap();
    std::os::unix::fs::symlink("a.yaml", dir.join("b.yaml")).unwrap();
    let out = dopol(tmp.path(), &["effective", "-f", "manifests"]);
    no_bug(&out).code(0).stderr_has(&[
        "`manifests/a.yaml` cannot be read",
        "symbolic links",
        "skipped",
    ]);
    // Each file is read once however often the loops reach it.
    out.stderr_lacks(&["more than once"]);
}

#[test]
fn huge_file_is_refused_from_its_size() {
    let tmp = temp_dir();
    let file = fs::File::create(tmp.path().join("huge.yaml")).unwrap();
    file.set_len(2 << 30).unwrap(); // sparse: no disk used
    let start = Instant::now();
    let out = dopol(tmp.path(), &["effective", "-f", "huge.yaml"]);
    assert!(
        start.elapsed() < Duration::from_secs(2),
        "{:?}",
        start.elapsed()
    );
    no_bug(&out).code(3).stderr_has(&[
        "cannot read `huge.yaml`",
        "larger than 1 GiB (2147483648 bytes)",
        "the most dopol reads",
    ]);
}

#[test]
fn stdin_terminal_is_a_usage_error() {
    if !Path::new("/usr/bin/script").exists() {
        eprintln!("skipped: `script` (util-linux) is not installed to run dopol under a terminal");
        return;
    }
    let tmp = temp_dir();
    let command = format!("{} effective -f -", bin());
    let out = run(
        tmp.path(),
        "/usr/bin/script",
        &["-qec", &command, "/dev/null"],
    );
    // Under `script`, dopol's stderr is the terminal, which `script` copies to its stdout.
    assert_eq!(out.code, 2, "{}{}", out.stdout, out.stderr);
    assert!(out.stdout.contains("stdin is a terminal"), "{}", out.stdout);
    assert!(!out.stdout.contains("panicked"), "{}", out.stdout);
}

#[test]
fn closed_pipe_is_quiet() {
    let mut child = Command::new(bin())
        .args(["effective", "-f", SHOP])
        .current_dir(crate::common::root())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Close the read end before dopol writes, as `| head -0` would: its write fails.
    drop(child.stdout.take());
    let out = finish(child, Duration::from_secs(10));
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(out.stderr, "");
}

#[test]
fn closed_pipe_after_one_line_is_quiet() {
    let mut child = Command::new(bin())
        .args(["effective", "-f", SHOP, "-f", SHOP, "-o", "json"])
        .current_dir(crate::common::root())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 1];
    child.stdout.take().unwrap().read_exact(&mut first).unwrap();
    let out = finish(child, Duration::from_secs(10));
    assert_eq!(first[0], b'{');
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(out.stderr, "");
}

#[test]
fn full_disk_is_reported() {
    let full = fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let child = Command::new(bin())
        .args(["effective", "-f", SHOP])
        .current_dir(crate::common::root())
        .stdin(Stdio::null())
        .stdout(full)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let out = finish(child, Duration::from_secs(10));
    no_bug(&out).code(3).stderr_has(&[
        "cannot write the output to stdout",
        "No space left on device",
    ]);
}

/// `git args...` in `dir`, isolated from the user's configuration.
fn git(dir: &Path, args: &[&str]) {
    let out = Command::new("git")
        .args(["-c", "user.name=t", "-c", "user.email=t@example.com"])
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("HOME", dir)
        .output()
        .expect("git runs");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A repository with two commits, and a depth-1 clone of it.
fn shallow_clone(tmp: &Path) -> PathBuf {
    let origin = tmp.join("origin");
    shop_copy(&origin);
    git(&origin, &["init", "-q"]);
    git(&origin, &["add", "."]);
    git(&origin, &["commit", "-qm", "one"]);
    fs::write(origin.join("note.yaml"), "# two\n").unwrap();
    git(&origin, &["add", "."]);
    git(&origin, &["commit", "-qm", "two"]);
    let url = format!("file://{}", origin.display());
    git(tmp, &["clone", "-q", "--depth", "1", &url, "clone"]);
    tmp.join("clone")
}

#[test]
fn git_revision_beyond_a_shallow_clone() {
    let tmp = temp_dir();
    let clone = shallow_clone(tmp.path());
    let out = dopol(&clone, &["diff", "git:HEAD~1", "git:HEAD", "-f", "."]);
    no_bug(&out).code(3).stderr_has(&[
        "unknown revision `HEAD~1`",
        "shallow clone",
        "git fetch --unshallow",
    ]);
}

#[test]
fn git_revision_with_a_missing_object() {
    let tmp = temp_dir();
    let clone = shallow_clone(tmp.path());
    let missing = "0123456789abcdef0123456789abcdef01234567";
    let out = dopol(&clone, &["diff", &format!("git:{missing}"), "-f", "."]);
    no_bug(&out)
        .code(3)
        .stderr_has(&[&format!("unknown revision `{missing}`")]);
}

#[test]
fn git_not_installed() {
    let tmp = temp_dir();
    let empty = tmp.path().join("empty-path");
    fs::create_dir(&empty).unwrap();
    let child = Command::new(bin())
        .args(["diff", "git:HEAD", "-f", "."])
        .current_dir(tmp.path())
        .env("PATH", &empty)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let out = finish(child, Duration::from_secs(10));
    no_bug(&out).code(3).stderr_has(&[
        "git:HEAD",
        "cannot run the `git` program",
        "not installed or not on PATH",
    ]);
}
