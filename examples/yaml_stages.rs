//! Times the YAML stage's parts on one thread: the fast path's scanner alone, the scanner with
//! the tree built from its events (each document's tree dropped at once, as a parse task
//! drops what it does not keep), the same with every tree kept, and dropping those trees.
//!
//! `cargo run --release --example yaml_stages -- FILE`
//!
//! It answers how much of the parse a design without trees (validation and decoding read
//! straight from the scanner's events) could save: docs/performance.md, "What the goals would
//! take".

use std::time::{Duration, Instant};

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn timed<T>(work: impl FnOnce() -> T) -> (T, Duration) {
    let start = Instant::now();
    let out = work();
    (out, start.elapsed())
}

fn main() {
    let path = std::env::args().nth(1).expect("usage: yaml_stages FILE");
    let text = std::fs::read_to_string(&path).expect("a readable UTF-8 file");
    let documents = dopol::yaml::split_documents(&text);
    let source = dopol::source::SourceId::default();
    let mut diagnostics = Vec::new();
    let (events, scan) = timed(|| {
        (documents.iter())
            .filter_map(|range| dopol::yaml::fast_path_events(&text[range.clone()]))
            .map(|events| events.len())
            .sum::<usize>()
    });
    let (_, build) = timed(|| {
        for range in &documents {
            drop(dopol::yaml::parse_chunk(
                source,
                &text,
                range.clone(),
                &mut diagnostics,
            ));
        }
    });
    let mut again = Vec::new();
    let (kept, build_kept) = timed(|| {
        (documents.iter())
            .map(|range| dopol::yaml::parse_chunk(source, &text, range.clone(), &mut again))
            .collect::<Vec<_>>()
    });
    let ((), drop_kept) = timed(|| drop(kept));
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    println!(
        "{} documents, {events} fast-path events, {} diagnostics",
        documents.len(),
        diagnostics.len()
    );
    println!("scanner alone                 {:8.1} ms", ms(scan));
    println!("scanner + trees, each dropped {:8.1} ms", ms(build));
    println!("scanner + trees, all kept     {:8.1} ms", ms(build_kept));
    println!("dropping the kept trees       {:8.1} ms", ms(drop_kept));
}
