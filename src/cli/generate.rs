//! `dopol completions` and `dopol man`, generated from the clap definition.

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

/// Renders the man page of `command` (the main page, or a subcommand's page).
pub fn man_page(command: clap::Command) -> Vec<u8> {
    let mut out = Vec::new();
    let _ = clap_mangen::Man::new(command).render(&mut out);
    out
}

/// Every man page: `(file name, content)`, the main page first (committed under `man/`).
pub fn man_pages() -> Vec<(String, Vec<u8>)> {
    let command = Cli::command();
    let mut pages = vec![("dopol.1".to_string(), man_page(command.clone()))];
    for sub in command.get_subcommands() {
        let name = format!("dopol-{}", sub.get_name());
        let page = man_page(
            sub.clone()
                .name(name.clone())
                .bin_name(format!("dopol {}", sub.get_name()))
                .version(env!("CARGO_PKG_VERSION")),
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
                eprintln!("error: cannot create {}: {e}", dir.display());
                return Exit::Input;
            }
            for (name, content) in pages {
                if let Err(e) = std::fs::write(dir.join(&name), content) {
                    eprintln!("error: cannot write {}: {e}", dir.join(&name).display());
                    return Exit::Input;
                }
            }
            Exit::Success
        }
    }
}
