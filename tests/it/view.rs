//! `dopol view` in a real browser (headless Chromium over CDP, `common::browser`): each path's
//! stack rows (policy, rule key, outcome) equal what `effective -o json` and `overridden -o json`
//! say; hostile strings render as text and run nothing; the page makes no request but its own
//! file; the graph works from the keyboard. Chromium must be installed (CI installs it): the
//! tests fail, never skip, without it.

use crate::common::browser::Browser;
use crate::common::{root, run_in};
use serde_json::{Value, json};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

type Row = (String, String, String);

/// Writes the page of `inputs` (each after `-f`) into a temporary directory.
fn page(dir: &Path, inputs: &[&str], code: i32) -> PathBuf {
    let file = dir.join("page.html");
    let mut args = vec!["view", "-o", file.to_str().unwrap()];
    for input in inputs {
        args.extend(["-f", input]);
    }
    run_in(&root(), &args, None).code(code);
    file
}

/// [`page`] with `DOPOL_VIEW_BLOCK_BYTES=block`; the page must hold more than one block.
fn page_in_blocks(dir: &Path, inputs: &[&str], block: usize) -> PathBuf {
    let file = dir.join("page.html");
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_dopol"));
    command
        .current_dir(root())
        .args(["view", "-o", file.to_str().unwrap()]);
    for input in inputs {
        command.args(["-f", input]);
    }
    let status = (command.env("DOPOL_VIEW_BLOCK_BYTES", block.to_string()))
        .status()
        .unwrap();
    assert!(status.success(), "dopol view: {status}");
    let html = std::fs::read_to_string(&file).unwrap();
    let (_, data) = html.split_once("id=\"dopol-data\">").unwrap();
    let lines = data.split_once("</script>").unwrap().0.lines().count();
    assert!(lines > 20, "{lines} blocks: the data is not cut small");
    file
}

/// The page of `inputs` open in a fresh browser (the directory holding it lives as long as the
/// returned guard).
fn browse(inputs: &[&str]) -> (tempfile::TempDir, Browser) {
    let dir = tempfile::tempdir().unwrap();
    let file = page(dir.path(), inputs, 0);
    (dir, opened(&file))
}

/// [`browse`] of `manifests`, written into the page's directory.
fn browse_text(manifests: &str) -> (tempfile::TempDir, Browser) {
    let dir = tempfile::tempdir().unwrap();
    let input = written(dir.path(), "manifests.yaml", manifests);
    let file = page(dir.path(), &[input.to_str().unwrap()], 0);
    (dir, opened(&file))
}

/// `file` open in a fresh browser.
fn opened(file: &Path) -> Browser {
    let mut browser = Browser::start();
    browser.open(&url(file));
    browser
}

fn url(file: &Path) -> String {
    format!("file://{}", file.display())
}

/// `(policy, key, outcome)` of every rule on `path`, from the CLI's JSON documents.
fn expected_rows(inputs: &[&str], path: &str) -> BTreeSet<Row> {
    let json = |command: &str| -> Value {
        let mut args = vec![command, "-o", "json"];
        for input in inputs {
            args.extend(["-f", input]);
        }
        run_in(&root(), &args, None).json()
    };
    let mut rows = BTreeSet::new();
    let effective = json("effective");
    for item in effective["items"].as_array().unwrap() {
        if item["pathId"] != path {
            continue;
        }
        for (key, rule) in item["rules"].as_object().unwrap() {
            let origins = rule["origins"].as_array().unwrap();
            for (i, origin) in origins.iter().enumerate() {
                let outcome = if i == 0 { "effective" } else { "merged" };
                rows.insert(row(origin.as_str().unwrap(), key, outcome));
            }
        }
    }
    for item in json("overridden")["items"].as_array().unwrap() {
        if item["pathIds"].as_array().unwrap().contains(&json!(path)) {
            let (policy, key) = (
                item["policy"].as_str().unwrap(),
                item["key"].as_str().unwrap(),
            );
            rows.insert(row(policy, key, item["outcome"].as_str().unwrap()));
        }
    }
    rows
}

fn row(policy: &str, key: &str, outcome: &str) -> Row {
    (policy.to_string(), key.to_string(), outcome.to_string())
}

