#!/usr/bin/env bash
# How `dopol diff` grows with the paths a Gateway-level change reaches: N routes (two listeners,
# so 2N paths) under the Gateway of testdata/diff/many-routes/platform.yaml, compared with
# --with testdata/diff/whatif/platform-change.yaml. Prints, per size, the lines of output and
# the wall time; the output stays a few lines and the time grows linearly.
#
#   scripts/diff-scale.sh [N ...]      # default: 2500 5000 10000 20000
#   DOPOL=target/release/dopol scripts/diff-scale.sh
set -euo pipefail
cd "$(dirname "$0")/.."
DOPOL=${DOPOL:-target/debug/dopol}
[ -x "$DOPOL" ] || { echo "$DOPOL is not built (cargo build)" >&2; exit 2; }
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
[ $# -gt 0 ] || set -- 2500 5000 10000 20000
printf '%8s %8s %8s %10s\n' ROUTES PATHS LINES SECONDS
for n in "$@"; do
  mkdir -p "$WORK/$n"
  cp testdata/diff/many-routes/platform.yaml "$WORK/$n/"
  awk -v n="$n" 'BEGIN {
    for (i = 1; i <= n; i++)
      printf "---\napiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata: {name: r-%d, namespace: shop}\nspec:\n  parentRefs: [{name: public, namespace: infra}]\n  rules: [{backendRefs: [{name: r-%d, port: 8080}]}]\n", i, i
  }' >"$WORK/$n/routes.yaml"
  start=$(date +%s.%N)
  lines=$("$DOPOL" diff -f "$WORK/$n" --with testdata/diff/whatif/platform-change.yaml | wc -l) || true
  end=$(date +%s.%N)
  printf '%8d %8d %8d %10.2f\n' "$n" $((2 * n)) "$lines" "$(echo "$end - $start" | bc)"
done
