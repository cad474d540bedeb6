#!/usr/bin/env bash
# Regenerates the committed shell completions (completions/) and man pages (man/) from the CLI
# definition. tests/it/generated_docs.rs fails when they are out of date.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --quiet --bin dopol
mkdir -p completions
./target/debug/dopol completions bash >completions/dopol.bash
./target/debug/dopol completions zsh >completions/_dopol
./target/debug/dopol completions fish >completions/dopol.fish
./target/debug/dopol completions powershell >completions/_dopol.ps1
./target/debug/dopol completions elvish >completions/dopol.elv
rm -rf man
./target/debug/dopol man --out-dir man
echo "completions/ and man/ regenerated"
