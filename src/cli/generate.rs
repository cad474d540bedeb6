//! `dopol completions` and `dopol man`, generated from the clap definition.
//!
//! clap knows the flags but not what a command is for in practice or what its exit codes mean,
//! so the man pages get two sections from the tables here: EXAMPLES and EXIT STATUS.

use super::args::{Cli, CompletionsArgs, ManArgs, Shell};
use super::session::Exit;
use clap::CommandFactory;

/// Every shell with the file name its completion script is committed under (`completions/`).
pub const COMPLETION_FILES: &[(Shell, &str)] = &[
    (Shell::Bash, "dopol.bash"),
    (Shell::Zsh, "_dopol"),
    (Shell::Fish, "dopol.fish"),
    (Shell::Powershell, "_dopol.ps1"),
    (Shell::Elvish, "dopol.elv"),
];

/// The completion script for a shell.
pub fn completion_script(shell: Shell) -> Vec<u8> {
    let mut command = Cli::command();
    let mut out = Vec::new();
    let shell = match shell {
        Shell::Bash => clap_complete::Shell::Bash,
        Shell::Zsh => clap_complete::Shell::Zsh,
        Shell::Fish => clap_complete::Shell::Fish,
        Shell::Powershell => clap_complete::Shell::PowerShell,
        Shell::Elvish => clap_complete::Shell::Elvish,
    };
    clap_complete::generate(shell, &mut command, "dopol", &mut out);
    out
}

/// Prints a completion script.
pub fn completions(args: &CompletionsArgs) -> Exit {
    super::session::write_document(|out| out.write_all(&completion_script(args.shell)))
}

