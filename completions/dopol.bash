_dopol() {
    local i cur prev opts cmd
    COMPREPLY=()
    if [[ "${BASH_VERSINFO[0]}" -ge 4 ]]; then
        cur="$2"
    else
        cur="${COMP_WORDS[COMP_CWORD]}"
    fi
    prev="$3"
    cmd=""
    opts=""

    for i in "${COMP_WORDS[@]:0:COMP_CWORD}"
    do
        case "${cmd},${i}" in
            ",$1")
                cmd="dopol"
                ;;
            dopol,completions)
                cmd="dopol__subcmd__completions"
                ;;
            dopol,diff)
                cmd="dopol__subcmd__diff"
                ;;
            dopol,effective)
                cmd="dopol__subcmd__effective"
                ;;
            dopol,explain)
                cmd="dopol__subcmd__explain"
                ;;
            dopol,help)
                cmd="dopol__subcmd__help"
                ;;
            dopol,lint)
                cmd="dopol__subcmd__lint"
                ;;
            dopol,man)
                cmd="dopol__subcmd__man"
                ;;
            dopol,overridden)
                cmd="dopol__subcmd__overridden"
                ;;
            dopol,reach)
                cmd="dopol__subcmd__reach"
                ;;
            dopol,request)
                cmd="dopol__subcmd__request"
                ;;
            dopol,status)
                cmd="dopol__subcmd__status"
                ;;
            dopol,test)
                cmd="dopol__subcmd__test"
                ;;
            dopol,topology)
                cmd="dopol__subcmd__topology"
                ;;
            dopol,view)
                cmd="dopol__subcmd__view"
                ;;
            dopol__subcmd__help,completions)
                cmd="dopol__subcmd__help__subcmd__completions"
                ;;
            dopol__subcmd__help,diff)
                cmd="dopol__subcmd__help__subcmd__diff"
                ;;
            dopol__subcmd__help,effective)
                cmd="dopol__subcmd__help__subcmd__effective"
                ;;
            dopol__subcmd__help,explain)
                cmd="dopol__subcmd__help__subcmd__explain"
                ;;
            dopol__subcmd__help,help)
                cmd="dopol__subcmd__help__subcmd__help"
                ;;
            dopol__subcmd__help,lint)
                cmd="dopol__subcmd__help__subcmd__lint"
                ;;
            dopol__subcmd__help,man)
                cmd="dopol__subcmd__help__subcmd__man"
                ;;
            dopol__subcmd__help,overridden)
                cmd="dopol__subcmd__help__subcmd__overridden"
                ;;
            dopol__subcmd__help,reach)
                cmd="dopol__subcmd__help__subcmd__reach"
                ;;
            dopol__subcmd__help,request)
                cmd="dopol__subcmd__help__subcmd__request"
                ;;
            dopol__subcmd__help,status)
                cmd="dopol__subcmd__help__subcmd__status"
                ;;
            dopol__subcmd__help,test)
                cmd="dopol__subcmd__help__subcmd__test"
                ;;
            dopol__subcmd__help,topology)
                cmd="dopol__subcmd__help__subcmd__topology"
                ;;
            dopol__subcmd__help,view)
                cmd="dopol__subcmd__help__subcmd__view"
                ;;
            *)
                ;;
        esac
    done

    case "${cmd}" in
        dopol)
            opts="-h -V --help --version effective overridden status reach explain topology view lint diff request test completions man help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 1 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        dopol__subcmd__completions)
            opts="-h -V --help --version bash zsh fish powershell elvish"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        dopol__subcmd__diff)
            opts="-f -n -v -q -o -h -V --filename --exclude --config --no-config --namespace --assume-gateways --with --without --families --crds --gateway-api-channel --kgateway-policy-merge --kgateway-global-policy-namespace --kuma-mode --kuma-zone --kuma-system-namespace --kuma-outbound --color --verbose --quiet --kind --gateway --route --policy --mesh --dataplane --output --stat --paths --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --filename)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -f)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --exclude)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --namespace)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -n)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --with)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --without)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --families)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --crds)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --gateway-api-channel)
                    COMPREPLY=($(compgen -W "standard experimental" -- "${cur}"))
                    return 0
                    ;;
                --kgateway-policy-merge)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kgateway-global-policy-namespace)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kuma-mode)
                    COMPREPLY=($(compgen -W "zone global" -- "${cur}"))
                    return 0
                    ;;
                --kuma-zone)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kuma-system-namespace)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kuma-outbound)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --kind)
                    COMPREPLY=($(compgen -W "AuthPolicy RateLimitPolicy TokenRateLimitPolicy TrafficPolicy BackendTrafficPolicy ClientTrafficPolicy SecurityPolicy EnvoyExtensionPolicy MeshTimeout MeshCircuitBreaker MeshRateLimit MeshTLS MeshAccessLog MeshFaultInjection MeshRetry MeshHealthCheck MeshLoadBalancingStrategy MeshTrafficPermission MeshTrace MeshMetric MeshProxyPatch MeshPassthrough AgentgatewayPolicy ListenerPolicy BackendConfigPolicy BackendTLSPolicy" -- "${cur}"))
                    return 0
                    ;;
                --gateway)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --route)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --policy)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --mesh)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --dataplane)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --output)
                    COMPREPLY=($(compgen -W "table wide yaml json html" -- "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -W "table wide yaml json html" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        dopol__subcmd__effective)
            opts="-f -n -v -q -o -h -V --filename --exclude --config --no-config --namespace --assume-gateways --with --without --families --crds --gateway-api-channel --kgateway-policy-merge --kgateway-global-policy-namespace --kuma-mode --kuma-zone --kuma-system-namespace --kuma-outbound --color --verbose --quiet --kind --gateway --route --policy --mesh --dataplane --output --compact --uncovered --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --filename)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -f)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --exclude)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --namespace)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -n)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --with)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --without)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --families)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --crds)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --gateway-api-channel)
                    COMPREPLY=($(compgen -W "standard experimental" -- "${cur}"))
                    return 0
                    ;;
                --kgateway-policy-merge)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kgateway-global-policy-namespace)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kuma-mode)
                    COMPREPLY=($(compgen -W "zone global" -- "${cur}"))
                    return 0
                    ;;
                --kuma-zone)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kuma-system-namespace)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kuma-outbound)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --kind)
                    COMPREPLY=($(compgen -W "AuthPolicy RateLimitPolicy TokenRateLimitPolicy TrafficPolicy BackendTrafficPolicy ClientTrafficPolicy SecurityPolicy EnvoyExtensionPolicy MeshTimeout MeshCircuitBreaker MeshRateLimit MeshTLS MeshAccessLog MeshFaultInjection MeshRetry MeshHealthCheck MeshLoadBalancingStrategy MeshTrafficPermission MeshTrace MeshMetric MeshProxyPatch MeshPassthrough AgentgatewayPolicy ListenerPolicy BackendConfigPolicy BackendTLSPolicy" -- "${cur}"))
                    return 0
                    ;;
                --gateway)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --route)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --policy)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --mesh)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --dataplane)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --output)
                    COMPREPLY=($(compgen -W "table wide yaml json" -- "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -W "table wide yaml json" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        dopol__subcmd__explain)
            opts="-f -n -v -q -o -h -V --filename --exclude --config --no-config --namespace --assume-gateways --with --without --families --crds --gateway-api-channel --kgateway-policy-merge --kgateway-global-policy-namespace --kuma-mode --kuma-zone --kuma-system-namespace --kuma-outbound --color --verbose --quiet --path --route --rule --listener --gateway --kind --output --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --filename)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -f)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --exclude)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --namespace)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -n)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --with)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --without)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --families)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --crds)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --gateway-api-channel)
                    COMPREPLY=($(compgen -W "standard experimental" -- "${cur}"))
                    return 0
                    ;;
                --kgateway-policy-merge)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kgateway-global-policy-namespace)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kuma-mode)
                    COMPREPLY=($(compgen -W "zone global" -- "${cur}"))
                    return 0
                    ;;
                --kuma-zone)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kuma-system-namespace)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kuma-outbound)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --path)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --route)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --rule)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --listener)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --gateway)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kind)
                    COMPREPLY=($(compgen -W "AuthPolicy RateLimitPolicy TokenRateLimitPolicy TrafficPolicy BackendTrafficPolicy ClientTrafficPolicy SecurityPolicy EnvoyExtensionPolicy MeshTimeout MeshCircuitBreaker MeshRateLimit MeshTLS MeshAccessLog MeshFaultInjection MeshRetry MeshHealthCheck MeshLoadBalancingStrategy MeshTrafficPermission MeshTrace MeshMetric MeshProxyPatch MeshPassthrough AgentgatewayPolicy ListenerPolicy BackendConfigPolicy BackendTLSPolicy" -- "${cur}"))
                    return 0
                    ;;
                --output)
                    COMPREPLY=($(compgen -W "table wide yaml json" -- "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -W "table wide yaml json" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        dopol__subcmd__help)
            opts="effective overridden status reach explain topology view lint diff request test completions man help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        dopol__subcmd__help__subcmd__completions)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        dopol__subcmd__help__subcmd__diff)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        dopol__subcmd__help__subcmd__effective)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        dopol__subcmd__help__subcmd__explain)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        dopol__subcmd__help__subcmd__help)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        dopol__subcmd__help__subcmd__lint)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        dopol__subcmd__help__subcmd__man)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        dopol__subcmd__help__subcmd__overridden)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        dopol__subcmd__help__subcmd__reach)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        dopol__subcmd__help__subcmd__request)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        dopol__subcmd__help__subcmd__status)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        dopol__subcmd__help__subcmd__test)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        dopol__subcmd__help__subcmd__topology)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        dopol__subcmd__help__subcmd__view)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        dopol__subcmd__lint)
            opts="-f -n -v -q -o -h -V --filename --exclude --config --no-config --namespace --assume-gateways --with --without --families --crds --gateway-api-channel --kgateway-policy-merge --kgateway-global-policy-namespace --kuma-mode --kuma-zone --kuma-system-namespace --kuma-outbound --color --verbose --quiet --output --fail-on --min-severity --ignore --list --explain --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --filename)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -f)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --exclude)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --namespace)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -n)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --with)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --without)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --families)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --crds)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --gateway-api-channel)
                    COMPREPLY=($(compgen -W "standard experimental" -- "${cur}"))
                    return 0
                    ;;
                --kgateway-policy-merge)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kgateway-global-policy-namespace)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kuma-mode)
                    COMPREPLY=($(compgen -W "zone global" -- "${cur}"))
                    return 0
                    ;;
                --kuma-zone)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kuma-system-namespace)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kuma-outbound)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --output)
                    COMPREPLY=($(compgen -W "human json sarif github junit" -- "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -W "human json sarif github junit" -- "${cur}"))
                    return 0
                    ;;
                --fail-on)
                    COMPREPLY=($(compgen -W "error warning info" -- "${cur}"))
                    return 0
                    ;;
                --min-severity)
                    COMPREPLY=($(compgen -W "error warning info" -- "${cur}"))
                    return 0
                    ;;
                --ignore)
                    COMPREPLY=($(compgen -W "DPL1001 yaml-syntax DPL1002 unreadable-input DPL1003 invalid-encoding DPL1004 not-a-kubernetes-object DPL1005 invalid-object DPL1006 duplicate-object DPL1007 deprecated-api-version DPL1008 empty-input DPL1009 unknown-field DPL1010 exclusive-blocks DPL1011 empty-block DPL1012 unsupported-api-version DPL1013 invalid-name DPL1014 invalid-families DPL1015 schema-violation DPL1016 validation-rule DPL1017 rule-not-evaluated DPL1018 version-not-served DPL1019 invalid-crd DPL1020 invalid-config DPL1021 template-skipped DPL1022 fixture-key-ignored DPL2001 parent-not-found DPL2002 no-matching-parent DPL2003 not-allowed-by-listeners DPL2004 no-matching-listener-hostname DPL2005 route-not-attached DPL2006 duplicate-listener-name DPL2007 duplicate-rule-name DPL2008 selector-undecidable DPL2009 assumed-gateway DPL2010 delegation-child-dropped DPL2011 delegation-not-supported DPL2012 delegation-mixed-backends DPL2013 listener-set-not-modelled DPL2014 parent-ref-listener-set DPL2015 listenerset-not-allowed DPL2016 listenerset-parent-not-found DPL2017 namespace-labels-unknown DPL2018 listener-conflicted DPL2019 listenerset-no-listener DPL2020 legacy-xlistenerset DPL2021 gateway-listener-policy-skips-listenerset DPL3001 target-not-found DPL3002 section-not-found DPL3003 invalid-target-kind DPL4001 policy-overridden DPL4002 policy-unreachable DPL4003 default-superseded-everywhere DPL4004 ordered-by-name DPL4005 granularity-trap DPL4006 unset-of-override DPL4007 unset-unmatched DPL4008 rfc-extension DPL4009 constraint-invalid DPL4010 constraint-evaluation DPL4011 predicate-invalid DPL4012 family-overrides-builtin DPL4013 unknown-ignore-code DPL4014 shadowed-by-listener DPL4015 bare-field-ignored DPL4016 family-ignores-listenerset DPL4020 reported-but-ineffective DPL4021 rule-effective-nowhere DPL4022 class-not-family-controller DPL5001 extension-ref-not-found DPL5002 route-replaced DPL5003 invalid-policy-weight DPL5004 unknown-inherited-priority DPL5005 inherited-priority-on-gateway DPL5006 duplicate-attachment DPL5007 selector-selects-nothing DPL5008 gateway-disables-route-provider DPL5009 gateway-header-set-wins DPL5010 invalid-policy DPL5011 deep-merge-plain-field DPL5012 delegatee-can-disable-auth DPL5013 builtin-shadows-policy DPL5014 misspelled-kgateway-annotation DPL5015 kgateway-2-0-priority-value DPL5016 shared-port-hostname-isolation DPL5020 listenerpolicy-field-ignored DPL5021 httplistenerpolicy-deprecated DPL5022 bcp-field-shadowed DPL5023 bcp-selector-not-modelled DPL6001 auth-replaced-without-merge DPL6002 conflicted DPL6003 null-pruned DPL6004 deprecated-target-ref DPL6005 selector-selects-all DPL6006 cross-namespace-selector DPL6007 ignored-target-kind DPL6008 selector-target-not-granted DPL6009 ctp-gateway-section-in-listenerset DPL7001 kuma-invalid-policy DPL7002 kuma-to-target-not-found DPL7003 kuma-section-port-number DPL7004 kuma-dataplane-name-ref-from-global DPL7005 kuma-consumer-overrides-producer DPL7006 kuma-route-ignores-service-entries DPL7007 kuma-mtp-from-ignored DPL7008 kuma-mtp-without-mtls DPL7009 kuma-role-label-overwritten DPL7010 kuma-equal-display-names DPL7011 kuma-meshservices-disabled DPL7012 kuma-deprecated-targetref DPL7013 kuma-selects-no-dataplane DPL7014 kuma-shadow-skipped DPL7015 kuma-mesh-assumed DPL7016 kuma-not-modelled DPL8001 agw-equal-specificity-tie DPL8002 agw-conditional-shadows-parent DPL8003 agw-gateway-listener-leaks-into-listenerset DPL8004 agw-backend-listenerset-ignored DPL8005 agw-buffer-least-specific-wins DPL8006 agw-override-on-rule DPL8007 agw-attached-but-ineffective DPL8008 agw-backend-level-not-modelled DPL8009 agw-listenerset-not-modelled DPL9001 invalid-suite DPL9002 not-a-suite DPL9003 selects-nothing DPL9004 unknown-expectation DPL9005 unknown-rule-key DPL9006 unknown-suite-policy DPL9007 invalid-suite-request" -- "${cur}"))
                    return 0
                    ;;
                --explain)
                    COMPREPLY=($(compgen -W "DPL1001 yaml-syntax DPL1002 unreadable-input DPL1003 invalid-encoding DPL1004 not-a-kubernetes-object DPL1005 invalid-object DPL1006 duplicate-object DPL1007 deprecated-api-version DPL1008 empty-input DPL1009 unknown-field DPL1010 exclusive-blocks DPL1011 empty-block DPL1012 unsupported-api-version DPL1013 invalid-name DPL1014 invalid-families DPL1015 schema-violation DPL1016 validation-rule DPL1017 rule-not-evaluated DPL1018 version-not-served DPL1019 invalid-crd DPL1020 invalid-config DPL1021 template-skipped DPL1022 fixture-key-ignored DPL2001 parent-not-found DPL2002 no-matching-parent DPL2003 not-allowed-by-listeners DPL2004 no-matching-listener-hostname DPL2005 route-not-attached DPL2006 duplicate-listener-name DPL2007 duplicate-rule-name DPL2008 selector-undecidable DPL2009 assumed-gateway DPL2010 delegation-child-dropped DPL2011 delegation-not-supported DPL2012 delegation-mixed-backends DPL2013 listener-set-not-modelled DPL2014 parent-ref-listener-set DPL2015 listenerset-not-allowed DPL2016 listenerset-parent-not-found DPL2017 namespace-labels-unknown DPL2018 listener-conflicted DPL2019 listenerset-no-listener DPL2020 legacy-xlistenerset DPL2021 gateway-listener-policy-skips-listenerset DPL3001 target-not-found DPL3002 section-not-found DPL3003 invalid-target-kind DPL4001 policy-overridden DPL4002 policy-unreachable DPL4003 default-superseded-everywhere DPL4004 ordered-by-name DPL4005 granularity-trap DPL4006 unset-of-override DPL4007 unset-unmatched DPL4008 rfc-extension DPL4009 constraint-invalid DPL4010 constraint-evaluation DPL4011 predicate-invalid DPL4012 family-overrides-builtin DPL4013 unknown-ignore-code DPL4014 shadowed-by-listener DPL4015 bare-field-ignored DPL4016 family-ignores-listenerset DPL4020 reported-but-ineffective DPL4021 rule-effective-nowhere DPL4022 class-not-family-controller DPL5001 extension-ref-not-found DPL5002 route-replaced DPL5003 invalid-policy-weight DPL5004 unknown-inherited-priority DPL5005 inherited-priority-on-gateway DPL5006 duplicate-attachment DPL5007 selector-selects-nothing DPL5008 gateway-disables-route-provider DPL5009 gateway-header-set-wins DPL5010 invalid-policy DPL5011 deep-merge-plain-field DPL5012 delegatee-can-disable-auth DPL5013 builtin-shadows-policy DPL5014 misspelled-kgateway-annotation DPL5015 kgateway-2-0-priority-value DPL5016 shared-port-hostname-isolation DPL5020 listenerpolicy-field-ignored DPL5021 httplistenerpolicy-deprecated DPL5022 bcp-field-shadowed DPL5023 bcp-selector-not-modelled DPL6001 auth-replaced-without-merge DPL6002 conflicted DPL6003 null-pruned DPL6004 deprecated-target-ref DPL6005 selector-selects-all DPL6006 cross-namespace-selector DPL6007 ignored-target-kind DPL6008 selector-target-not-granted DPL6009 ctp-gateway-section-in-listenerset DPL7001 kuma-invalid-policy DPL7002 kuma-to-target-not-found DPL7003 kuma-section-port-number DPL7004 kuma-dataplane-name-ref-from-global DPL7005 kuma-consumer-overrides-producer DPL7006 kuma-route-ignores-service-entries DPL7007 kuma-mtp-from-ignored DPL7008 kuma-mtp-without-mtls DPL7009 kuma-role-label-overwritten DPL7010 kuma-equal-display-names DPL7011 kuma-meshservices-disabled DPL7012 kuma-deprecated-targetref DPL7013 kuma-selects-no-dataplane DPL7014 kuma-shadow-skipped DPL7015 kuma-mesh-assumed DPL7016 kuma-not-modelled DPL8001 agw-equal-specificity-tie DPL8002 agw-conditional-shadows-parent DPL8003 agw-gateway-listener-leaks-into-listenerset DPL8004 agw-backend-listenerset-ignored DPL8005 agw-buffer-least-specific-wins DPL8006 agw-override-on-rule DPL8007 agw-attached-but-ineffective DPL8008 agw-backend-level-not-modelled DPL8009 agw-listenerset-not-modelled DPL9001 invalid-suite DPL9002 not-a-suite DPL9003 selects-nothing DPL9004 unknown-expectation DPL9005 unknown-rule-key DPL9006 unknown-suite-policy DPL9007 invalid-suite-request" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        dopol__subcmd__man)
            opts="-h -V --out-dir --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --out-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        dopol__subcmd__overridden)
            opts="-f -n -v -q -o -h -V --filename --exclude --config --no-config --namespace --assume-gateways --with --without --families --crds --gateway-api-channel --kgateway-policy-merge --kgateway-global-policy-namespace --kuma-mode --kuma-zone --kuma-system-namespace --kuma-outbound --color --verbose --quiet --kind --gateway --route --policy --mesh --dataplane --output --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --filename)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -f)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --exclude)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --namespace)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -n)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --with)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --without)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --families)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --crds)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --gateway-api-channel)
                    COMPREPLY=($(compgen -W "standard experimental" -- "${cur}"))
                    return 0
                    ;;
                --kgateway-policy-merge)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kgateway-global-policy-namespace)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kuma-mode)
                    COMPREPLY=($(compgen -W "zone global" -- "${cur}"))
                    return 0
                    ;;
                --kuma-zone)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kuma-system-namespace)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kuma-outbound)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --kind)
                    COMPREPLY=($(compgen -W "AuthPolicy RateLimitPolicy TokenRateLimitPolicy TrafficPolicy BackendTrafficPolicy ClientTrafficPolicy SecurityPolicy EnvoyExtensionPolicy MeshTimeout MeshCircuitBreaker MeshRateLimit MeshTLS MeshAccessLog MeshFaultInjection MeshRetry MeshHealthCheck MeshLoadBalancingStrategy MeshTrafficPermission MeshTrace MeshMetric MeshProxyPatch MeshPassthrough AgentgatewayPolicy ListenerPolicy BackendConfigPolicy BackendTLSPolicy" -- "${cur}"))
                    return 0
                    ;;
                --gateway)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --route)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --policy)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --mesh)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --dataplane)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --output)
                    COMPREPLY=($(compgen -W "table wide yaml json" -- "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -W "table wide yaml json" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        dopol__subcmd__reach)
            opts="-f -n -v -q -o -h -V --policy --filename --exclude --config --no-config --namespace --assume-gateways --with --without --families --crds --gateway-api-channel --kgateway-policy-merge --kgateway-global-policy-namespace --kuma-mode --kuma-zone --kuma-system-namespace --kuma-outbound --color --verbose --quiet --output --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --policy)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --filename)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -f)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --exclude)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --namespace)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -n)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --with)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --without)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --families)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --crds)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --gateway-api-channel)
                    COMPREPLY=($(compgen -W "standard experimental" -- "${cur}"))
                    return 0
                    ;;
                --kgateway-policy-merge)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kgateway-global-policy-namespace)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kuma-mode)
                    COMPREPLY=($(compgen -W "zone global" -- "${cur}"))
                    return 0
                    ;;
                --kuma-zone)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kuma-system-namespace)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kuma-outbound)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --output)
                    COMPREPLY=($(compgen -W "table wide yaml json" -- "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -W "table wide yaml json" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        dopol__subcmd__request)
            opts="-H -f -n -v -q -o -h -V --header --attr --grpc --authority --tls --gateway --kind --filename --exclude --config --no-config --namespace --assume-gateways --with --without --families --crds --gateway-api-channel --kgateway-policy-merge --kgateway-global-policy-namespace --kuma-mode --kuma-zone --kuma-system-namespace --kuma-outbound --color --verbose --quiet --output --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --header)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -H)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --attr)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --grpc)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --authority)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --gateway)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kind)
                    COMPREPLY=($(compgen -W "AuthPolicy RateLimitPolicy TokenRateLimitPolicy TrafficPolicy BackendTrafficPolicy ClientTrafficPolicy SecurityPolicy EnvoyExtensionPolicy MeshTimeout MeshCircuitBreaker MeshRateLimit MeshTLS MeshAccessLog MeshFaultInjection MeshRetry MeshHealthCheck MeshLoadBalancingStrategy MeshTrafficPermission MeshTrace MeshMetric MeshProxyPatch MeshPassthrough AgentgatewayPolicy ListenerPolicy BackendConfigPolicy BackendTLSPolicy" -- "${cur}"))
                    return 0
                    ;;
                --filename)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -f)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --exclude)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --namespace)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -n)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --with)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --without)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --families)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --crds)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --gateway-api-channel)
                    COMPREPLY=($(compgen -W "standard experimental" -- "${cur}"))
                    return 0
                    ;;
                --kgateway-policy-merge)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kgateway-global-policy-namespace)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kuma-mode)
                    COMPREPLY=($(compgen -W "zone global" -- "${cur}"))
                    return 0
                    ;;
                --kuma-zone)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kuma-system-namespace)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kuma-outbound)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --output)
                    COMPREPLY=($(compgen -W "table wide yaml json" -- "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -W "table wide yaml json" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        dopol__subcmd__status)
            opts="-f -n -v -q -o -h -V --filename --exclude --config --no-config --namespace --assume-gateways --with --without --families --crds --gateway-api-channel --kgateway-policy-merge --kgateway-global-policy-namespace --kuma-mode --kuma-zone --kuma-system-namespace --kuma-outbound --color --verbose --quiet --kind --gateway --route --policy --mesh --dataplane --output --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --filename)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -f)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --exclude)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --namespace)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -n)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --with)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --without)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --families)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --crds)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --gateway-api-channel)
                    COMPREPLY=($(compgen -W "standard experimental" -- "${cur}"))
                    return 0
                    ;;
                --kgateway-policy-merge)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kgateway-global-policy-namespace)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kuma-mode)
                    COMPREPLY=($(compgen -W "zone global" -- "${cur}"))
                    return 0
                    ;;
                --kuma-zone)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kuma-system-namespace)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kuma-outbound)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --kind)
                    COMPREPLY=($(compgen -W "AuthPolicy RateLimitPolicy TokenRateLimitPolicy TrafficPolicy BackendTrafficPolicy ClientTrafficPolicy SecurityPolicy EnvoyExtensionPolicy MeshTimeout MeshCircuitBreaker MeshRateLimit MeshTLS MeshAccessLog MeshFaultInjection MeshRetry MeshHealthCheck MeshLoadBalancingStrategy MeshTrafficPermission MeshTrace MeshMetric MeshProxyPatch MeshPassthrough AgentgatewayPolicy ListenerPolicy BackendConfigPolicy BackendTLSPolicy" -- "${cur}"))
                    return 0
                    ;;
                --gateway)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --route)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --policy)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --mesh)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --dataplane)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --output)
                    COMPREPLY=($(compgen -W "table wide yaml json" -- "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -W "table wide yaml json" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        dopol__subcmd__test)
            opts="-f -n -v -q -o -h -V --filename --exclude --config --no-config --namespace --assume-gateways --with --without --families --crds --gateway-api-channel --kgateway-policy-merge --kgateway-global-policy-namespace --kuma-mode --kuma-zone --kuma-system-namespace --kuma-outbound --color --verbose --quiet --run --output --coverage --show-untested --fail-under --against --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --filename)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -f)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --exclude)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --namespace)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -n)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --with)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --without)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --families)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --crds)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --gateway-api-channel)
                    COMPREPLY=($(compgen -W "standard experimental" -- "${cur}"))
                    return 0
                    ;;
                --kgateway-policy-merge)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kgateway-global-policy-namespace)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kuma-mode)
                    COMPREPLY=($(compgen -W "zone global" -- "${cur}"))
                    return 0
                    ;;
                --kuma-zone)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kuma-system-namespace)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kuma-outbound)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --run)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --output)
                    COMPREPLY=($(compgen -W "table json junit sarif github" -- "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -W "table json junit sarif github" -- "${cur}"))
                    return 0
                    ;;
                --fail-under)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --against)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        dopol__subcmd__topology)
            opts="-f -n -v -q -o -h -V --filename --exclude --config --no-config --namespace --assume-gateways --with --without --families --crds --gateway-api-channel --kgateway-policy-merge --kgateway-global-policy-namespace --kuma-mode --kuma-zone --kuma-system-namespace --kuma-outbound --color --verbose --quiet --gateway --route --mesh --dataplane --output --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --filename)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -f)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --exclude)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --namespace)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -n)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --with)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --without)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --families)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --crds)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --gateway-api-channel)
                    COMPREPLY=($(compgen -W "standard experimental" -- "${cur}"))
                    return 0
                    ;;
                --kgateway-policy-merge)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kgateway-global-policy-namespace)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kuma-mode)
                    COMPREPLY=($(compgen -W "zone global" -- "${cur}"))
                    return 0
                    ;;
                --kuma-zone)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kuma-system-namespace)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kuma-outbound)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --gateway)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --route)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --mesh)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --dataplane)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --output)
                    COMPREPLY=($(compgen -W "tree dot mermaid json yaml" -- "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -W "tree dot mermaid json yaml" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        dopol__subcmd__view)
            opts="-f -n -v -q -o -h -V --filename --exclude --config --no-config --namespace --assume-gateways --with --without --families --crds --gateway-api-channel --kgateway-policy-merge --kgateway-global-policy-namespace --kuma-mode --kuma-zone --kuma-system-namespace --kuma-outbound --color --verbose --quiet --output --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --filename)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -f)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --exclude)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --namespace)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -n)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --with)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --without)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --families)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --crds)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --gateway-api-channel)
                    COMPREPLY=($(compgen -W "standard experimental" -- "${cur}"))
                    return 0
                    ;;
                --kgateway-policy-merge)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kgateway-global-policy-namespace)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kuma-mode)
                    COMPREPLY=($(compgen -W "zone global" -- "${cur}"))
                    return 0
                    ;;
                --kuma-zone)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kuma-system-namespace)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kuma-outbound)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --output)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
    esac
}

if [[ "${BASH_VERSINFO[0]}" -eq 4 && "${BASH_VERSINFO[1]}" -ge 4 || "${BASH_VERSINFO[0]}" -gt 4 ]]; then
    complete -F _dopol -o nosort -o bashdefault -o default dopol
else
    complete -F _dopol -o bashdefault -o default dopol
fi
