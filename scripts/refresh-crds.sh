#!/usr/bin/env bash
# Refreshes the vendored CRDs under crds/ from local checkouts (or bare git directories) of the
# upstream repositories, at the revisions named below, then regenerates the compact bundle
# (crds/bundle/*.json) that is compiled into dopol.
#
#   GATEWAY_API=/path/to/gateway-api KUADRANT=/path/to/kuadrant-operator \
#   KGATEWAY=/path/to/kgateway ENVOY_GATEWAY=/path/to/envoy-gateway KUMA=/path/to/kuma \
#   AGENTGATEWAY=/path/to/agentgateway \
#   scripts/refresh-crds.sh
#
# Each variable is a git directory or work tree; the files are read with `git show REV:PATH`, so
# the checkout may be at any commit. Change a *_REV below to move to another release, then update
# crds/PROVENANCE.md (the script prints the blob ids to paste). Never touches the network.
set -euo pipefail
cd "$(dirname "$0")/.."

GATEWAY_API_REV=${GATEWAY_API_REV:-v1.6.1}
KUADRANT_REV=${KUADRANT_REV:-ae698811cdbec09e1bb927678420967d31d09194}
KGATEWAY_REV=${KGATEWAY_REV:-354c0f605fa89de1fa824fc22792fa694436ca03}
ENVOY_GATEWAY_REV=${ENVOY_GATEWAY_REV:-d32f28294245e454d20f81d323d626a90e660c1e}
KUMA_REV=${KUMA_REV:-v2.14.3}
AGENTGATEWAY_REV=${AGENTGATEWAY_REV:-75b4e6ce6e0e1ac7959d5548ebe8dbeaede4f180}

: "${GATEWAY_API:?set GATEWAY_API to a kubernetes-sigs/gateway-api checkout}"
: "${KUADRANT:?set KUADRANT to a Kuadrant/kuadrant-operator checkout}"
: "${KGATEWAY:?set KGATEWAY to a kgateway-dev/kgateway checkout}"
: "${ENVOY_GATEWAY:?set ENVOY_GATEWAY to an envoyproxy/gateway checkout}"
: "${KUMA:?set KUMA to a kumahq/kuma checkout}"
: "${AGENTGATEWAY:?set AGENTGATEWAY to an agentgateway/agentgateway checkout}"

copy() { # repo rev path destination
  mkdir -p "$(dirname "$4")"
  git -C "$1" show "$2:$3" >"$4"
  printf '%s  %s\n' "$(git -C "$1" rev-parse "$2:$3")" "$4"
}

for channel in standard experimental; do
  for plural in gatewayclasses gateways httproutes grpcroutes listenersets; do
    copy "$GATEWAY_API" "$GATEWAY_API_REV" \
      "config/crd/$channel/gateway.networking.k8s.io_$plural.yaml" \
      "crds/gateway-api/$channel/gateway.networking.k8s.io_$plural.yaml"
  done
done
for plural in authpolicies ratelimitpolicies tokenratelimitpolicies; do
  copy "$KUADRANT" "$KUADRANT_REV" "config/crd/bases/kuadrant.io_$plural.yaml" \
    "crds/kuadrant-operator/kuadrant.io_$plural.yaml"
done
for plural in trafficpolicies listenerpolicies backendconfigpolicies; do
  copy "$KGATEWAY" "$KGATEWAY_REV" \
    "install/helm/kgateway-crds/templates/gateway.kgateway.dev_$plural.yaml" \
    "crds/kgateway/gateway.kgateway.dev_$plural.yaml"
done
for plural in backendtrafficpolicies clienttrafficpolicies securitypolicies envoyextensionpolicies; do
  copy "$ENVOY_GATEWAY" "$ENVOY_GATEWAY_REV" \
    "charts/gateway-helm/charts/crds/crds/generated/gateway.envoyproxy.io_$plural.yaml" \
    "crds/envoy-gateway/gateway.envoyproxy.io_$plural.yaml"
done
# Kuma: the kinds the kuma family reads (policies, Mesh, Dataplane, the destination kinds, routes).
for plural in meshes dataplanes meshservices meshexternalservices meshmultizoneservices meshgateways \
  meshidentities meshhttproutes meshtcproutes meshaccesslogs meshcircuitbreakers meshfaultinjections \
  meshhealthchecks meshloadbalancingstrategies meshmetrics meshpassthroughs meshproxypatches \
  meshratelimits meshretries meshtimeouts meshtlses meshtraces meshtrafficpermissions; do
  copy "$KUMA" "$KUMA_REV" "deployments/charts/kuma/crds/kuma.io_$plural.yaml" \
    "crds/kuma/kuma.io_$plural.yaml"
done
copy "$AGENTGATEWAY" "$AGENTGATEWAY_REV" \
  controller/install/helm/agentgateway-crds/templates/agentgateway.dev_agentgatewaypolicies.yaml \
  crds/agentgateway/agentgateway.dev_agentgatewaypolicies.yaml

# The compact bundle is dopol's own reading of these files (descriptions dropped); the test
# that checks it is in sync rewrites it when DOPOL_BLESS_CRDS is set.
DOPOL_BLESS_CRDS=1 cargo test --quiet --test it crd_bundle::
