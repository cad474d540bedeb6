#!/usr/bin/env bash
# dopol benchmark: every command against the YAML floor, on the same bytes, in one run.
#
#   PARSEBASE=/path/to/parsebase GEN_CORPUS=/path/to/gen_corpus.py scripts/bench.sh
#   SIZES="3600 36000" RUNS=1 ...   # routes per corpus (default "3600 7200 18000 36000"), runs
#   RYMLBASE="venv/bin/python .../rymlbase.py" ...   # the second yardstick, optional
#
# PARSEBASE is the floor: a binary that splits a YAML stream at column-0 `---` lines and parses
# the documents in parallel (`PARSEBASE value FILE`). GEN_CORPUS writes one multi-document file
# (`GEN_CORPUS OUT ROUTES`) the way `kubectl get -A -o yaml` does. Neither is part of this
# repository; the script stops with a message when either is missing.
#
# For each size the corpus is timed in three forms: the single file, one file per object (a
# directory), and the same objects as one `kind: List` document (`list`, what `kubectl get -o
# yaml` writes). Each command's wall time is divided by the floor's wall time on the single file
# (for `diff`, the floor of one side; the floor reads a List as one document, on one core, so its
# own time on the List would be an easier yardstick); peak memory (maximum RSS) is divided by
# the form's input size (for `diff`, both inputs). Medians of RUNS runs. Then `dopol lint` on a
# ~100-object repository.
#
# RYMLBASE, when set, is the second yardstick: rapidyaml's parse of the same single file into
# trees in parallel processes (`RYMLBASE FILE`, e.g. a venv's python and rymlbase.py, which
# needs `pip install rapidyaml`), timed whole as dopol is; each command's time is divided by it
# too (`vs_ryml`, issue 52's goals are ratios to it). Without it that column says `-`.
set -euo pipefail
cd "$(dirname "$0")/.."
: "${PARSEBASE:?set PARSEBASE to the parsebase binary (the YAML floor), e.g. built with cargo build --release}"
: "${GEN_CORPUS:?set GEN_CORPUS to gen_corpus.py (the corpus generator)}"
[ -x "$PARSEBASE" ] || { echo "PARSEBASE=$PARSEBASE is not an executable" >&2; exit 2; }
[ -f "$GEN_CORPUS" ] || { echo "GEN_CORPUS=$GEN_CORPUS does not exist" >&2; exit 2; }
SIZES=${SIZES:-3600 7200 18000 36000}
RUNS=${RUNS:-3}
WORK=${BENCH_DIR:-${TMPDIR:-/tmp}/dopol-bench}
DOPOL=target/release/dopol
mkdir -p "$WORK"
cargo build --release --quiet --bin dopol --example gen_manifests

median() { sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }

# Prints "<median wall seconds> <median peak KB>" of RUNS runs of a command (output discarded).
measure() {
  local walls peaks one
  walls=$(mktemp) peaks=$(mktemp) one=$(mktemp)
  for _ in $(seq "$RUNS"); do
    /usr/bin/time -f '%e %M' -o "$one" "$@" >/dev/null 2>&1 || true
    # A command that exits non-zero (diff with changes, lint with findings) gets a first line
    # from time saying so; the figures are on the last.
    read -r wall peak < <(tail -n 1 "$one"); echo "$wall" >>"$walls"; echo "$peak" >>"$peaks"
  done
  echo "$(median <"$walls") $(median <"$peaks")"
  rm -f "$walls" "$peaks" "$one"
}

# One corpus of ROUTES routes: the file, its revision (limits ending in 7 end in 8), and both as
# one file per object and as a List. The generator writes each rate as a sequence item
# (`- limit: 445`); the revision must differ, or `diff` is timed on equal inputs.
prepare() {
  local routes=$1 base="$WORK/c$1"
  [ -f "$base.yaml" ] || python3 "$GEN_CORPUS" "$base.yaml" "$routes" >/dev/null
  if [ ! -f "$base-b.yaml" ]; then
    sed -E 's/^( *(- )?limit: [0-9]*)7$/\18/' "$base.yaml" >"$base-b.yaml"
    cmp -s "$base.yaml" "$base-b.yaml" && { echo "bench: the revision of $base.yaml changes nothing" >&2; exit 1; }
  fi
  for side in "" -b; do
    [ -d "$base$side.d" ] && continue
    mkdir -p "$base$side.d"
    awk -v dir="$base$side.d" '/^---/ {n++; if (out) close(out); out = sprintf("%s/%06d.yaml", dir, n)} {print > out}' "$base$side.yaml"
  done
  for side in "" -b; do
    [ -f "$base$side.list.yaml" ] && continue
    awk 'BEGIN {print "apiVersion: v1"; print "kind: List"; print "items:"}
      /^---/ {first = 1; next}
      {if (first) {print "- " $0; first = 0} else if ($0 == "") print ""; else print "  " $0}' \
      "$base$side.yaml" >"$base$side.list.yaml"
  done
}

