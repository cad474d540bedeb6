#!/usr/bin/env bash
# dopol benchmark: generates synthetic manifest sets, then times `dopol effective -o json` on
# them and, in-process, each stage (YAML parse, decode, topology, engine, render).
#
#   scripts/bench.sh                 # 10k routes (the reference size), 5 runs
#   ROUTES="2500 5000 10000 20000" RUNS=3 scripts/bench.sh   # scaling series
#
# Then times `dopol lint` on a ~100-object repository (the pre-commit case; target well under
# 50 ms wall, process start included).
#
# Reports medians. "parse" is reading the files and parsing the YAML into dopol's spanned
# trees (what every command pays); "ratio" is the whole run divided by it (target <= 1.5).
set -euo pipefail
cd "$(dirname "$0")/.."
ROUTES=${ROUTES:-10000}
RUNS=${RUNS:-5}
WORK=${BENCH_DIR:-${TMPDIR:-/tmp}/dopol-bench}

cargo build --release --quiet --bin dopol --example gen_manifests --example stage_timings
median() { sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }

printf '%-7s %8s %9s %7s | %7s %7s %7s %7s %7s %7s %6s | %8s %8s\n' \
  routes MB documents paths parse decode topo engine render total ratio cli_wall peak_MB
for routes in $ROUTES; do
  dir="$WORK/$routes"
  [ -d "$dir" ] || target/release/examples/gen_manifests --routes "$routes" "$dir" 2>/dev/null
  stages=$(mktemp)
  for _ in $(seq "$RUNS"); do target/release/examples/stage_timings "$dir" >>"$stages"; done
  stage() { awk -v s="$1" '$1 == s {print $2}' "$stages" | median; }
  mb=$(awk '$1 == "input" {print $2; exit}' "$stages")
  docs=$(awk '$1 == "input" {print $4; exit}' "$stages")
  paths=$(awk '$1 == "input" {print $6; exit}' "$stages")
  parse=$(stage parse); total=$(stage total)
  walls=$(mktemp); peaks=$(mktemp)
  for _ in $(seq "$RUNS"); do
    /usr/bin/time -f '%e %M' -o "$walls.one" target/release/dopol effective -f "$dir" -o json >/dev/null
    read -r wall peak <"$walls.one"; echo "$wall" >>"$walls"; echo "$peak" >>"$peaks"
  done
  printf '%-7s %8s %9s %7s | %7s %7s %7s %7s %7s %7s %6.2f | %7ss %8.0f\n' \
    "$routes" "$mb" "$docs" "$paths" "$parse" "$(stage decode)" "$(stage topology)" "$(stage engine)" \
    "$(stage render)" "$total" "$(echo "$total $parse" | awk '{print $1 / $2}')" \
    "$(median <"$walls")" "$(median <"$peaks" | awk '{print $1 / 1024}')"
  rm -f "$stages" "$walls" "$walls.one" "$peaks"
done
echo "(stage times in ms, medians of $RUNS runs; cli_wall and peak_MB from /usr/bin/time on the dopol binary)"

lint_dir="$WORK/lint-100"
[ -d "$lint_dir" ] || target/release/examples/gen_manifests --routes 22 --gateways 1 "$lint_dir" 2>/dev/null
objects=$(cat "$lint_dir"/*.yaml | grep -c '^kind:')
lint_runs=$(mktemp)
for _ in $(seq 21); do
  start=$(date +%s%N)
  target/release/dopol lint -f "$lint_dir" >/dev/null 2>&1 || true
  echo $(( ($(date +%s%N) - start) / 1000 )) >>"$lint_runs"
done
printf 'lint of %s objects: median %.1f ms wall over 21 runs\n' "$objects" "$(median <"$lint_runs" | awk '{print $1 / 1000}')"
rm -f "$lint_runs"
