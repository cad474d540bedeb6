# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_dopol_global_optspecs
    string join \n h/help V/version
end

function __fish_dopol_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_dopol_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_dopol_using_subcommand
    set -l cmd (__fish_dopol_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c dopol -n "__fish_dopol_needs_command" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c dopol -n "__fish_dopol_needs_command" -s V -l version -d 'Print version'
complete -c dopol -n "__fish_dopol_needs_command" -f -a "effective" -d 'Show the effective policy of every path, with the source of every rule'
complete -c dopol -n "__fish_dopol_needs_command" -f -a "overridden" -d 'Show the rules that lost somewhere (superseded, overridden, deactivated, not applied), where, and to whom'
complete -c dopol -n "__fish_dopol_needs_command" -f -a "status" -d 'Show the status conditions each policy\'s controller would write (Kuadrant\'s Accepted and Enforced, kgateway\'s, Envoy Gateway\'s and agentgateway\'s per Gateway, Kuma\'s Accepted and Enforced) and every rule\'s outcomes'
complete -c dopol -n "__fish_dopol_needs_command" -f -a "reach" -d 'Show where a policy (or one of its rules) is effective, and where it lost'
complete -c dopol -n "__fish_dopol_needs_command" -f -a "explain" -d 'Explain one path\'s effective policy step by step'
complete -c dopol -n "__fish_dopol_needs_command" -f -a "topology" -d 'Show the Gateway → listener → route → rule tree with the policies attached to each node'
complete -c dopol -n "__fish_dopol_needs_command" -f -a "view" -d 'Write one self-contained HTML page: the graph of every hierarchy with its policies, and the effective-policy stack of each path (who won each rule, and why)'
complete -c dopol -n "__fish_dopol_needs_command" -f -a "lint" -d 'Check the manifests and report every problem with a stable code (for CI and pre-commit)'
complete -c dopol -n "__fish_dopol_needs_command" -f -a "diff" -d 'Compare the effective policy of every path between two revisions, or with a what-if'
complete -c dopol -n "__fish_dopol_needs_command" -f -a "request" -d 'Simulate one request: which route rule it reaches, and which policy rules apply to it'
complete -c dopol -n "__fish_dopol_needs_command" -f -a "test" -d 'Run policy test suites (`*.dopoltest.yaml`): expectations on the effective policy of paths and on requests, coverage, and a no-weakening gate against a git revision'
complete -c dopol -n "__fish_dopol_needs_command" -f -a "completions" -d 'Print a shell completion script'
complete -c dopol -n "__fish_dopol_needs_command" -f -a "man" -d 'Print dopol\'s man pages (or write one page per command into a directory)'
complete -c dopol -n "__fish_dopol_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c dopol -n "__fish_dopol_using_subcommand effective" -s f -l filename -d 'Manifest file, directory (recursive), glob pattern, or `-` for stdin. Repeatable, or comma-separated as kubectl reads it (`-f a.yaml,b.yaml`)' -r
complete -c dopol -n "__fish_dopol_using_subcommand effective" -l exclude -d 'Leave paths matching this gitignore-style pattern out of directory walks and glob matches (`charts/`, `*.tmpl.yaml`, `/deploy/generated`), on top of .gitignore and .dopolignore; anchored at the working directory. Repeatable' -r
complete -c dopol -n "__fish_dopol_using_subcommand effective" -l config -d 'Read settings from this config file instead of the `.dopol.yaml` found upward from the working directory' -r -F
complete -c dopol -n "__fish_dopol_using_subcommand effective" -s n -l namespace -d 'Namespace of objects without one (default `default`); also shows only paths whose route or Gateway (and policies) are in this namespace' -r
complete -c dopol -n "__fish_dopol_using_subcommand effective" -l with -d 'What if: add the manifests in this file or directory, replacing objects with the same identity. Repeatable' -r
complete -c dopol -n "__fish_dopol_using_subcommand effective" -l without -d 'What if: remove this object (`Kind/namespace/name`, or `Kind/name` if cluster-scoped). Repeatable' -r
complete -c dopol -n "__fish_dopol_using_subcommand effective" -l families -d 'A families file declaring policy kinds (group, kind, targets, rule layout, merge model). Repeatable. Without it, `.dopol/families.yaml` is read when it exists' -r
complete -c dopol -n "__fish_dopol_using_subcommand effective" -l crds -d 'Validate objects against the CRDs in this file or directory (`kubectl get crd -o yaml` output works) instead of the bundled ones, kind by kind; also gives the CRD of a kind declared with `--families`. Repeatable' -r
complete -c dopol -n "__fish_dopol_using_subcommand effective" -l gateway-api-channel -d 'The Gateway API CRD channel objects are validated against: `experimental` (the default, a superset) or `standard` (experimental fields are then unknown fields)' -r -f -a "standard\t'The standard channel'
experimental\t'The experimental channel'"
complete -c dopol -n "__fish_dopol_using_subcommand effective" -l kgateway-policy-merge -d 'kgateway\'s KGW_POLICY_MERGE setting, e.g. `{"trafficPolicy": {"extAuth": "DeepMerge", "acl": "ShallowMerge"}}`' -r
complete -c dopol -n "__fish_dopol_using_subcommand effective" -l kgateway-global-policy-namespace -d 'kgateway\'s KGW_GLOBAL_POLICY_NAMESPACE setting: targetSelectors of TrafficPolicies in this namespace select objects in every namespace' -r
complete -c dopol -n "__fish_dopol_using_subcommand effective" -l kuma-mode -d 'The Kuma control plane\'s mode whose view is computed: `zone` (the default) or `global`' -r -f -a "zone\t''
global\t''"
complete -c dopol -n "__fish_dopol_using_subcommand effective" -l kuma-zone -d 'The local zone of a Kuma zone control plane (default: the one zone of the input\'s local Dataplanes, else `default`)' -r
complete -c dopol -n "__fish_dopol_using_subcommand effective" -l kuma-system-namespace -d 'The Kuma control plane\'s system namespace (default `kuma-system`): its policies have the `system` role' -r
complete -c dopol -n "__fish_dopol_using_subcommand effective" -l kuma-outbound -d 'Also look up this Kuma destination (a MeshService, MeshMultiZoneService or MeshExternalService KRI) on every Dataplane of its mesh, as the proxy does: the key itself, else without its section, else the Mesh key. Repeatable' -r
complete -c dopol -n "__fish_dopol_using_subcommand effective" -l color -d 'When to use colours on stderr diagnostics (never in machine formats)' -r -f -a "auto\t'Colour when stderr is a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c dopol -n "__fish_dopol_using_subcommand effective" -l kind -d 'Only this policy kind, `Kind` or `Kind.group` (AuthPolicy, TrafficPolicy, BackendTrafficPolicy, SecurityPolicy, ...). Repeatable' -r -f -a "AuthPolicy\t'authpolicy.kuadrant.io'
RateLimitPolicy\t'ratelimitpolicy.kuadrant.io'
TokenRateLimitPolicy\t'tokenratelimitpolicy.kuadrant.io'
TrafficPolicy\t'trafficpolicy.gateway.kgateway.dev'
BackendTrafficPolicy\t'backendtrafficpolicy.gateway.envoyproxy.io'
ClientTrafficPolicy\t'clienttrafficpolicy.gateway.envoyproxy.io'
SecurityPolicy\t'securitypolicy.gateway.envoyproxy.io'
EnvoyExtensionPolicy\t'envoyextensionpolicy.gateway.envoyproxy.io'
MeshTimeout\t'meshtimeout.kuma.io'
MeshCircuitBreaker\t'meshcircuitbreaker.kuma.io'
MeshRateLimit\t'meshratelimit.kuma.io'
MeshTLS\t'meshtls.kuma.io'
MeshAccessLog\t'meshaccesslog.kuma.io'
MeshFaultInjection\t'meshfaultinjection.kuma.io'
MeshRetry\t'meshretry.kuma.io'
MeshHealthCheck\t'meshhealthcheck.kuma.io'
MeshLoadBalancingStrategy\t'meshloadbalancingstrategy.kuma.io'
MeshTrafficPermission\t'meshtrafficpermission.kuma.io'
MeshTrace\t'meshtrace.kuma.io'
MeshMetric\t'meshmetric.kuma.io'
MeshProxyPatch\t'meshproxypatch.kuma.io'
MeshPassthrough\t'meshpassthrough.kuma.io'
AgentgatewayPolicy\t'agentgatewaypolicy.agentgateway.dev'
ListenerPolicy\t'listenerpolicy.gateway.kgateway.dev'
BackendConfigPolicy\t'backendconfigpolicy.gateway.kgateway.dev'
BackendTLSPolicy\t'backendtlspolicy.gateway.networking.k8s.io'"
complete -c dopol -n "__fish_dopol_using_subcommand effective" -l gateway -d 'Only paths through this Gateway (`name` or `ns/name`)' -r
complete -c dopol -n "__fish_dopol_using_subcommand effective" -l route -d 'Only paths through this route (`name` or `ns/name`; `ns/name[Kind]` as path ids write a namesake of another kind)' -r
complete -c dopol -n "__fish_dopol_using_subcommand effective" -l policy -d 'Only what involves this policy (`name`, `ns/name`, `Kind/ns/name` or a locator)' -r
complete -c dopol -n "__fish_dopol_using_subcommand effective" -l mesh -d 'Only the Kuma paths of this mesh' -r
complete -c dopol -n "__fish_dopol_using_subcommand effective" -l dataplane -d 'Only the Kuma paths of this Dataplane' -r
complete -c dopol -n "__fish_dopol_using_subcommand effective" -s o -l output -d 'Output format' -r -f -a "table\t'Human-readable tables, sized to the terminal (or `COLUMNS`): free text such as values is cut with `…`, names never are. Not cut when stdout is a file or a pipe'
wide\t'Tables with whole values, every row naming its whole path (Gateway, listener, route rule), so each line found with `grep` keeps its context'
yaml\t'A YAML document'
json\t'A JSON document (its contract and schema: docs/json.md)'"
complete -c dopol -n "__fish_dopol_using_subcommand effective" -l no-config -d 'Read no config file'
complete -c dopol -n "__fish_dopol_using_subcommand effective" -l assume-gateways -d 'Create a stand-in for every Gateway that routes reference but the input lacks'
complete -c dopol -n "__fish_dopol_using_subcommand effective" -s v -l verbose -d 'Print input statistics and info-level diagnostics'
complete -c dopol -n "__fish_dopol_using_subcommand effective" -s q -l quiet -d 'Print only error diagnostics'
complete -c dopol -n "__fish_dopol_using_subcommand effective" -l compact -d 'With `-o json`: print each distinct effective policy once and map every path id to the ids of its policies (`kind: EffectivePolicyIndex`; `jq \'.paths["<pathId>"]\'`)'
complete -c dopol -n "__fish_dopol_using_subcommand effective" -l uncovered -d 'List the paths with no effective policy of the kinds given with `--kind` (default: every kind the input has a policy of), and which kinds each lacks (`kind: UncoveredPathList`)'
complete -c dopol -n "__fish_dopol_using_subcommand effective" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c dopol -n "__fish_dopol_using_subcommand effective" -s V -l version -d 'Print version'
complete -c dopol -n "__fish_dopol_using_subcommand overridden" -s f -l filename -d 'Manifest file, directory (recursive), glob pattern, or `-` for stdin. Repeatable, or comma-separated as kubectl reads it (`-f a.yaml,b.yaml`)' -r
complete -c dopol -n "__fish_dopol_using_subcommand overridden" -l exclude -d 'Leave paths matching this gitignore-style pattern out of directory walks and glob matches (`charts/`, `*.tmpl.yaml`, `/deploy/generated`), on top of .gitignore and .dopolignore; anchored at the working directory. Repeatable' -r
complete -c dopol -n "__fish_dopol_using_subcommand overridden" -l config -d 'Read settings from this config file instead of the `.dopol.yaml` found upward from the working directory' -r -F
complete -c dopol -n "__fish_dopol_using_subcommand overridden" -s n -l namespace -d 'Namespace of objects without one (default `default`); also shows only paths whose route or Gateway (and policies) are in this namespace' -r
complete -c dopol -n "__fish_dopol_using_subcommand overridden" -l with -d 'What if: add the manifests in this file or directory, replacing objects with the same identity. Repeatable' -r
complete -c dopol -n "__fish_dopol_using_subcommand overridden" -l without -d 'What if: remove this object (`Kind/namespace/name`, or `Kind/name` if cluster-scoped). Repeatable' -r
complete -c dopol -n "__fish_dopol_using_subcommand overridden" -l families -d 'A families file declaring policy kinds (group, kind, targets, rule layout, merge model). Repeatable. Without it, `.dopol/families.yaml` is read when it exists' -r
complete -c dopol -n "__fish_dopol_using_subcommand overridden" -l crds -d 'Validate objects against the CRDs in this file or directory (`kubectl get crd -o yaml` output works) instead of the bundled ones, kind by kind; also gives the CRD of a kind declared with `--families`. Repeatable' -r
complete -c dopol -n "__fish_dopol_using_subcommand overridden" -l gateway-api-channel -d 'The Gateway API CRD channel objects are validated against: `experimental` (the default, a superset) or `standard` (experimental fields are then unknown fields)' -r -f -a "standard\t'The standard channel'
experimental\t'The experimental channel'"
complete -c dopol -n "__fish_dopol_using_subcommand overridden" -l kgateway-policy-merge -d 'kgateway\'s KGW_POLICY_MERGE setting, e.g. `{"trafficPolicy": {"extAuth": "DeepMerge", "acl": "ShallowMerge"}}`' -r
complete -c dopol -n "__fish_dopol_using_subcommand overridden" -l kgateway-global-policy-namespace -d 'kgateway\'s KGW_GLOBAL_POLICY_NAMESPACE setting: targetSelectors of TrafficPolicies in this namespace select objects in every namespace' -r
complete -c dopol -n "__fish_dopol_using_subcommand overridden" -l kuma-mode -d 'The Kuma control plane\'s mode whose view is computed: `zone` (the default) or `global`' -r -f -a "zone\t''
global\t''"
complete -c dopol -n "__fish_dopol_using_subcommand overridden" -l kuma-zone -d 'The local zone of a Kuma zone control plane (default: the one zone of the input\'s local Dataplanes, else `default`)' -r
complete -c dopol -n "__fish_dopol_using_subcommand overridden" -l kuma-system-namespace -d 'The Kuma control plane\'s system namespace (default `kuma-system`): its policies have the `system` role' -r
complete -c dopol -n "__fish_dopol_using_subcommand overridden" -l kuma-outbound -d 'Also look up this Kuma destination (a MeshService, MeshMultiZoneService or MeshExternalService KRI) on every Dataplane of its mesh, as the proxy does: the key itself, else without its section, else the Mesh key. Repeatable' -r
complete -c dopol -n "__fish_dopol_using_subcommand overridden" -l color -d 'When to use colours on stderr diagnostics (never in machine formats)' -r -f -a "auto\t'Colour when stderr is a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c dopol -n "__fish_dopol_using_subcommand overridden" -l kind -d 'Only this policy kind, `Kind` or `Kind.group` (AuthPolicy, TrafficPolicy, BackendTrafficPolicy, SecurityPolicy, ...). Repeatable' -r -f -a "AuthPolicy\t'authpolicy.kuadrant.io'
RateLimitPolicy\t'ratelimitpolicy.kuadrant.io'
TokenRateLimitPolicy\t'tokenratelimitpolicy.kuadrant.io'
TrafficPolicy\t'trafficpolicy.gateway.kgateway.dev'
BackendTrafficPolicy\t'backendtrafficpolicy.gateway.envoyproxy.io'
ClientTrafficPolicy\t'clienttrafficpolicy.gateway.envoyproxy.io'
SecurityPolicy\t'securitypolicy.gateway.envoyproxy.io'
EnvoyExtensionPolicy\t'envoyextensionpolicy.gateway.envoyproxy.io'
MeshTimeout\t'meshtimeout.kuma.io'
MeshCircuitBreaker\t'meshcircuitbreaker.kuma.io'
MeshRateLimit\t'meshratelimit.kuma.io'
MeshTLS\t'meshtls.kuma.io'
MeshAccessLog\t'meshaccesslog.kuma.io'
MeshFaultInjection\t'meshfaultinjection.kuma.io'
MeshRetry\t'meshretry.kuma.io'
MeshHealthCheck\t'meshhealthcheck.kuma.io'
MeshLoadBalancingStrategy\t'meshloadbalancingstrategy.kuma.io'
MeshTrafficPermission\t'meshtrafficpermission.kuma.io'
MeshTrace\t'meshtrace.kuma.io'
MeshMetric\t'meshmetric.kuma.io'
MeshProxyPatch\t'meshproxypatch.kuma.io'
MeshPassthrough\t'meshpassthrough.kuma.io'
AgentgatewayPolicy\t'agentgatewaypolicy.agentgateway.dev'
ListenerPolicy\t'listenerpolicy.gateway.kgateway.dev'
BackendConfigPolicy\t'backendconfigpolicy.gateway.kgateway.dev'
BackendTLSPolicy\t'backendtlspolicy.gateway.networking.k8s.io'"
complete -c dopol -n "__fish_dopol_using_subcommand overridden" -l gateway -d 'Only paths through this Gateway (`name` or `ns/name`)' -r
complete -c dopol -n "__fish_dopol_using_subcommand overridden" -l route -d 'Only paths through this route (`name` or `ns/name`; `ns/name[Kind]` as path ids write a namesake of another kind)' -r
complete -c dopol -n "__fish_dopol_using_subcommand overridden" -l policy -d 'Only what involves this policy (`name`, `ns/name`, `Kind/ns/name` or a locator)' -r
complete -c dopol -n "__fish_dopol_using_subcommand overridden" -l mesh -d 'Only the Kuma paths of this mesh' -r
complete -c dopol -n "__fish_dopol_using_subcommand overridden" -l dataplane -d 'Only the Kuma paths of this Dataplane' -r
complete -c dopol -n "__fish_dopol_using_subcommand overridden" -s o -l output -d 'Output format' -r -f -a "table\t'Human-readable tables, sized to the terminal (or `COLUMNS`): free text such as values is cut with `…`, names never are. Not cut when stdout is a file or a pipe'
wide\t'Tables with whole values, every row naming its whole path (Gateway, listener, route rule), so each line found with `grep` keeps its context'
yaml\t'A YAML document'
json\t'A JSON document (its contract and schema: docs/json.md)'"
complete -c dopol -n "__fish_dopol_using_subcommand overridden" -l no-config -d 'Read no config file'
complete -c dopol -n "__fish_dopol_using_subcommand overridden" -l assume-gateways -d 'Create a stand-in for every Gateway that routes reference but the input lacks'
complete -c dopol -n "__fish_dopol_using_subcommand overridden" -s v -l verbose -d 'Print input statistics and info-level diagnostics'
complete -c dopol -n "__fish_dopol_using_subcommand overridden" -s q -l quiet -d 'Print only error diagnostics'
complete -c dopol -n "__fish_dopol_using_subcommand overridden" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c dopol -n "__fish_dopol_using_subcommand overridden" -s V -l version -d 'Print version'
complete -c dopol -n "__fish_dopol_using_subcommand status" -s f -l filename -d 'Manifest file, directory (recursive), glob pattern, or `-` for stdin. Repeatable, or comma-separated as kubectl reads it (`-f a.yaml,b.yaml`)' -r
complete -c dopol -n "__fish_dopol_using_subcommand status" -l exclude -d 'Leave paths matching this gitignore-style pattern out of directory walks and glob matches (`charts/`, `*.tmpl.yaml`, `/deploy/generated`), on top of .gitignore and .dopolignore; anchored at the working directory. Repeatable' -r
complete -c dopol -n "__fish_dopol_using_subcommand status" -l config -d 'Read settings from this config file instead of the `.dopol.yaml` found upward from the working directory' -r -F
complete -c dopol -n "__fish_dopol_using_subcommand status" -s n -l namespace -d 'Namespace of objects without one (default `default`); also shows only paths whose route or Gateway (and policies) are in this namespace' -r
complete -c dopol -n "__fish_dopol_using_subcommand status" -l with -d 'What if: add the manifests in this file or directory, replacing objects with the same identity. Repeatable' -r
complete -c dopol -n "__fish_dopol_using_subcommand status" -l without -d 'What if: remove this object (`Kind/namespace/name`, or `Kind/name` if cluster-scoped). Repeatable' -r
complete -c dopol -n "__fish_dopol_using_subcommand status" -l families -d 'A families file declaring policy kinds (group, kind, targets, rule layout, merge model). Repeatable. Without it, `.dopol/families.yaml` is read when it exists' -r
complete -c dopol -n "__fish_dopol_using_subcommand status" -l crds -d 'Validate objects against the CRDs in this file or directory (`kubectl get crd -o yaml` output works) instead of the bundled ones, kind by kind; also gives the CRD of a kind declared with `--families`. Repeatable' -r
complete -c dopol -n "__fish_dopol_using_subcommand status" -l gateway-api-channel -d 'The Gateway API CRD channel objects are validated against: `experimental` (the default, a superset) or `standard` (experimental fields are then unknown fields)' -r -f -a "standard\t'The standard channel'
experimental\t'The experimental channel'"
complete -c dopol -n "__fish_dopol_using_subcommand status" -l kgateway-policy-merge -d 'kgateway\'s KGW_POLICY_MERGE setting, e.g. `{"trafficPolicy": {"extAuth": "DeepMerge", "acl": "ShallowMerge"}}`' -r
complete -c dopol -n "__fish_dopol_using_subcommand status" -l kgateway-global-policy-namespace -d 'kgateway\'s KGW_GLOBAL_POLICY_NAMESPACE setting: targetSelectors of TrafficPolicies in this namespace select objects in every namespace' -r
complete -c dopol -n "__fish_dopol_using_subcommand status" -l kuma-mode -d 'The Kuma control plane\'s mode whose view is computed: `zone` (the default) or `global`' -r -f -a "zone\t''
global\t''"
complete -c dopol -n "__fish_dopol_using_subcommand status" -l kuma-zone -d 'The local zone of a Kuma zone control plane (default: the one zone of the input\'s local Dataplanes, else `default`)' -r
complete -c dopol -n "__fish_dopol_using_subcommand status" -l kuma-system-namespace -d 'The Kuma control plane\'s system namespace (default `kuma-system`): its policies have the `system` role' -r
complete -c dopol -n "__fish_dopol_using_subcommand status" -l kuma-outbound -d 'Also look up this Kuma destination (a MeshService, MeshMultiZoneService or MeshExternalService KRI) on every Dataplane of its mesh, as the proxy does: the key itself, else without its section, else the Mesh key. Repeatable' -r
complete -c dopol -n "__fish_dopol_using_subcommand status" -l color -d 'When to use colours on stderr diagnostics (never in machine formats)' -r -f -a "auto\t'Colour when stderr is a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c dopol -n "__fish_dopol_using_subcommand status" -l kind -d 'Only this policy kind, `Kind` or `Kind.group` (AuthPolicy, TrafficPolicy, BackendTrafficPolicy, SecurityPolicy, ...). Repeatable' -r -f -a "AuthPolicy\t'authpolicy.kuadrant.io'
RateLimitPolicy\t'ratelimitpolicy.kuadrant.io'
TokenRateLimitPolicy\t'tokenratelimitpolicy.kuadrant.io'
TrafficPolicy\t'trafficpolicy.gateway.kgateway.dev'
BackendTrafficPolicy\t'backendtrafficpolicy.gateway.envoyproxy.io'
ClientTrafficPolicy\t'clienttrafficpolicy.gateway.envoyproxy.io'
SecurityPolicy\t'securitypolicy.gateway.envoyproxy.io'
EnvoyExtensionPolicy\t'envoyextensionpolicy.gateway.envoyproxy.io'
MeshTimeout\t'meshtimeout.kuma.io'
MeshCircuitBreaker\t'meshcircuitbreaker.kuma.io'
MeshRateLimit\t'meshratelimit.kuma.io'
MeshTLS\t'meshtls.kuma.io'
MeshAccessLog\t'meshaccesslog.kuma.io'
MeshFaultInjection\t'meshfaultinjection.kuma.io'
MeshRetry\t'meshretry.kuma.io'
MeshHealthCheck\t'meshhealthcheck.kuma.io'
MeshLoadBalancingStrategy\t'meshloadbalancingstrategy.kuma.io'
MeshTrafficPermission\t'meshtrafficpermission.kuma.io'
MeshTrace\t'meshtrace.kuma.io'
MeshMetric\t'meshmetric.kuma.io'
MeshProxyPatch\t'meshproxypatch.kuma.io'
MeshPassthrough\t'meshpassthrough.kuma.io'
AgentgatewayPolicy\t'agentgatewaypolicy.agentgateway.dev'
ListenerPolicy\t'listenerpolicy.gateway.kgateway.dev'
BackendConfigPolicy\t'backendconfigpolicy.gateway.kgateway.dev'
BackendTLSPolicy\t'backendtlspolicy.gateway.networking.k8s.io'"
complete -c dopol -n "__fish_dopol_using_subcommand status" -l gateway -d 'Only paths through this Gateway (`name` or `ns/name`)' -r
complete -c dopol -n "__fish_dopol_using_subcommand status" -l route -d 'Only paths through this route (`name` or `ns/name`; `ns/name[Kind]` as path ids write a namesake of another kind)' -r
complete -c dopol -n "__fish_dopol_using_subcommand status" -l policy -d 'Only what involves this policy (`name`, `ns/name`, `Kind/ns/name` or a locator)' -r
complete -c dopol -n "__fish_dopol_using_subcommand status" -l mesh -d 'Only the Kuma paths of this mesh' -r
complete -c dopol -n "__fish_dopol_using_subcommand status" -l dataplane -d 'Only the Kuma paths of this Dataplane' -r
complete -c dopol -n "__fish_dopol_using_subcommand status" -s o -l output -d 'Output format' -r -f -a "table\t'Human-readable tables, sized to the terminal (or `COLUMNS`): free text such as values is cut with `…`, names never are. Not cut when stdout is a file or a pipe'
wide\t'Tables with whole values, every row naming its whole path (Gateway, listener, route rule), so each line found with `grep` keeps its context'
yaml\t'A YAML document'
json\t'A JSON document (its contract and schema: docs/json.md)'"
complete -c dopol -n "__fish_dopol_using_subcommand status" -l no-config -d 'Read no config file'
complete -c dopol -n "__fish_dopol_using_subcommand status" -l assume-gateways -d 'Create a stand-in for every Gateway that routes reference but the input lacks'
complete -c dopol -n "__fish_dopol_using_subcommand status" -s v -l verbose -d 'Print input statistics and info-level diagnostics'
complete -c dopol -n "__fish_dopol_using_subcommand status" -s q -l quiet -d 'Print only error diagnostics'
complete -c dopol -n "__fish_dopol_using_subcommand status" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c dopol -n "__fish_dopol_using_subcommand status" -s V -l version -d 'Print version'
complete -c dopol -n "__fish_dopol_using_subcommand reach" -l policy -d 'The policy, as with the other commands\' `--policy` (same as the positional argument)' -r
complete -c dopol -n "__fish_dopol_using_subcommand reach" -s f -l filename -d 'Manifest file, directory (recursive), glob pattern, or `-` for stdin. Repeatable, or comma-separated as kubectl reads it (`-f a.yaml,b.yaml`)' -r
complete -c dopol -n "__fish_dopol_using_subcommand reach" -l exclude -d 'Leave paths matching this gitignore-style pattern out of directory walks and glob matches (`charts/`, `*.tmpl.yaml`, `/deploy/generated`), on top of .gitignore and .dopolignore; anchored at the working directory. Repeatable' -r
complete -c dopol -n "__fish_dopol_using_subcommand reach" -l config -d 'Read settings from this config file instead of the `.dopol.yaml` found upward from the working directory' -r -F
complete -c dopol -n "__fish_dopol_using_subcommand reach" -s n -l namespace -d 'Namespace of objects without one (default `default`); also shows only paths whose route or Gateway (and policies) are in this namespace' -r
complete -c dopol -n "__fish_dopol_using_subcommand reach" -l with -d 'What if: add the manifests in this file or directory, replacing objects with the same identity. Repeatable' -r
complete -c dopol -n "__fish_dopol_using_subcommand reach" -l without -d 'What if: remove this object (`Kind/namespace/name`, or `Kind/name` if cluster-scoped). Repeatable' -r
complete -c dopol -n "__fish_dopol_using_subcommand reach" -l families -d 'A families file declaring policy kinds (group, kind, targets, rule layout, merge model). Repeatable. Without it, `.dopol/families.yaml` is read when it exists' -r
complete -c dopol -n "__fish_dopol_using_subcommand reach" -l crds -d 'Validate objects against the CRDs in this file or directory (`kubectl get crd -o yaml` output works) instead of the bundled ones, kind by kind; also gives the CRD of a kind declared with `--families`. Repeatable' -r
complete -c dopol -n "__fish_dopol_using_subcommand reach" -l gateway-api-channel -d 'The Gateway API CRD channel objects are validated against: `experimental` (the default, a superset) or `standard` (experimental fields are then unknown fields)' -r -f -a "standard\t'The standard channel'
experimental\t'The experimental channel'"
complete -c dopol -n "__fish_dopol_using_subcommand reach" -l kgateway-policy-merge -d 'kgateway\'s KGW_POLICY_MERGE setting, e.g. `{"trafficPolicy": {"extAuth": "DeepMerge", "acl": "ShallowMerge"}}`' -r
complete -c dopol -n "__fish_dopol_using_subcommand reach" -l kgateway-global-policy-namespace -d 'kgateway\'s KGW_GLOBAL_POLICY_NAMESPACE setting: targetSelectors of TrafficPolicies in this namespace select objects in every namespace' -r
complete -c dopol -n "__fish_dopol_using_subcommand reach" -l kuma-mode -d 'The Kuma control plane\'s mode whose view is computed: `zone` (the default) or `global`' -r -f -a "zone\t''
global\t''"
complete -c dopol -n "__fish_dopol_using_subcommand reach" -l kuma-zone -d 'The local zone of a Kuma zone control plane (default: the one zone of the input\'s local Dataplanes, else `default`)' -r
complete -c dopol -n "__fish_dopol_using_subcommand reach" -l kuma-system-namespace -d 'The Kuma control plane\'s system namespace (default `kuma-system`): its policies have the `system` role' -r
complete -c dopol -n "__fish_dopol_using_subcommand reach" -l kuma-outbound -d 'Also look up this Kuma destination (a MeshService, MeshMultiZoneService or MeshExternalService KRI) on every Dataplane of its mesh, as the proxy does: the key itself, else without its section, else the Mesh key. Repeatable' -r
complete -c dopol -n "__fish_dopol_using_subcommand reach" -l color -d 'When to use colours on stderr diagnostics (never in machine formats)' -r -f -a "auto\t'Colour when stderr is a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c dopol -n "__fish_dopol_using_subcommand reach" -s o -l output -d 'Output format' -r -f -a "table\t'Human-readable tables, sized to the terminal (or `COLUMNS`): free text such as values is cut with `…`, names never are. Not cut when stdout is a file or a pipe'
wide\t'Tables with whole values, every row naming its whole path (Gateway, listener, route rule), so each line found with `grep` keeps its context'
yaml\t'A YAML document'
json\t'A JSON document (its contract and schema: docs/json.md)'"
complete -c dopol -n "__fish_dopol_using_subcommand reach" -l no-config -d 'Read no config file'
complete -c dopol -n "__fish_dopol_using_subcommand reach" -l assume-gateways -d 'Create a stand-in for every Gateway that routes reference but the input lacks'
complete -c dopol -n "__fish_dopol_using_subcommand reach" -s v -l verbose -d 'Print input statistics and info-level diagnostics'
complete -c dopol -n "__fish_dopol_using_subcommand reach" -s q -l quiet -d 'Print only error diagnostics'
complete -c dopol -n "__fish_dopol_using_subcommand reach" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c dopol -n "__fish_dopol_using_subcommand reach" -s V -l version -d 'Print version'
complete -c dopol -n "__fish_dopol_using_subcommand explain" -s f -l filename -d 'Manifest file, directory (recursive), glob pattern, or `-` for stdin. Repeatable, or comma-separated as kubectl reads it (`-f a.yaml,b.yaml`)' -r
complete -c dopol -n "__fish_dopol_using_subcommand explain" -l exclude -d 'Leave paths matching this gitignore-style pattern out of directory walks and glob matches (`charts/`, `*.tmpl.yaml`, `/deploy/generated`), on top of .gitignore and .dopolignore; anchored at the working directory. Repeatable' -r
complete -c dopol -n "__fish_dopol_using_subcommand explain" -l config -d 'Read settings from this config file instead of the `.dopol.yaml` found upward from the working directory' -r -F
complete -c dopol -n "__fish_dopol_using_subcommand explain" -s n -l namespace -d 'Namespace of objects without one (default `default`); also shows only paths whose route or Gateway (and policies) are in this namespace' -r
complete -c dopol -n "__fish_dopol_using_subcommand explain" -l with -d 'What if: add the manifests in this file or directory, replacing objects with the same identity. Repeatable' -r
complete -c dopol -n "__fish_dopol_using_subcommand explain" -l without -d 'What if: remove this object (`Kind/namespace/name`, or `Kind/name` if cluster-scoped). Repeatable' -r
complete -c dopol -n "__fish_dopol_using_subcommand explain" -l families -d 'A families file declaring policy kinds (group, kind, targets, rule layout, merge model). Repeatable. Without it, `.dopol/families.yaml` is read when it exists' -r
complete -c dopol -n "__fish_dopol_using_subcommand explain" -l crds -d 'Validate objects against the CRDs in this file or directory (`kubectl get crd -o yaml` output works) instead of the bundled ones, kind by kind; also gives the CRD of a kind declared with `--families`. Repeatable' -r
complete -c dopol -n "__fish_dopol_using_subcommand explain" -l gateway-api-channel -d 'The Gateway API CRD channel objects are validated against: `experimental` (the default, a superset) or `standard` (experimental fields are then unknown fields)' -r -f -a "standard\t'The standard channel'
experimental\t'The experimental channel'"
complete -c dopol -n "__fish_dopol_using_subcommand explain" -l kgateway-policy-merge -d 'kgateway\'s KGW_POLICY_MERGE setting, e.g. `{"trafficPolicy": {"extAuth": "DeepMerge", "acl": "ShallowMerge"}}`' -r
complete -c dopol -n "__fish_dopol_using_subcommand explain" -l kgateway-global-policy-namespace -d 'kgateway\'s KGW_GLOBAL_POLICY_NAMESPACE setting: targetSelectors of TrafficPolicies in this namespace select objects in every namespace' -r
complete -c dopol -n "__fish_dopol_using_subcommand explain" -l kuma-mode -d 'The Kuma control plane\'s mode whose view is computed: `zone` (the default) or `global`' -r -f -a "zone\t''
global\t''"
complete -c dopol -n "__fish_dopol_using_subcommand explain" -l kuma-zone -d 'The local zone of a Kuma zone control plane (default: the one zone of the input\'s local Dataplanes, else `default`)' -r
complete -c dopol -n "__fish_dopol_using_subcommand explain" -l kuma-system-namespace -d 'The Kuma control plane\'s system namespace (default `kuma-system`): its policies have the `system` role' -r
complete -c dopol -n "__fish_dopol_using_subcommand explain" -l kuma-outbound -d 'Also look up this Kuma destination (a MeshService, MeshMultiZoneService or MeshExternalService KRI) on every Dataplane of its mesh, as the proxy does: the key itself, else without its section, else the Mesh key. Repeatable' -r
complete -c dopol -n "__fish_dopol_using_subcommand explain" -l color -d 'When to use colours on stderr diagnostics (never in machine formats)' -r -f -a "auto\t'Colour when stderr is a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c dopol -n "__fish_dopol_using_subcommand explain" -l path -d 'The path id to explain' -r
complete -c dopol -n "__fish_dopol_using_subcommand explain" -l route -d 'Explain the paths of this route (`name` or `ns/name`); with several, each is explained' -r
complete -c dopol -n "__fish_dopol_using_subcommand explain" -l rule -d 'Only this rule of the route (its name, or `rule-N`)' -r
complete -c dopol -n "__fish_dopol_using_subcommand explain" -l listener -d 'Only paths through this listener (`name`: the Gateway\'s or a ListenerSet\'s; `[ns/]gateway#name`; `[ns/]listenerset#name`; `[ns/]gateway>[ns/]listenerset#name`)' -r
complete -c dopol -n "__fish_dopol_using_subcommand explain" -l gateway -d 'Only paths through this Gateway (`name` or `ns/name`), as with the other reports\' `--gateway`' -r
complete -c dopol -n "__fish_dopol_using_subcommand explain" -l kind -d 'Only this policy kind. Repeatable' -r -f -a "AuthPolicy\t'authpolicy.kuadrant.io'
RateLimitPolicy\t'ratelimitpolicy.kuadrant.io'
TokenRateLimitPolicy\t'tokenratelimitpolicy.kuadrant.io'
TrafficPolicy\t'trafficpolicy.gateway.kgateway.dev'
BackendTrafficPolicy\t'backendtrafficpolicy.gateway.envoyproxy.io'
ClientTrafficPolicy\t'clienttrafficpolicy.gateway.envoyproxy.io'
SecurityPolicy\t'securitypolicy.gateway.envoyproxy.io'
EnvoyExtensionPolicy\t'envoyextensionpolicy.gateway.envoyproxy.io'
MeshTimeout\t'meshtimeout.kuma.io'
MeshCircuitBreaker\t'meshcircuitbreaker.kuma.io'
MeshRateLimit\t'meshratelimit.kuma.io'
MeshTLS\t'meshtls.kuma.io'
MeshAccessLog\t'meshaccesslog.kuma.io'
MeshFaultInjection\t'meshfaultinjection.kuma.io'
MeshRetry\t'meshretry.kuma.io'
MeshHealthCheck\t'meshhealthcheck.kuma.io'
MeshLoadBalancingStrategy\t'meshloadbalancingstrategy.kuma.io'
MeshTrafficPermission\t'meshtrafficpermission.kuma.io'
MeshTrace\t'meshtrace.kuma.io'
MeshMetric\t'meshmetric.kuma.io'
MeshProxyPatch\t'meshproxypatch.kuma.io'
MeshPassthrough\t'meshpassthrough.kuma.io'
AgentgatewayPolicy\t'agentgatewaypolicy.agentgateway.dev'
ListenerPolicy\t'listenerpolicy.gateway.kgateway.dev'
BackendConfigPolicy\t'backendconfigpolicy.gateway.kgateway.dev'
BackendTLSPolicy\t'backendtlspolicy.gateway.networking.k8s.io'"
complete -c dopol -n "__fish_dopol_using_subcommand explain" -s o -l output -d 'Output format (`table` prints the explanation as text)' -r -f -a "table\t'Human-readable tables, sized to the terminal (or `COLUMNS`): free text such as values is cut with `…`, names never are. Not cut when stdout is a file or a pipe'
wide\t'Tables with whole values, every row naming its whole path (Gateway, listener, route rule), so each line found with `grep` keeps its context'
yaml\t'A YAML document'
json\t'A JSON document (its contract and schema: docs/json.md)'"
complete -c dopol -n "__fish_dopol_using_subcommand explain" -l no-config -d 'Read no config file'
complete -c dopol -n "__fish_dopol_using_subcommand explain" -l assume-gateways -d 'Create a stand-in for every Gateway that routes reference but the input lacks'
complete -c dopol -n "__fish_dopol_using_subcommand explain" -s v -l verbose -d 'Print input statistics and info-level diagnostics'
complete -c dopol -n "__fish_dopol_using_subcommand explain" -s q -l quiet -d 'Print only error diagnostics'
complete -c dopol -n "__fish_dopol_using_subcommand explain" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c dopol -n "__fish_dopol_using_subcommand explain" -s V -l version -d 'Print version'
complete -c dopol -n "__fish_dopol_using_subcommand topology" -s f -l filename -d 'Manifest file, directory (recursive), glob pattern, or `-` for stdin. Repeatable, or comma-separated as kubectl reads it (`-f a.yaml,b.yaml`)' -r
complete -c dopol -n "__fish_dopol_using_subcommand topology" -l exclude -d 'Leave paths matching this gitignore-style pattern out of directory walks and glob matches (`charts/`, `*.tmpl.yaml`, `/deploy/generated`), on top of .gitignore and .dopolignore; anchored at the working directory. Repeatable' -r
complete -c dopol -n "__fish_dopol_using_subcommand topology" -l config -d 'Read settings from this config file instead of the `.dopol.yaml` found upward from the working directory' -r -F
complete -c dopol -n "__fish_dopol_using_subcommand topology" -s n -l namespace -d 'Namespace of objects without one (default `default`); also shows only paths whose route or Gateway (and policies) are in this namespace' -r
complete -c dopol -n "__fish_dopol_using_subcommand topology" -l with -d 'What if: add the manifests in this file or directory, replacing objects with the same identity. Repeatable' -r
complete -c dopol -n "__fish_dopol_using_subcommand topology" -l without -d 'What if: remove this object (`Kind/namespace/name`, or `Kind/name` if cluster-scoped). Repeatable' -r
complete -c dopol -n "__fish_dopol_using_subcommand topology" -l families -d 'A families file declaring policy kinds (group, kind, targets, rule layout, merge model). Repeatable. Without it, `.dopol/families.yaml` is read when it exists' -r
complete -c dopol -n "__fish_dopol_using_subcommand topology" -l crds -d 'Validate objects against the CRDs in this file or directory (`kubectl get crd -o yaml` output works) instead of the bundled ones, kind by kind; also gives the CRD of a kind declared with `--families`. Repeatable' -r
complete -c dopol -n "__fish_dopol_using_subcommand topology" -l gateway-api-channel -d 'The Gateway API CRD channel objects are validated against: `experimental` (the default, a superset) or `standard` (experimental fields are then unknown fields)' -r -f -a "standard\t'The standard channel'
experimental\t'The experimental channel'"
complete -c dopol -n "__fish_dopol_using_subcommand topology" -l kgateway-policy-merge -d 'kgateway\'s KGW_POLICY_MERGE setting, e.g. `{"trafficPolicy": {"extAuth": "DeepMerge", "acl": "ShallowMerge"}}`' -r
complete -c dopol -n "__fish_dopol_using_subcommand topology" -l kgateway-global-policy-namespace -d 'kgateway\'s KGW_GLOBAL_POLICY_NAMESPACE setting: targetSelectors of TrafficPolicies in this namespace select objects in every namespace' -r
complete -c dopol -n "__fish_dopol_using_subcommand topology" -l kuma-mode -d 'The Kuma control plane\'s mode whose view is computed: `zone` (the default) or `global`' -r -f -a "zone\t''
global\t''"
complete -c dopol -n "__fish_dopol_using_subcommand topology" -l kuma-zone -d 'The local zone of a Kuma zone control plane (default: the one zone of the input\'s local Dataplanes, else `default`)' -r
complete -c dopol -n "__fish_dopol_using_subcommand topology" -l kuma-system-namespace -d 'The Kuma control plane\'s system namespace (default `kuma-system`): its policies have the `system` role' -r
complete -c dopol -n "__fish_dopol_using_subcommand topology" -l kuma-outbound -d 'Also look up this Kuma destination (a MeshService, MeshMultiZoneService or MeshExternalService KRI) on every Dataplane of its mesh, as the proxy does: the key itself, else without its section, else the Mesh key. Repeatable' -r
complete -c dopol -n "__fish_dopol_using_subcommand topology" -l color -d 'When to use colours on stderr diagnostics (never in machine formats)' -r -f -a "auto\t'Colour when stderr is a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c dopol -n "__fish_dopol_using_subcommand topology" -l gateway -d 'Only this Gateway (`name` or `ns/name`), with what is attached to it' -r
complete -c dopol -n "__fish_dopol_using_subcommand topology" -l route -d 'Only this route (`name` or `ns/name`), under the listeners that accepted it, and the routes it delegates to' -r
complete -c dopol -n "__fish_dopol_using_subcommand topology" -l mesh -d 'Only the Kuma paths of this mesh' -r
complete -c dopol -n "__fish_dopol_using_subcommand topology" -l dataplane -d 'Only the Kuma paths of this Dataplane' -r
complete -c dopol -n "__fish_dopol_using_subcommand topology" -s o -l output -d 'Output format' -r -f -a "tree\t'An indented tree'
dot\t'Graphviz DOT'
mermaid\t'A Mermaid flowchart'
json\t'A JSON document (`kind: Topology`)'
yaml\t'A YAML document (`kind: Topology`)'"
complete -c dopol -n "__fish_dopol_using_subcommand topology" -l no-config -d 'Read no config file'
complete -c dopol -n "__fish_dopol_using_subcommand topology" -l assume-gateways -d 'Create a stand-in for every Gateway that routes reference but the input lacks'
complete -c dopol -n "__fish_dopol_using_subcommand topology" -s v -l verbose -d 'Print input statistics and info-level diagnostics'
complete -c dopol -n "__fish_dopol_using_subcommand topology" -s q -l quiet -d 'Print only error diagnostics'
complete -c dopol -n "__fish_dopol_using_subcommand topology" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c dopol -n "__fish_dopol_using_subcommand topology" -s V -l version -d 'Print version'
complete -c dopol -n "__fish_dopol_using_subcommand view" -s f -l filename -d 'Manifest file, directory (recursive), glob pattern, or `-` for stdin. Repeatable, or comma-separated as kubectl reads it (`-f a.yaml,b.yaml`)' -r
complete -c dopol -n "__fish_dopol_using_subcommand view" -l exclude -d 'Leave paths matching this gitignore-style pattern out of directory walks and glob matches (`charts/`, `*.tmpl.yaml`, `/deploy/generated`), on top of .gitignore and .dopolignore; anchored at the working directory. Repeatable' -r
complete -c dopol -n "__fish_dopol_using_subcommand view" -l config -d 'Read settings from this config file instead of the `.dopol.yaml` found upward from the working directory' -r -F
complete -c dopol -n "__fish_dopol_using_subcommand view" -s n -l namespace -d 'Namespace of objects without one (default `default`); also shows only paths whose route or Gateway (and policies) are in this namespace' -r
complete -c dopol -n "__fish_dopol_using_subcommand view" -l with -d 'What if: add the manifests in this file or directory, replacing objects with the same identity. Repeatable' -r
complete -c dopol -n "__fish_dopol_using_subcommand view" -l without -d 'What if: remove this object (`Kind/namespace/name`, or `Kind/name` if cluster-scoped). Repeatable' -r
complete -c dopol -n "__fish_dopol_using_subcommand view" -l families -d 'A families file declaring policy kinds (group, kind, targets, rule layout, merge model). Repeatable. Without it, `.dopol/families.yaml` is read when it exists' -r
complete -c dopol -n "__fish_dopol_using_subcommand view" -l crds -d 'Validate objects against the CRDs in this file or directory (`kubectl get crd -o yaml` output works) instead of the bundled ones, kind by kind; also gives the CRD of a kind declared with `--families`. Repeatable' -r
complete -c dopol -n "__fish_dopol_using_subcommand view" -l gateway-api-channel -d 'The Gateway API CRD channel objects are validated against: `experimental` (the default, a superset) or `standard` (experimental fields are then unknown fields)' -r -f -a "standard\t'The standard channel'
experimental\t'The experimental channel'"
complete -c dopol -n "__fish_dopol_using_subcommand view" -l kgateway-policy-merge -d 'kgateway\'s KGW_POLICY_MERGE setting, e.g. `{"trafficPolicy": {"extAuth": "DeepMerge", "acl": "ShallowMerge"}}`' -r
complete -c dopol -n "__fish_dopol_using_subcommand view" -l kgateway-global-policy-namespace -d 'kgateway\'s KGW_GLOBAL_POLICY_NAMESPACE setting: targetSelectors of TrafficPolicies in this namespace select objects in every namespace' -r
complete -c dopol -n "__fish_dopol_using_subcommand view" -l kuma-mode -d 'The Kuma control plane\'s mode whose view is computed: `zone` (the default) or `global`' -r -f -a "zone\t''
global\t''"
complete -c dopol -n "__fish_dopol_using_subcommand view" -l kuma-zone -d 'The local zone of a Kuma zone control plane (default: the one zone of the input\'s local Dataplanes, else `default`)' -r
complete -c dopol -n "__fish_dopol_using_subcommand view" -l kuma-system-namespace -d 'The Kuma control plane\'s system namespace (default `kuma-system`): its policies have the `system` role' -r
complete -c dopol -n "__fish_dopol_using_subcommand view" -l kuma-outbound -d 'Also look up this Kuma destination (a MeshService, MeshMultiZoneService or MeshExternalService KRI) on every Dataplane of its mesh, as the proxy does: the key itself, else without its section, else the Mesh key. Repeatable' -r
complete -c dopol -n "__fish_dopol_using_subcommand view" -l color -d 'When to use colours on stderr diagnostics (never in machine formats)' -r -f -a "auto\t'Colour when stderr is a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c dopol -n "__fish_dopol_using_subcommand view" -s o -l output -d 'The HTML file to write (`-` for stdout)' -r
complete -c dopol -n "__fish_dopol_using_subcommand view" -l no-config -d 'Read no config file'
complete -c dopol -n "__fish_dopol_using_subcommand view" -l assume-gateways -d 'Create a stand-in for every Gateway that routes reference but the input lacks'
complete -c dopol -n "__fish_dopol_using_subcommand view" -s v -l verbose -d 'Print input statistics and info-level diagnostics'
complete -c dopol -n "__fish_dopol_using_subcommand view" -s q -l quiet -d 'Print only error diagnostics'
complete -c dopol -n "__fish_dopol_using_subcommand view" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c dopol -n "__fish_dopol_using_subcommand view" -s V -l version -d 'Print version'
complete -c dopol -n "__fish_dopol_using_subcommand lint" -s f -l filename -d 'Manifest file, directory (recursive), glob pattern, or `-` for stdin. Repeatable, or comma-separated as kubectl reads it (`-f a.yaml,b.yaml`)' -r
complete -c dopol -n "__fish_dopol_using_subcommand lint" -l exclude -d 'Leave paths matching this gitignore-style pattern out of directory walks and glob matches (`charts/`, `*.tmpl.yaml`, `/deploy/generated`), on top of .gitignore and .dopolignore; anchored at the working directory. Repeatable' -r
complete -c dopol -n "__fish_dopol_using_subcommand lint" -l config -d 'Read settings from this config file instead of the `.dopol.yaml` found upward from the working directory' -r -F
complete -c dopol -n "__fish_dopol_using_subcommand lint" -s n -l namespace -d 'Namespace of objects without one (default `default`); also shows only paths whose route or Gateway (and policies) are in this namespace' -r
complete -c dopol -n "__fish_dopol_using_subcommand lint" -l with -d 'What if: add the manifests in this file or directory, replacing objects with the same identity. Repeatable' -r
complete -c dopol -n "__fish_dopol_using_subcommand lint" -l without -d 'What if: remove this object (`Kind/namespace/name`, or `Kind/name` if cluster-scoped). Repeatable' -r
complete -c dopol -n "__fish_dopol_using_subcommand lint" -l families -d 'A families file declaring policy kinds (group, kind, targets, rule layout, merge model). Repeatable. Without it, `.dopol/families.yaml` is read when it exists' -r
complete -c dopol -n "__fish_dopol_using_subcommand lint" -l crds -d 'Validate objects against the CRDs in this file or directory (`kubectl get crd -o yaml` output works) instead of the bundled ones, kind by kind; also gives the CRD of a kind declared with `--families`. Repeatable' -r
complete -c dopol -n "__fish_dopol_using_subcommand lint" -l gateway-api-channel -d 'The Gateway API CRD channel objects are validated against: `experimental` (the default, a superset) or `standard` (experimental fields are then unknown fields)' -r -f -a "standard\t'The standard channel'
experimental\t'The experimental channel'"
complete -c dopol -n "__fish_dopol_using_subcommand lint" -l kgateway-policy-merge -d 'kgateway\'s KGW_POLICY_MERGE setting, e.g. `{"trafficPolicy": {"extAuth": "DeepMerge", "acl": "ShallowMerge"}}`' -r
complete -c dopol -n "__fish_dopol_using_subcommand lint" -l kgateway-global-policy-namespace -d 'kgateway\'s KGW_GLOBAL_POLICY_NAMESPACE setting: targetSelectors of TrafficPolicies in this namespace select objects in every namespace' -r
complete -c dopol -n "__fish_dopol_using_subcommand lint" -l kuma-mode -d 'The Kuma control plane\'s mode whose view is computed: `zone` (the default) or `global`' -r -f -a "zone\t''
global\t''"
complete -c dopol -n "__fish_dopol_using_subcommand lint" -l kuma-zone -d 'The local zone of a Kuma zone control plane (default: the one zone of the input\'s local Dataplanes, else `default`)' -r
complete -c dopol -n "__fish_dopol_using_subcommand lint" -l kuma-system-namespace -d 'The Kuma control plane\'s system namespace (default `kuma-system`): its policies have the `system` role' -r
complete -c dopol -n "__fish_dopol_using_subcommand lint" -l kuma-outbound -d 'Also look up this Kuma destination (a MeshService, MeshMultiZoneService or MeshExternalService KRI) on every Dataplane of its mesh, as the proxy does: the key itself, else without its section, else the Mesh key. Repeatable' -r
complete -c dopol -n "__fish_dopol_using_subcommand lint" -l color -d 'When to use colours on stderr diagnostics (never in machine formats)' -r -f -a "auto\t'Colour when stderr is a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c dopol -n "__fish_dopol_using_subcommand lint" -s o -l output -d 'Output format' -r -f -a "human\t'Diagnostics with source snippets'
json\t'A JSON document (`kind: LintReport`)'
sarif\t'SARIF 2.1.0 (GitHub code scanning)'
github\t'GitHub Actions workflow commands (annotations)'
junit\t'JUnit XML'"
complete -c dopol -n "__fish_dopol_using_subcommand lint" -l fail-on -d 'Fail (exit 1) when a finding has at least this severity [default: error, or the config file\'s `lint.fail-on`]' -r -f -a "error\t'Errors only'
warning\t'Warnings and errors'
info\t'Everything'"
complete -c dopol -n "__fish_dopol_using_subcommand lint" -l min-severity -d 'Print only findings with at least this severity [default: info, or the config file\'s `lint.min-severity`]' -r -f -a "error\t'Errors only'
warning\t'Warnings and errors'
info\t'Everything'"
complete -c dopol -n "__fish_dopol_using_subcommand lint" -l ignore -d 'Suppress a code (`DPL4004` or `ordered-by-name`) for the whole run, on top of the config file\'s `lint.ignore`. Repeatable, or comma-separated' -r -f -a "DPL1001\t'yaml-syntax'
yaml-syntax\t'DPL1001'
DPL1002\t'unreadable-input'
unreadable-input\t'DPL1002'
DPL1003\t'invalid-encoding'
invalid-encoding\t'DPL1003'
DPL1004\t'not-a-kubernetes-object'
not-a-kubernetes-object\t'DPL1004'
DPL1005\t'invalid-object'
invalid-object\t'DPL1005'
DPL1006\t'duplicate-object'
duplicate-object\t'DPL1006'
DPL1007\t'deprecated-api-version'
deprecated-api-version\t'DPL1007'
DPL1008\t'empty-input'
empty-input\t'DPL1008'
DPL1009\t'unknown-field'
unknown-field\t'DPL1009'
DPL1010\t'exclusive-blocks'
exclusive-blocks\t'DPL1010'
DPL1011\t'empty-block'
empty-block\t'DPL1011'
DPL1012\t'unsupported-api-version'
unsupported-api-version\t'DPL1012'
DPL1013\t'invalid-name'
invalid-name\t'DPL1013'
DPL1014\t'invalid-families'
invalid-families\t'DPL1014'
DPL1015\t'schema-violation'
schema-violation\t'DPL1015'
DPL1016\t'validation-rule'
validation-rule\t'DPL1016'
DPL1017\t'rule-not-evaluated'
rule-not-evaluated\t'DPL1017'
DPL1018\t'version-not-served'
version-not-served\t'DPL1018'
DPL1019\t'invalid-crd'
invalid-crd\t'DPL1019'
DPL1020\t'invalid-config'
invalid-config\t'DPL1020'
DPL1021\t'template-skipped'
template-skipped\t'DPL1021'
DPL1022\t'fixture-key-ignored'
fixture-key-ignored\t'DPL1022'
DPL2001\t'parent-not-found'
parent-not-found\t'DPL2001'
DPL2002\t'no-matching-parent'
no-matching-parent\t'DPL2002'
DPL2003\t'not-allowed-by-listeners'
not-allowed-by-listeners\t'DPL2003'
DPL2004\t'no-matching-listener-hostname'
no-matching-listener-hostname\t'DPL2004'
DPL2005\t'route-not-attached'
route-not-attached\t'DPL2005'
DPL2006\t'duplicate-listener-name'
duplicate-listener-name\t'DPL2006'
DPL2007\t'duplicate-rule-name'
duplicate-rule-name\t'DPL2007'
DPL2008\t'selector-undecidable'
selector-undecidable\t'DPL2008'
DPL2009\t'assumed-gateway'
assumed-gateway\t'DPL2009'
DPL2010\t'delegation-child-dropped'
delegation-child-dropped\t'DPL2010'
DPL2011\t'delegation-not-supported'
delegation-not-supported\t'DPL2011'
DPL2012\t'delegation-mixed-backends'
delegation-mixed-backends\t'DPL2012'
DPL2013\t'listener-set-not-modelled'
listener-set-not-modelled\t'DPL2013'
DPL2014\t'parent-ref-listener-set'
parent-ref-listener-set\t'DPL2014'
DPL2015\t'listenerset-not-allowed'
listenerset-not-allowed\t'DPL2015'
DPL2016\t'listenerset-parent-not-found'
listenerset-parent-not-found\t'DPL2016'
DPL2017\t'namespace-labels-unknown'
namespace-labels-unknown\t'DPL2017'
DPL2018\t'listener-conflicted'
listener-conflicted\t'DPL2018'
DPL2019\t'listenerset-no-listener'
listenerset-no-listener\t'DPL2019'
DPL2020\t'legacy-xlistenerset'
legacy-xlistenerset\t'DPL2020'
DPL2021\t'gateway-listener-policy-skips-listenerset'
gateway-listener-policy-skips-listenerset\t'DPL2021'
DPL3001\t'target-not-found'
target-not-found\t'DPL3001'
DPL3002\t'section-not-found'
section-not-found\t'DPL3002'
DPL3003\t'invalid-target-kind'
invalid-target-kind\t'DPL3003'
DPL4001\t'policy-overridden'
policy-overridden\t'DPL4001'
DPL4002\t'policy-unreachable'
policy-unreachable\t'DPL4002'
DPL4003\t'default-superseded-everywhere'
default-superseded-everywhere\t'DPL4003'
DPL4004\t'ordered-by-name'
ordered-by-name\t'DPL4004'
DPL4005\t'granularity-trap'
granularity-trap\t'DPL4005'
DPL4006\t'unset-of-override'
unset-of-override\t'DPL4006'
DPL4007\t'unset-unmatched'
unset-unmatched\t'DPL4007'
DPL4008\t'rfc-extension'
rfc-extension\t'DPL4008'
DPL4009\t'constraint-invalid'
constraint-invalid\t'DPL4009'
DPL4010\t'constraint-evaluation'
constraint-evaluation\t'DPL4010'
DPL4011\t'predicate-invalid'
predicate-invalid\t'DPL4011'
DPL4012\t'family-overrides-builtin'
family-overrides-builtin\t'DPL4012'
DPL4013\t'unknown-ignore-code'
unknown-ignore-code\t'DPL4013'
DPL4014\t'shadowed-by-listener'
shadowed-by-listener\t'DPL4014'
DPL4015\t'bare-field-ignored'
bare-field-ignored\t'DPL4015'
DPL4016\t'family-ignores-listenerset'
family-ignores-listenerset\t'DPL4016'
DPL4020\t'reported-but-ineffective'
reported-but-ineffective\t'DPL4020'
DPL4021\t'rule-effective-nowhere'
rule-effective-nowhere\t'DPL4021'
DPL4022\t'class-not-family-controller'
class-not-family-controller\t'DPL4022'
DPL5001\t'extension-ref-not-found'
extension-ref-not-found\t'DPL5001'
DPL5002\t'route-replaced'
route-replaced\t'DPL5002'
DPL5003\t'invalid-policy-weight'
invalid-policy-weight\t'DPL5003'
DPL5004\t'unknown-inherited-priority'
unknown-inherited-priority\t'DPL5004'
DPL5005\t'inherited-priority-on-gateway'
inherited-priority-on-gateway\t'DPL5005'
DPL5006\t'duplicate-attachment'
duplicate-attachment\t'DPL5006'
DPL5007\t'selector-selects-nothing'
selector-selects-nothing\t'DPL5007'
DPL5008\t'gateway-disables-route-provider'
gateway-disables-route-provider\t'DPL5008'
DPL5009\t'gateway-header-set-wins'
gateway-header-set-wins\t'DPL5009'
DPL5010\t'invalid-policy'
invalid-policy\t'DPL5010'
DPL5011\t'deep-merge-plain-field'
deep-merge-plain-field\t'DPL5011'
DPL5012\t'delegatee-can-disable-auth'
delegatee-can-disable-auth\t'DPL5012'
DPL5013\t'builtin-shadows-policy'
builtin-shadows-policy\t'DPL5013'
DPL5014\t'misspelled-kgateway-annotation'
misspelled-kgateway-annotation\t'DPL5014'
DPL5015\t'kgateway-2-0-priority-value'
kgateway-2-0-priority-value\t'DPL5015'
DPL5016\t'shared-port-hostname-isolation'
shared-port-hostname-isolation\t'DPL5016'
DPL5020\t'listenerpolicy-field-ignored'
listenerpolicy-field-ignored\t'DPL5020'
DPL5021\t'httplistenerpolicy-deprecated'
httplistenerpolicy-deprecated\t'DPL5021'
DPL5022\t'bcp-field-shadowed'
bcp-field-shadowed\t'DPL5022'
DPL5023\t'bcp-selector-not-modelled'
bcp-selector-not-modelled\t'DPL5023'
DPL6001\t'auth-replaced-without-merge'
auth-replaced-without-merge\t'DPL6001'
DPL6002\t'conflicted'
conflicted\t'DPL6002'
DPL6003\t'null-pruned'
null-pruned\t'DPL6003'
DPL6004\t'deprecated-target-ref'
deprecated-target-ref\t'DPL6004'
DPL6005\t'selector-selects-all'
selector-selects-all\t'DPL6005'
DPL6006\t'cross-namespace-selector'
cross-namespace-selector\t'DPL6006'
DPL6007\t'ignored-target-kind'
ignored-target-kind\t'DPL6007'
DPL6008\t'selector-target-not-granted'
selector-target-not-granted\t'DPL6008'
DPL6009\t'ctp-gateway-section-in-listenerset'
ctp-gateway-section-in-listenerset\t'DPL6009'
DPL7001\t'kuma-invalid-policy'
kuma-invalid-policy\t'DPL7001'
DPL7002\t'kuma-to-target-not-found'
kuma-to-target-not-found\t'DPL7002'
DPL7003\t'kuma-section-port-number'
kuma-section-port-number\t'DPL7003'
DPL7004\t'kuma-dataplane-name-ref-from-global'
kuma-dataplane-name-ref-from-global\t'DPL7004'
DPL7005\t'kuma-consumer-overrides-producer'
kuma-consumer-overrides-producer\t'DPL7005'
DPL7006\t'kuma-route-ignores-service-entries'
kuma-route-ignores-service-entries\t'DPL7006'
DPL7007\t'kuma-mtp-from-ignored'
kuma-mtp-from-ignored\t'DPL7007'
DPL7008\t'kuma-mtp-without-mtls'
kuma-mtp-without-mtls\t'DPL7008'
DPL7009\t'kuma-role-label-overwritten'
kuma-role-label-overwritten\t'DPL7009'
DPL7010\t'kuma-equal-display-names'
kuma-equal-display-names\t'DPL7010'
DPL7011\t'kuma-meshservices-disabled'
kuma-meshservices-disabled\t'DPL7011'
DPL7012\t'kuma-deprecated-targetref'
kuma-deprecated-targetref\t'DPL7012'
DPL7013\t'kuma-selects-no-dataplane'
kuma-selects-no-dataplane\t'DPL7013'
DPL7014\t'kuma-shadow-skipped'
kuma-shadow-skipped\t'DPL7014'
DPL7015\t'kuma-mesh-assumed'
kuma-mesh-assumed\t'DPL7015'
DPL7016\t'kuma-not-modelled'
kuma-not-modelled\t'DPL7016'
DPL8001\t'agw-equal-specificity-tie'
agw-equal-specificity-tie\t'DPL8001'
DPL8002\t'agw-conditional-shadows-parent'
agw-conditional-shadows-parent\t'DPL8002'
DPL8003\t'agw-gateway-listener-leaks-into-listenerset'
agw-gateway-listener-leaks-into-listenerset\t'DPL8003'
DPL8004\t'agw-backend-listenerset-ignored'
agw-backend-listenerset-ignored\t'DPL8004'
DPL8005\t'agw-buffer-least-specific-wins'
agw-buffer-least-specific-wins\t'DPL8005'
DPL8006\t'agw-override-on-rule'
agw-override-on-rule\t'DPL8006'
DPL8007\t'agw-attached-but-ineffective'
agw-attached-but-ineffective\t'DPL8007'
DPL8008\t'agw-backend-level-not-modelled'
agw-backend-level-not-modelled\t'DPL8008'
DPL8009\t'agw-listenerset-not-modelled'
agw-listenerset-not-modelled\t'DPL8009'
DPL9001\t'invalid-suite'
invalid-suite\t'DPL9001'
DPL9002\t'not-a-suite'
not-a-suite\t'DPL9002'
DPL9003\t'selects-nothing'
selects-nothing\t'DPL9003'
DPL9004\t'unknown-expectation'
unknown-expectation\t'DPL9004'
DPL9005\t'unknown-rule-key'
unknown-rule-key\t'DPL9005'
DPL9006\t'unknown-suite-policy'
unknown-suite-policy\t'DPL9006'
DPL9007\t'invalid-suite-request'
invalid-suite-request\t'DPL9007'"
complete -c dopol -n "__fish_dopol_using_subcommand lint" -l explain -d 'Print the documentation of one check and exit' -r -f -a "DPL1001\t'yaml-syntax'
yaml-syntax\t'DPL1001'
DPL1002\t'unreadable-input'
unreadable-input\t'DPL1002'
DPL1003\t'invalid-encoding'
invalid-encoding\t'DPL1003'
DPL1004\t'not-a-kubernetes-object'
not-a-kubernetes-object\t'DPL1004'
DPL1005\t'invalid-object'
invalid-object\t'DPL1005'
DPL1006\t'duplicate-object'
duplicate-object\t'DPL1006'
DPL1007\t'deprecated-api-version'
deprecated-api-version\t'DPL1007'
DPL1008\t'empty-input'
empty-input\t'DPL1008'
DPL1009\t'unknown-field'
unknown-field\t'DPL1009'
DPL1010\t'exclusive-blocks'
exclusive-blocks\t'DPL1010'
DPL1011\t'empty-block'
empty-block\t'DPL1011'
DPL1012\t'unsupported-api-version'
unsupported-api-version\t'DPL1012'
DPL1013\t'invalid-name'
invalid-name\t'DPL1013'
DPL1014\t'invalid-families'
invalid-families\t'DPL1014'
DPL1015\t'schema-violation'
schema-violation\t'DPL1015'
DPL1016\t'validation-rule'
validation-rule\t'DPL1016'
DPL1017\t'rule-not-evaluated'
rule-not-evaluated\t'DPL1017'
DPL1018\t'version-not-served'
version-not-served\t'DPL1018'
DPL1019\t'invalid-crd'
invalid-crd\t'DPL1019'
DPL1020\t'invalid-config'
invalid-config\t'DPL1020'
DPL1021\t'template-skipped'
template-skipped\t'DPL1021'
DPL1022\t'fixture-key-ignored'
fixture-key-ignored\t'DPL1022'
DPL2001\t'parent-not-found'
parent-not-found\t'DPL2001'
DPL2002\t'no-matching-parent'
no-matching-parent\t'DPL2002'
DPL2003\t'not-allowed-by-listeners'
not-allowed-by-listeners\t'DPL2003'
DPL2004\t'no-matching-listener-hostname'
no-matching-listener-hostname\t'DPL2004'
DPL2005\t'route-not-attached'
route-not-attached\t'DPL2005'
DPL2006\t'duplicate-listener-name'
duplicate-listener-name\t'DPL2006'
DPL2007\t'duplicate-rule-name'
duplicate-rule-name\t'DPL2007'
DPL2008\t'selector-undecidable'
selector-undecidable\t'DPL2008'
DPL2009\t'assumed-gateway'
assumed-gateway\t'DPL2009'
DPL2010\t'delegation-child-dropped'
delegation-child-dropped\t'DPL2010'
DPL2011\t'delegation-not-supported'
delegation-not-supported\t'DPL2011'
DPL2012\t'delegation-mixed-backends'
delegation-mixed-backends\t'DPL2012'
DPL2013\t'listener-set-not-modelled'
listener-set-not-modelled\t'DPL2013'
DPL2014\t'parent-ref-listener-set'
parent-ref-listener-set\t'DPL2014'
DPL2015\t'listenerset-not-allowed'
listenerset-not-allowed\t'DPL2015'
DPL2016\t'listenerset-parent-not-found'
listenerset-parent-not-found\t'DPL2016'
DPL2017\t'namespace-labels-unknown'
namespace-labels-unknown\t'DPL2017'
DPL2018\t'listener-conflicted'
listener-conflicted\t'DPL2018'
DPL2019\t'listenerset-no-listener'
listenerset-no-listener\t'DPL2019'
DPL2020\t'legacy-xlistenerset'
legacy-xlistenerset\t'DPL2020'
DPL2021\t'gateway-listener-policy-skips-listenerset'
gateway-listener-policy-skips-listenerset\t'DPL2021'
DPL3001\t'target-not-found'
target-not-found\t'DPL3001'
DPL3002\t'section-not-found'
section-not-found\t'DPL3002'
DPL3003\t'invalid-target-kind'
invalid-target-kind\t'DPL3003'
DPL4001\t'policy-overridden'
policy-overridden\t'DPL4001'
DPL4002\t'policy-unreachable'
policy-unreachable\t'DPL4002'
DPL4003\t'default-superseded-everywhere'
default-superseded-everywhere\t'DPL4003'
DPL4004\t'ordered-by-name'
ordered-by-name\t'DPL4004'
DPL4005\t'granularity-trap'
granularity-trap\t'DPL4005'
DPL4006\t'unset-of-override'
unset-of-override\t'DPL4006'
DPL4007\t'unset-unmatched'
unset-unmatched\t'DPL4007'
DPL4008\t'rfc-extension'
rfc-extension\t'DPL4008'
DPL4009\t'constraint-invalid'
constraint-invalid\t'DPL4009'
DPL4010\t'constraint-evaluation'
constraint-evaluation\t'DPL4010'
DPL4011\t'predicate-invalid'
predicate-invalid\t'DPL4011'
DPL4012\t'family-overrides-builtin'
family-overrides-builtin\t'DPL4012'
DPL4013\t'unknown-ignore-code'
unknown-ignore-code\t'DPL4013'
DPL4014\t'shadowed-by-listener'
shadowed-by-listener\t'DPL4014'
DPL4015\t'bare-field-ignored'
bare-field-ignored\t'DPL4015'
DPL4016\t'family-ignores-listenerset'
family-ignores-listenerset\t'DPL4016'
DPL4020\t'reported-but-ineffective'
reported-but-ineffective\t'DPL4020'
DPL4021\t'rule-effective-nowhere'
rule-effective-nowhere\t'DPL4021'
DPL4022\t'class-not-family-controller'
class-not-family-controller\t'DPL4022'
DPL5001\t'extension-ref-not-found'
extension-ref-not-found\t'DPL5001'
DPL5002\t'route-replaced'
route-replaced\t'DPL5002'
DPL5003\t'invalid-policy-weight'
invalid-policy-weight\t'DPL5003'
DPL5004\t'unknown-inherited-priority'
unknown-inherited-priority\t'DPL5004'
DPL5005\t'inherited-priority-on-gateway'
inherited-priority-on-gateway\t'DPL5005'
DPL5006\t'duplicate-attachment'
duplicate-attachment\t'DPL5006'
DPL5007\t'selector-selects-nothing'
selector-selects-nothing\t'DPL5007'
DPL5008\t'gateway-disables-route-provider'
gateway-disables-route-provider\t'DPL5008'
DPL5009\t'gateway-header-set-wins'
gateway-header-set-wins\t'DPL5009'
DPL5010\t'invalid-policy'
invalid-policy\t'DPL5010'
DPL5011\t'deep-merge-plain-field'
deep-merge-plain-field\t'DPL5011'
DPL5012\t'delegatee-can-disable-auth'
delegatee-can-disable-auth\t'DPL5012'
DPL5013\t'builtin-shadows-policy'
builtin-shadows-policy\t'DPL5013'
DPL5014\t'misspelled-kgateway-annotation'
misspelled-kgateway-annotation\t'DPL5014'
DPL5015\t'kgateway-2-0-priority-value'
kgateway-2-0-priority-value\t'DPL5015'
DPL5016\t'shared-port-hostname-isolation'
shared-port-hostname-isolation\t'DPL5016'
DPL5020\t'listenerpolicy-field-ignored'
listenerpolicy-field-ignored\t'DPL5020'
DPL5021\t'httplistenerpolicy-deprecated'
httplistenerpolicy-deprecated\t'DPL5021'
DPL5022\t'bcp-field-shadowed'
bcp-field-shadowed\t'DPL5022'
DPL5023\t'bcp-selector-not-modelled'
bcp-selector-not-modelled\t'DPL5023'
DPL6001\t'auth-replaced-without-merge'
auth-replaced-without-merge\t'DPL6001'
DPL6002\t'conflicted'
conflicted\t'DPL6002'
DPL6003\t'null-pruned'
null-pruned\t'DPL6003'
DPL6004\t'deprecated-target-ref'
deprecated-target-ref\t'DPL6004'
DPL6005\t'selector-selects-all'
selector-selects-all\t'DPL6005'
DPL6006\t'cross-namespace-selector'
cross-namespace-selector\t'DPL6006'
DPL6007\t'ignored-target-kind'
ignored-target-kind\t'DPL6007'
DPL6008\t'selector-target-not-granted'
selector-target-not-granted\t'DPL6008'
DPL6009\t'ctp-gateway-section-in-listenerset'
ctp-gateway-section-in-listenerset\t'DPL6009'
DPL7001\t'kuma-invalid-policy'
kuma-invalid-policy\t'DPL7001'
DPL7002\t'kuma-to-target-not-found'
kuma-to-target-not-found\t'DPL7002'
DPL7003\t'kuma-section-port-number'
kuma-section-port-number\t'DPL7003'
DPL7004\t'kuma-dataplane-name-ref-from-global'
kuma-dataplane-name-ref-from-global\t'DPL7004'
DPL7005\t'kuma-consumer-overrides-producer'
kuma-consumer-overrides-producer\t'DPL7005'
DPL7006\t'kuma-route-ignores-service-entries'
kuma-route-ignores-service-entries\t'DPL7006'
DPL7007\t'kuma-mtp-from-ignored'
kuma-mtp-from-ignored\t'DPL7007'
DPL7008\t'kuma-mtp-without-mtls'
kuma-mtp-without-mtls\t'DPL7008'
DPL7009\t'kuma-role-label-overwritten'
kuma-role-label-overwritten\t'DPL7009'
DPL7010\t'kuma-equal-display-names'
kuma-equal-display-names\t'DPL7010'
DPL7011\t'kuma-meshservices-disabled'
kuma-meshservices-disabled\t'DPL7011'
DPL7012\t'kuma-deprecated-targetref'
kuma-deprecated-targetref\t'DPL7012'
DPL7013\t'kuma-selects-no-dataplane'
kuma-selects-no-dataplane\t'DPL7013'
DPL7014\t'kuma-shadow-skipped'
kuma-shadow-skipped\t'DPL7014'
DPL7015\t'kuma-mesh-assumed'
kuma-mesh-assumed\t'DPL7015'
DPL7016\t'kuma-not-modelled'
kuma-not-modelled\t'DPL7016'
DPL8001\t'agw-equal-specificity-tie'
agw-equal-specificity-tie\t'DPL8001'
DPL8002\t'agw-conditional-shadows-parent'
agw-conditional-shadows-parent\t'DPL8002'
DPL8003\t'agw-gateway-listener-leaks-into-listenerset'
agw-gateway-listener-leaks-into-listenerset\t'DPL8003'
DPL8004\t'agw-backend-listenerset-ignored'
agw-backend-listenerset-ignored\t'DPL8004'
DPL8005\t'agw-buffer-least-specific-wins'
agw-buffer-least-specific-wins\t'DPL8005'
DPL8006\t'agw-override-on-rule'
agw-override-on-rule\t'DPL8006'
DPL8007\t'agw-attached-but-ineffective'
agw-attached-but-ineffective\t'DPL8007'
DPL8008\t'agw-backend-level-not-modelled'
agw-backend-level-not-modelled\t'DPL8008'
DPL8009\t'agw-listenerset-not-modelled'
agw-listenerset-not-modelled\t'DPL8009'
DPL9001\t'invalid-suite'
invalid-suite\t'DPL9001'
DPL9002\t'not-a-suite'
not-a-suite\t'DPL9002'
DPL9003\t'selects-nothing'
selects-nothing\t'DPL9003'
DPL9004\t'unknown-expectation'
unknown-expectation\t'DPL9004'
DPL9005\t'unknown-rule-key'
unknown-rule-key\t'DPL9005'
DPL9006\t'unknown-suite-policy'
unknown-suite-policy\t'DPL9006'
DPL9007\t'invalid-suite-request'
invalid-suite-request\t'DPL9007'"
complete -c dopol -n "__fish_dopol_using_subcommand lint" -l no-config -d 'Read no config file'
complete -c dopol -n "__fish_dopol_using_subcommand lint" -l assume-gateways -d 'Create a stand-in for every Gateway that routes reference but the input lacks'
complete -c dopol -n "__fish_dopol_using_subcommand lint" -s v -l verbose -d 'Print input statistics and info-level diagnostics'
complete -c dopol -n "__fish_dopol_using_subcommand lint" -s q -l quiet -d 'Print only error diagnostics'
complete -c dopol -n "__fish_dopol_using_subcommand lint" -l list -d 'Print the catalogue of checks and exit'
complete -c dopol -n "__fish_dopol_using_subcommand lint" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c dopol -n "__fish_dopol_using_subcommand lint" -s V -l version -d 'Print version'
complete -c dopol -n "__fish_dopol_using_subcommand diff" -s f -l filename -d 'Manifest file, directory (recursive), glob pattern, or `-` for stdin. Repeatable, or comma-separated as kubectl reads it (`-f a.yaml,b.yaml`)' -r
complete -c dopol -n "__fish_dopol_using_subcommand diff" -l exclude -d 'Leave paths matching this gitignore-style pattern out of directory walks and glob matches (`charts/`, `*.tmpl.yaml`, `/deploy/generated`), on top of .gitignore and .dopolignore; anchored at the working directory. Repeatable' -r
complete -c dopol -n "__fish_dopol_using_subcommand diff" -l config -d 'Read settings from this config file instead of the `.dopol.yaml` found upward from the working directory' -r -F
complete -c dopol -n "__fish_dopol_using_subcommand diff" -s n -l namespace -d 'Namespace of objects without one (default `default`); also shows only paths whose route or Gateway (and policies) are in this namespace' -r
complete -c dopol -n "__fish_dopol_using_subcommand diff" -l with -d 'What if: add the manifests in this file or directory, replacing objects with the same identity. Repeatable' -r
complete -c dopol -n "__fish_dopol_using_subcommand diff" -l without -d 'What if: remove this object (`Kind/namespace/name`, or `Kind/name` if cluster-scoped). Repeatable' -r
complete -c dopol -n "__fish_dopol_using_subcommand diff" -l families -d 'A families file declaring policy kinds (group, kind, targets, rule layout, merge model). Repeatable. Without it, `.dopol/families.yaml` is read when it exists' -r
complete -c dopol -n "__fish_dopol_using_subcommand diff" -l crds -d 'Validate objects against the CRDs in this file or directory (`kubectl get crd -o yaml` output works) instead of the bundled ones, kind by kind; also gives the CRD of a kind declared with `--families`. Repeatable' -r
complete -c dopol -n "__fish_dopol_using_subcommand diff" -l gateway-api-channel -d 'The Gateway API CRD channel objects are validated against: `experimental` (the default, a superset) or `standard` (experimental fields are then unknown fields)' -r -f -a "standard\t'The standard channel'
experimental\t'The experimental channel'"
complete -c dopol -n "__fish_dopol_using_subcommand diff" -l kgateway-policy-merge -d 'kgateway\'s KGW_POLICY_MERGE setting, e.g. `{"trafficPolicy": {"extAuth": "DeepMerge", "acl": "ShallowMerge"}}`' -r
complete -c dopol -n "__fish_dopol_using_subcommand diff" -l kgateway-global-policy-namespace -d 'kgateway\'s KGW_GLOBAL_POLICY_NAMESPACE setting: targetSelectors of TrafficPolicies in this namespace select objects in every namespace' -r
complete -c dopol -n "__fish_dopol_using_subcommand diff" -l kuma-mode -d 'The Kuma control plane\'s mode whose view is computed: `zone` (the default) or `global`' -r -f -a "zone\t''
global\t''"
complete -c dopol -n "__fish_dopol_using_subcommand diff" -l kuma-zone -d 'The local zone of a Kuma zone control plane (default: the one zone of the input\'s local Dataplanes, else `default`)' -r
complete -c dopol -n "__fish_dopol_using_subcommand diff" -l kuma-system-namespace -d 'The Kuma control plane\'s system namespace (default `kuma-system`): its policies have the `system` role' -r
complete -c dopol -n "__fish_dopol_using_subcommand diff" -l kuma-outbound -d 'Also look up this Kuma destination (a MeshService, MeshMultiZoneService or MeshExternalService KRI) on every Dataplane of its mesh, as the proxy does: the key itself, else without its section, else the Mesh key. Repeatable' -r
complete -c dopol -n "__fish_dopol_using_subcommand diff" -l color -d 'When to use colours on stderr diagnostics (never in machine formats)' -r -f -a "auto\t'Colour when stderr is a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c dopol -n "__fish_dopol_using_subcommand diff" -l kind -d 'Only this policy kind, `Kind` or `Kind.group` (AuthPolicy, TrafficPolicy, BackendTrafficPolicy, SecurityPolicy, ...). Repeatable' -r -f -a "AuthPolicy\t'authpolicy.kuadrant.io'
RateLimitPolicy\t'ratelimitpolicy.kuadrant.io'
TokenRateLimitPolicy\t'tokenratelimitpolicy.kuadrant.io'
TrafficPolicy\t'trafficpolicy.gateway.kgateway.dev'
BackendTrafficPolicy\t'backendtrafficpolicy.gateway.envoyproxy.io'
ClientTrafficPolicy\t'clienttrafficpolicy.gateway.envoyproxy.io'
SecurityPolicy\t'securitypolicy.gateway.envoyproxy.io'
EnvoyExtensionPolicy\t'envoyextensionpolicy.gateway.envoyproxy.io'
MeshTimeout\t'meshtimeout.kuma.io'
MeshCircuitBreaker\t'meshcircuitbreaker.kuma.io'
MeshRateLimit\t'meshratelimit.kuma.io'
MeshTLS\t'meshtls.kuma.io'
MeshAccessLog\t'meshaccesslog.kuma.io'
MeshFaultInjection\t'meshfaultinjection.kuma.io'
MeshRetry\t'meshretry.kuma.io'
MeshHealthCheck\t'meshhealthcheck.kuma.io'
MeshLoadBalancingStrategy\t'meshloadbalancingstrategy.kuma.io'
MeshTrafficPermission\t'meshtrafficpermission.kuma.io'
MeshTrace\t'meshtrace.kuma.io'
MeshMetric\t'meshmetric.kuma.io'
MeshProxyPatch\t'meshproxypatch.kuma.io'
MeshPassthrough\t'meshpassthrough.kuma.io'
AgentgatewayPolicy\t'agentgatewaypolicy.agentgateway.dev'
ListenerPolicy\t'listenerpolicy.gateway.kgateway.dev'
BackendConfigPolicy\t'backendconfigpolicy.gateway.kgateway.dev'
BackendTLSPolicy\t'backendtlspolicy.gateway.networking.k8s.io'"
complete -c dopol -n "__fish_dopol_using_subcommand diff" -l gateway -d 'Only paths through this Gateway (`name` or `ns/name`)' -r
complete -c dopol -n "__fish_dopol_using_subcommand diff" -l route -d 'Only paths through this route (`name` or `ns/name`; `ns/name[Kind]` as path ids write a namesake of another kind)' -r
complete -c dopol -n "__fish_dopol_using_subcommand diff" -l policy -d 'Only what involves this policy (`name`, `ns/name`, `Kind/ns/name` or a locator)' -r
complete -c dopol -n "__fish_dopol_using_subcommand diff" -l mesh -d 'Only the Kuma paths of this mesh' -r
complete -c dopol -n "__fish_dopol_using_subcommand diff" -l dataplane -d 'Only the Kuma paths of this Dataplane' -r
complete -c dopol -n "__fish_dopol_using_subcommand diff" -s o -l output -d 'Output format' -r -f -a "table\t'Each distinct change once, where it happens and its value diff, sized to the terminal'
wide\t'The same with whole values'
yaml\t'The `EffectivePolicyDiff` document as YAML'
json\t'The `EffectivePolicyDiff` document (docs/json.md)'
html\t'One self-contained HTML page: the changes grouped as in the table, before and after side by side (docs/view.md)'"
complete -c dopol -n "__fish_dopol_using_subcommand diff" -l no-config -d 'Read no config file'
complete -c dopol -n "__fish_dopol_using_subcommand diff" -l assume-gateways -d 'Create a stand-in for every Gateway that routes reference but the input lacks'
complete -c dopol -n "__fish_dopol_using_subcommand diff" -s v -l verbose -d 'Print input statistics and info-level diagnostics'
complete -c dopol -n "__fish_dopol_using_subcommand diff" -s q -l quiet -d 'Print only error diagnostics'
complete -c dopol -n "__fish_dopol_using_subcommand diff" -l stat -d 'Print one line per path with the number of rules added, removed and changed (table format)'
complete -c dopol -n "__fish_dopol_using_subcommand diff" -l paths -d 'List every path\'s changes, by Gateway, route and rule, instead of each distinct change once with where it happens (table format)'
complete -c dopol -n "__fish_dopol_using_subcommand diff" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c dopol -n "__fish_dopol_using_subcommand diff" -s V -l version -d 'Print version'
complete -c dopol -n "__fish_dopol_using_subcommand request" -s H -l header -d 'A request header, `Name: value`. Repeatable; `Host` replaces the URL\'s host' -r
complete -c dopol -n "__fish_dopol_using_subcommand request" -l attr -d 'A request attribute predicates and counters may read (`auth.identity.userid=bob`, `source.address=10.0.0.1`); VALUE is JSON when it parses as JSON. Repeatable' -r
complete -c dopol -n "__fish_dopol_using_subcommand request" -l grpc -d 'A gRPC call instead of METHOD URL: `SERVICE/METHOD`' -r
complete -c dopol -n "__fish_dopol_using_subcommand request" -l authority -d 'The gRPC `:authority` (required with --grpc); PORT picks the listener' -r
complete -c dopol -n "__fish_dopol_using_subcommand request" -l gateway -d 'The Gateway that receives the request (`name` or `ns/name`), when several could' -r
complete -c dopol -n "__fish_dopol_using_subcommand request" -l kind -d 'Only this policy kind in the policies section. Repeatable' -r -f -a "AuthPolicy\t'authpolicy.kuadrant.io'
RateLimitPolicy\t'ratelimitpolicy.kuadrant.io'
TokenRateLimitPolicy\t'tokenratelimitpolicy.kuadrant.io'
TrafficPolicy\t'trafficpolicy.gateway.kgateway.dev'
BackendTrafficPolicy\t'backendtrafficpolicy.gateway.envoyproxy.io'
ClientTrafficPolicy\t'clienttrafficpolicy.gateway.envoyproxy.io'
SecurityPolicy\t'securitypolicy.gateway.envoyproxy.io'
EnvoyExtensionPolicy\t'envoyextensionpolicy.gateway.envoyproxy.io'
MeshTimeout\t'meshtimeout.kuma.io'
MeshCircuitBreaker\t'meshcircuitbreaker.kuma.io'
MeshRateLimit\t'meshratelimit.kuma.io'
MeshTLS\t'meshtls.kuma.io'
MeshAccessLog\t'meshaccesslog.kuma.io'
MeshFaultInjection\t'meshfaultinjection.kuma.io'
MeshRetry\t'meshretry.kuma.io'
MeshHealthCheck\t'meshhealthcheck.kuma.io'
MeshLoadBalancingStrategy\t'meshloadbalancingstrategy.kuma.io'
MeshTrafficPermission\t'meshtrafficpermission.kuma.io'
MeshTrace\t'meshtrace.kuma.io'
MeshMetric\t'meshmetric.kuma.io'
MeshProxyPatch\t'meshproxypatch.kuma.io'
MeshPassthrough\t'meshpassthrough.kuma.io'
AgentgatewayPolicy\t'agentgatewaypolicy.agentgateway.dev'
ListenerPolicy\t'listenerpolicy.gateway.kgateway.dev'
BackendConfigPolicy\t'backendconfigpolicy.gateway.kgateway.dev'
BackendTLSPolicy\t'backendtlspolicy.gateway.networking.k8s.io'"
complete -c dopol -n "__fish_dopol_using_subcommand request" -s f -l filename -d 'Manifest file, directory (recursive), glob pattern, or `-` for stdin. Repeatable, or comma-separated as kubectl reads it (`-f a.yaml,b.yaml`)' -r
complete -c dopol -n "__fish_dopol_using_subcommand request" -l exclude -d 'Leave paths matching this gitignore-style pattern out of directory walks and glob matches (`charts/`, `*.tmpl.yaml`, `/deploy/generated`), on top of .gitignore and .dopolignore; anchored at the working directory. Repeatable' -r
complete -c dopol -n "__fish_dopol_using_subcommand request" -l config -d 'Read settings from this config file instead of the `.dopol.yaml` found upward from the working directory' -r -F
complete -c dopol -n "__fish_dopol_using_subcommand request" -s n -l namespace -d 'Namespace of objects without one (default `default`); also shows only paths whose route or Gateway (and policies) are in this namespace' -r
complete -c dopol -n "__fish_dopol_using_subcommand request" -l with -d 'What if: add the manifests in this file or directory, replacing objects with the same identity. Repeatable' -r
complete -c dopol -n "__fish_dopol_using_subcommand request" -l without -d 'What if: remove this object (`Kind/namespace/name`, or `Kind/name` if cluster-scoped). Repeatable' -r
complete -c dopol -n "__fish_dopol_using_subcommand request" -l families -d 'A families file declaring policy kinds (group, kind, targets, rule layout, merge model). Repeatable. Without it, `.dopol/families.yaml` is read when it exists' -r
complete -c dopol -n "__fish_dopol_using_subcommand request" -l crds -d 'Validate objects against the CRDs in this file or directory (`kubectl get crd -o yaml` output works) instead of the bundled ones, kind by kind; also gives the CRD of a kind declared with `--families`. Repeatable' -r
complete -c dopol -n "__fish_dopol_using_subcommand request" -l gateway-api-channel -d 'The Gateway API CRD channel objects are validated against: `experimental` (the default, a superset) or `standard` (experimental fields are then unknown fields)' -r -f -a "standard\t'The standard channel'
experimental\t'The experimental channel'"
complete -c dopol -n "__fish_dopol_using_subcommand request" -l kgateway-policy-merge -d 'kgateway\'s KGW_POLICY_MERGE setting, e.g. `{"trafficPolicy": {"extAuth": "DeepMerge", "acl": "ShallowMerge"}}`' -r
complete -c dopol -n "__fish_dopol_using_subcommand request" -l kgateway-global-policy-namespace -d 'kgateway\'s KGW_GLOBAL_POLICY_NAMESPACE setting: targetSelectors of TrafficPolicies in this namespace select objects in every namespace' -r
complete -c dopol -n "__fish_dopol_using_subcommand request" -l kuma-mode -d 'The Kuma control plane\'s mode whose view is computed: `zone` (the default) or `global`' -r -f -a "zone\t''
global\t''"
complete -c dopol -n "__fish_dopol_using_subcommand request" -l kuma-zone -d 'The local zone of a Kuma zone control plane (default: the one zone of the input\'s local Dataplanes, else `default`)' -r
complete -c dopol -n "__fish_dopol_using_subcommand request" -l kuma-system-namespace -d 'The Kuma control plane\'s system namespace (default `kuma-system`): its policies have the `system` role' -r
complete -c dopol -n "__fish_dopol_using_subcommand request" -l kuma-outbound -d 'Also look up this Kuma destination (a MeshService, MeshMultiZoneService or MeshExternalService KRI) on every Dataplane of its mesh, as the proxy does: the key itself, else without its section, else the Mesh key. Repeatable' -r
complete -c dopol -n "__fish_dopol_using_subcommand request" -l color -d 'When to use colours on stderr diagnostics (never in machine formats)' -r -f -a "auto\t'Colour when stderr is a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c dopol -n "__fish_dopol_using_subcommand request" -s o -l output -d 'Output format' -r -f -a "table\t'Human-readable tables, sized to the terminal (or `COLUMNS`): free text such as values is cut with `…`, names never are. Not cut when stdout is a file or a pipe'
wide\t'Tables with whole values, every row naming its whole path (Gateway, listener, route rule), so each line found with `grep` keeps its context'
yaml\t'A YAML document'
json\t'A JSON document (its contract and schema: docs/json.md)'"
complete -c dopol -n "__fish_dopol_using_subcommand request" -l tls -d 'The gRPC call uses TLS (scheme https, default port 443)'
complete -c dopol -n "__fish_dopol_using_subcommand request" -l no-config -d 'Read no config file'
complete -c dopol -n "__fish_dopol_using_subcommand request" -l assume-gateways -d 'Create a stand-in for every Gateway that routes reference but the input lacks'
complete -c dopol -n "__fish_dopol_using_subcommand request" -s v -l verbose -d 'Print input statistics and info-level diagnostics'
complete -c dopol -n "__fish_dopol_using_subcommand request" -s q -l quiet -d 'Print only error diagnostics'
complete -c dopol -n "__fish_dopol_using_subcommand request" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c dopol -n "__fish_dopol_using_subcommand request" -s V -l version -d 'Print version'
complete -c dopol -n "__fish_dopol_using_subcommand test" -s f -l filename -d 'Manifest file, directory (recursive), glob pattern, or `-` for stdin. Repeatable, or comma-separated as kubectl reads it (`-f a.yaml,b.yaml`)' -r
complete -c dopol -n "__fish_dopol_using_subcommand test" -l exclude -d 'Leave paths matching this gitignore-style pattern out of directory walks and glob matches (`charts/`, `*.tmpl.yaml`, `/deploy/generated`), on top of .gitignore and .dopolignore; anchored at the working directory. Repeatable' -r
complete -c dopol -n "__fish_dopol_using_subcommand test" -l config -d 'Read settings from this config file instead of the `.dopol.yaml` found upward from the working directory' -r -F
complete -c dopol -n "__fish_dopol_using_subcommand test" -s n -l namespace -d 'Namespace of objects without one (default `default`); also shows only paths whose route or Gateway (and policies) are in this namespace' -r
complete -c dopol -n "__fish_dopol_using_subcommand test" -l with -d 'What if: add the manifests in this file or directory, replacing objects with the same identity. Repeatable' -r
complete -c dopol -n "__fish_dopol_using_subcommand test" -l without -d 'What if: remove this object (`Kind/namespace/name`, or `Kind/name` if cluster-scoped). Repeatable' -r
complete -c dopol -n "__fish_dopol_using_subcommand test" -l families -d 'A families file declaring policy kinds (group, kind, targets, rule layout, merge model). Repeatable. Without it, `.dopol/families.yaml` is read when it exists' -r
complete -c dopol -n "__fish_dopol_using_subcommand test" -l crds -d 'Validate objects against the CRDs in this file or directory (`kubectl get crd -o yaml` output works) instead of the bundled ones, kind by kind; also gives the CRD of a kind declared with `--families`. Repeatable' -r
complete -c dopol -n "__fish_dopol_using_subcommand test" -l gateway-api-channel -d 'The Gateway API CRD channel objects are validated against: `experimental` (the default, a superset) or `standard` (experimental fields are then unknown fields)' -r -f -a "standard\t'The standard channel'
experimental\t'The experimental channel'"
complete -c dopol -n "__fish_dopol_using_subcommand test" -l kgateway-policy-merge -d 'kgateway\'s KGW_POLICY_MERGE setting, e.g. `{"trafficPolicy": {"extAuth": "DeepMerge", "acl": "ShallowMerge"}}`' -r
complete -c dopol -n "__fish_dopol_using_subcommand test" -l kgateway-global-policy-namespace -d 'kgateway\'s KGW_GLOBAL_POLICY_NAMESPACE setting: targetSelectors of TrafficPolicies in this namespace select objects in every namespace' -r
complete -c dopol -n "__fish_dopol_using_subcommand test" -l kuma-mode -d 'The Kuma control plane\'s mode whose view is computed: `zone` (the default) or `global`' -r -f -a "zone\t''
global\t''"
complete -c dopol -n "__fish_dopol_using_subcommand test" -l kuma-zone -d 'The local zone of a Kuma zone control plane (default: the one zone of the input\'s local Dataplanes, else `default`)' -r
complete -c dopol -n "__fish_dopol_using_subcommand test" -l kuma-system-namespace -d 'The Kuma control plane\'s system namespace (default `kuma-system`): its policies have the `system` role' -r
complete -c dopol -n "__fish_dopol_using_subcommand test" -l kuma-outbound -d 'Also look up this Kuma destination (a MeshService, MeshMultiZoneService or MeshExternalService KRI) on every Dataplane of its mesh, as the proxy does: the key itself, else without its section, else the Mesh key. Repeatable' -r
complete -c dopol -n "__fish_dopol_using_subcommand test" -l color -d 'When to use colours on stderr diagnostics (never in machine formats)' -r -f -a "auto\t'Colour when stderr is a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c dopol -n "__fish_dopol_using_subcommand test" -l run -d 'Run only the cases whose name matches this regular expression' -r
complete -c dopol -n "__fish_dopol_using_subcommand test" -s o -l output -d 'Output format' -r -f -a "table\t'One line per case, the first difference under a failed one'
json\t'A JSON document (`kind: PolicyTestReport`; schema: docs/schema/policy-test-report.schema.json)'
junit\t'JUnit XML: one test suite per suite file, one test case per case'
sarif\t'SARIF 2.1.0: one result per failed case, at the case in its suite'
github\t'GitHub Actions workflow commands: an error annotation per failed case'"
complete -c dopol -n "__fish_dopol_using_subcommand test" -l fail-under -d 'Fail (exit 1) when the share of paths some case selects is under PCT percent' -r
complete -c dopol -n "__fish_dopol_using_subcommand test" -l against -d 'The no-weakening gate: fail (exit 1) when a path is weaker than at this git revision (the -f paths read at REV, as `dopol diff git:REV` reads them)' -r
complete -c dopol -n "__fish_dopol_using_subcommand test" -l no-config -d 'Read no config file'
complete -c dopol -n "__fish_dopol_using_subcommand test" -l assume-gateways -d 'Create a stand-in for every Gateway that routes reference but the input lacks'
complete -c dopol -n "__fish_dopol_using_subcommand test" -s v -l verbose -d 'Print input statistics and info-level diagnostics'
complete -c dopol -n "__fish_dopol_using_subcommand test" -s q -l quiet -d 'Print only error diagnostics'
complete -c dopol -n "__fish_dopol_using_subcommand test" -l coverage -d 'Report, per policy kind and per Gateway, the share of paths some case selects'
complete -c dopol -n "__fish_dopol_using_subcommand test" -l show-untested -d 'With --coverage: list the paths no case selects'
complete -c dopol -n "__fish_dopol_using_subcommand test" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c dopol -n "__fish_dopol_using_subcommand test" -s V -l version -d 'Print version'
complete -c dopol -n "__fish_dopol_using_subcommand completions" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c dopol -n "__fish_dopol_using_subcommand completions" -s V -l version -d 'Print version'
complete -c dopol -n "__fish_dopol_using_subcommand man" -l out-dir -d 'Write `dopol.1` and one `dopol-<command>.1` per command into this directory instead of printing the main page' -r -F
complete -c dopol -n "__fish_dopol_using_subcommand man" -s h -l help -d 'Print help'
complete -c dopol -n "__fish_dopol_using_subcommand man" -s V -l version -d 'Print version'
complete -c dopol -n "__fish_dopol_using_subcommand help; and not __fish_seen_subcommand_from effective overridden status reach explain topology view lint diff request test completions man help" -f -a "effective" -d 'Show the effective policy of every path, with the source of every rule'
complete -c dopol -n "__fish_dopol_using_subcommand help; and not __fish_seen_subcommand_from effective overridden status reach explain topology view lint diff request test completions man help" -f -a "overridden" -d 'Show the rules that lost somewhere (superseded, overridden, deactivated, not applied), where, and to whom'
complete -c dopol -n "__fish_dopol_using_subcommand help; and not __fish_seen_subcommand_from effective overridden status reach explain topology view lint diff request test completions man help" -f -a "status" -d 'Show the status conditions each policy\'s controller would write (Kuadrant\'s Accepted and Enforced, kgateway\'s, Envoy Gateway\'s and agentgateway\'s per Gateway, Kuma\'s Accepted and Enforced) and every rule\'s outcomes'
complete -c dopol -n "__fish_dopol_using_subcommand help; and not __fish_seen_subcommand_from effective overridden status reach explain topology view lint diff request test completions man help" -f -a "reach" -d 'Show where a policy (or one of its rules) is effective, and where it lost'
complete -c dopol -n "__fish_dopol_using_subcommand help; and not __fish_seen_subcommand_from effective overridden status reach explain topology view lint diff request test completions man help" -f -a "explain" -d 'Explain one path\'s effective policy step by step'
complete -c dopol -n "__fish_dopol_using_subcommand help; and not __fish_seen_subcommand_from effective overridden status reach explain topology view lint diff request test completions man help" -f -a "topology" -d 'Show the Gateway → listener → route → rule tree with the policies attached to each node'
complete -c dopol -n "__fish_dopol_using_subcommand help; and not __fish_seen_subcommand_from effective overridden status reach explain topology view lint diff request test completions man help" -f -a "view" -d 'Write one self-contained HTML page: the graph of every hierarchy with its policies, and the effective-policy stack of each path (who won each rule, and why)'
complete -c dopol -n "__fish_dopol_using_subcommand help; and not __fish_seen_subcommand_from effective overridden status reach explain topology view lint diff request test completions man help" -f -a "lint" -d 'Check the manifests and report every problem with a stable code (for CI and pre-commit)'
complete -c dopol -n "__fish_dopol_using_subcommand help; and not __fish_seen_subcommand_from effective overridden status reach explain topology view lint diff request test completions man help" -f -a "diff" -d 'Compare the effective policy of every path between two revisions, or with a what-if'
complete -c dopol -n "__fish_dopol_using_subcommand help; and not __fish_seen_subcommand_from effective overridden status reach explain topology view lint diff request test completions man help" -f -a "request" -d 'Simulate one request: which route rule it reaches, and which policy rules apply to it'
complete -c dopol -n "__fish_dopol_using_subcommand help; and not __fish_seen_subcommand_from effective overridden status reach explain topology view lint diff request test completions man help" -f -a "test" -d 'Run policy test suites (`*.dopoltest.yaml`): expectations on the effective policy of paths and on requests, coverage, and a no-weakening gate against a git revision'
complete -c dopol -n "__fish_dopol_using_subcommand help; and not __fish_seen_subcommand_from effective overridden status reach explain topology view lint diff request test completions man help" -f -a "completions" -d 'Print a shell completion script'
complete -c dopol -n "__fish_dopol_using_subcommand help; and not __fish_seen_subcommand_from effective overridden status reach explain topology view lint diff request test completions man help" -f -a "man" -d 'Print dopol\'s man pages (or write one page per command into a directory)'
complete -c dopol -n "__fish_dopol_using_subcommand help; and not __fish_seen_subcommand_from effective overridden status reach explain topology view lint diff request test completions man help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
