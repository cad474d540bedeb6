//! Generates a large synthetic manifest set for benchmarking dopol.
//!
//! `cargo run --release --example gen_manifests -- [--routes N] [--gateways G] OUT_DIR`
//!
//! Shape (deterministic, no randomness): G Gateways with two listeners (http, https), N
//! HTTPRoutes with five rules each attached to every listener of one Gateway (so 10 paths per
//! route), and policies of all three Kuadrant kinds at every level (Gateway, listener, route,
//! route rule) with defaults and overrides, atomic and merge, with and without timestamps.
//! Files are written 1,000 routes (and their policies) per file.

use std::fmt::Write as _;
use std::path::PathBuf;

fn main() {
    let mut routes = 10_000usize;
    let mut gateways = 20usize;
    let mut out: Option<PathBuf> = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--routes" => {
                routes = args
                    .next()
                    .and_then(|v| v.parse().ok())
                    .expect("--routes N")
            }
            "--gateways" => {
                gateways = args
                    .next()
                    .and_then(|v| v.parse().ok())
                    .expect("--gateways N")
            }
            "-h" | "--help" => {
                eprintln!("usage: gen_manifests [--routes N] [--gateways G] OUT_DIR");
                return;
            }
            dir => out = Some(PathBuf::from(dir)),
        }
    }
    let out = out.expect("usage: gen_manifests [--routes N] [--gateways G] OUT_DIR");
    std::fs::create_dir_all(&out).expect("output directory");

    let mut infra = String::new();
    for g in 0..gateways {
        gateway(&mut infra, g);
        gateway_policies(&mut infra, g);
    }
    std::fs::write(out.join("00-infra.yaml"), infra).expect("write infra");

    let per_file = 1_000;
    let mut bytes = 0usize;
    for chunk in 0..routes.div_ceil(per_file) {
        let mut text = String::new();
        for r in chunk * per_file..((chunk + 1) * per_file).min(routes) {
            route(&mut text, r, gateways);
            route_policies(&mut text, r);
        }
        bytes += text.len();
        std::fs::write(out.join(format!("routes-{chunk:04}.yaml")), text).expect("write routes");
    }
    eprintln!(
        "wrote {gateways} gateways, {routes} routes ({} paths) and their policies to {} ({:.1} MB of route files)",
        routes * 10,
        out.display(),
        bytes as f64 / 1e6
    );
}

fn timestamp(i: usize) -> String {
    // Every seventh object has no timestamp (counts as newest); the rest spread over 2024.
    if i % 7 == 3 {
        String::new()
    } else {
        format!(
            "  creationTimestamp: \"2024-{:02}-{:02}T{:02}:00:00Z\"\n",
            1 + i % 12,
            1 + i % 28,
            i % 24
        )
    }
}

fn gateway(out: &mut String, g: usize) {
    let _ = write!(
        out,
        "---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata:
  name: gw-{g}
  namespace: infra
spec:
  gatewayClassName: bench
  listeners:
  - name: http
    protocol: HTTP
    port: 80
    allowedRoutes:
      namespaces:
        from: All
  - name: https
    protocol: HTTPS
    port: 443
    hostname: \"*.example.com\"
    allowedRoutes:
      namespaces:
        from: All
"
    );
}

/// The envelope and targetRef of one generated policy.
struct Header<'a> {
    api: &'a str,
    kind: &'a str,
    name: String,
    namespace: &'a str,
    /// Seed of the creation timestamp.
    stamp: usize,
    target_kind: &'a str,
    target: &'a str,
    section: Option<&'a str>,
}

fn policy_header(out: &mut String, h: Header<'_>) {
    let _ = write!(
        out,
        "---
apiVersion: {}
kind: {}
metadata:
  name: {}
  namespace: {}
{}spec:
  targetRef:
    group: gateway.networking.k8s.io
    kind: {}
    name: {}
",
        h.api,
        h.kind,
        h.name,
        h.namespace,
        timestamp(h.stamp),
        h.target_kind,
        h.target
    );
    if let Some(section) = h.section {
        let _ = writeln!(out, "    sectionName: {section}");
    }
}

fn limit(
    out: &mut String,
    indent: &str,
    name: &str,
    limit: usize,
    window: &str,
    predicate: Option<&str>,
) {
    let _ = write!(
        out,
        "{indent}{name}:\n{indent}  rates:\n{indent}  - limit: {limit}\n{indent}    window: {window}\n"
    );
    if let Some(p) = predicate {
        let _ = write!(out, "{indent}  when:\n{indent}  - predicate: \"{p}\"\n");
    }
}

