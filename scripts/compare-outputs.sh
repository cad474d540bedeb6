#!/usr/bin/env bash
# Compares two dopol binaries byte for byte on every fixture under testdata/: every command ×
# every output format, stdout, stderr and exit code. Used to prove that performance work changes
# no output.
#
#   scripts/compare-outputs.sh BEFORE AFTER     # e.g. /tmp/dopol-before target/release/dopol
#
# Prints one line per difference and exits 1 if there is any.
set -uo pipefail
cd "$(dirname "$0")/.."
[ $# -eq 2 ] || { echo "usage: $0 BEFORE AFTER" >&2; exit 2; }
before=$1 after=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
runs=0 diffs=0

# One invocation of both binaries; compares stdout, stderr and exit code.
check() {
  runs=$((runs + 1))
  "$before" "$@" >"$work/b.out" 2>"$work/b.err" </dev/null; echo $? >"$work/b.rc"
  "$after" "$@" >"$work/a.out" 2>"$work/a.err" </dev/null; echo $? >"$work/a.rc"
  # The program name appears in usage errors; normalise it.
  sed -i "s#$(basename "$before")#dopol#g" "$work/b.err"
  sed -i "s#$(basename "$after")#dopol#g" "$work/a.err"
  for part in out err rc; do
    if ! cmp -s "$work/b.$part" "$work/a.$part"; then
      echo "DIFF ($part): dopol $*"
      diffs=$((diffs + 1))
    fi
  done
}

# Every directory holding manifests directly, plus every single manifest file.
mapfile -t fixtures < <(find testdata -type f \( -name '*.yaml' -o -name '*.yml' -o -name '*.json' \) \
  -printf '%h\n' | sort -u)
mapfile -t files < <(find testdata -type f \( -name '*.yaml' -o -name '*.yml' -o -name '*.json' \) | sort)

for input in "${fixtures[@]}" "${files[@]}"; do
  for cmd in effective status overridden; do
    for fmt in table yaml json; do check "$cmd" -f "$input" -o "$fmt" --color never; done
  done
  for fmt in tree dot mermaid; do check topology -f "$input" -o "$fmt" --color never; done
  for fmt in human json sarif github junit; do
    check lint -f "$input" -o "$fmt" --color never
    check lint -f "$input" -o "$fmt" --color always
  done
  # explain and reach on the first path and the first policy the before-binary reports.
  path=$("$before" effective -f "$input" -o json 2>/dev/null | jq -r '.items[0].pathId // empty' 2>/dev/null)
  if [ -n "$path" ]; then
    for fmt in table yaml json; do check explain -f "$input" --path "$path" -o "$fmt" --color never; done
  fi
  policy=$("$before" effective -f "$input" -o json 2>/dev/null | jq -r '.items[0].sources[0] // empty' 2>/dev/null)
  if [ -n "$policy" ]; then
    for fmt in table yaml json; do check reach "$policy" -f "$input" -o "$fmt" --color never; done
  fi
done

# diff between fixture pairs that are revisions of each other.
for pair in "testdata/rfc0009/a1 testdata/rfc0009/b1" "testdata/creation-order/a-older testdata/creation-order/b-older" \
  "testdata/rfc0009/e1 testdata/rfc0009/e2"; do
  for fmt in table yaml json; do check diff $pair -o "$fmt" --color never; done
done
check diff -f testdata/examples/shop --with testdata/whatif/stricter-platform-limits.yaml --color never
# Bad input.
check effective -f testdata/does-not-exist -o json
check lint -f testdata/bad -o json

echo "$runs invocations, $diffs differences"
[ "$diffs" -eq 0 ]