/// Examples per command (`""` is the main page): the command line and what it shows. Paths
/// name a manifest directory `manifests/`; tests/it/readme_examples.rs runs every line on a bundled
/// example.
pub const EXAMPLES: &[(&str, &[(&str, &str)])] = &[
    (
        "",
        &[
            (
                "dopol effective -f manifests/",
                "The effective policy of every path, with the source of every rule.",
            ),
            (
                "dopol lint -f manifests/ --fail-on warning",
                "Check the manifests in CI; exit 1 on warnings or errors.",
            ),
            (
                "dopol diff git:main git:HEAD -f manifests/",
                "What a branch changes in the effective policies.",
            ),
        ],
    ),
    (
        "effective",
        &[
            (
                "dopol effective -f manifests/",
                "A table per Gateway: every path's rules, their source and value.",
            ),
            (
                "dopol effective -f manifests/ --kind RateLimitPolicy --route shop/cart",
                "One kind on the paths of one route.",
            ),
            (
                "dopol effective -f manifests/ -o json --compact",
                "Each distinct effective policy once, and a map from path id to policy ids.",
            ),
            (
                "kubectl get gateways,httproutes,grpcroutes,namespaces,authpolicies,ratelimitpolicies -A -o yaml | dopol effective -f -",
                "A live cluster's effective policies (list only the policy kinds the cluster has).",
            ),
        ],
    ),
    (
        "overridden",
        &[
            (
                "dopol overridden -f manifests/",
                "Every rule that lost somewhere, the policy that won, and on which paths.",
            ),
            (
                "dopol overridden -f manifests/ --policy infra/platform-auth",
                "Only what happened to one policy's rules.",
            ),
        ],
    ),
    (
        "status",
        &[
            (
                "dopol status -f manifests/",
                "Accepted and Enforced of every policy, and every rule's outcomes.",
            ),
            (
                "dopol status -f manifests/ --kind AuthPolicy -o json",
                "The same for one kind, as a PolicyStatusList document.",
            ),
        ],
    ),
    (
        "reach",
        &[
            (
                "dopol reach infra/platform-auth -f manifests/",
                "Where a policy is effective and where it lost.",
            ),
            (
                "dopol reach infra/platform-auth#authentication#jwt -f manifests/",
                "The same for one rule key.",
            ),
        ],
    ),
    (
        "explain",
        &[
            (
                "dopol explain -f manifests/ --route shop/cart",
                "Every path of a route: the policies on it and the fold, step by step.",
            ),
            (
                "dopol explain -f manifests/ --route shop/cart --rule checkout --kind RateLimitPolicy",
                "One rule of the route, one kind.",
            ),
        ],
    ),
    (
        "topology",
        &[
            (
                "dopol topology -f manifests/",
                "The Gateway → listener → route → rule tree with its policies.",
            ),
            (
                "dopol topology -f manifests/ -o dot | dot -Tsvg > topology.svg",
                "The same graph drawn by Graphviz.",
            ),
        ],
    ),
    (
        "view",
        &[
            (
                "dopol view manifests/ -o policies.html",
                "One self-contained page: the graph with its policies, and each path's stack.",
            ),
            (
                "dopol view -f manifests/ -o - > page.html",
                "The same page on stdout (to attach as a CI artifact).",
            ),
        ],
    ),
    (
        "lint",
        &[
            (
                "dopol lint -f manifests/",
                "Every problem with its code, location and snippet.",
            ),
            (
                "dopol lint -f manifests/ --fail-on warning -o github",
                "GitHub annotations; exit 1 on a warning.",
            ),
            (
                "dopol lint -f manifests/ --ignore ordered-by-name -o sarif > dopol.sarif",
                "SARIF for code scanning, one check suppressed.",
            ),
            (
                "dopol lint --explain DPL4005",
                "What a check means and how to fix it.",
            ),
        ],
    ),
    (
        "diff",
        &[
            (
                "dopol diff git:main git:HEAD -f manifests/",
                "What a branch changes (the -f paths as they are at each revision).",
            ),
            (
                "dopol diff old-manifests/ new-manifests/",
                "Two directories.",
            ),
            (
                "dopol diff -f manifests/ --with new-policy.yaml",
                "What adding a policy would change.",
            ),
            (
                "dopol diff -f manifests/ --without RateLimitPolicy/infra/http-limits --stat",
                "What removing one would change, one line per path.",
            ),
        ],
    ),
    (
        "request",
        &[
            (
                "dopol request -f manifests/ GET http://api.toystore.com/toys",
                "The rule this request reaches and the policy rules that apply to it.",
            ),
            (
                "dopol request -f manifests/ POST http://api.toystore.com/toys -H 'x-team: toys' --attr auth.identity.userid=alice",
                "With a header, and an attribute that policy predicates read.",
            ),
            (
                "dopol request -f manifests/ --grpc shop.v1.Cart/Add --authority grpc.example.com:50051",
                "A gRPC call.",
            ),
        ],
    ),
    (
        "test",
        &[
            (
                "dopol test testdata/examples/shop/shop.dopoltest.yaml",
                "Run a suite over the manifests its `inputs` name.",
            ),
            (
                "dopol test manifests/ -o junit",
                "Every `*.dopoltest.yaml` under manifests/, as JUnit XML for CI.",
            ),
            (
                "dopol test manifests/ --coverage --show-untested --fail-under 80",
                "Which paths no case selects; fail under 80%.",
            ),
            (
                "dopol test manifests/ --against HEAD",
                "Fail when an uncommitted change weakens a path (a rule gone, a limit raised).",
            ),
        ],
    ),
    (
        "completions",
        &[
            (
                "dopol completions bash > ~/.local/share/bash-completion/completions/dopol",
                "Install bash completion.",
            ),
            (
                "dopol completions zsh > \"${fpath[1]}/_dopol\"",
                "Install zsh completion.",
            ),
            (
                "dopol completions fish > ~/.config/fish/completions/dopol.fish",
                "Install fish completion.",
            ),
        ],
    ),
    (
        "man",
        &[
            ("dopol man | man -l -", "Read the main page."),
            (
                "dopol man --out-dir /usr/local/share/man/man1",
                "Install every page.",
            ),
        ],
    ),
];

/// The exit codes every command shares beyond its own.
const USAGE_INPUT_INTERNAL: &[(u8, &str)] = &[
    (
        2,
        "usage error: an unknown flag or value, an unknown --kind, a filter that matches nothing, an invalid families file",
    ),
    (
        3,
        "input errors: an unreadable file, invalid YAML, an object the API server would refuse, a limit hit, no objects at all (the document is still printed); or the output cannot be written (a full disk)",
    ),
    (4, "internal error (a bug)"),
];

