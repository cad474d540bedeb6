//! Times each stage of `dopol effective -o json` in-process, on the same code path as the CLI.
//!
//! `cargo run --release --example stage_timings -- DIR...`
//!
//! Stages: load (read + parse YAML + decode: files → documents → objects, each decoded in the
//! task that parsed it, so the two cannot be timed apart), gather the model, build the
//! topology, run the engine over every path, and render the JSON document into a sink. The
//! ratio `total / load` shows what evaluation and output add to the parse.

use dopol::engine::Engine;
use dopol::load::files::WorkTree;
use dopol::load::{self, ObjectOptions};
use dopol::model::{Model, ModelOptions, known_kinds, prepare};
use dopol::report::effective;
use dopol::report::filter::Filters;
use dopol::topology::Topology;
use std::io::Write;
use std::time::Instant;

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Counts bytes written, like `> /dev/null` but measurable.
struct Sink(usize);

impl Write for Sink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0 += buf.len();
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn main() {
    dopol::platform::tune_memory();
    let args: Vec<String> = std::env::args().skip(1).collect();
    assert!(!args.is_empty(), "usage: stage_timings DIR...");
    let model_options = ModelOptions::default();
    let kinds = known_kinds(&model_options.registry);
    let options = ObjectOptions {
        default_namespace: "default",
        kinds: &kinds,
    };
    let inputs = load::Inputs {
        args: &args,
        excludes: &load::ignores::Excludes::default(),
        overlay: &load::Overlay::default(),
        tree: &WorkTree,
    };

    let start = Instant::now();
    let loaded = load::load(
        dopol::source::SourceMap::new(),
        &inputs,
        &options,
        &|object| {
            let (registry, catalog) = (&model_options.registry, &model_options.catalog);
            prepare(object, registry, catalog, dopol::model::RuleValues::All)
        },
        &mut std::io::empty(),
    );
    let parse = start.elapsed();
    let bytes: usize = loaded.sources.iter().map(|(_, f)| f.text().len()).sum();
    let documents = loaded.stats.documents;

    let t = Instant::now();
    let model = Model::build(loaded, &model_options);
    let decode = t.elapsed();

    let t = Instant::now();
    let topology = Topology::build(&model);
    let topo = t.elapsed();

    let t = Instant::now();
    let (engine, _) = Engine::new(&model, &topology);
    let (set, _) = engine.effective_all();
    let merge = t.elapsed();

    let t = Instant::now();
    let report = effective::build(&engine, &set, &Filters::default());
    let report_time = t.elapsed();
    let mut sink = Sink(0);
    dopol::render::effective_json::write(&mut sink, &report).expect("render");
    let render = t.elapsed();
    let total = start.elapsed();

    let ms = |d: std::time::Duration| d.as_secs_f64() * 1000.0;
    println!(
        "input      {:.1} MB, {documents} documents, {} paths, {} effective policies",
        bytes as f64 / 1e6,
        topology.paths.len(),
        set.entries.len()
    );
    println!(
        "load       {:8.1} ms  ({:.1} MB/s)",
        ms(parse),
        bytes as f64 / 1e6 / parse.as_secs_f64()
    );
    println!("gather     {:8.1} ms", ms(decode));
    println!("topology   {:8.1} ms", ms(topo));
    println!("engine     {:8.1} ms", ms(merge));
    println!(
        "render     {:8.1} ms  ({:.1} MB of JSON; {:.1} ms building the report)",
        ms(render),
        sink.0 as f64 / 1e6,
        ms(report_time)
    );
    println!(
        "total      {:8.1} ms  ({:.2}x load)",
        ms(total),
        total.as_secs_f64() / parse.as_secs_f64()
    );
}