/// Opens `path`'s stack through the URL fragment and reads its rows' hooks.
fn shown_rows(browser: &mut Browser, path: &str) -> BTreeSet<Row> {
    let id = serde_json::to_string(path).unwrap();
    browser.eval(&format!(
        "location.hash = '#path=' + encodeURIComponent({id})"
    ));
    browser.wait_for(&format!(
        "(document.querySelector('[data-open-path]') || {{}}).textContent === {id}"
    ));
    let rows = browser.eval(
        "Array.from(document.querySelectorAll('#stack tr[data-policy]'))\
         .map(r => [r.dataset.policy, r.dataset.ruleKey, r.dataset.outcome])",
    );
    (rows.as_array().unwrap().iter())
        .map(|r| {
            row(
                r[0].as_str().unwrap(),
                r[1].as_str().unwrap(),
                r[2].as_str().unwrap(),
            )
        })
        .collect()
}

/// Every path of the page shows the rows the JSON documents give; `named` is among them, has
/// rows, and opening it from the URL selects it in the graph. No request leaves the page and
/// the CSP refuses nothing.
fn check_case(inputs: &[&str], named: &str) {
    check_case_in_blocks(inputs, named, None);
}

/// [`check_case`] on a page whose data is cut into blocks of about `block` bytes of JSON
/// (`DOPOL_VIEW_BLOCK_BYTES`): every part in several blocks, as on a big input, so the page's
/// reading of blocks is checked on rows the JSON documents give.
fn check_case_in_blocks(inputs: &[&str], named: &str, block: Option<usize>) {
    let dir = tempfile::tempdir().unwrap();
    let file = match block {
        None => page(dir.path(), inputs, 0),
        Some(block) => page_in_blocks(dir.path(), inputs, block),
    };
    let mut browser = Browser::start();
    let fragment: String = named.bytes().map(|b| format!("%{b:02X}")).collect();
    browser.open(&format!("{}#path={fragment}", url(&file)));
    let selected =
        browser.eval("document.querySelector('#graph [aria-selected=true]').dataset.pathId");
    assert_eq!(selected, json!(named));
    let ids = browser.eval_promise("dopolView.pathIds()");
    let ids: Vec<String> = serde_json::from_value(ids).unwrap();
    assert!(ids.iter().any(|id| id == named), "{named} not in {ids:?}");
    for id in &ids {
        let shown = shown_rows(&mut browser, id);
        assert_eq!(shown, expected_rows(inputs, id), "path {id}");
        if id == named {
            assert!(!shown.is_empty(), "{named} has no rows");
        }
    }
    assert_eq!(browser.requests(), vec![url(&file)], "requests");
    assert_eq!(browser.eval("window.__csp"), json!([]), "CSP violations");
}

#[test]
fn kuadrant_guide_stacks_match_effective_and_overridden() {
    let dir = tempfile::tempdir().unwrap();
    let guide = dir.path().join("guide.yaml");
    std::fs::write(
        &guide,
        crate::guides::applied("secure-protect-connect", crate::guides::ENV),
    )
    .unwrap();
    check_case(
        &[guide.to_str().unwrap()],
        "istio|api-gateway/external|api-gateway/external#api|toystore/toystore|toystore/toystore#rule-1",
    );
}

#[test]
fn kgateway_delegation_stacks_match_effective_and_overridden() {
    // In blocks of one item each: every part cut as far as it goes (docs/view.md).
    check_case_in_blocks(
        &[
            "testdata/realworld/kgateway/delegation-common.yaml",
            "testdata/realworld/kgateway/delegation-traffic_policy_multi_level_inheritance_override_enabled.yaml",
        ],
        "example-gateway-class|infra/example-gateway|infra/example-gateway#http|infra/example-route#rule-2>mid/mid-b#rule-1>b/b1|b/b1#rule-1",
        Some(1),
    );
}

#[test]
fn envoy_gateway_merge_stacks_match_effective_and_overridden() {
    check_case(
        &["testdata/envoy/json-merge/manifests.yaml"],
        "eg|shop/gw|shop/gw#admin|shop/app|shop/app#rule-1",
    );
}

