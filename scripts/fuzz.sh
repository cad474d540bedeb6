#!/usr/bin/env bash
# Runs every fuzz target for SECONDS each (default 60), one after the other, from seed corpora
# (the `commands` seeds are built from testdata/). Needs a nightly toolchain and cargo-fuzz;
# says so and exits 2 when either is missing. Findings land in fuzz/artifacts/<target>/.
#   scripts/fuzz.sh [SECONDS] [TARGET...]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
shift || true
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(commands manifests cel view_embed yaml_fast)

if ! rustup toolchain list 2>/dev/null | grep -q '^nightly'; then
  echo "fuzz.sh: no nightly toolchain (cargo-fuzz needs one): rustup toolchain install nightly" >&2
  exit 2
fi
if ! cargo +nightly fuzz --version >/dev/null 2>&1; then
  echo "fuzz.sh: cargo-fuzz is not installed: cargo install cargo-fuzz" >&2
  exit 2
fi

# Seeds for `commands`: every manifest file of testdata/ under 64 KiB.
mkdir -p fuzz/corpus/commands fuzz/corpus/manifests fuzz/corpus/cel fuzz/corpus/view_embed fuzz/corpus/yaml_fast
printf '</script><!--<img src=x onerror=alert(1)>\u2028' > fuzz/corpus/view_embed/hostile
find testdata -name '*.yaml' -size -64k | while read -r f; do
  cp "$f" "fuzz/corpus/commands/$(echo "$f" | tr '/' '_')"
  cp "$f" "fuzz/corpus/yaml_fast/$(echo "$f" | tr '/' '_')"
done
head -c 256 /dev/urandom > fuzz/corpus/manifests/random-0 2>/dev/null || true
printf '\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c' > fuzz/corpus/manifests/counting
cp fuzz/seeds/cel/* fuzz/corpus/cel/

status=0
for target in "${targets[@]}"; do
  echo "== $target: ${seconds}s" >&2
  cargo +nightly fuzz run "$target" "fuzz/corpus/$target" -- \
    -max_total_time="$seconds" -max_len=65536 -timeout=120 -rss_limit_mb=2048 \
    -dict=fuzz/dopol.dict -print_final_stats=1 -close_fd_mask=2 || status=1
done
exit $status
