//! `dopol effective`.

use super::args::{EffectiveArgs, ReportFormat};
use super::session::{self, Exit, Session, UsageError};
use crate::engine::Engine;
use crate::pipeline;
use crate::render;
use crate::report::effective;

/// Runs `dopol effective`.
pub fn run(args: &EffectiveArgs) -> Result<Exit, UsageError> {
    let session = Session::new(&args.input.display);
    let evaluated = pipeline::evaluate_files(&session::input_options(&args.input));
    let filters = session::filters(&args.filters, &args.input, &evaluated.model)?;
    let (engine, mut diagnostics) = Engine::new(&evaluated.model, &evaluated.topology);
    let (set, engine_diagnostics) = engine.effective_all();
    diagnostics.extend(evaluated.diagnostics().cloned());
    diagnostics.extend(engine_diagnostics);
    super::print_stats(&session, &evaluated);
    session.print_diagnostics(&mut diagnostics, &evaluated.model.sources);

    let report = effective::build(&engine, &set, &filters);
    let written = session::write_stdout(|out| match args.output {
        ReportFormat::Json => render::effective_json::write(out, &report),
        ReportFormat::Yaml => render::write_yaml(out, &report),
        ReportFormat::Table => {
            if report.items.is_empty() {
                eprintln!(
                    "No effective policies ({} paths evaluated).",
                    evaluated.topology.paths.len()
                );
                return Ok(());
            }
            out.write_all(
                render::effective::render_table(&report, &evaluated.model, &evaluated.topology)
                    .as_bytes(),
            )
        }
    });
    if let Err(e) = written {
        eprintln!("error: cannot write output: {e}");
        return Ok(Exit::Internal);
    }
    let exit = session::input_exit(&diagnostics);
    // The process exits next: skip freeing what may be gigabytes of trees, one node at a time.
    std::mem::forget(report);
    std::mem::forget(set);
    std::mem::forget(engine);
    std::mem::forget(evaluated);
    Ok(exit)
}