/// Strings a pull request controls: names, rule keys, values (with `common::GATEWAY` and
/// `common::ROUTE`).
const HOSTILE: &str = r#"apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: "</script><img src=x onerror=window.__pwned=1>", namespace: app}
spec:
  parentRefs: [{name: gw, namespace: infra}]
---
apiVersion: kuadrant.io/v1
kind: AuthPolicy
metadata: {name: auth, namespace: app}
spec:
  targetRef: {group: gateway.networking.k8s.io, kind: HTTPRoute, name: route}
  rules:
    authentication:
      "</script><script>window.__pwned=2</script>":
        apiKey:
          selector: {matchLabels: {app: "<img src=x onerror=window.__pwned=3>"}}
        credentials: {authorizationHeader: {prefix: "javascript:window.__pwned=4"}}
      "<!--<script>":
        anonymous: {}
        priority: 1
"#;

#[test]
fn hostile_strings_render_as_text_and_nothing_runs() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("hostile.yaml");
    std::fs::write(
        &input,
        crate::common::stream(&[crate::common::GATEWAY, crate::common::ROUTE, HOSTILE]),
    )
    .unwrap();
    // The invalid route name is an input error (exit 3); the page is still written.
    let file = page(dir.path(), &[input.to_str().unwrap()], 3);
    let html = std::fs::read_to_string(&file).unwrap();
    assert_eq!(
        html.matches("</script>").count(),
        2,
        "only the page's own two scripts end"
    );
    let mut browser = Browser::start();
    let path = "kuadrant|infra/gw|infra/gw#http|app/route|app/route#rule-1";
    browser.open(&url(&file));
    let rows = shown_rows(&mut browser, path);
    assert!(rows.contains(&row(
        "authpolicy.kuadrant.io:app/auth",
        "authentication#</script><script>window.__pwned=2</script>",
        "effective"
    )));
    // The graph, opened whole, and every finding (the route's name is refused, DPL1013: the
    // finding shows it) hold the hostile strings as text.
    browser.eval("document.getElementById('all-findings').open = true");
    browser.wait_for("document.querySelector('#all-findings li[data-code=DPL1013]')");
    for _ in 0..6 {
        browser.eval(
            "document.querySelectorAll('#graph li[aria-expanded=false]').forEach(li => li.click())",
        );
    }
    // What the page shows, not the data block (which holds base64 only).
    let text = browser.eval(
        "document.getElementById('graph').textContent + document.getElementById('stack').textContent",
    );
    let text = text.as_str().unwrap();
    for needle in [
        "</script><img src=x onerror=window.__pwned=1>",
        "javascript:window.__pwned=4",
        "<img src=x onerror=window.__pwned=3>",
    ] {
        assert!(text.contains(needle), "{needle} not shown as text");
    }
    assert_eq!(
        browser.eval(
            "document.querySelectorAll('img, iframe, object, embed, a[href^=javascript]').length"
        ),
        json!(0)
    );
    assert_eq!(browser.eval("document.scripts.length"), json!(2));
    assert_eq!(browser.eval("typeof window.__pwned"), json!("undefined"));
    assert_eq!(browser.requests(), vec![url(&file)], "requests");
    assert_eq!(browser.eval("window.__csp"), json!([]));
}

#[test]
fn the_graph_works_from_the_keyboard_and_search_says_when_nothing_matches() {
    let (_dir, mut browser) = browse(&["testdata/envoy/json-merge/manifests.yaml"]);
    let focused = "document.activeElement.querySelector('.name').textContent";
    browser.eval("document.querySelector('#graph li[tabindex=\"0\"]').focus()");
    assert_eq!(browser.eval(focused), json!("eg"));
    // GatewayClass eg (open) → Gateway shop/gw → listener http → route → rule.
    for key in ["ArrowDown", "ArrowRight", "ArrowRight"] {
        browser.press(key);
    }
    assert_eq!(browser.eval(focused), json!("shop/gw#http"));
    browser.press("ArrowRight");
    browser.press("ArrowRight");
    assert_eq!(browser.eval(focused), json!("shop/app"));
    browser.press("ArrowRight");
    browser.press("ArrowRight");
    browser.press("Enter");
    let path = "eg|shop/gw|shop/gw#http|shop/app|shop/app#rule-1";
    browser.wait_for(&format!(
        "(document.querySelector('[data-open-path]') || {{}}).textContent === '{path}'"
    ));
    assert_eq!(
        browser.eval("document.activeElement.dataset.pathId"),
        json!(path)
    );
    browser.press("ArrowLeft");
    assert_eq!(browser.eval(focused), json!("shop/app"));
    // The first search reads the paths (asynchronously); the status line says when it is done.
    browser.eval("document.getElementById('search').value = 'no-such-thing'; document.getElementById('search').dispatchEvent(new Event('input'))");
    browser.wait_for(
        "document.getElementById('status').textContent === 'No path matches these filters.'",
    );
    browser.eval("document.getElementById('search').value = 'admin'; document.getElementById('search').dispatchEvent(new Event('input'))");
    assert_eq!(
        browser.eval("Array.from(document.querySelectorAll('#results [data-path-id]'), e => e.dataset.pathId)"),
        json!(["eg|shop/gw|shop/gw#admin|shop/app|shop/app#rule-1"])
    );
}

