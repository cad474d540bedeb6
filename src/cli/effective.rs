//! `dopol effective`.

use super::args::{EffectiveArgs, ReportFormat};
use super::session::{self, Exit, Run, UsageError, worst};
use crate::engine::Engine;
use crate::render;
use crate::report::{effective, effective_index::EffectiveIndex};

/// Runs `dopol effective`.
pub fn run(effective_args: &EffectiveArgs) -> Result<Exit, UsageError> {
    let args = &effective_args.report;
    let compact = effective_args.compact;
    if compact && args.output != ReportFormat::Json {
        return Err(UsageError("--compact needs -o json".into()));
    }
    let run = Run::start(&args.input)?;
    let mut filters = session::filters(&args.filters, &args.input, &run.evaluated.model)?;
    filters.chains = run.evaluated.topology.chains.clone();
    let (engine, mut diagnostics) = Engine::new(&run.evaluated.model, &run.evaluated.topology);
    let (set, engine_diagnostics) = engine.effective_all();
    diagnostics.extend(engine_diagnostics);
    let exit = run.finish(diagnostics);

    let report = effective::build(&engine, &set, &filters);
    let written = session::write_document(|out| match args.output {
        ReportFormat::Json if compact => render::write_json(out, &EffectiveIndex::new(&report)),
        ReportFormat::Json => render::effective_json::write(out, &report),
        ReportFormat::Yaml => render::write_yaml(out, &report),
        ReportFormat::Table => {
            if report.items.is_empty() {
                eprintln!(
                    "No effective policies ({} evaluated).",
                    crate::words::counted(run.evaluated.topology.paths.len(), "path")
                );
                return Ok(());
            }
            out.write_all(
                render::effective::render_table(
                    &report,
                    &run.evaluated.model,
                    &run.evaluated.topology,
                )
                .as_bytes(),
            )
        }
    });
    // The process exits next: skip freeing what may be gigabytes of trees, one node at a time.
    crate::platform::discard(report);
    crate::platform::discard(set);
    crate::platform::discard(engine);
    crate::platform::discard(run);
    Ok(worst(exit, written))
}
