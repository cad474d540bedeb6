
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'dopol' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'dopol'
        for ($i = 1; $i -lt $commandElements.Count; $i++) {
            $element = $commandElements[$i]
            if ($element -isnot [StringConstantExpressionAst] -or
                $element.StringConstantType -ne [StringConstantType]::BareWord -or
                $element.Value.StartsWith('-') -or
                $element.Value -eq $wordToComplete) {
                break
        }
        $element.Value
    }) -join ';'

    $completions = @(switch ($command) {
        'dopol' {
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('effective', 'effective', [CompletionResultType]::ParameterValue, 'Show the effective policy of every path, with the source of every rule')
            [CompletionResult]::new('overridden', 'overridden', [CompletionResultType]::ParameterValue, 'Show the rules that lost somewhere (superseded, overridden, deactivated, not applied), where, and to whom')
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'Show the status conditions each policy''s controller would write (Kuadrant''s Accepted and Enforced, kgateway''s, Envoy Gateway''s and agentgateway''s per Gateway, Kuma''s Accepted and Enforced) and every rule''s outcomes')
            [CompletionResult]::new('reach', 'reach', [CompletionResultType]::ParameterValue, 'Show where a policy (or one of its rules) is effective, and where it lost')
            [CompletionResult]::new('explain', 'explain', [CompletionResultType]::ParameterValue, 'Explain one path''s effective policy step by step')
            [CompletionResult]::new('topology', 'topology', [CompletionResultType]::ParameterValue, 'Show the Gateway → listener → route → rule tree with the policies attached to each node')
            [CompletionResult]::new('view', 'view', [CompletionResultType]::ParameterValue, 'Write one self-contained HTML page: the graph of every hierarchy with its policies, and the effective-policy stack of each path (who won each rule, and why)')
            [CompletionResult]::new('lint', 'lint', [CompletionResultType]::ParameterValue, 'Check the manifests and report every problem with a stable code (for CI and pre-commit)')
            [CompletionResult]::new('diff', 'diff', [CompletionResultType]::ParameterValue, 'Compare the effective policy of every path between two revisions, or with a what-if')
            [CompletionResult]::new('request', 'request', [CompletionResultType]::ParameterValue, 'Simulate one request: which route rule it reaches, and which policy rules apply to it')
            [CompletionResult]::new('test', 'test', [CompletionResultType]::ParameterValue, 'Run policy test suites (`*.dopoltest.yaml`): expectations on the effective policy of paths and on requests, coverage, and a no-weakening gate against a git revision')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script')
            [CompletionResult]::new('man', 'man', [CompletionResultType]::ParameterValue, 'Print dopol''s man pages (or write one page per command into a directory)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'dopol;effective' {
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'Manifest file, directory (recursive), glob pattern, or `-` for stdin. Repeatable, or comma-separated as kubectl reads it (`-f a.yaml,b.yaml`)')
            [CompletionResult]::new('--filename', '--filename', [CompletionResultType]::ParameterName, 'Manifest file, directory (recursive), glob pattern, or `-` for stdin. Repeatable, or comma-separated as kubectl reads it (`-f a.yaml,b.yaml`)')
            [CompletionResult]::new('--exclude', '--exclude', [CompletionResultType]::ParameterName, 'Leave paths matching this gitignore-style pattern out of directory walks and glob matches (`charts/`, `*.tmpl.yaml`, `/deploy/generated`), on top of .gitignore and .dopolignore; anchored at the working directory. Repeatable')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read settings from this config file instead of the `.dopol.yaml` found upward from the working directory')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace of objects without one (default `default`); also shows only paths whose route or Gateway (and policies) are in this namespace')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace of objects without one (default `default`); also shows only paths whose route or Gateway (and policies) are in this namespace')
            [CompletionResult]::new('--with', '--with', [CompletionResultType]::ParameterName, 'What if: add the manifests in this file or directory, replacing objects with the same identity. Repeatable')
            [CompletionResult]::new('--without', '--without', [CompletionResultType]::ParameterName, 'What if: remove this object (`Kind/namespace/name`, or `Kind/name` if cluster-scoped). Repeatable')
            [CompletionResult]::new('--families', '--families', [CompletionResultType]::ParameterName, 'A families file declaring policy kinds (group, kind, targets, rule layout, merge model). Repeatable. Without it, `.dopol/families.yaml` is read when it exists')
            [CompletionResult]::new('--crds', '--crds', [CompletionResultType]::ParameterName, 'Validate objects against the CRDs in this file or directory (`kubectl get crd -o yaml` output works) instead of the bundled ones, kind by kind; also gives the CRD of a kind declared with `--families`. Repeatable')
            [CompletionResult]::new('--gateway-api-channel', '--gateway-api-channel', [CompletionResultType]::ParameterName, 'The Gateway API CRD channel objects are validated against: `experimental` (the default, a superset) or `standard` (experimental fields are then unknown fields)')
            [CompletionResult]::new('--kgateway-policy-merge', '--kgateway-policy-merge', [CompletionResultType]::ParameterName, 'kgateway''s KGW_POLICY_MERGE setting, e.g. `{"trafficPolicy": {"extAuth": "DeepMerge", "acl": "ShallowMerge"}}`')
            [CompletionResult]::new('--kgateway-global-policy-namespace', '--kgateway-global-policy-namespace', [CompletionResultType]::ParameterName, 'kgateway''s KGW_GLOBAL_POLICY_NAMESPACE setting: targetSelectors of TrafficPolicies in this namespace select objects in every namespace')
            [CompletionResult]::new('--kuma-mode', '--kuma-mode', [CompletionResultType]::ParameterName, 'The Kuma control plane''s mode whose view is computed: `zone` (the default) or `global`')
            [CompletionResult]::new('--kuma-zone', '--kuma-zone', [CompletionResultType]::ParameterName, 'The local zone of a Kuma zone control plane (default: the one zone of the input''s local Dataplanes, else `default`)')
            [CompletionResult]::new('--kuma-system-namespace', '--kuma-system-namespace', [CompletionResultType]::ParameterName, 'The Kuma control plane''s system namespace (default `kuma-system`): its policies have the `system` role')
            [CompletionResult]::new('--kuma-outbound', '--kuma-outbound', [CompletionResultType]::ParameterName, 'Also look up this Kuma destination (a MeshService, MeshMultiZoneService or MeshExternalService KRI) on every Dataplane of its mesh, as the proxy does: the key itself, else without its section, else the Mesh key. Repeatable')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours on stderr diagnostics (never in machine formats)')
            [CompletionResult]::new('--kind', '--kind', [CompletionResultType]::ParameterName, 'Only this policy kind, `Kind` or `Kind.group` (AuthPolicy, TrafficPolicy, BackendTrafficPolicy, SecurityPolicy, ...). Repeatable')
            [CompletionResult]::new('--gateway', '--gateway', [CompletionResultType]::ParameterName, 'Only paths through this Gateway (`name` or `ns/name`)')
            [CompletionResult]::new('--route', '--route', [CompletionResultType]::ParameterName, 'Only paths through this route (`name` or `ns/name`; `ns/name[Kind]` as path ids write a namesake of another kind)')
            [CompletionResult]::new('--policy', '--policy', [CompletionResultType]::ParameterName, 'Only what involves this policy (`name`, `ns/name`, `Kind/ns/name` or a locator)')
            [CompletionResult]::new('--mesh', '--mesh', [CompletionResultType]::ParameterName, 'Only the Kuma paths of this mesh')
            [CompletionResult]::new('--dataplane', '--dataplane', [CompletionResultType]::ParameterName, 'Only the Kuma paths of this Dataplane')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--no-config', '--no-config', [CompletionResultType]::ParameterName, 'Read no config file')
            [CompletionResult]::new('--assume-gateways', '--assume-gateways', [CompletionResultType]::ParameterName, 'Create a stand-in for every Gateway that routes reference but the input lacks')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print input statistics and info-level diagnostics')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print input statistics and info-level diagnostics')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only error diagnostics')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only error diagnostics')
            [CompletionResult]::new('--compact', '--compact', [CompletionResultType]::ParameterName, 'With `-o json`: print each distinct effective policy once and map every path id to the ids of its policies (`kind: EffectivePolicyIndex`; `jq ''.paths["<pathId>"]''`)')
            [CompletionResult]::new('--uncovered', '--uncovered', [CompletionResultType]::ParameterName, 'List the paths with no effective policy of the kinds given with `--kind` (default: every kind the input has a policy of), and which kinds each lacks (`kind: UncoveredPathList`)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'dopol;overridden' {
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'Manifest file, directory (recursive), glob pattern, or `-` for stdin. Repeatable, or comma-separated as kubectl reads it (`-f a.yaml,b.yaml`)')
            [CompletionResult]::new('--filename', '--filename', [CompletionResultType]::ParameterName, 'Manifest file, directory (recursive), glob pattern, or `-` for stdin. Repeatable, or comma-separated as kubectl reads it (`-f a.yaml,b.yaml`)')
            [CompletionResult]::new('--exclude', '--exclude', [CompletionResultType]::ParameterName, 'Leave paths matching this gitignore-style pattern out of directory walks and glob matches (`charts/`, `*.tmpl.yaml`, `/deploy/generated`), on top of .gitignore and .dopolignore; anchored at the working directory. Repeatable')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read settings from this config file instead of the `.dopol.yaml` found upward from the working directory')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace of objects without one (default `default`); also shows only paths whose route or Gateway (and policies) are in this namespace')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace of objects without one (default `default`); also shows only paths whose route or Gateway (and policies) are in this namespace')
            [CompletionResult]::new('--with', '--with', [CompletionResultType]::ParameterName, 'What if: add the manifests in this file or directory, replacing objects with the same identity. Repeatable')
            [CompletionResult]::new('--without', '--without', [CompletionResultType]::ParameterName, 'What if: remove this object (`Kind/namespace/name`, or `Kind/name` if cluster-scoped). Repeatable')
            [CompletionResult]::new('--families', '--families', [CompletionResultType]::ParameterName, 'A families file declaring policy kinds (group, kind, targets, rule layout, merge model). Repeatable. Without it, `.dopol/families.yaml` is read when it exists')
            [CompletionResult]::new('--crds', '--crds', [CompletionResultType]::ParameterName, 'Validate objects against the CRDs in this file or directory (`kubectl get crd -o yaml` output works) instead of the bundled ones, kind by kind; also gives the CRD of a kind declared with `--families`. Repeatable')
            [CompletionResult]::new('--gateway-api-channel', '--gateway-api-channel', [CompletionResultType]::ParameterName, 'The Gateway API CRD channel objects are validated against: `experimental` (the default, a superset) or `standard` (experimental fields are then unknown fields)')
            [CompletionResult]::new('--kgateway-policy-merge', '--kgateway-policy-merge', [CompletionResultType]::ParameterName, 'kgateway''s KGW_POLICY_MERGE setting, e.g. `{"trafficPolicy": {"extAuth": "DeepMerge", "acl": "ShallowMerge"}}`')
            [CompletionResult]::new('--kgateway-global-policy-namespace', '--kgateway-global-policy-namespace', [CompletionResultType]::ParameterName, 'kgateway''s KGW_GLOBAL_POLICY_NAMESPACE setting: targetSelectors of TrafficPolicies in this namespace select objects in every namespace')
            [CompletionResult]::new('--kuma-mode', '--kuma-mode', [CompletionResultType]::ParameterName, 'The Kuma control plane''s mode whose view is computed: `zone` (the default) or `global`')
            [CompletionResult]::new('--kuma-zone', '--kuma-zone', [CompletionResultType]::ParameterName, 'The local zone of a Kuma zone control plane (default: the one zone of the input''s local Dataplanes, else `default`)')
            [CompletionResult]::new('--kuma-system-namespace', '--kuma-system-namespace', [CompletionResultType]::ParameterName, 'The Kuma control plane''s system namespace (default `kuma-system`): its policies have the `system` role')
            [CompletionResult]::new('--kuma-outbound', '--kuma-outbound', [CompletionResultType]::ParameterName, 'Also look up this Kuma destination (a MeshService, MeshMultiZoneService or MeshExternalService KRI) on every Dataplane of its mesh, as the proxy does: the key itself, else without its section, else the Mesh key. Repeatable')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours on stderr diagnostics (never in machine formats)')
            [CompletionResult]::new('--kind', '--kind', [CompletionResultType]::ParameterName, 'Only this policy kind, `Kind` or `Kind.group` (AuthPolicy, TrafficPolicy, BackendTrafficPolicy, SecurityPolicy, ...). Repeatable')
            [CompletionResult]::new('--gateway', '--gateway', [CompletionResultType]::ParameterName, 'Only paths through this Gateway (`name` or `ns/name`)')
            [CompletionResult]::new('--route', '--route', [CompletionResultType]::ParameterName, 'Only paths through this route (`name` or `ns/name`; `ns/name[Kind]` as path ids write a namesake of another kind)')
            [CompletionResult]::new('--policy', '--policy', [CompletionResultType]::ParameterName, 'Only what involves this policy (`name`, `ns/name`, `Kind/ns/name` or a locator)')
            [CompletionResult]::new('--mesh', '--mesh', [CompletionResultType]::ParameterName, 'Only the Kuma paths of this mesh')
            [CompletionResult]::new('--dataplane', '--dataplane', [CompletionResultType]::ParameterName, 'Only the Kuma paths of this Dataplane')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--no-config', '--no-config', [CompletionResultType]::ParameterName, 'Read no config file')
            [CompletionResult]::new('--assume-gateways', '--assume-gateways', [CompletionResultType]::ParameterName, 'Create a stand-in for every Gateway that routes reference but the input lacks')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print input statistics and info-level diagnostics')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print input statistics and info-level diagnostics')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only error diagnostics')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only error diagnostics')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'dopol;status' {
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'Manifest file, directory (recursive), glob pattern, or `-` for stdin. Repeatable, or comma-separated as kubectl reads it (`-f a.yaml,b.yaml`)')
            [CompletionResult]::new('--filename', '--filename', [CompletionResultType]::ParameterName, 'Manifest file, directory (recursive), glob pattern, or `-` for stdin. Repeatable, or comma-separated as kubectl reads it (`-f a.yaml,b.yaml`)')
            [CompletionResult]::new('--exclude', '--exclude', [CompletionResultType]::ParameterName, 'Leave paths matching this gitignore-style pattern out of directory walks and glob matches (`charts/`, `*.tmpl.yaml`, `/deploy/generated`), on top of .gitignore and .dopolignore; anchored at the working directory. Repeatable')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read settings from this config file instead of the `.dopol.yaml` found upward from the working directory')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace of objects without one (default `default`); also shows only paths whose route or Gateway (and policies) are in this namespace')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace of objects without one (default `default`); also shows only paths whose route or Gateway (and policies) are in this namespace')
            [CompletionResult]::new('--with', '--with', [CompletionResultType]::ParameterName, 'What if: add the manifests in this file or directory, replacing objects with the same identity. Repeatable')
            [CompletionResult]::new('--without', '--without', [CompletionResultType]::ParameterName, 'What if: remove this object (`Kind/namespace/name`, or `Kind/name` if cluster-scoped). Repeatable')
            [CompletionResult]::new('--families', '--families', [CompletionResultType]::ParameterName, 'A families file declaring policy kinds (group, kind, targets, rule layout, merge model). Repeatable. Without it, `.dopol/families.yaml` is read when it exists')
            [CompletionResult]::new('--crds', '--crds', [CompletionResultType]::ParameterName, 'Validate objects against the CRDs in this file or directory (`kubectl get crd -o yaml` output works) instead of the bundled ones, kind by kind; also gives the CRD of a kind declared with `--families`. Repeatable')
            [CompletionResult]::new('--gateway-api-channel', '--gateway-api-channel', [CompletionResultType]::ParameterName, 'The Gateway API CRD channel objects are validated against: `experimental` (the default, a superset) or `standard` (experimental fields are then unknown fields)')
            [CompletionResult]::new('--kgateway-policy-merge', '--kgateway-policy-merge', [CompletionResultType]::ParameterName, 'kgateway''s KGW_POLICY_MERGE setting, e.g. `{"trafficPolicy": {"extAuth": "DeepMerge", "acl": "ShallowMerge"}}`')
            [CompletionResult]::new('--kgateway-global-policy-namespace', '--kgateway-global-policy-namespace', [CompletionResultType]::ParameterName, 'kgateway''s KGW_GLOBAL_POLICY_NAMESPACE setting: targetSelectors of TrafficPolicies in this namespace select objects in every namespace')
            [CompletionResult]::new('--kuma-mode', '--kuma-mode', [CompletionResultType]::ParameterName, 'The Kuma control plane''s mode whose view is computed: `zone` (the default) or `global`')
            [CompletionResult]::new('--kuma-zone', '--kuma-zone', [CompletionResultType]::ParameterName, 'The local zone of a Kuma zone control plane (default: the one zone of the input''s local Dataplanes, else `default`)')
            [CompletionResult]::new('--kuma-system-namespace', '--kuma-system-namespace', [CompletionResultType]::ParameterName, 'The Kuma control plane''s system namespace (default `kuma-system`): its policies have the `system` role')
            [CompletionResult]::new('--kuma-outbound', '--kuma-outbound', [CompletionResultType]::ParameterName, 'Also look up this Kuma destination (a MeshService, MeshMultiZoneService or MeshExternalService KRI) on every Dataplane of its mesh, as the proxy does: the key itself, else without its section, else the Mesh key. Repeatable')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours on stderr diagnostics (never in machine formats)')
            [CompletionResult]::new('--kind', '--kind', [CompletionResultType]::ParameterName, 'Only this policy kind, `Kind` or `Kind.group` (AuthPolicy, TrafficPolicy, BackendTrafficPolicy, SecurityPolicy, ...). Repeatable')
            [CompletionResult]::new('--gateway', '--gateway', [CompletionResultType]::ParameterName, 'Only paths through this Gateway (`name` or `ns/name`)')
            [CompletionResult]::new('--route', '--route', [CompletionResultType]::ParameterName, 'Only paths through this route (`name` or `ns/name`; `ns/name[Kind]` as path ids write a namesake of another kind)')
            [CompletionResult]::new('--policy', '--policy', [CompletionResultType]::ParameterName, 'Only what involves this policy (`name`, `ns/name`, `Kind/ns/name` or a locator)')
            [CompletionResult]::new('--mesh', '--mesh', [CompletionResultType]::ParameterName, 'Only the Kuma paths of this mesh')
            [CompletionResult]::new('--dataplane', '--dataplane', [CompletionResultType]::ParameterName, 'Only the Kuma paths of this Dataplane')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--no-config', '--no-config', [CompletionResultType]::ParameterName, 'Read no config file')
            [CompletionResult]::new('--assume-gateways', '--assume-gateways', [CompletionResultType]::ParameterName, 'Create a stand-in for every Gateway that routes reference but the input lacks')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print input statistics and info-level diagnostics')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print input statistics and info-level diagnostics')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only error diagnostics')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only error diagnostics')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'dopol;reach' {
            [CompletionResult]::new('--policy', '--policy', [CompletionResultType]::ParameterName, 'The policy, as with the other commands'' `--policy` (same as the positional argument)')
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'Manifest file, directory (recursive), glob pattern, or `-` for stdin. Repeatable, or comma-separated as kubectl reads it (`-f a.yaml,b.yaml`)')
            [CompletionResult]::new('--filename', '--filename', [CompletionResultType]::ParameterName, 'Manifest file, directory (recursive), glob pattern, or `-` for stdin. Repeatable, or comma-separated as kubectl reads it (`-f a.yaml,b.yaml`)')
            [CompletionResult]::new('--exclude', '--exclude', [CompletionResultType]::ParameterName, 'Leave paths matching this gitignore-style pattern out of directory walks and glob matches (`charts/`, `*.tmpl.yaml`, `/deploy/generated`), on top of .gitignore and .dopolignore; anchored at the working directory. Repeatable')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read settings from this config file instead of the `.dopol.yaml` found upward from the working directory')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace of objects without one (default `default`); also shows only paths whose route or Gateway (and policies) are in this namespace')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace of objects without one (default `default`); also shows only paths whose route or Gateway (and policies) are in this namespace')
            [CompletionResult]::new('--with', '--with', [CompletionResultType]::ParameterName, 'What if: add the manifests in this file or directory, replacing objects with the same identity. Repeatable')
            [CompletionResult]::new('--without', '--without', [CompletionResultType]::ParameterName, 'What if: remove this object (`Kind/namespace/name`, or `Kind/name` if cluster-scoped). Repeatable')
            [CompletionResult]::new('--families', '--families', [CompletionResultType]::ParameterName, 'A families file declaring policy kinds (group, kind, targets, rule layout, merge model). Repeatable. Without it, `.dopol/families.yaml` is read when it exists')
            [CompletionResult]::new('--crds', '--crds', [CompletionResultType]::ParameterName, 'Validate objects against the CRDs in this file or directory (`kubectl get crd -o yaml` output works) instead of the bundled ones, kind by kind; also gives the CRD of a kind declared with `--families`. Repeatable')
            [CompletionResult]::new('--gateway-api-channel', '--gateway-api-channel', [CompletionResultType]::ParameterName, 'The Gateway API CRD channel objects are validated against: `experimental` (the default, a superset) or `standard` (experimental fields are then unknown fields)')
            [CompletionResult]::new('--kgateway-policy-merge', '--kgateway-policy-merge', [CompletionResultType]::ParameterName, 'kgateway''s KGW_POLICY_MERGE setting, e.g. `{"trafficPolicy": {"extAuth": "DeepMerge", "acl": "ShallowMerge"}}`')
            [CompletionResult]::new('--kgateway-global-policy-namespace', '--kgateway-global-policy-namespace', [CompletionResultType]::ParameterName, 'kgateway''s KGW_GLOBAL_POLICY_NAMESPACE setting: targetSelectors of TrafficPolicies in this namespace select objects in every namespace')
            [CompletionResult]::new('--kuma-mode', '--kuma-mode', [CompletionResultType]::ParameterName, 'The Kuma control plane''s mode whose view is computed: `zone` (the default) or `global`')
            [CompletionResult]::new('--kuma-zone', '--kuma-zone', [CompletionResultType]::ParameterName, 'The local zone of a Kuma zone control plane (default: the one zone of the input''s local Dataplanes, else `default`)')
            [CompletionResult]::new('--kuma-system-namespace', '--kuma-system-namespace', [CompletionResultType]::ParameterName, 'The Kuma control plane''s system namespace (default `kuma-system`): its policies have the `system` role')
            [CompletionResult]::new('--kuma-outbound', '--kuma-outbound', [CompletionResultType]::ParameterName, 'Also look up this Kuma destination (a MeshService, MeshMultiZoneService or MeshExternalService KRI) on every Dataplane of its mesh, as the proxy does: the key itself, else without its section, else the Mesh key. Repeatable')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours on stderr diagnostics (never in machine formats)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--no-config', '--no-config', [CompletionResultType]::ParameterName, 'Read no config file')
            [CompletionResult]::new('--assume-gateways', '--assume-gateways', [CompletionResultType]::ParameterName, 'Create a stand-in for every Gateway that routes reference but the input lacks')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print input statistics and info-level diagnostics')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print input statistics and info-level diagnostics')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only error diagnostics')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only error diagnostics')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'dopol;explain' {
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'Manifest file, directory (recursive), glob pattern, or `-` for stdin. Repeatable, or comma-separated as kubectl reads it (`-f a.yaml,b.yaml`)')
            [CompletionResult]::new('--filename', '--filename', [CompletionResultType]::ParameterName, 'Manifest file, directory (recursive), glob pattern, or `-` for stdin. Repeatable, or comma-separated as kubectl reads it (`-f a.yaml,b.yaml`)')
            [CompletionResult]::new('--exclude', '--exclude', [CompletionResultType]::ParameterName, 'Leave paths matching this gitignore-style pattern out of directory walks and glob matches (`charts/`, `*.tmpl.yaml`, `/deploy/generated`), on top of .gitignore and .dopolignore; anchored at the working directory. Repeatable')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read settings from this config file instead of the `.dopol.yaml` found upward from the working directory')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace of objects without one (default `default`); also shows only paths whose route or Gateway (and policies) are in this namespace')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace of objects without one (default `default`); also shows only paths whose route or Gateway (and policies) are in this namespace')
            [CompletionResult]::new('--with', '--with', [CompletionResultType]::ParameterName, 'What if: add the manifests in this file or directory, replacing objects with the same identity. Repeatable')
            [CompletionResult]::new('--without', '--without', [CompletionResultType]::ParameterName, 'What if: remove this object (`Kind/namespace/name`, or `Kind/name` if cluster-scoped). Repeatable')
            [CompletionResult]::new('--families', '--families', [CompletionResultType]::ParameterName, 'A families file declaring policy kinds (group, kind, targets, rule layout, merge model). Repeatable. Without it, `.dopol/families.yaml` is read when it exists')
            [CompletionResult]::new('--crds', '--crds', [CompletionResultType]::ParameterName, 'Validate objects against the CRDs in this file or directory (`kubectl get crd -o yaml` output works) instead of the bundled ones, kind by kind; also gives the CRD of a kind declared with `--families`. Repeatable')
            [CompletionResult]::new('--gateway-api-channel', '--gateway-api-channel', [CompletionResultType]::ParameterName, 'The Gateway API CRD channel objects are validated against: `experimental` (the default, a superset) or `standard` (experimental fields are then unknown fields)')
            [CompletionResult]::new('--kgateway-policy-merge', '--kgateway-policy-merge', [CompletionResultType]::ParameterName, 'kgateway''s KGW_POLICY_MERGE setting, e.g. `{"trafficPolicy": {"extAuth": "DeepMerge", "acl": "ShallowMerge"}}`')
            [CompletionResult]::new('--kgateway-global-policy-namespace', '--kgateway-global-policy-namespace', [CompletionResultType]::ParameterName, 'kgateway''s KGW_GLOBAL_POLICY_NAMESPACE setting: targetSelectors of TrafficPolicies in this namespace select objects in every namespace')
            [CompletionResult]::new('--kuma-mode', '--kuma-mode', [CompletionResultType]::ParameterName, 'The Kuma control plane''s mode whose view is computed: `zone` (the default) or `global`')
            [CompletionResult]::new('--kuma-zone', '--kuma-zone', [CompletionResultType]::ParameterName, 'The local zone of a Kuma zone control plane (default: the one zone of the input''s local Dataplanes, else `default`)')
            [CompletionResult]::new('--kuma-system-namespace', '--kuma-system-namespace', [CompletionResultType]::ParameterName, 'The Kuma control plane''s system namespace (default `kuma-system`): its policies have the `system` role')
            [CompletionResult]::new('--kuma-outbound', '--kuma-outbound', [CompletionResultType]::ParameterName, 'Also look up this Kuma destination (a MeshService, MeshMultiZoneService or MeshExternalService KRI) on every Dataplane of its mesh, as the proxy does: the key itself, else without its section, else the Mesh key. Repeatable')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours on stderr diagnostics (never in machine formats)')
            [CompletionResult]::new('--path', '--path', [CompletionResultType]::ParameterName, 'The path id to explain')
            [CompletionResult]::new('--route', '--route', [CompletionResultType]::ParameterName, 'Explain the paths of this route (`name` or `ns/name`); with several, each is explained')
            [CompletionResult]::new('--rule', '--rule', [CompletionResultType]::ParameterName, 'Only this rule of the route (its name, or `rule-N`)')
            [CompletionResult]::new('--listener', '--listener', [CompletionResultType]::ParameterName, 'Only paths through this listener (`name`: the Gateway''s or a ListenerSet''s; `[ns/]gateway#name`; `[ns/]listenerset#name`; `[ns/]gateway>[ns/]listenerset#name`)')
            [CompletionResult]::new('--gateway', '--gateway', [CompletionResultType]::ParameterName, 'Only paths through this Gateway (`name` or `ns/name`), as with the other reports'' `--gateway`')
            [CompletionResult]::new('--kind', '--kind', [CompletionResultType]::ParameterName, 'Only this policy kind. Repeatable')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format (`table` prints the explanation as text)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format (`table` prints the explanation as text)')
            [CompletionResult]::new('--no-config', '--no-config', [CompletionResultType]::ParameterName, 'Read no config file')
            [CompletionResult]::new('--assume-gateways', '--assume-gateways', [CompletionResultType]::ParameterName, 'Create a stand-in for every Gateway that routes reference but the input lacks')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print input statistics and info-level diagnostics')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print input statistics and info-level diagnostics')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only error diagnostics')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only error diagnostics')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'dopol;topology' {
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'Manifest file, directory (recursive), glob pattern, or `-` for stdin. Repeatable, or comma-separated as kubectl reads it (`-f a.yaml,b.yaml`)')
            [CompletionResult]::new('--filename', '--filename', [CompletionResultType]::ParameterName, 'Manifest file, directory (recursive), glob pattern, or `-` for stdin. Repeatable, or comma-separated as kubectl reads it (`-f a.yaml,b.yaml`)')
            [CompletionResult]::new('--exclude', '--exclude', [CompletionResultType]::ParameterName, 'Leave paths matching this gitignore-style pattern out of directory walks and glob matches (`charts/`, `*.tmpl.yaml`, `/deploy/generated`), on top of .gitignore and .dopolignore; anchored at the working directory. Repeatable')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read settings from this config file instead of the `.dopol.yaml` found upward from the working directory')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace of objects without one (default `default`); also shows only paths whose route or Gateway (and policies) are in this namespace')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace of objects without one (default `default`); also shows only paths whose route or Gateway (and policies) are in this namespace')
            [CompletionResult]::new('--with', '--with', [CompletionResultType]::ParameterName, 'What if: add the manifests in this file or directory, replacing objects with the same identity. Repeatable')
            [CompletionResult]::new('--without', '--without', [CompletionResultType]::ParameterName, 'What if: remove this object (`Kind/namespace/name`, or `Kind/name` if cluster-scoped). Repeatable')
            [CompletionResult]::new('--families', '--families', [CompletionResultType]::ParameterName, 'A families file declaring policy kinds (group, kind, targets, rule layout, merge model). Repeatable. Without it, `.dopol/families.yaml` is read when it exists')
            [CompletionResult]::new('--crds', '--crds', [CompletionResultType]::ParameterName, 'Validate objects against the CRDs in this file or directory (`kubectl get crd -o yaml` output works) instead of the bundled ones, kind by kind; also gives the CRD of a kind declared with `--families`. Repeatable')
            [CompletionResult]::new('--gateway-api-channel', '--gateway-api-channel', [CompletionResultType]::ParameterName, 'The Gateway API CRD channel objects are validated against: `experimental` (the default, a superset) or `standard` (experimental fields are then unknown fields)')
            [CompletionResult]::new('--kgateway-policy-merge', '--kgateway-policy-merge', [CompletionResultType]::ParameterName, 'kgateway''s KGW_POLICY_MERGE setting, e.g. `{"trafficPolicy": {"extAuth": "DeepMerge", "acl": "ShallowMerge"}}`')
            [CompletionResult]::new('--kgateway-global-policy-namespace', '--kgateway-global-policy-namespace', [CompletionResultType]::ParameterName, 'kgateway''s KGW_GLOBAL_POLICY_NAMESPACE setting: targetSelectors of TrafficPolicies in this namespace select objects in every namespace')
            [CompletionResult]::new('--kuma-mode', '--kuma-mode', [CompletionResultType]::ParameterName, 'The Kuma control plane''s mode whose view is computed: `zone` (the default) or `global`')
            [CompletionResult]::new('--kuma-zone', '--kuma-zone', [CompletionResultType]::ParameterName, 'The local zone of a Kuma zone control plane (default: the one zone of the input''s local Dataplanes, else `default`)')
            [CompletionResult]::new('--kuma-system-namespace', '--kuma-system-namespace', [CompletionResultType]::ParameterName, 'The Kuma control plane''s system namespace (default `kuma-system`): its policies have the `system` role')
            [CompletionResult]::new('--kuma-outbound', '--kuma-outbound', [CompletionResultType]::ParameterName, 'Also look up this Kuma destination (a MeshService, MeshMultiZoneService or MeshExternalService KRI) on every Dataplane of its mesh, as the proxy does: the key itself, else without its section, else the Mesh key. Repeatable')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours on stderr diagnostics (never in machine formats)')
            [CompletionResult]::new('--gateway', '--gateway', [CompletionResultType]::ParameterName, 'Only this Gateway (`name` or `ns/name`), with what is attached to it')
            [CompletionResult]::new('--route', '--route', [CompletionResultType]::ParameterName, 'Only this route (`name` or `ns/name`), under the listeners that accepted it, and the routes it delegates to')
            [CompletionResult]::new('--mesh', '--mesh', [CompletionResultType]::ParameterName, 'Only the Kuma paths of this mesh')
            [CompletionResult]::new('--dataplane', '--dataplane', [CompletionResultType]::ParameterName, 'Only the Kuma paths of this Dataplane')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--no-config', '--no-config', [CompletionResultType]::ParameterName, 'Read no config file')
            [CompletionResult]::new('--assume-gateways', '--assume-gateways', [CompletionResultType]::ParameterName, 'Create a stand-in for every Gateway that routes reference but the input lacks')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print input statistics and info-level diagnostics')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print input statistics and info-level diagnostics')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only error diagnostics')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only error diagnostics')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'dopol;view' {
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'Manifest file, directory (recursive), glob pattern, or `-` for stdin. Repeatable, or comma-separated as kubectl reads it (`-f a.yaml,b.yaml`)')
            [CompletionResult]::new('--filename', '--filename', [CompletionResultType]::ParameterName, 'Manifest file, directory (recursive), glob pattern, or `-` for stdin. Repeatable, or comma-separated as kubectl reads it (`-f a.yaml,b.yaml`)')
            [CompletionResult]::new('--exclude', '--exclude', [CompletionResultType]::ParameterName, 'Leave paths matching this gitignore-style pattern out of directory walks and glob matches (`charts/`, `*.tmpl.yaml`, `/deploy/generated`), on top of .gitignore and .dopolignore; anchored at the working directory. Repeatable')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read settings from this config file instead of the `.dopol.yaml` found upward from the working directory')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace of objects without one (default `default`); also shows only paths whose route or Gateway (and policies) are in this namespace')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace of objects without one (default `default`); also shows only paths whose route or Gateway (and policies) are in this namespace')
            [CompletionResult]::new('--with', '--with', [CompletionResultType]::ParameterName, 'What if: add the manifests in this file or directory, replacing objects with the same identity. Repeatable')
            [CompletionResult]::new('--without', '--without', [CompletionResultType]::ParameterName, 'What if: remove this object (`Kind/namespace/name`, or `Kind/name` if cluster-scoped). Repeatable')
            [CompletionResult]::new('--families', '--families', [CompletionResultType]::ParameterName, 'A families file declaring policy kinds (group, kind, targets, rule layout, merge model). Repeatable. Without it, `.dopol/families.yaml` is read when it exists')
            [CompletionResult]::new('--crds', '--crds', [CompletionResultType]::ParameterName, 'Validate objects against the CRDs in this file or directory (`kubectl get crd -o yaml` output works) instead of the bundled ones, kind by kind; also gives the CRD of a kind declared with `--families`. Repeatable')
            [CompletionResult]::new('--gateway-api-channel', '--gateway-api-channel', [CompletionResultType]::ParameterName, 'The Gateway API CRD channel objects are validated against: `experimental` (the default, a superset) or `standard` (experimental fields are then unknown fields)')
            [CompletionResult]::new('--kgateway-policy-merge', '--kgateway-policy-merge', [CompletionResultType]::ParameterName, 'kgateway''s KGW_POLICY_MERGE setting, e.g. `{"trafficPolicy": {"extAuth": "DeepMerge", "acl": "ShallowMerge"}}`')
            [CompletionResult]::new('--kgateway-global-policy-namespace', '--kgateway-global-policy-namespace', [CompletionResultType]::ParameterName, 'kgateway''s KGW_GLOBAL_POLICY_NAMESPACE setting: targetSelectors of TrafficPolicies in this namespace select objects in every namespace')
            [CompletionResult]::new('--kuma-mode', '--kuma-mode', [CompletionResultType]::ParameterName, 'The Kuma control plane''s mode whose view is computed: `zone` (the default) or `global`')
            [CompletionResult]::new('--kuma-zone', '--kuma-zone', [CompletionResultType]::ParameterName, 'The local zone of a Kuma zone control plane (default: the one zone of the input''s local Dataplanes, else `default`)')
            [CompletionResult]::new('--kuma-system-namespace', '--kuma-system-namespace', [CompletionResultType]::ParameterName, 'The Kuma control plane''s system namespace (default `kuma-system`): its policies have the `system` role')
            [CompletionResult]::new('--kuma-outbound', '--kuma-outbound', [CompletionResultType]::ParameterName, 'Also look up this Kuma destination (a MeshService, MeshMultiZoneService or MeshExternalService KRI) on every Dataplane of its mesh, as the proxy does: the key itself, else without its section, else the Mesh key. Repeatable')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours on stderr diagnostics (never in machine formats)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'The HTML file to write (`-` for stdout)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'The HTML file to write (`-` for stdout)')
            [CompletionResult]::new('--no-config', '--no-config', [CompletionResultType]::ParameterName, 'Read no config file')
            [CompletionResult]::new('--assume-gateways', '--assume-gateways', [CompletionResultType]::ParameterName, 'Create a stand-in for every Gateway that routes reference but the input lacks')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print input statistics and info-level diagnostics')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print input statistics and info-level diagnostics')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only error diagnostics')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only error diagnostics')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'dopol;lint' {
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'Manifest file, directory (recursive), glob pattern, or `-` for stdin. Repeatable, or comma-separated as kubectl reads it (`-f a.yaml,b.yaml`)')
            [CompletionResult]::new('--filename', '--filename', [CompletionResultType]::ParameterName, 'Manifest file, directory (recursive), glob pattern, or `-` for stdin. Repeatable, or comma-separated as kubectl reads it (`-f a.yaml,b.yaml`)')
            [CompletionResult]::new('--exclude', '--exclude', [CompletionResultType]::ParameterName, 'Leave paths matching this gitignore-style pattern out of directory walks and glob matches (`charts/`, `*.tmpl.yaml`, `/deploy/generated`), on top of .gitignore and .dopolignore; anchored at the working directory. Repeatable')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read settings from this config file instead of the `.dopol.yaml` found upward from the working directory')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace of objects without one (default `default`); also shows only paths whose route or Gateway (and policies) are in this namespace')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace of objects without one (default `default`); also shows only paths whose route or Gateway (and policies) are in this namespace')
            [CompletionResult]::new('--with', '--with', [CompletionResultType]::ParameterName, 'What if: add the manifests in this file or directory, replacing objects with the same identity. Repeatable')
            [CompletionResult]::new('--without', '--without', [CompletionResultType]::ParameterName, 'What if: remove this object (`Kind/namespace/name`, or `Kind/name` if cluster-scoped). Repeatable')
            [CompletionResult]::new('--families', '--families', [CompletionResultType]::ParameterName, 'A families file declaring policy kinds (group, kind, targets, rule layout, merge model). Repeatable. Without it, `.dopol/families.yaml` is read when it exists')
            [CompletionResult]::new('--crds', '--crds', [CompletionResultType]::ParameterName, 'Validate objects against the CRDs in this file or directory (`kubectl get crd -o yaml` output works) instead of the bundled ones, kind by kind; also gives the CRD of a kind declared with `--families`. Repeatable')
            [CompletionResult]::new('--gateway-api-channel', '--gateway-api-channel', [CompletionResultType]::ParameterName, 'The Gateway API CRD channel objects are validated against: `experimental` (the default, a superset) or `standard` (experimental fields are then unknown fields)')
            [CompletionResult]::new('--kgateway-policy-merge', '--kgateway-policy-merge', [CompletionResultType]::ParameterName, 'kgateway''s KGW_POLICY_MERGE setting, e.g. `{"trafficPolicy": {"extAuth": "DeepMerge", "acl": "ShallowMerge"}}`')
            [CompletionResult]::new('--kgateway-global-policy-namespace', '--kgateway-global-policy-namespace', [CompletionResultType]::ParameterName, 'kgateway''s KGW_GLOBAL_POLICY_NAMESPACE setting: targetSelectors of TrafficPolicies in this namespace select objects in every namespace')
            [CompletionResult]::new('--kuma-mode', '--kuma-mode', [CompletionResultType]::ParameterName, 'The Kuma control plane''s mode whose view is computed: `zone` (the default) or `global`')
            [CompletionResult]::new('--kuma-zone', '--kuma-zone', [CompletionResultType]::ParameterName, 'The local zone of a Kuma zone control plane (default: the one zone of the input''s local Dataplanes, else `default`)')
            [CompletionResult]::new('--kuma-system-namespace', '--kuma-system-namespace', [CompletionResultType]::ParameterName, 'The Kuma control plane''s system namespace (default `kuma-system`): its policies have the `system` role')
            [CompletionResult]::new('--kuma-outbound', '--kuma-outbound', [CompletionResultType]::ParameterName, 'Also look up this Kuma destination (a MeshService, MeshMultiZoneService or MeshExternalService KRI) on every Dataplane of its mesh, as the proxy does: the key itself, else without its section, else the Mesh key. Repeatable')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours on stderr diagnostics (never in machine formats)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--fail-on', '--fail-on', [CompletionResultType]::ParameterName, 'Fail (exit 1) when a finding has at least this severity [default: error, or the config file''s `lint.fail-on`]')
            [CompletionResult]::new('--min-severity', '--min-severity', [CompletionResultType]::ParameterName, 'Print only findings with at least this severity [default: info, or the config file''s `lint.min-severity`]')
            [CompletionResult]::new('--ignore', '--ignore', [CompletionResultType]::ParameterName, 'Suppress a code (`DPL4004` or `ordered-by-name`) for the whole run, on top of the config file''s `lint.ignore`. Repeatable, or comma-separated')
            [CompletionResult]::new('--explain', '--explain', [CompletionResultType]::ParameterName, 'Print the documentation of one check and exit')
            [CompletionResult]::new('--no-config', '--no-config', [CompletionResultType]::ParameterName, 'Read no config file')
            [CompletionResult]::new('--assume-gateways', '--assume-gateways', [CompletionResultType]::ParameterName, 'Create a stand-in for every Gateway that routes reference but the input lacks')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print input statistics and info-level diagnostics')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print input statistics and info-level diagnostics')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only error diagnostics')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only error diagnostics')
            [CompletionResult]::new('--list', '--list', [CompletionResultType]::ParameterName, 'Print the catalogue of checks and exit')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'dopol;diff' {
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'Manifest file, directory (recursive), glob pattern, or `-` for stdin. Repeatable, or comma-separated as kubectl reads it (`-f a.yaml,b.yaml`)')
            [CompletionResult]::new('--filename', '--filename', [CompletionResultType]::ParameterName, 'Manifest file, directory (recursive), glob pattern, or `-` for stdin. Repeatable, or comma-separated as kubectl reads it (`-f a.yaml,b.yaml`)')
            [CompletionResult]::new('--exclude', '--exclude', [CompletionResultType]::ParameterName, 'Leave paths matching this gitignore-style pattern out of directory walks and glob matches (`charts/`, `*.tmpl.yaml`, `/deploy/generated`), on top of .gitignore and .dopolignore; anchored at the working directory. Repeatable')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read settings from this config file instead of the `.dopol.yaml` found upward from the working directory')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace of objects without one (default `default`); also shows only paths whose route or Gateway (and policies) are in this namespace')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace of objects without one (default `default`); also shows only paths whose route or Gateway (and policies) are in this namespace')
            [CompletionResult]::new('--with', '--with', [CompletionResultType]::ParameterName, 'What if: add the manifests in this file or directory, replacing objects with the same identity. Repeatable')
            [CompletionResult]::new('--without', '--without', [CompletionResultType]::ParameterName, 'What if: remove this object (`Kind/namespace/name`, or `Kind/name` if cluster-scoped). Repeatable')
            [CompletionResult]::new('--families', '--families', [CompletionResultType]::ParameterName, 'A families file declaring policy kinds (group, kind, targets, rule layout, merge model). Repeatable. Without it, `.dopol/families.yaml` is read when it exists')
            [CompletionResult]::new('--crds', '--crds', [CompletionResultType]::ParameterName, 'Validate objects against the CRDs in this file or directory (`kubectl get crd -o yaml` output works) instead of the bundled ones, kind by kind; also gives the CRD of a kind declared with `--families`. Repeatable')
            [CompletionResult]::new('--gateway-api-channel', '--gateway-api-channel', [CompletionResultType]::ParameterName, 'The Gateway API CRD channel objects are validated against: `experimental` (the default, a superset) or `standard` (experimental fields are then unknown fields)')
            [CompletionResult]::new('--kgateway-policy-merge', '--kgateway-policy-merge', [CompletionResultType]::ParameterName, 'kgateway''s KGW_POLICY_MERGE setting, e.g. `{"trafficPolicy": {"extAuth": "DeepMerge", "acl": "ShallowMerge"}}`')
            [CompletionResult]::new('--kgateway-global-policy-namespace', '--kgateway-global-policy-namespace', [CompletionResultType]::ParameterName, 'kgateway''s KGW_GLOBAL_POLICY_NAMESPACE setting: targetSelectors of TrafficPolicies in this namespace select objects in every namespace')
            [CompletionResult]::new('--kuma-mode', '--kuma-mode', [CompletionResultType]::ParameterName, 'The Kuma control plane''s mode whose view is computed: `zone` (the default) or `global`')
            [CompletionResult]::new('--kuma-zone', '--kuma-zone', [CompletionResultType]::ParameterName, 'The local zone of a Kuma zone control plane (default: the one zone of the input''s local Dataplanes, else `default`)')
            [CompletionResult]::new('--kuma-system-namespace', '--kuma-system-namespace', [CompletionResultType]::ParameterName, 'The Kuma control plane''s system namespace (default `kuma-system`): its policies have the `system` role')
            [CompletionResult]::new('--kuma-outbound', '--kuma-outbound', [CompletionResultType]::ParameterName, 'Also look up this Kuma destination (a MeshService, MeshMultiZoneService or MeshExternalService KRI) on every Dataplane of its mesh, as the proxy does: the key itself, else without its section, else the Mesh key. Repeatable')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours on stderr diagnostics (never in machine formats)')
            [CompletionResult]::new('--kind', '--kind', [CompletionResultType]::ParameterName, 'Only this policy kind, `Kind` or `Kind.group` (AuthPolicy, TrafficPolicy, BackendTrafficPolicy, SecurityPolicy, ...). Repeatable')
            [CompletionResult]::new('--gateway', '--gateway', [CompletionResultType]::ParameterName, 'Only paths through this Gateway (`name` or `ns/name`)')
            [CompletionResult]::new('--route', '--route', [CompletionResultType]::ParameterName, 'Only paths through this route (`name` or `ns/name`; `ns/name[Kind]` as path ids write a namesake of another kind)')
            [CompletionResult]::new('--policy', '--policy', [CompletionResultType]::ParameterName, 'Only what involves this policy (`name`, `ns/name`, `Kind/ns/name` or a locator)')
            [CompletionResult]::new('--mesh', '--mesh', [CompletionResultType]::ParameterName, 'Only the Kuma paths of this mesh')
            [CompletionResult]::new('--dataplane', '--dataplane', [CompletionResultType]::ParameterName, 'Only the Kuma paths of this Dataplane')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--no-config', '--no-config', [CompletionResultType]::ParameterName, 'Read no config file')
            [CompletionResult]::new('--assume-gateways', '--assume-gateways', [CompletionResultType]::ParameterName, 'Create a stand-in for every Gateway that routes reference but the input lacks')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print input statistics and info-level diagnostics')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print input statistics and info-level diagnostics')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only error diagnostics')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only error diagnostics')
            [CompletionResult]::new('--stat', '--stat', [CompletionResultType]::ParameterName, 'Print one line per path with the number of rules added, removed and changed (table format)')
            [CompletionResult]::new('--paths', '--paths', [CompletionResultType]::ParameterName, 'List every path''s changes, by Gateway, route and rule, instead of each distinct change once with where it happens (table format)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'dopol;request' {
            [CompletionResult]::new('-H', '-H ', [CompletionResultType]::ParameterName, 'A request header, `Name: value`. Repeatable; `Host` replaces the URL''s host')
            [CompletionResult]::new('--header', '--header', [CompletionResultType]::ParameterName, 'A request header, `Name: value`. Repeatable; `Host` replaces the URL''s host')
            [CompletionResult]::new('--attr', '--attr', [CompletionResultType]::ParameterName, 'A request attribute predicates and counters may read (`auth.identity.userid=bob`, `source.address=10.0.0.1`); VALUE is JSON when it parses as JSON. Repeatable')
            [CompletionResult]::new('--grpc', '--grpc', [CompletionResultType]::ParameterName, 'A gRPC call instead of METHOD URL: `SERVICE/METHOD`')
            [CompletionResult]::new('--authority', '--authority', [CompletionResultType]::ParameterName, 'The gRPC `:authority` (required with --grpc); PORT picks the listener')
            [CompletionResult]::new('--gateway', '--gateway', [CompletionResultType]::ParameterName, 'The Gateway that receives the request (`name` or `ns/name`), when several could')
            [CompletionResult]::new('--kind', '--kind', [CompletionResultType]::ParameterName, 'Only this policy kind in the policies section. Repeatable')
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'Manifest file, directory (recursive), glob pattern, or `-` for stdin. Repeatable, or comma-separated as kubectl reads it (`-f a.yaml,b.yaml`)')
            [CompletionResult]::new('--filename', '--filename', [CompletionResultType]::ParameterName, 'Manifest file, directory (recursive), glob pattern, or `-` for stdin. Repeatable, or comma-separated as kubectl reads it (`-f a.yaml,b.yaml`)')
            [CompletionResult]::new('--exclude', '--exclude', [CompletionResultType]::ParameterName, 'Leave paths matching this gitignore-style pattern out of directory walks and glob matches (`charts/`, `*.tmpl.yaml`, `/deploy/generated`), on top of .gitignore and .dopolignore; anchored at the working directory. Repeatable')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read settings from this config file instead of the `.dopol.yaml` found upward from the working directory')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace of objects without one (default `default`); also shows only paths whose route or Gateway (and policies) are in this namespace')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace of objects without one (default `default`); also shows only paths whose route or Gateway (and policies) are in this namespace')
            [CompletionResult]::new('--with', '--with', [CompletionResultType]::ParameterName, 'What if: add the manifests in this file or directory, replacing objects with the same identity. Repeatable')
            [CompletionResult]::new('--without', '--without', [CompletionResultType]::ParameterName, 'What if: remove this object (`Kind/namespace/name`, or `Kind/name` if cluster-scoped). Repeatable')
            [CompletionResult]::new('--families', '--families', [CompletionResultType]::ParameterName, 'A families file declaring policy kinds (group, kind, targets, rule layout, merge model). Repeatable. Without it, `.dopol/families.yaml` is read when it exists')
            [CompletionResult]::new('--crds', '--crds', [CompletionResultType]::ParameterName, 'Validate objects against the CRDs in this file or directory (`kubectl get crd -o yaml` output works) instead of the bundled ones, kind by kind; also gives the CRD of a kind declared with `--families`. Repeatable')
            [CompletionResult]::new('--gateway-api-channel', '--gateway-api-channel', [CompletionResultType]::ParameterName, 'The Gateway API CRD channel objects are validated against: `experimental` (the default, a superset) or `standard` (experimental fields are then unknown fields)')
            [CompletionResult]::new('--kgateway-policy-merge', '--kgateway-policy-merge', [CompletionResultType]::ParameterName, 'kgateway''s KGW_POLICY_MERGE setting, e.g. `{"trafficPolicy": {"extAuth": "DeepMerge", "acl": "ShallowMerge"}}`')
            [CompletionResult]::new('--kgateway-global-policy-namespace', '--kgateway-global-policy-namespace', [CompletionResultType]::ParameterName, 'kgateway''s KGW_GLOBAL_POLICY_NAMESPACE setting: targetSelectors of TrafficPolicies in this namespace select objects in every namespace')
            [CompletionResult]::new('--kuma-mode', '--kuma-mode', [CompletionResultType]::ParameterName, 'The Kuma control plane''s mode whose view is computed: `zone` (the default) or `global`')
            [CompletionResult]::new('--kuma-zone', '--kuma-zone', [CompletionResultType]::ParameterName, 'The local zone of a Kuma zone control plane (default: the one zone of the input''s local Dataplanes, else `default`)')
            [CompletionResult]::new('--kuma-system-namespace', '--kuma-system-namespace', [CompletionResultType]::ParameterName, 'The Kuma control plane''s system namespace (default `kuma-system`): its policies have the `system` role')
            [CompletionResult]::new('--kuma-outbound', '--kuma-outbound', [CompletionResultType]::ParameterName, 'Also look up this Kuma destination (a MeshService, MeshMultiZoneService or MeshExternalService KRI) on every Dataplane of its mesh, as the proxy does: the key itself, else without its section, else the Mesh key. Repeatable')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours on stderr diagnostics (never in machine formats)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--tls', '--tls', [CompletionResultType]::ParameterName, 'The gRPC call uses TLS (scheme https, default port 443)')
            [CompletionResult]::new('--no-config', '--no-config', [CompletionResultType]::ParameterName, 'Read no config file')
            [CompletionResult]::new('--assume-gateways', '--assume-gateways', [CompletionResultType]::ParameterName, 'Create a stand-in for every Gateway that routes reference but the input lacks')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print input statistics and info-level diagnostics')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print input statistics and info-level diagnostics')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only error diagnostics')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only error diagnostics')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'dopol;test' {
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'Manifest file, directory (recursive), glob pattern, or `-` for stdin. Repeatable, or comma-separated as kubectl reads it (`-f a.yaml,b.yaml`)')
            [CompletionResult]::new('--filename', '--filename', [CompletionResultType]::ParameterName, 'Manifest file, directory (recursive), glob pattern, or `-` for stdin. Repeatable, or comma-separated as kubectl reads it (`-f a.yaml,b.yaml`)')
            [CompletionResult]::new('--exclude', '--exclude', [CompletionResultType]::ParameterName, 'Leave paths matching this gitignore-style pattern out of directory walks and glob matches (`charts/`, `*.tmpl.yaml`, `/deploy/generated`), on top of .gitignore and .dopolignore; anchored at the working directory. Repeatable')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read settings from this config file instead of the `.dopol.yaml` found upward from the working directory')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace of objects without one (default `default`); also shows only paths whose route or Gateway (and policies) are in this namespace')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace of objects without one (default `default`); also shows only paths whose route or Gateway (and policies) are in this namespace')
            [CompletionResult]::new('--with', '--with', [CompletionResultType]::ParameterName, 'What if: add the manifests in this file or directory, replacing objects with the same identity. Repeatable')
            [CompletionResult]::new('--without', '--without', [CompletionResultType]::ParameterName, 'What if: remove this object (`Kind/namespace/name`, or `Kind/name` if cluster-scoped). Repeatable')
            [CompletionResult]::new('--families', '--families', [CompletionResultType]::ParameterName, 'A families file declaring policy kinds (group, kind, targets, rule layout, merge model). Repeatable. Without it, `.dopol/families.yaml` is read when it exists')
            [CompletionResult]::new('--crds', '--crds', [CompletionResultType]::ParameterName, 'Validate objects against the CRDs in this file or directory (`kubectl get crd -o yaml` output works) instead of the bundled ones, kind by kind; also gives the CRD of a kind declared with `--families`. Repeatable')
            [CompletionResult]::new('--gateway-api-channel', '--gateway-api-channel', [CompletionResultType]::ParameterName, 'The Gateway API CRD channel objects are validated against: `experimental` (the default, a superset) or `standard` (experimental fields are then unknown fields)')
            [CompletionResult]::new('--kgateway-policy-merge', '--kgateway-policy-merge', [CompletionResultType]::ParameterName, 'kgateway''s KGW_POLICY_MERGE setting, e.g. `{"trafficPolicy": {"extAuth": "DeepMerge", "acl": "ShallowMerge"}}`')
            [CompletionResult]::new('--kgateway-global-policy-namespace', '--kgateway-global-policy-namespace', [CompletionResultType]::ParameterName, 'kgateway''s KGW_GLOBAL_POLICY_NAMESPACE setting: targetSelectors of TrafficPolicies in this namespace select objects in every namespace')
            [CompletionResult]::new('--kuma-mode', '--kuma-mode', [CompletionResultType]::ParameterName, 'The Kuma control plane''s mode whose view is computed: `zone` (the default) or `global`')
            [CompletionResult]::new('--kuma-zone', '--kuma-zone', [CompletionResultType]::ParameterName, 'The local zone of a Kuma zone control plane (default: the one zone of the input''s local Dataplanes, else `default`)')
            [CompletionResult]::new('--kuma-system-namespace', '--kuma-system-namespace', [CompletionResultType]::ParameterName, 'The Kuma control plane''s system namespace (default `kuma-system`): its policies have the `system` role')
            [CompletionResult]::new('--kuma-outbound', '--kuma-outbound', [CompletionResultType]::ParameterName, 'Also look up this Kuma destination (a MeshService, MeshMultiZoneService or MeshExternalService KRI) on every Dataplane of its mesh, as the proxy does: the key itself, else without its section, else the Mesh key. Repeatable')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours on stderr diagnostics (never in machine formats)')
            [CompletionResult]::new('--run', '--run', [CompletionResultType]::ParameterName, 'Run only the cases whose name matches this regular expression')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--fail-under', '--fail-under', [CompletionResultType]::ParameterName, 'Fail (exit 1) when the share of paths some case selects is under PCT percent')
            [CompletionResult]::new('--against', '--against', [CompletionResultType]::ParameterName, 'The no-weakening gate: fail (exit 1) when a path is weaker than at this git revision (the -f paths read at REV, as `dopol diff git:REV` reads them)')
            [CompletionResult]::new('--no-config', '--no-config', [CompletionResultType]::ParameterName, 'Read no config file')
            [CompletionResult]::new('--assume-gateways', '--assume-gateways', [CompletionResultType]::ParameterName, 'Create a stand-in for every Gateway that routes reference but the input lacks')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print input statistics and info-level diagnostics')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print input statistics and info-level diagnostics')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only error diagnostics')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only error diagnostics')
            [CompletionResult]::new('--coverage', '--coverage', [CompletionResultType]::ParameterName, 'Report, per policy kind and per Gateway, the share of paths some case selects')
            [CompletionResult]::new('--show-untested', '--show-untested', [CompletionResultType]::ParameterName, 'With --coverage: list the paths no case selects')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'dopol;completions' {
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'dopol;man' {
            [CompletionResult]::new('--out-dir', '--out-dir', [CompletionResultType]::ParameterName, 'Write `dopol.1` and one `dopol-<command>.1` per command into this directory instead of printing the main page')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'dopol;help' {
            [CompletionResult]::new('effective', 'effective', [CompletionResultType]::ParameterValue, 'Show the effective policy of every path, with the source of every rule')
            [CompletionResult]::new('overridden', 'overridden', [CompletionResultType]::ParameterValue, 'Show the rules that lost somewhere (superseded, overridden, deactivated, not applied), where, and to whom')
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'Show the status conditions each policy''s controller would write (Kuadrant''s Accepted and Enforced, kgateway''s, Envoy Gateway''s and agentgateway''s per Gateway, Kuma''s Accepted and Enforced) and every rule''s outcomes')
            [CompletionResult]::new('reach', 'reach', [CompletionResultType]::ParameterValue, 'Show where a policy (or one of its rules) is effective, and where it lost')
            [CompletionResult]::new('explain', 'explain', [CompletionResultType]::ParameterValue, 'Explain one path''s effective policy step by step')
            [CompletionResult]::new('topology', 'topology', [CompletionResultType]::ParameterValue, 'Show the Gateway → listener → route → rule tree with the policies attached to each node')
            [CompletionResult]::new('view', 'view', [CompletionResultType]::ParameterValue, 'Write one self-contained HTML page: the graph of every hierarchy with its policies, and the effective-policy stack of each path (who won each rule, and why)')
            [CompletionResult]::new('lint', 'lint', [CompletionResultType]::ParameterValue, 'Check the manifests and report every problem with a stable code (for CI and pre-commit)')
            [CompletionResult]::new('diff', 'diff', [CompletionResultType]::ParameterValue, 'Compare the effective policy of every path between two revisions, or with a what-if')
            [CompletionResult]::new('request', 'request', [CompletionResultType]::ParameterValue, 'Simulate one request: which route rule it reaches, and which policy rules apply to it')
            [CompletionResult]::new('test', 'test', [CompletionResultType]::ParameterValue, 'Run policy test suites (`*.dopoltest.yaml`): expectations on the effective policy of paths and on requests, coverage, and a no-weakening gate against a git revision')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script')
            [CompletionResult]::new('man', 'man', [CompletionResultType]::ParameterValue, 'Print dopol''s man pages (or write one page per command into a directory)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'dopol;help;effective' {
            break
        }
        'dopol;help;overridden' {
            break
        }
        'dopol;help;status' {
            break
        }
        'dopol;help;reach' {
            break
        }
        'dopol;help;explain' {
            break
        }
        'dopol;help;topology' {
            break
        }
        'dopol;help;view' {
            break
        }
        'dopol;help;lint' {
            break
        }
        'dopol;help;diff' {
            break
        }
        'dopol;help;request' {
            break
        }
        'dopol;help;test' {
            break
        }
        'dopol;help;completions' {
            break
        }
        'dopol;help;man' {
            break
        }
        'dopol;help;help' {
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