#[test]
fn kuma_mesh_stacks_match_effective_and_overridden() {
    check_case(
        &["testdata/kuma-diff/a"],
        "default|kuma-demo/backend-1|inbound|kuma-demo/backend-1#http",
    );
}

/// `diff -o html`: a section per group of the text diff, before and after as the JSON says;
/// a path's changes alone from `#path=`.
#[test]
fn diff_page_groups_the_changes_as_the_text_diff() {
    let args = [
        "diff",
        "-f",
        "testdata/examples/shop",
        "--with",
        "testdata/whatif/stricter-platform-limits.yaml",
    ];
    let text = run_in(&root(), &args, None);
    let headlines = (text.stdout.lines())
        .filter(|l| l.starts_with(['~', '+', '-']))
        .count();
    let document = run_in(&root(), &[&args[..], &["-o", "json"]].concat(), None).json();
    let html = run_in(&root(), &[&args[..], &["-o", "html"]].concat(), None);
    html.code(1);
    let dir = tempfile::tempdir().unwrap();
    let file = written(dir.path(), "diff.html", &html.stdout);
    let mut browser = opened(&file);
    let sections = browser.eval(
        "Array.from(document.querySelectorAll('section.change'), s => [s.dataset.change, s.dataset.ruleKey, \
         Array.from(s.querySelectorAll('tr[data-side-row=value] pre'), p => JSON.parse(p.textContent))])",
    );
    let first = &document["changes"][0];
    assert_eq!(headlines, 1);
    assert_eq!(
        sections,
        json!([[
            first["change"],
            first["key"],
            [first["before"]["value"], first["after"]["value"]]
        ]])
    );
    let path = first["pathId"].as_str().unwrap();
    let fragment: String = path.bytes().map(|b| format!("%{b:02X}")).collect();
    browser.open(&format!("{}#path={fragment}", url(&file)));
    assert_eq!(
        browser.eval("document.querySelector('[data-open-path]').textContent"),
        json!(path)
    );
    assert_eq!(
        browser.eval("document.querySelectorAll('section.change').length"),
        json!(1)
    );
    assert_eq!(
        browser
            .requests()
            .iter()
            .filter(|u| !u.starts_with("file://"))
            .count(),
        0
    );
    assert_eq!(browser.eval("window.__csp"), json!([]));
}

/// `text` written to `dir/name`.
fn written(dir: &Path, name: &str, text: &str) -> PathBuf {
    let file = dir.join(name);
    std::fs::write(&file, text).unwrap();
    file
}

/// The Gateway `shop/gw` (class `eg`, listener `http`) with `routes` HTTPRoutes named
/// `r-000`, `r-001`, ... attached to it, each with one rule.
fn gateway_with_routes(routes: usize) -> String {
    let mut text = String::from(
        "apiVersion: gateway.networking.k8s.io/v1\nkind: Gateway\nmetadata: {name: gw, namespace: shop}\nspec:\n  gatewayClassName: eg\n  listeners:\n  - {name: http, protocol: HTTP, port: 80}\n",
    );
    for r in 0..routes {
        text.push_str(&format!(
            "---\napiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata: {{name: r-{r:03}, namespace: shop}}\nspec:\n  parentRefs: [{{name: gw}}]\n  rules:\n  - backendRefs: [{{name: app, port: 8080}}]\n"
        ));
    }
    text
}

