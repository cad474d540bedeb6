//! Inputs the way people have them, through the real binary: positional paths (an unquoted shell
//! glob), `-f a,b` as kubectl reads it, directory walks that skip what `.gitignore`,
//! `.dopolignore` and `--exclude` exclude (never a file named explicitly), and Go/Helm template
//! files skipped with a note while the rest is evaluated.

use crate::common::{dopol, root, run_in};
use std::fs;
use std::path::Path;

const SHOP: &str = "testdata/examples/shop";

/// A copy of the shop example (9 objects in 2 files) in `dir`.
fn shop_copy(dir: &Path) {
    fs::create_dir_all(dir).unwrap();
    for file in ["platform.yaml", "shop.yaml"] {
        fs::copy(root().join(SHOP).join(file), dir.join(file)).unwrap();
    }
}

fn write(dir: &Path, path: &str, text: &str) {
    let path = dir.join(path);
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, text).unwrap();
}

/// A Helm chart template: Go template actions, not YAML until rendered.
const HELM_TEMPLATE: &str = "{{- if .Values.enabled }}
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: {{ include \"app.fullname\" . }}
{{- end }}
";

#[test]
fn positional_paths_are_read_like_f() {
    let positional = dopol(&["effective", "-o", "json", SHOP]);
    positional.code(0);
    let flagged = dopol(&["effective", "-o", "json", "-f", SHOP]);
    assert_eq!(positional.stdout, flagged.stdout);
    assert_eq!(positional.json()["items"].as_array().unwrap().len(), 10);

    // What an unquoted shell glob expands to: several files.
    let files = [
        "testdata/examples/shop/platform.yaml",
        "testdata/examples/shop/shop.yaml",
    ];
    let out = dopol(&["lint", files[0], files[1]]);
    out.code(0);
    assert_eq!(out.stderr, "no issues in 9 objects from 2 files\n");

    for command in ["overridden", "status", "topology"] {
        let out = dopol(&[command, SHOP]);
        out.code(0);
        assert_eq!(
            out.stdout,
            dopol(&[command, "-f", SHOP]).stdout,
            "{command}"
        );
    }
    let out = dopol(&[
        "explain",
        SHOP,
        "--route",
        "shop/cart",
        "--rule",
        "checkout",
    ]);
    out.code(0).stdout_has(&["shop/cart"]);
}

#[test]
fn f_and_positional_paths_add_up_and_a_file_named_twice_is_read_once() {
    let out = dopol(&[
        "lint",
        "-f",
        "testdata/examples/shop/platform.yaml",
        "testdata/examples/shop/shop.yaml",
        SHOP,
    ]);
    out.code(0);
    assert_eq!(out.stderr, "no issues in 9 objects from 2 files\n");
}

#[test]
fn f_splits_on_commas_as_kubectl_does() {
    let out = dopol(&[
        "lint",
        "-f",
        "testdata/examples/shop/platform.yaml,testdata/examples/shop/shop.yaml",
    ]);
    out.code(0);
    assert_eq!(out.stderr, "no issues in 9 objects from 2 files\n");
    // A path containing a comma is split too (kubectl does the same): name it positionally.
    let dir = tempfile::tempdir().unwrap();
    shop_copy(&dir.path().join("a,b"));
    let out = run_in(dir.path(), &["lint", "-f", "a,b"], None);
    out.code(3).stdout_has(&[
        "× [DPL1002] `a` does not exist",
        "× [DPL1002] `b` does not exist",
    ]);
    let out = run_in(dir.path(), &["lint", "a,b"], None);
    out.code(0);
}

#[test]
fn commands_with_their_own_positionals_take_manifests_with_f_only() {
    let out = dopol(&["reach", "shop/cart-auth", SHOP]);
    out.code(2)
        .stderr_has(&["unexpected argument 'testdata/examples/shop'"]);
    let out = dopol(&["reach", "shop/cart-auth", "-f", SHOP]);
    out.code(0);
}

/// A repository with manifests, generated copies (duplicates if read), scratch files and a
/// chart: what a walk should read is `manifests/` only.
fn repository(dir: &Path) {
    fs::create_dir(dir.join(".git")).unwrap();
    shop_copy(&dir.join("manifests"));
    shop_copy(&dir.join("generated"));
    shop_copy(&dir.join("scratch"));
    write(
        dir,
        "manifests/old.tmpl.yaml",
        &fs::read_to_string(dir.join("manifests/shop.yaml")).unwrap(),
    );
    write(dir, ".gitignore", "/generated/\n");
    write(dir, ".dopolignore", "scratch/\n");
}

#[test]
fn walks_skip_what_gitignore_dopolignore_and_exclude_exclude() {
    let dir = tempfile::tempdir().unwrap();
    repository(dir.path());
    let out = run_in(dir.path(), &["lint", ".", "--exclude", "*.tmpl.yaml"], None);
    out.code(0);
    assert_eq!(out.stderr, "no issues in 9 objects from 2 files\n");

    // Without --exclude the copy is read: every object is defined twice.
    let out = run_in(dir.path(), &["lint", "."], None);
    out.code(3)
        .stdout_has(&["× [DPL1006] HTTPRoute shop/cart is defined more than once"]);
    assert!(
        out.stderr.ends_with("in 9 objects from 3 files\n"),
        "{}",
        out.stderr
    );

    // Ignore files above the walked directory count too.
    let out = run_in(
        dir.path().join("manifests").as_path(),
        &["lint", "..", "--exclude", "*.tmpl.yaml"],
        None,
    );
    out.code(0);
    assert_eq!(out.stderr, "no issues in 9 objects from 2 files\n");
}

#[test]
fn gitignore_counts_only_inside_a_git_work_tree() {
    let dir = tempfile::tempdir().unwrap();
    repository(dir.path());
    fs::remove_dir(dir.path().join(".git")).unwrap();
    let out = run_in(
        dir.path(),
        &["lint", "-v", ".", "--exclude", "*.tmpl.yaml"],
        None,
    );
    out.code(3).stderr_has(&["read 4 files"]);
}

#[test]
fn a_deeper_ignore_file_wins_and_dopolignore_wins_over_gitignore() {
    let dir = tempfile::tempdir().unwrap();
    repository(dir.path());
    // `scratch/` is ignored at the top; its own .dopolignore cannot re-include what a parent
    // excluded (git's rule), but a deeper file's `!` re-includes against a shallower pattern.
    write(dir.path(), ".dopolignore", "scratch/\n*.tmpl.yaml\n");
    write(dir.path(), "manifests/.dopolignore", "!old.tmpl.yaml\n");
    let out = run_in(dir.path(), &["lint", "-v", "."], None);
    out.code(3).stderr_has(&["read 3 files"]);
    // In one directory, .dopolignore decides over .gitignore.
    write(dir.path(), "manifests/.gitignore", "shop.yaml\n");
    write(dir.path(), "manifests/.dopolignore", "!shop.yaml\n");
    let out = run_in(dir.path(), &["lint", "-v", "."], None);
    out.code(0)
        .stderr_has(&["read 2 files", "no issues in 9 objects from 2 files"]);
}

#[test]
fn a_file_named_explicitly_is_never_skipped() {
    let dir = tempfile::tempdir().unwrap();
    repository(dir.path());
    let out = run_in(
        dir.path(),
        &[
            "lint",
            "generated/platform.yaml",
            "scratch/shop.yaml",
            "--exclude",
            "*.yaml",
        ],
        None,
    );
    out.code(0);
    assert_eq!(out.stderr, "no issues in 9 objects from 2 files\n");
}

#[test]
fn a_walk_that_finds_only_ignored_entries_says_so() {
    let dir = tempfile::tempdir().unwrap();
    repository(dir.path());
    // A directory named explicitly is walked even when an ignore file above excludes it (as
    // ripgrep does); what is ignored inside it is not read.
    let out = run_in(dir.path(), &["lint", "scratch/"], None);
    out.code(0);
    write(dir.path(), "scratch/.dopolignore", "*.yaml\n");
    let out = run_in(dir.path(), &["lint", "scratch/"], None);
    out.code(3).stdout_has(&[
        "× [DPL1002] directory `scratch/` holds no .yaml, .yml or .json file, apart from 2 entries left out by ignore files or excludes",
        "help: see .gitignore, .dopolignore and --exclude (and `exclude` in .dopol.yaml)",
    ]);
}

#[test]
fn helm_templates_found_by_a_walk_are_skipped_with_a_note_and_the_rest_is_evaluated() {
    let dir = tempfile::tempdir().unwrap();
    shop_copy(&dir.path().join("deploy"));
    write(
        dir.path(),
        "deploy/charts/app/templates/route.yaml",
        HELM_TEMPLATE,
    );
    let out = run_in(dir.path(), &["effective", "deploy"], None);
    out.code(0)
        .stdout_has(&["Gateway infra/public"])
        .stderr_has(&["note: 1 info diagnostic not shown (use -v)"]);
    let out = run_in(dir.path(), &["effective", "-v", "deploy"], None);
    out.code(0).stderr_has(&[
        "☞ [DPL1021] `deploy/charts/app/templates/route.yaml` is a Go/Helm template (`{{- if .Values.enabled }}`); skipped
   ╭─[deploy/charts/app/templates/route.yaml:1:1]",
        "help: render it first (`helm template ... | dopol lint -f -`), or leave it out with .dopolignore or --exclude",
    ]);
    // lint shows it as an info finding, which does not fail the run; ignoring the code or the
    // chart silences it.
    let out = run_in(dir.path(), &["lint", "deploy"], None);
    out.code(0);
    assert_eq!(
        out.stderr,
        "0 errors, 0 warnings, 1 info in 9 objects from 3 files\n"
    );
    let out = run_in(
        dir.path(),
        &["lint", "deploy", "--exclude", "charts/"],
        None,
    );
    assert_eq!(out.stderr, "no issues in 9 objects from 2 files\n");
}

#[test]
fn a_helm_template_named_explicitly_is_a_warning() {
    let dir = tempfile::tempdir().unwrap();
    shop_copy(&dir.path().join("deploy"));
    write(dir.path(), "route.yaml", HELM_TEMPLATE);
    let out = run_in(dir.path(), &["effective", "deploy", "route.yaml"], None);
    out.code(0).stderr_has(&[
        "⚠ [DPL1021] `route.yaml` is a Go/Helm template (`{{- if .Values.enabled }}`); skipped",
    ]);
    // Alone, it leaves nothing to evaluate.
    let out = run_in(dir.path(), &["effective", "route.yaml"], None);
    out.code(3).stderr_has(&[
        "[DPL1021]",
        "× [DPL1008] the input contains no Kubernetes objects",
    ]);
}

#[test]
fn inja_templates_in_kgateway_values_are_not_go_templates() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "m/policy.yaml",
        &format!(
            "{}---\n{}---\napiVersion: gateway.kgateway.dev/v1alpha1\nkind: TrafficPolicy\nmetadata: {{name: t, namespace: app}}\nspec:\n  targetRefs: [{{group: gateway.networking.k8s.io, kind: HTTPRoute, name: route}}]\n  transformation:\n    request:\n      set: [{{name: x-user, value: '{{{{ request_header(\"x-id\") }}}}'}}]\n",
            crate::common::GATEWAY,
            crate::common::ROUTE
        ),
    );
    let out = run_in(dir.path(), &["lint", "-v", "m"], None);
    out.stderr_lacks(&["DPL1021"])
        .stderr_has(&["read 1 file, 3 documents"]);
}