# Times every command on one form (a file or a directory) of one corpus; prints table rows.
run_form() {
  local routes=$1 form=$2 input=$3 other=$4 bytes=$5 floor=$6 ryml=$7
  local -a names=("effective -o json" "effective --compact" "lint" "status -o json" "overridden" "reach" "topology" "request" "diff A B")
  local -a commands=(
    "effective -f $input -o json" "effective -f $input -o json --compact" "lint -f $input" "status -f $input -o json"
    "overridden -f $input" "reach RateLimitPolicy/team-0/gw-0-limits -f $input"
    "topology -f $input" "request -f $input GET http://svc-0.gw0.example.com/api/v1/x"
    "diff $input $other")
  for i in "${!names[@]}"; do
    # shellcheck disable=SC2086 # the command line is split on purpose
    read -r wall peak < <(measure "$DOPOL" ${commands[$i]})
    local input_bytes=$bytes
    [ "$form" = list ] && input_bytes=$(stat -c %s "$input")
    [ "${names[$i]}" = "diff A B" ] && input_bytes=$((input_bytes * 2))
    awk -v r="$routes" -v mb="$bytes" -v f="$form" -v c="${names[$i]}" -v w="$wall" -v fl="$floor" \
      -v p="$peak" -v ib="$input_bytes" -v ry="$ryml" 'BEGIN {
        vs = ry > 0 ? sprintf("%7.2f", w / ry) : "      -"
        printf "%-6s %6.1f %-6s %-19s %7.2f %7.2f %6.2f %s %8.0f %6.2f\n",
          r, mb / 1e6, f, c, w, fl, w / fl, vs, p / 1024, p * 1024 / ib }'
  done
}

printf '%-6s %6s %-6s %-19s %7s %7s %6s %7s %8s %6s\n' \
  routes MB form command time_s floor_s ratio vs_ryml peak_MB mem/in
for routes in $SIZES; do
  prepare "$routes"
  base="$WORK/c$routes"
  bytes=$(stat -c %s "$base.yaml")
  read -r floor _ < <(measure "$PARSEBASE" value "$base.yaml")
  ryml=0
  # shellcheck disable=SC2086 # RYMLBASE is a command line, split on purpose
  [ -n "${RYMLBASE:-}" ] && read -r ryml _ < <(measure $RYMLBASE "$base.yaml")
  if [ "$ryml" = 0 ]; then ryml_said="RYMLBASE not set"; else ryml_said="rymlbase ${ryml} s"; fi
  echo "# $routes routes: parsebase ${floor} s, $ryml_said"
  run_form "$routes" file "$base.yaml" "$base-b.yaml" "$bytes" "$floor" "$ryml"
  run_form "$routes" dir "$base.d" "$base-b.d" "$bytes" "$floor" "$ryml"
  run_form "$routes" list "$base.list.yaml" "$base-b.list.yaml" "$bytes" "$floor" "$ryml"
done
echo "(medians of $RUNS runs; ratio = time / floor on the same bytes; vs_ryml = time / rymlbase on the single file; mem/in = peak RSS / input bytes)"

lint_dir="$WORK/lint-100"
[ -d "$lint_dir" ] || target/release/examples/gen_manifests --routes 22 --gateways 1 "$lint_dir" 2>/dev/null
objects=$(cat "$lint_dir"/*.yaml | grep -c '^kind:')
lint_runs=$(mktemp)
for _ in $(seq 21); do
  start=$(date +%s%N)
  "$DOPOL" lint -f "$lint_dir" >/dev/null 2>&1 || true
  echo $(( ($(date +%s%N) - start) / 1000 )) >>"$lint_runs"
done
printf 'lint of %s objects: median %.1f ms wall over 21 runs\n' "$objects" "$(median <"$lint_runs" | awk '{print $1 / 1000}')"
rm -f "$lint_runs"