/// One policy attached to two routes: each path's stack names its own route as the policy's
/// target (read from the graph, not from the explanation).
#[test]
fn a_policy_on_two_routes_shows_each_paths_own_route_as_its_target() {
    let manifests = gateway_with_routes(2)
        + "---\napiVersion: gateway.envoyproxy.io/v1alpha1\nkind: BackendTrafficPolicy\nmetadata: {name: both, namespace: shop}\nspec:\n  targetRefs:\n  - {group: gateway.networking.k8s.io, kind: HTTPRoute, name: r-000}\n  - {group: gateway.networking.k8s.io, kind: HTTPRoute, name: r-001}\n  timeout: {http: {requestTimeout: 5s}}\n";
    let (_dir, mut browser) = browse_text(&manifests);
    let ids: Vec<String> =
        serde_json::from_value(browser.eval_promise("dopolView.pathIds()")).unwrap();
    assert_eq!(ids.len(), 2, "{ids:?}");
    for (id, route) in ids.iter().zip(["shop/r-000", "shop/r-001"]) {
        assert!(id.contains(route), "{id} is not the path of {route}");
        shown_rows(&mut browser, id);
        let target = browser.eval(
            "document.querySelector('#stack tr[data-stack-policy] td:nth-child(3)').textContent",
        );
        assert_eq!(target, json!(format!("HTTPRoute {route}")), "path {id}");
    }
}

/// Opening a route far down a long list of a listener's routes shows every route before it
/// too, in order: the rest stays one "show more" away, and no route is left out or drawn twice.
#[test]
fn opening_a_path_deep_in_a_long_list_keeps_every_route_reachable() {
    let (_dir, mut browser) = browse_text(&gateway_with_routes(450));
    let ids: Vec<String> =
        serde_json::from_value(browser.eval_promise("dopolView.pathIds()")).unwrap();
    let deep = ids.iter().find(|id| id.contains("shop/r-420")).unwrap();
    shown_rows(&mut browser, deep);
    assert_eq!(
        browser.eval("document.querySelector('#graph [aria-selected=true]').dataset.pathId"),
        json!(deep)
    );
    let routes = "Array.from(document.querySelectorAll('#graph .name'), e => e.textContent)\
                  .filter(t => /^shop\\/r-\\d+$/.test(t))";
    loop {
        let more = browser.eval(
            "(() => { const m = document.querySelector('#graph li.more'); if (m) m.click(); return !!m; })()",
        );
        if more != json!(true) {
            break;
        }
    }
    let shown: Vec<String> = serde_json::from_value(browser.eval(routes)).unwrap();
    let expected: Vec<String> = (0..450).map(|r| format!("shop/r-{r:03}")).collect();
    assert_eq!(shown, expected);
}

/// A diff whose only change is a path added (a Gateway without policies) says so in the
/// status line, not "No differences." (the command exits 1: there is a difference).
#[test]
fn a_diff_of_paths_alone_is_not_called_no_differences() {
    let dir = tempfile::tempdir().unwrap();
    let with = written(
        dir.path(),
        "with.yaml",
        "apiVersion: gateway.networking.k8s.io/v1\nkind: Gateway\nmetadata: {name: gw2, namespace: shop}\nspec:\n  gatewayClassName: eg\n  listeners:\n  - {name: http, protocol: HTTP, port: 8080}\n---\napiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata: {name: extra, namespace: shop}\nspec:\n  parentRefs: [{name: gw2}]\n  rules:\n  - backendRefs: [{name: extra, port: 80}]\n",
    );
    let args = [
        "diff",
        "-f",
        "testdata/envoy/json-merge/manifests.yaml",
        "--with",
        with.to_str().unwrap(),
        "-o",
        "html",
    ];
    let html = run_in(&root(), &args, None);
    html.code(1);
    let mut browser = opened(&written(dir.path(), "diff.html", &html.stdout));
    assert_eq!(
        browser.eval("document.getElementById('status').textContent"),
        json!("paths added or removed shown.")
    );
    assert_eq!(
        browser.eval("document.querySelectorAll('[data-paths=added]').length"),
        json!(1)
    );
}