#[test]
fn walking_thousands_of_files_with_ignore_files_stays_fast() {
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir(dir.path().join(".git")).unwrap();
    write(dir.path(), ".gitignore", "*-skip.yaml\n");
    for d in 0..40 {
        for f in 0..50 {
            let name = if f % 10 == 0 { "skip" } else { "keep" };
            write(
                dir.path(),
                &format!("m/d{d:02}/f{f:02}-{name}.yaml"),
                &format!("apiVersion: v1\nkind: ConfigMap\nmetadata: {{name: c{d}-{f}}}\n"),
            );
        }
        write(
            dir.path(),
            &format!("m/d{d:02}/.dopolignore"),
            "f01-keep.yaml\n",
        );
    }
    let started = std::time::Instant::now();
    let out = run_in(dir.path(), &["topology", "-v", "m"], None);
    let took = started.elapsed();
    out.stderr_has(&["read 1760 files, 1760 documents"]);
    assert!(took.as_secs() < 20, "walking 2000 files took {took:?}");
}

#[test]
fn git_info_exclude_counts_and_excludes_filter_the_matches_of_a_glob() {
    let dir = tempfile::tempdir().unwrap();
    repository(dir.path());
    fs::create_dir_all(dir.path().join(".git/info")).unwrap();
    write(dir.path(), ".git/info/exclude", "*.tmpl.yaml\n");
    let out = run_in(dir.path(), &["lint", "."], None);
    out.code(0);
    assert_eq!(out.stderr, "no issues in 9 objects from 2 files\n");
    // A glob dopol expands: its matches are filtered by --exclude (not by ignore files).
    let out = run_in(
        dir.path(),
        &["lint", "-f", "scratch/*.yaml", "--exclude", "platform.yaml"],
        None,
    );
    out.code(0);
    assert_eq!(
        out.stderr,
        "0 errors, 4 warnings, 0 infos in 4 objects from 1 file\n"
    );
    let out = run_in(
        dir.path(),
        &["lint", "-f", "scratch/*.yaml", "--exclude", "*.yaml"],
        None,
    );
    out.code(3).stdout_has(&[
        "× [DPL1002] `scratch/*.yaml` matches no file (apart from 2 paths excluded)",
    ]);
}

