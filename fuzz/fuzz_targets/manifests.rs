//! Valid manifest sets built from the bytes (`dopol::testkit`: Gateways, listeners, routes,
//! and policies of every built-in family whose targets name what was generated), through every
//! command (the first byte picks which), `diff` against the same set without its last object,
//! and `request`.
#![no_main]

#[path = "common.rs"]
mod common;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    common::quiet();
    let Some((&choice, bytes)) = bytes.split_first() else {
        return;
    };
    let set = dopol::testkit::manifests(bytes);
    let file = common::scratch("set.yaml");
    std::fs::write(&file, set.documents.join("---\n")).expect("write input");
    let fewer = common::scratch("fewer.yaml");
    let kept = &set.documents[..set.documents.len().saturating_sub(1)];
    std::fs::write(&fewer, kept.join("---\n")).expect("write input");
    let (file, fewer) = (file.display().to_string(), fewer.display().to_string());
    let route = set
        .documents
        .iter()
        .find(|d| d.contains("\nkind: HTTPRoute\n"))
        .and_then(|d| {
            let name = d.split("metadata: {name: ").nth(1)?.split(',').next()?;
            let namespace = d.split("namespace: ").nth(1)?.split('}').next()?;
            Some(format!("{namespace}/{name}"))
        })
        .unwrap_or_else(|| "default/r0".to_string());
    let policy = set
        .policies
        .first()
        .map_or_else(|| "default/p0".to_string(), |(locator, _)| locator.clone());
    match choice % 8 {
        0 => common::run(&["diff", &fewer, &file]),
        1 => common::run(&["request", "-f", &file, "GET", "http://a.example.com/p0"]),
        _ => common::one_command(choice / 8, &file, &route, &policy),
    }
});