/// The namespace filter: a path is in a namespace when one of its namespaced elements is, or a
/// policy of its stack is (a Mesh's name is no namespace). Kuma's `kuma-system` holds only
/// policies: the paths its mesh-wide MeshTimeout reaches match it, the inbound path does not.
#[test]
fn the_namespace_filter_matches_elements_and_policies_in_it() {
    let (_dir, mut browser) = browse(&["testdata/kuma-diff/a"]);
    let results =
        "Array.from(document.querySelectorAll('#results [data-path-id]'), e => e.dataset.pathId)";
    let choose = |browser: &mut Browser, namespace: &str| {
        browser.eval(&format!(
            "(() => {{ const s = document.getElementById('filter-namespace'); s.value = '{namespace}'; s.dispatchEvent(new Event('input')); }})()"
        ));
        browser.wait_for("!document.getElementById('status').textContent.startsWith('Reading')");
    };
    choose(&mut browser, "kuma-system");
    assert_eq!(
        browser.eval(results),
        json!([
            "default|kuma-demo/backend-1|outbound|kri_m____default_",
            "default|kuma-demo/web|outbound|kri_m____default_",
            "default|kuma-demo/web|outbound|kri_msvc_default_default_kuma-demo_backend_"
        ])
    );
    choose(&mut browser, "kuma-demo");
    assert_eq!(browser.eval(&format!("{results}.length")), json!(4));
}

/// The axe-core release the accessibility check runs (npm; fetched at test time, never shipped).
const AXE: &str = "axe-core@4.11.0";

/// axe-core's script: `$DOPOL_AXE` when set, else the npm package installed under
/// target/axe-core (installed there on first use).
fn axe_source() -> String {
    if let Ok(file) = std::env::var("DOPOL_AXE") {
        return std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("DOPOL_AXE={file}: {e}"));
    }
    let dir = root().join("target/axe-core");
    let file = dir.join("node_modules/axe-core/axe.min.js");
    if !file.exists() {
        let status = std::process::Command::new("npm")
            .args(["install", "--no-audit", "--no-fund", "--silent", "--prefix"])
            .arg(&dir)
            .arg(AXE)
            .status()
            .unwrap_or_else(|e| {
                panic!("cannot run npm ({e}): the accessibility test needs {AXE} from npm; install Node.js and npm, or set DOPOL_AXE to axe.min.js")
            });
        assert!(status.success(), "npm install {AXE} failed");
    }
    std::fs::read_to_string(&file).unwrap()
}

/// The serious and critical violations axe-core finds in the page as it is now.
fn axe_violations(browser: &mut Browser) -> Value {
    browser.eval(&axe_source());
    browser.eval_promise(
        "axe.run(document).then(r => r.violations\
         .filter(v => v.impact === 'serious' || v.impact === 'critical')\
         .map(v => v.id + ' (' + v.nodes.length + '): ' + v.help + ' ' + v.nodes[0].html))",
    )
}

#[test]
fn axe_core_finds_no_serious_violation_in_the_stack_nor_the_diff() {
    let dir = tempfile::tempdir().unwrap();
    let file = page(dir.path(), &["testdata/envoy/json-merge/manifests.yaml"], 0);
    let mut browser = Browser::start();
    let fragment: String = "eg|shop/gw|shop/gw#admin|shop/app|shop/app#rule-1"
        .bytes()
        .map(|b| format!("%{b:02X}"))
        .collect();
    browser.open(&format!("{}#path={fragment}", url(&file)));
    browser.eval("document.querySelectorAll('details').forEach(d => d.open = true)");
    assert_eq!(axe_violations(&mut browser), json!([]), "view");
    let html = run_in(
        &root(),
        &[
            "diff",
            "-f",
            "testdata/examples/shop",
            "--with",
            "testdata/whatif/stricter-platform-limits.yaml",
            "-o",
            "html",
        ],
        None,
    );
    let diff = dir.path().join("diff.html");
    std::fs::write(&diff, &html.stdout).unwrap();
    browser.open(&url(&diff));
    assert_eq!(axe_violations(&mut browser), json!([]), "diff");
}
