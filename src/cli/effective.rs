//! `dopol effective` (and `--uncovered`).

use super::args::{EffectiveArgs, ReportFormat};
use super::session::{self, Exit, Run, UsageError, worst};
use crate::engine::{EffectiveSet, Engine};
use crate::render;
use crate::report::filter::Filters;
use crate::report::{effective, effective_index::EffectiveIndex, uncovered};
use std::io;

/// Runs `dopol effective`.
pub fn run(effective_args: &EffectiveArgs) -> Result<Exit, UsageError> {
    let args = &effective_args.report;
    let compact = effective_args.compact;
    if compact && args.output != ReportFormat::Json {
        return Err(UsageError("--compact needs -o json".into()));
    }
    let run = Run::start(&args.input)?;
    let filters = session::filters(&args.filters, &args.input, &run.evaluated.model)?;
    let (engine, mut diagnostics) = Engine::new(&run.evaluated.model, &run.evaluated.topology);
    run.session.owned_notes(&engine);
    session::check_owned(&filters, &[&engine])?;
    crate::platform::timing::mark("start (rest)");
    let (set, engine_diagnostics) = engine.effective_all();
    diagnostics.extend(engine_diagnostics);
    crate::platform::timing::mark("fold");
    let exit = run.finish(diagnostics);
    crate::platform::timing::mark("diagnostics");

    let written = if effective_args.uncovered {
        write_uncovered(&engine, &set, &filters, args.output)
    } else {
        write_effective(&engine, &set, &filters, args.output, compact)
    };
    // The process exits next: skip freeing what may be gigabytes of trees, one node at a time.
    crate::platform::discard(set);
    crate::platform::discard(engine);
    crate::platform::discard(run);
    Ok(worst(exit, written))
}

/// Writes the `EffectivePolicyList` (or its index, or tables with "(none)" rows).
fn write_effective<'m>(
    engine: &Engine<'m>,
    set: &EffectiveSet<'m>,
    filters: &Filters,
    output: ReportFormat,
    compact: bool,
) -> Exit {
    let report = effective::build(engine, set, filters);
    crate::platform::timing::mark("report");
    let written = session::write_document(|out| match output {
        ReportFormat::Json if compact => render::write_json(out, &EffectiveIndex::new(&report)),
        ReportFormat::Json => render::effective_json::write(out, &report),
        ReportFormat::Yaml => render::write_yaml(out, &report),
        ReportFormat::Table | ReportFormat::Wide => {
            if report.items.is_empty() && report.listeners.is_empty() && report.owned.is_empty() {
                return nothing_shown(engine, "No effective policies");
            }
            let none = effective::none_rows(engine, set, filters, &report);
            render::effective::render_table(
                &report,
                &none,
                (engine.model, engine.topology),
                session::table_layout(output),
                out,
            )
        }
    });
    crate::platform::timing::mark("write");
    crate::platform::discard(report);
    written
}

/// Writes the `UncoveredPathList`.
fn write_uncovered<'m>(
    engine: &Engine<'m>,
    set: &EffectiveSet<'m>,
    filters: &Filters,
    output: ReportFormat,
) -> Exit {
    let report = uncovered::build(engine, set, filters);
    if output.is_table() && report.items.is_empty() {
        let kinds: Vec<&str> = report.kinds.iter().map(|k| k.kind).collect();
        let what = if kinds.is_empty() && engine.owned().any(|o| !o.items.is_empty()) {
            "No policy kinds to check (the input's policies build paths of their own hierarchy, only where they apply; name a Gateway API kind with --kind)".into()
        } else if kinds.is_empty() {
            "No policy kinds to check (the input has no policies; name one with --kind)".into()
        } else {
            format!("Every path has an effective {}", kinds.join(", "))
        };
        return session::write_document(|_| nothing_shown(engine, &what));
    }
    session::write_report_with(output, &report, |layout| {
        render::effective::uncovered_table(&report, engine.model, engine.topology, layout)
    })
}

/// Says on stderr that a table would be empty, and of how many paths.
fn nothing_shown(engine: &Engine<'_>, what: &str) -> io::Result<()> {
    super::console::say!(
        "{what} ({} evaluated).",
        crate::words::counted(engine.topology.paths.len(), "path")
    );
    Ok(())
}