fn gateway_policies(out: &mut String, g: usize) {
    let gw = format!("gw-{g}");
    policy_header(
        out,
        Header {
            api: "kuadrant.io/v1",
            kind: "AuthPolicy",
            name: format!("gw-{g}-auth"),
            namespace: "infra",
            stamp: g,
            target_kind: "Gateway",
            target: &gw,
            section: None,
        },
    );
    let _ = write!(
        out,
        "  defaults:
    strategy: merge
    rules:
      authentication:
        api-key:
          apiKey:
            selector:
              matchLabels:
                tier: gateway-{g}
          credentials:
            authorizationHeader:
              prefix: APIKEY
      authorization:
        deny-anonymous:
          patternMatching:
            patterns:
            - predicate: \"auth.identity.anonymous == false\"
"
    );
    policy_header(
        out,
        Header {
            api: "kuadrant.io/v1",
            kind: "RateLimitPolicy",
            name: format!("gw-{g}-limits"),
            namespace: "infra",
            stamp: g + 1,
            target_kind: "Gateway",
            target: &gw,
            section: None,
        },
    );
    let strategy = if g % 2 == 0 { "merge" } else { "atomic" };
    let _ = write!(out, "  overrides:\n    strategy: {strategy}\n    limits:\n");
    limit(out, "      ", "global", 10_000, "1s", None);
    policy_header(
        out,
        Header {
            api: "kuadrant.io/v1alpha1",
            kind: "TokenRateLimitPolicy",
            name: format!("gw-{g}-tokens"),
            namespace: "infra",
            stamp: g + 2,
            target_kind: "Gateway",
            target: &gw,
            section: None,
        },
    );
    let _ = write!(out, "  defaults:\n    strategy: atomic\n    limits:\n");
    limit(
        out,
        "      ",
        "free-tier",
        20_000,
        "1h",
        Some("request.auth.claims.tier == 'free'"),
    );
    policy_header(
        out,
        Header {
            api: "kuadrant.io/v1",
            kind: "RateLimitPolicy",
            name: format!("gw-{g}-https-limits"),
            namespace: "infra",
            stamp: g + 3,
            target_kind: "Gateway",
            target: &gw,
            section: Some("https"),
        },
    );
    let _ = write!(out, "  defaults:\n    strategy: merge\n    limits:\n");
    limit(out, "      ", "tls-clients", 500, "1m", None);
}

fn route(out: &mut String, r: usize, gateways: usize) {
    let ns = format!("app-{}", r % 50);
    let _ = write!(
        out,
        "---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: route-{r}
  namespace: {ns}
  labels:
    app: route-{r}
spec:
  parentRefs:
  - name: gw-{}
    namespace: infra
  hostnames:
  - route-{r}.example.com
  rules:
",
        r % gateways
    );
    for k in 0..5 {
        // Rules 0 and 2 are named; the others get positional names (rule-2, rule-4, rule-5).
        if k % 2 == 0 {
            let _ = writeln!(out, "  - name: op-{k}");
            out.push_str("    matches:\n");
        } else {
            out.push_str("  - matches:\n");
        }
        let _ = write!(
            out,
            "    - path:
        type: PathPrefix
        value: /api/v{k}/items
      method: GET
    backendRefs:
    - name: svc-{r}
      port: 8080
"
        );
    }
}

fn route_policies(out: &mut String, r: usize) {
    let ns = format!("app-{}", r % 50);
    let route = format!("route-{r}");
    policy_header(
        out,
        Header {
            api: "kuadrant.io/v1",
            kind: "AuthPolicy",
            name: format!("{route}-auth"),
            namespace: &ns,
            stamp: r,
            target_kind: "HTTPRoute",
            target: &route,
            section: None,
        },
    );
    let _ = write!(
        out,
        "  rules:
    authentication:
      jwt:
        jwt:
          issuerUrl: https://issuer-{}.example.com/realms/apps
    authorization:
      team-only:
        patternMatching:
          patterns:
          - predicate: \"auth.identity.team == 'team-{}'\"
",
        r % 13,
        r % 50
    );
    policy_header(
        out,
        Header {
            api: "kuadrant.io/v1",
            kind: "RateLimitPolicy",
            name: format!("{route}-limits"),
            namespace: &ns,
            stamp: r + 1,
            target_kind: "HTTPRoute",
            target: &route,
            section: None,
        },
    );
    if r % 2 == 0 {
        let _ = write!(out, "  defaults:\n    strategy: merge\n    limits:\n");
        limit(out, "      ", "per-route", 100 + r % 900, "1m", None);
        limit(out, "      ", "global", 50, "1s", None);
    } else {
        out.push_str("  limits:\n");
        limit(
            out,
            "    ",
            "per-route",
            100 + r % 900,
            "1m",
            Some("request.method == 'GET'"),
        );
    }
    policy_header(
        out,
        Header {
            api: "kuadrant.io/v1",
            kind: "RateLimitPolicy",
            name: format!("{route}-op-0-limits"),
            namespace: &ns,
            stamp: r + 2,
            target_kind: "HTTPRoute",
            target: &route,
            section: Some("op-0"),
        },
    );
    out.push_str("  limits:\n");
    limit(out, "    ", "op-0-burst", 5, "1s", None);
    if r % 4 == 0 {
        policy_header(
            out,
            Header {
                api: "kuadrant.io/v1alpha1",
                kind: "TokenRateLimitPolicy",
                name: format!("{route}-tokens"),
                namespace: &ns,
                stamp: r + 3,
                target_kind: "HTTPRoute",
                target: &route,
                section: None,
            },
        );
        out.push_str("  limits:\n");
        limit(
            out,
            "    ",
            "gold-tier",
            200_000,
            "1h",
            Some("request.auth.claims.tier == 'gold'"),
        );
    }
    if r % 10 == 0 {
        policy_header(
            out,
            Header {
                api: "kuadrant.io/v1",
                kind: "AuthPolicy",
                name: format!("{route}-rule-2-lockdown"),
                namespace: &ns,
                stamp: r + 4,
                target_kind: "HTTPRoute",
                target: &route,
                section: Some("rule-2"),
            },
        );
        let _ = write!(
            out,
            "  overrides:
    strategy: atomic
    rules:
      authorization:
        admins-only:
          patternMatching:
            patterns:
            - predicate: \"auth.identity.group == 'admins'\"
"
        );
    }
}
