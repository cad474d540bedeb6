#!/usr/bin/env bash
# Regenerates the screenshots of `dopol view` in docs/ (docs/view.md, the README's tour): a
# Kuadrant user guide, a kgateway delegation case and an Envoy Gateway merge case, each with a
# path's stack open (`#path=`), taken by headless Chromium (`apt-get install -y chromium`).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --quiet --bin dopol
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
guide=testdata/realworld/kuadrant-guides/secure-protect-connect
for f in "$guide"/*.yaml; do
  sed -e 's/${KUADRANT_GATEWAY_NS}/api-gateway/g; s/${KUADRANT_GATEWAY_NAME}/external/g' \
      -e 's/${KUADRANT_DEVELOPER_NS}/toystore/g; s/${KUADRANT_ZONE_ROOT_DOMAIN}/example.com/g' \
      -e 's/${KUADRANT_CLUSTER_ISSUER_NAME}/self-signed/g' "$f"
  echo '---'
done >"$work/guide.yaml"
shot() { # NAME PATH-ID INPUTS...
  local name=$1 path=$2
  shift 2
  local args=()
  for input in "$@"; do args+=(-f "$input"); done
  ./target/debug/dopol view "${args[@]}" -o "$work/$name.html" 2>/dev/null
  local fragment
  fragment=$(python3 -c 'import sys, urllib.parse; print(urllib.parse.quote(sys.argv[1], safe=""))' "$path")
  # The page reads its data asynchronously: the virtual time budget lets it open the path
  # before the shot (without it the shot shows the graph alone).
  chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1400,900 \
    --virtual-time-budget=5000 --screenshot="docs/$name.png" "file://$work/$name.html#path=$fragment" 2>/dev/null
}
shot view-kuadrant \
  'istio|api-gateway/external|api-gateway/external#api|toystore/toystore|toystore/toystore#rule-1' \
  "$work/guide.yaml"
shot view-kgateway \
  'example-gateway-class|infra/example-gateway|infra/example-gateway#http|infra/example-route#rule-2>mid/mid-b#rule-1>b/b1|b/b1#rule-1' \
  testdata/realworld/kgateway/delegation-common.yaml \
  testdata/realworld/kgateway/delegation-traffic_policy_multi_level_inheritance_override_enabled.yaml
shot view-envoy 'eg|shop/gw|shop/gw#admin|shop/app|shop/app#rule-1' testdata/envoy/json-merge/manifests.yaml
echo "docs/view-*.png regenerated"
