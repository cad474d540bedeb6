
use builtin;
use str;

set edit:completion:arg-completer[dopol] = {|@words|
    fn spaces {|n|
        builtin:repeat $n ' ' | str:join ''
    }
    fn cand {|text desc|
        edit:complex-candidate $text &display=$text' '(spaces (- 14 (wcswidth $text)))$desc
    }
    var command = 'dopol'
    for word $words[1..-1] {
        if (str:has-prefix $word '-') {
            break
        }
        set command = $command';'$word
    }
    var completions = [
        &'dopol'= {
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand effective 'Show the effective policy of every path, with the source of every rule'
            cand overridden 'Show the rules that lost somewhere (superseded, overridden, deactivated, not applied), where, and to whom'
            cand status 'Show the status conditions the Kuadrant operator would write (Accepted, Enforced) and every rule''s outcomes'
            cand reach 'Show where a policy (or one of its rules) is effective, and where it lost'
            cand explain 'Explain one path''s effective policy step by step'
            cand topology 'Show the Gateway → listener → route → rule tree with the policies attached to each node'
            cand lint 'Check the manifests and report every problem with a stable code (for CI and pre-commit)'
            cand diff 'Compare the effective policy of every path between two revisions, or with a what-if'
            cand request 'Simulate one request: which route rule it reaches, and which policy rules apply to it'
            cand completions 'Print a shell completion script'
            cand man 'Print dopol''s man pages (or write one page per command into a directory)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'dopol;effective'= {
            cand -f 'Manifest file, directory (recursive), glob pattern, or `-` for stdin. Repeatable'
            cand --filename 'Manifest file, directory (recursive), glob pattern, or `-` for stdin. Repeatable'
            cand -n 'Namespace of objects without one (default `default`); also shows only paths whose route or Gateway (and policies) are in this namespace'
            cand --namespace 'Namespace of objects without one (default `default`); also shows only paths whose route or Gateway (and policies) are in this namespace'
            cand --with 'What if: add the manifests in this file or directory, replacing objects with the same identity. Repeatable'
            cand --without 'What if: remove this object (`Kind/namespace/name`, or `Kind/name` if cluster-scoped). Repeatable'
            cand --families 'A families file declaring policy kinds (group, kind, targets, rule layout, merge model). Repeatable. Without it, `.dopol/families.yaml` is read when it exists'
            cand --crds 'Validate objects against the CRDs in this file or directory (`kubectl get crd -o yaml` output works) instead of the bundled ones, kind by kind; also gives the CRD of a kind declared with `--families`. Repeatable'
            cand --gateway-api-channel 'The Gateway API CRD channel objects are validated against: `experimental` (the default, a superset) or `standard` (experimental fields are then unknown fields)'
            cand --kgateway-policy-merge 'kgateway''s KGW_POLICY_MERGE setting, e.g. `{"trafficPolicy": {"extAuth": "DeepMerge", "acl": "ShallowMerge"}}`'
            cand --kgateway-global-policy-namespace 'kgateway''s KGW_GLOBAL_POLICY_NAMESPACE setting: targetSelectors of TrafficPolicies in this namespace select objects in every namespace'
            cand --color 'When to use colours on stderr diagnostics (never in machine formats)'
            cand --kind 'Only this policy kind, `Kind` or `Kind.group` (AuthPolicy, TrafficPolicy, BackendTrafficPolicy, SecurityPolicy, ...). Repeatable'
            cand --gateway 'Only paths through this Gateway (`name` or `ns/name`)'
            cand --route 'Only paths through this route (`name` or `ns/name`)'
            cand --policy 'Only what involves this policy (`ns/name`, `Kind/ns/name` or a locator)'
            cand -o 'Output format'
            cand --output 'Output format'
            cand --assume-gateways 'Create a stand-in for every Gateway that routes reference but the input lacks'
            cand -v 'Print input statistics and info-level diagnostics'
            cand --verbose 'Print input statistics and info-level diagnostics'
            cand -q 'Print only error diagnostics'
            cand --quiet 'Print only error diagnostics'
            cand --compact 'With `-o json`: print each distinct effective policy once and map every path id to the ids of its policies (`kind: EffectivePolicyIndex`; `jq ''.paths["<pathId>"]''`)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'dopol;overridden'= {
            cand -f 'Manifest file, directory (recursive), glob pattern, or `-` for stdin. Repeatable'
            cand --filename 'Manifest file, directory (recursive), glob pattern, or `-` for stdin. Repeatable'
            cand -n 'Namespace of objects without one (default `default`); also shows only paths whose route or Gateway (and policies) are in this namespace'
            cand --namespace 'Namespace of objects without one (default `default`); also shows only paths whose route or Gateway (and policies) are in this namespace'
            cand --with 'What if: add the manifests in this file or directory, replacing objects with the same identity. Repeatable'
            cand --without 'What if: remove this object (`Kind/namespace/name`, or `Kind/name` if cluster-scoped). Repeatable'
            cand --families 'A families file declaring policy kinds (group, kind, targets, rule layout, merge model). Repeatable. Without it, `.dopol/families.yaml` is read when it exists'
            cand --crds 'Validate objects against the CRDs in this file or directory (`kubectl get crd -o yaml` output works) instead of the bundled ones, kind by kind; also gives the CRD of a kind declared with `--families`. Repeatable'
            cand --gateway-api-channel 'The Gateway API CRD channel objects are validated against: `experimental` (the default, a superset) or `standard` (experimental fields are then unknown fields)'
            cand --kgateway-policy-merge 'kgateway''s KGW_POLICY_MERGE setting, e.g. `{"trafficPolicy": {"extAuth": "DeepMerge", "acl": "ShallowMerge"}}`'
            cand --kgateway-global-policy-namespace 'kgateway''s KGW_GLOBAL_POLICY_NAMESPACE setting: targetSelectors of TrafficPolicies in this namespace select objects in every namespace'
            cand --color 'When to use colours on stderr diagnostics (never in machine formats)'
            cand --kind 'Only this policy kind, `Kind` or `Kind.group` (AuthPolicy, TrafficPolicy, BackendTrafficPolicy, SecurityPolicy, ...). Repeatable'
            cand --gateway 'Only paths through this Gateway (`name` or `ns/name`)'
            cand --route 'Only paths through this route (`name` or `ns/name`)'
            cand --policy 'Only what involves this policy (`ns/name`, `Kind/ns/name` or a locator)'
            cand -o 'Output format'
            cand --output 'Output format'
            cand --assume-gateways 'Create a stand-in for every Gateway that routes reference but the input lacks'
            cand -v 'Print input statistics and info-level diagnostics'
            cand --verbose 'Print input statistics and info-level diagnostics'
            cand -q 'Print only error diagnostics'
            cand --quiet 'Print only error diagnostics'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'dopol;status'= {
            cand -f 'Manifest file, directory (recursive), glob pattern, or `-` for stdin. Repeatable'
            cand --filename 'Manifest file, directory (recursive), glob pattern, or `-` for stdin. Repeatable'
            cand -n 'Namespace of objects without one (default `default`); also shows only paths whose route or Gateway (and policies) are in this namespace'
            cand --namespace 'Namespace of objects without one (default `default`); also shows only paths whose route or Gateway (and policies) are in this namespace'
            cand --with 'What if: add the manifests in this file or directory, replacing objects with the same identity. Repeatable'
            cand --without 'What if: remove this object (`Kind/namespace/name`, or `Kind/name` if cluster-scoped). Repeatable'
            cand --families 'A families file declaring policy kinds (group, kind, targets, rule layout, merge model). Repeatable. Without it, `.dopol/families.yaml` is read when it exists'
            cand --crds 'Validate objects against the CRDs in this file or directory (`kubectl get crd -o yaml` output works) instead of the bundled ones, kind by kind; also gives the CRD of a kind declared with `--families`. Repeatable'
            cand --gateway-api-channel 'The Gateway API CRD channel objects are validated against: `experimental` (the default, a superset) or `standard` (experimental fields are then unknown fields)'
            cand --kgateway-policy-merge 'kgateway''s KGW_POLICY_MERGE setting, e.g. `{"trafficPolicy": {"extAuth": "DeepMerge", "acl": "ShallowMerge"}}`'
            cand --kgateway-global-policy-namespace 'kgateway''s KGW_GLOBAL_POLICY_NAMESPACE setting: targetSelectors of TrafficPolicies in this namespace select objects in every namespace'
            cand --color 'When to use colours on stderr diagnostics (never in machine formats)'
            cand --kind 'Only this policy kind, `Kind` or `Kind.group` (AuthPolicy, TrafficPolicy, BackendTrafficPolicy, SecurityPolicy, ...). Repeatable'
            cand --gateway 'Only paths through this Gateway (`name` or `ns/name`)'
            cand --route 'Only paths through this route (`name` or `ns/name`)'
            cand --policy 'Only what involves this policy (`ns/name`, `Kind/ns/name` or a locator)'
            cand -o 'Output format'
            cand --output 'Output format'
            cand --assume-gateways 'Create a stand-in for every Gateway that routes reference but the input lacks'
            cand -v 'Print input statistics and info-level diagnostics'
            cand --verbose 'Print input statistics and info-level diagnostics'
            cand -q 'Print only error diagnostics'
            cand --quiet 'Print only error diagnostics'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'dopol;reach'= {
            cand --policy 'The policy, as with the other commands'' `--policy` (same as the positional argument)'
            cand -f 'Manifest file, directory (recursive), glob pattern, or `-` for stdin. Repeatable'
            cand --filename 'Manifest file, directory (recursive), glob pattern, or `-` for stdin. Repeatable'
            cand -n 'Namespace of objects without one (default `default`); also shows only paths whose route or Gateway (and policies) are in this namespace'
            cand --namespace 'Namespace of objects without one (default `default`); also shows only paths whose route or Gateway (and policies) are in this namespace'
            cand --with 'What if: add the manifests in this file or directory, replacing objects with the same identity. Repeatable'
            cand --without 'What if: remove this object (`Kind/namespace/name`, or `Kind/name` if cluster-scoped). Repeatable'
            cand --families 'A families file declaring policy kinds (group, kind, targets, rule layout, merge model). Repeatable. Without it, `.dopol/families.yaml` is read when it exists'
            cand --crds 'Validate objects against the CRDs in this file or directory (`kubectl get crd -o yaml` output works) instead of the bundled ones, kind by kind; also gives the CRD of a kind declared with `--families`. Repeatable'
            cand --gateway-api-channel 'The Gateway API CRD channel objects are validated against: `experimental` (the default, a superset) or `standard` (experimental fields are then unknown fields)'
            cand --kgateway-policy-merge 'kgateway''s KGW_POLICY_MERGE setting, e.g. `{"trafficPolicy": {"extAuth": "DeepMerge", "acl": "ShallowMerge"}}`'
            cand --kgateway-global-policy-namespace 'kgateway''s KGW_GLOBAL_POLICY_NAMESPACE setting: targetSelectors of TrafficPolicies in this namespace select objects in every namespace'
            cand --color 'When to use colours on stderr diagnostics (never in machine formats)'
            cand -o 'Output format'
            cand --output 'Output format'
            cand --assume-gateways 'Create a stand-in for every Gateway that routes reference but the input lacks'
            cand -v 'Print input statistics and info-level diagnostics'
            cand --verbose 'Print input statistics and info-level diagnostics'
            cand -q 'Print only error diagnostics'
            cand --quiet 'Print only error diagnostics'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'dopol;explain'= {
            cand -f 'Manifest file, directory (recursive), glob pattern, or `-` for stdin. Repeatable'
            cand --filename 'Manifest file, directory (recursive), glob pattern, or `-` for stdin. Repeatable'
            cand -n 'Namespace of objects without one (default `default`); also shows only paths whose route or Gateway (and policies) are in this namespace'
            cand --namespace 'Namespace of objects without one (default `default`); also shows only paths whose route or Gateway (and policies) are in this namespace'
            cand --with 'What if: add the manifests in this file or directory, replacing objects with the same identity. Repeatable'
            cand --without 'What if: remove this object (`Kind/namespace/name`, or `Kind/name` if cluster-scoped). Repeatable'
            cand --families 'A families file declaring policy kinds (group, kind, targets, rule layout, merge model). Repeatable. Without it, `.dopol/families.yaml` is read when it exists'
            cand --crds 'Validate objects against the CRDs in this file or directory (`kubectl get crd -o yaml` output works) instead of the bundled ones, kind by kind; also gives the CRD of a kind declared with `--families`. Repeatable'
            cand --gateway-api-channel 'The Gateway API CRD channel objects are validated against: `experimental` (the default, a superset) or `standard` (experimental fields are then unknown fields)'
            cand --kgateway-policy-merge 'kgateway''s KGW_POLICY_MERGE setting, e.g. `{"trafficPolicy": {"extAuth": "DeepMerge", "acl": "ShallowMerge"}}`'
            cand --kgateway-global-policy-namespace 'kgateway''s KGW_GLOBAL_POLICY_NAMESPACE setting: targetSelectors of TrafficPolicies in this namespace select objects in every namespace'
            cand --color 'When to use colours on stderr diagnostics (never in machine formats)'
            cand --path 'The path id to explain'
            cand --route 'Explain the paths of this route (`name` or `ns/name`); with several, each is explained'
            cand --rule 'Only this rule of the route (its name, or `rule-N`)'
            cand --listener 'Only paths through this listener (`name`, or `[ns/]gateway#name`)'
            cand --kind 'Only this policy kind. Repeatable'
            cand -o 'Output format (`table` prints the explanation as text)'
            cand --output 'Output format (`table` prints the explanation as text)'
            cand --assume-gateways 'Create a stand-in for every Gateway that routes reference but the input lacks'
            cand -v 'Print input statistics and info-level diagnostics'
            cand --verbose 'Print input statistics and info-level diagnostics'
            cand -q 'Print only error diagnostics'
            cand --quiet 'Print only error diagnostics'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'dopol;topology'= {
            cand -f 'Manifest file, directory (recursive), glob pattern, or `-` for stdin. Repeatable'
            cand --filename 'Manifest file, directory (recursive), glob pattern, or `-` for stdin. Repeatable'
            cand -n 'Namespace of objects without one (default `default`); also shows only paths whose route or Gateway (and policies) are in this namespace'
            cand --namespace 'Namespace of objects without one (default `default`); also shows only paths whose route or Gateway (and policies) are in this namespace'
            cand --with 'What if: add the manifests in this file or directory, replacing objects with the same identity. Repeatable'
            cand --without 'What if: remove this object (`Kind/namespace/name`, or `Kind/name` if cluster-scoped). Repeatable'
            cand --families 'A families file declaring policy kinds (group, kind, targets, rule layout, merge model). Repeatable. Without it, `.dopol/families.yaml` is read when it exists'
            cand --crds 'Validate objects against the CRDs in this file or directory (`kubectl get crd -o yaml` output works) instead of the bundled ones, kind by kind; also gives the CRD of a kind declared with `--families`. Repeatable'
            cand --gateway-api-channel 'The Gateway API CRD channel objects are validated against: `experimental` (the default, a superset) or `standard` (experimental fields are then unknown fields)'
            cand --kgateway-policy-merge 'kgateway''s KGW_POLICY_MERGE setting, e.g. `{"trafficPolicy": {"extAuth": "DeepMerge", "acl": "ShallowMerge"}}`'
            cand --kgateway-global-policy-namespace 'kgateway''s KGW_GLOBAL_POLICY_NAMESPACE setting: targetSelectors of TrafficPolicies in this namespace select objects in every namespace'
            cand --color 'When to use colours on stderr diagnostics (never in machine formats)'
            cand -o 'Output format'
            cand --output 'Output format'
            cand --assume-gateways 'Create a stand-in for every Gateway that routes reference but the input lacks'
            cand -v 'Print input statistics and info-level diagnostics'
            cand --verbose 'Print input statistics and info-level diagnostics'
            cand -q 'Print only error diagnostics'
            cand --quiet 'Print only error diagnostics'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'dopol;lint'= {
            cand -f 'Manifest file, directory (recursive), glob pattern, or `-` for stdin. Repeatable'
            cand --filename 'Manifest file, directory (recursive), glob pattern, or `-` for stdin. Repeatable'
            cand -n 'Namespace of objects without one (default `default`); also shows only paths whose route or Gateway (and policies) are in this namespace'
            cand --namespace 'Namespace of objects without one (default `default`); also shows only paths whose route or Gateway (and policies) are in this namespace'
            cand --with 'What if: add the manifests in this file or directory, replacing objects with the same identity. Repeatable'
            cand --without 'What if: remove this object (`Kind/namespace/name`, or `Kind/name` if cluster-scoped). Repeatable'
            cand --families 'A families file declaring policy kinds (group, kind, targets, rule layout, merge model). Repeatable. Without it, `.dopol/families.yaml` is read when it exists'
            cand --crds 'Validate objects against the CRDs in this file or directory (`kubectl get crd -o yaml` output works) instead of the bundled ones, kind by kind; also gives the CRD of a kind declared with `--families`. Repeatable'
            cand --gateway-api-channel 'The Gateway API CRD channel objects are validated against: `experimental` (the default, a superset) or `standard` (experimental fields are then unknown fields)'
            cand --kgateway-policy-merge 'kgateway''s KGW_POLICY_MERGE setting, e.g. `{"trafficPolicy": {"extAuth": "DeepMerge", "acl": "ShallowMerge"}}`'
            cand --kgateway-global-policy-namespace 'kgateway''s KGW_GLOBAL_POLICY_NAMESPACE setting: targetSelectors of TrafficPolicies in this namespace select objects in every namespace'
            cand --color 'When to use colours on stderr diagnostics (never in machine formats)'
            cand -o 'Output format'
            cand --output 'Output format'
            cand --fail-on 'Fail (exit 1) when a finding has at least this severity'
            cand --min-severity 'Print only findings with at least this severity'
            cand --ignore 'Suppress a code (`DPL4004` or `ordered-by-name`) for the whole run. Repeatable, or comma-separated'
            cand --explain 'Print the documentation of one check and exit'
            cand --assume-gateways 'Create a stand-in for every Gateway that routes reference but the input lacks'
            cand -v 'Print input statistics and info-level diagnostics'
            cand --verbose 'Print input statistics and info-level diagnostics'
            cand -q 'Print only error diagnostics'
            cand --quiet 'Print only error diagnostics'
            cand --list 'Print the catalogue of checks and exit'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'dopol;diff'= {
            cand -f 'Manifest file, directory (recursive), glob pattern, or `-` for stdin. Repeatable'
            cand --filename 'Manifest file, directory (recursive), glob pattern, or `-` for stdin. Repeatable'
            cand -n 'Namespace of objects without one (default `default`); also shows only paths whose route or Gateway (and policies) are in this namespace'
            cand --namespace 'Namespace of objects without one (default `default`); also shows only paths whose route or Gateway (and policies) are in this namespace'
            cand --with 'What if: add the manifests in this file or directory, replacing objects with the same identity. Repeatable'
            cand --without 'What if: remove this object (`Kind/namespace/name`, or `Kind/name` if cluster-scoped). Repeatable'
            cand --families 'A families file declaring policy kinds (group, kind, targets, rule layout, merge model). Repeatable. Without it, `.dopol/families.yaml` is read when it exists'
            cand --crds 'Validate objects against the CRDs in this file or directory (`kubectl get crd -o yaml` output works) instead of the bundled ones, kind by kind; also gives the CRD of a kind declared with `--families`. Repeatable'
            cand --gateway-api-channel 'The Gateway API CRD channel objects are validated against: `experimental` (the default, a superset) or `standard` (experimental fields are then unknown fields)'
            cand --kgateway-policy-merge 'kgateway''s KGW_POLICY_MERGE setting, e.g. `{"trafficPolicy": {"extAuth": "DeepMerge", "acl": "ShallowMerge"}}`'
            cand --kgateway-global-policy-namespace 'kgateway''s KGW_GLOBAL_POLICY_NAMESPACE setting: targetSelectors of TrafficPolicies in this namespace select objects in every namespace'
            cand --color 'When to use colours on stderr diagnostics (never in machine formats)'
            cand --kind 'Only this policy kind, `Kind` or `Kind.group` (AuthPolicy, TrafficPolicy, BackendTrafficPolicy, SecurityPolicy, ...). Repeatable'
            cand --gateway 'Only paths through this Gateway (`name` or `ns/name`)'
            cand --route 'Only paths through this route (`name` or `ns/name`)'
            cand --policy 'Only what involves this policy (`ns/name`, `Kind/ns/name` or a locator)'
            cand -o 'Output format'
            cand --output 'Output format'
            cand --assume-gateways 'Create a stand-in for every Gateway that routes reference but the input lacks'
            cand -v 'Print input statistics and info-level diagnostics'
            cand --verbose 'Print input statistics and info-level diagnostics'
            cand -q 'Print only error diagnostics'
            cand --quiet 'Print only error diagnostics'
            cand --stat 'Print one line per path with the number of rules added, removed and changed (table format)'
            cand --paths 'List every path''s changes, by Gateway, route and rule, instead of each distinct change once with where it happens (table format)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'dopol;request'= {
            cand -H 'A request header, `Name: value`. Repeatable; `Host` replaces the URL''s host'
            cand --header 'A request header, `Name: value`. Repeatable; `Host` replaces the URL''s host'
            cand --attr 'A request attribute predicates and counters may read (`auth.identity.userid=bob`, `source.address=10.0.0.1`); VALUE is JSON when it parses as JSON. Repeatable'
            cand --grpc 'A gRPC call instead of METHOD URL: `SERVICE/METHOD`'
            cand --authority 'The gRPC `:authority` (required with --grpc); PORT picks the listener'
            cand --gateway 'The Gateway that receives the request (`name` or `ns/name`), when several could'
            cand --kind 'Only this policy kind in the policies section. Repeatable'
            cand -f 'Manifest file, directory (recursive), glob pattern, or `-` for stdin. Repeatable'
            cand --filename 'Manifest file, directory (recursive), glob pattern, or `-` for stdin. Repeatable'
            cand -n 'Namespace of objects without one (default `default`); also shows only paths whose route or Gateway (and policies) are in this namespace'
            cand --namespace 'Namespace of objects without one (default `default`); also shows only paths whose route or Gateway (and policies) are in this namespace'
            cand --with 'What if: add the manifests in this file or directory, replacing objects with the same identity. Repeatable'
            cand --without 'What if: remove this object (`Kind/namespace/name`, or `Kind/name` if cluster-scoped). Repeatable'
            cand --families 'A families file declaring policy kinds (group, kind, targets, rule layout, merge model). Repeatable. Without it, `.dopol/families.yaml` is read when it exists'
            cand --crds 'Validate objects against the CRDs in this file or directory (`kubectl get crd -o yaml` output works) instead of the bundled ones, kind by kind; also gives the CRD of a kind declared with `--families`. Repeatable'
            cand --gateway-api-channel 'The Gateway API CRD channel objects are validated against: `experimental` (the default, a superset) or `standard` (experimental fields are then unknown fields)'
            cand --kgateway-policy-merge 'kgateway''s KGW_POLICY_MERGE setting, e.g. `{"trafficPolicy": {"extAuth": "DeepMerge", "acl": "ShallowMerge"}}`'
            cand --kgateway-global-policy-namespace 'kgateway''s KGW_GLOBAL_POLICY_NAMESPACE setting: targetSelectors of TrafficPolicies in this namespace select objects in every namespace'
            cand --color 'When to use colours on stderr diagnostics (never in machine formats)'
            cand -o 'Output format'
            cand --output 'Output format'
            cand --tls 'The gRPC call uses TLS (scheme https, default port 443)'
            cand --assume-gateways 'Create a stand-in for every Gateway that routes reference but the input lacks'
            cand -v 'Print input statistics and info-level diagnostics'
            cand --verbose 'Print input statistics and info-level diagnostics'
            cand -q 'Print only error diagnostics'
            cand --quiet 'Print only error diagnostics'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'dopol;completions'= {
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'dopol;man'= {
            cand --out-dir 'Write `dopol.1` and one `dopol-<command>.1` per command into this directory instead of printing the main page'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'dopol;help'= {
            cand effective 'Show the effective policy of every path, with the source of every rule'
            cand overridden 'Show the rules that lost somewhere (superseded, overridden, deactivated, not applied), where, and to whom'
            cand status 'Show the status conditions the Kuadrant operator would write (Accepted, Enforced) and every rule''s outcomes'
            cand reach 'Show where a policy (or one of its rules) is effective, and where it lost'
            cand explain 'Explain one path''s effective policy step by step'
            cand topology 'Show the Gateway → listener → route → rule tree with the policies attached to each node'
            cand lint 'Check the manifests and report every problem with a stable code (for CI and pre-commit)'
            cand diff 'Compare the effective policy of every path between two revisions, or with a what-if'
            cand request 'Simulate one request: which route rule it reaches, and which policy rules apply to it'
            cand completions 'Print a shell completion script'
            cand man 'Print dopol''s man pages (or write one page per command into a directory)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'dopol;help;effective'= {
        }
        &'dopol;help;overridden'= {
        }
        &'dopol;help;status'= {
        }
        &'dopol;help;reach'= {
        }
        &'dopol;help;explain'= {
        }
        &'dopol;help;topology'= {
        }
        &'dopol;help;lint'= {
        }
        &'dopol;help;diff'= {
        }
        &'dopol;help;request'= {
        }
        &'dopol;help;completions'= {
        }
        &'dopol;help;man'= {
        }
        &'dopol;help;help'= {
        }
    ]
    $completions[$command]
}