/// A file of 8 MiB or more is mapped, parsed a batch at a time with its pages handed back, and
/// read again where diagnostics point: every command gives what the same bytes on stdin (read
/// into memory) give, with and without a filter, diagnostics deep in the file included.
#[test]
fn a_big_mapped_file_reads_as_the_same_bytes_on_stdin() {
    let dir = tempfile::tempdir().unwrap();
    let mut text = String::new();
    for file in ["platform.yaml", "shop.yaml"] {
        let part = fs::read_to_string(root().join(SHOP).join(file)).unwrap();
        text.push_str("---\n");
        text.push_str(&part);
        // Padding between documents: comments, about 4.5 MiB a file.
        for i in 0..90_000 {
            text.push_str(&format!(
                "# padding line {i:06} ..................................\n"
            ));
        }
    }
    // A problem at the end, so its snippet is read from a page handed back long before.
    text.push_str("---\napiVersion: kuadrant.io/v1\nkind: RateLimitPolicy\nmetadata:\n  name: late\n  namespace: shop\nspec:\n  targetRef: {group: gateway.networking.k8s.io, kind: HTTPRoute, name: nowhere}\n  limits:\n    l: {rates: [{limit: 1, window: 1m}]}\n");
    assert!(text.len() > 9 << 20, "big enough to be mapped");
    write(dir.path(), "big.yaml", &text);
    for args in [
        &["lint"][..],
        &["lint", "-o", "json"],
        &["effective", "-o", "json"],
        &["effective", "-o", "json", "--kind", "RateLimitPolicy"],
        &["status", "-o", "json"],
    ] {
        let file = run_in(dir.path(), &[args, &["-f", "big.yaml"]].concat(), None);
        let stdin = run_in(
            dir.path(),
            &[args, &["-f", "-"]].concat(),
            Some(text.as_bytes()),
        );
        assert_eq!(file.code, stdin.code, "{args:?}");
        assert_eq!(
            file.stdout,
            stdin.stdout.replace("<stdin>", "big.yaml"),
            "{args:?}"
        );
        assert_eq!(
            file.stderr,
            stdin.stderr.replace("<stdin>", "big.yaml"),
            "{args:?}"
        );
    }
    let line = text[..text.find("name: nowhere").unwrap()]
        .matches('\n')
        .count()
        + 1;
    let lint = run_in(dir.path(), &["lint", "-f", "big.yaml"], None);
    lint.stdout_has(&[&format!("big.yaml:{line}:"), "nowhere"]);
}