/// Exit codes per command (`""` is the main page), before [`USAGE_INPUT_INTERNAL`].
const EXIT_STATUS: &[(&str, &[(u8, &str)])] = &[
    (
        "",
        &[
            (0, "success"),
            (
                1,
                "lint findings at or above --fail-on; differences in diff; no rule matched in request",
            ),
        ],
    ),
    (
        "lint",
        &[
            (0, "no finding at or above --fail-on"),
            (1, "a finding at or above --fail-on"),
        ],
    ),
    (
        "diff",
        &[
            (
                0,
                "the two sides have the same effective policies and status",
            ),
            (1, "they differ"),
        ],
    ),
    (
        "request",
        &[
            (0, "a route rule matched"),
            (1, "no route rule matched (404, gRPC UNIMPLEMENTED)"),
        ],
    ),
    (
        "test",
        &[
            (0, "every case passed (and coverage and the gate held)"),
            (
                1,
                "a case failed, coverage is under --fail-under, or --against found a weakened path",
            ),
        ],
    ),
];

/// The examples of one command (`""`: the main page).
pub fn examples(command: &str) -> &'static [(&'static str, &'static str)] {
    EXAMPLES
        .iter()
        .find(|(name, _)| *name == command)
        .map_or(&[], |(_, examples)| examples)
}

/// The exit codes of one command (`""`: the main page).
pub fn exit_status(command: &str) -> Vec<(u8, &'static str)> {
    let own = EXIT_STATUS
        .iter()
        .find(|(name, _)| *name == command)
        .map_or(&[(0, "success")][..], |(_, codes)| codes);
    own.iter().chain(USAGE_INPUT_INTERNAL).copied().collect()
}

/// Escapes text for roff: backslashes, hyphens (so that `-f` stays a minus), and a leading
/// `.` or `'` that would read as a request.
fn roff_text(text: &str) -> String {
    let escaped = text.replace('\\', "\\e").replace('-', "\\-");
    match escaped.chars().next() {
        Some('.' | '\'') => format!("\\&{escaped}"),
        _ => escaped,
    }
}

/// The EXAMPLES and EXIT STATUS sections of one command, in roff.
fn extra_sections(command: &str) -> String {
    let mut roff = String::from(".SH EXAMPLES\n");
    for (line, what) in examples(command) {
        roff.push_str(&format!(
            ".TP\n\\fB{}\\fR\n{}\n",
            roff_text(line),
            roff_text(what)
        ));
    }
    roff.push_str(".SH \"EXIT STATUS\"\n");
    for (code, meaning) in exit_status(command) {
        roff.push_str(&format!(".TP\n\\fB{code}\\fR\n{}\n", roff_text(meaning)));
    }
    roff
}

/// Renders the man page of `command` (`""`: the main page, else a subcommand's name), with
/// EXAMPLES and EXIT STATUS before VERSION.
pub fn man_page(page: clap::Command, command: &str) -> Vec<u8> {
    let mut out = Vec::new();
    let _ = clap_mangen::Man::new(page).render(&mut out);
    let text = String::from_utf8(out).expect("clap_mangen writes UTF-8");
    let at = text.find("\n.SH VERSION").map_or(text.len(), |i| i + 1);
    let mut page = text[..at].to_string();
    page.push_str(&extra_sections(command));
    page.push_str(&text[at..]);
    page.into_bytes()
}

/// Every man page: `(file name, content)`, the main page first (committed under `man/`).
pub fn man_pages() -> Vec<(String, Vec<u8>)> {
    let command = Cli::command();
    let mut pages = vec![("dopol.1".to_string(), man_page(command.clone(), ""))];
    for sub in command.get_subcommands() {
        let name = format!("dopol-{}", sub.get_name());
        let page = man_page(
            sub.clone()
                .name(name.clone())
                .bin_name(format!("dopol {}", sub.get_name()))
                .version(env!("CARGO_PKG_VERSION")),
            sub.get_name(),
        );
        pages.push((format!("{name}.1"), page));
    }
    pages
}

/// Prints the main man page, or writes every page into `--out-dir`.
pub fn man(args: &ManArgs) -> Exit {
    let pages = man_pages();
    match &args.out_dir {
        None => super::session::write_document(|out| out.write_all(&pages[0].1)),
        Some(dir) => {
            if let Err(e) = std::fs::create_dir_all(dir) {
                super::console::say!("error: cannot create {}: {e}", dir.display());
                return Exit::Input;
            }
            for (name, content) in pages {
                if let Err(e) = std::fs::write(dir.join(&name), content) {
                    super::console::say!("error: cannot write {}: {e}", dir.join(&name).display());
                    return Exit::Input;
                }
            }
            Exit::Success
        }
    }
}
