//! `dopol view`: the effective-policy stack of every path as one self-contained HTML page.

use super::args::{FilterArgs, ViewArgs};
use super::session::{self, Exit, Run, UsageError, worst};
use crate::engine::observed::Observed;
use crate::engine::{Engine, FoldParts};
use crate::lint::{self, LintOptions};
use crate::render::view::data::{ByNumber, Json};
use crate::render::view::{Mode, Part, write_page};
use crate::report::effective_index::EffectiveIndex;
use crate::report::{effective, view};
use std::io::{self, Write};

/// Runs `dopol view`.
pub fn run(args: &ViewArgs) -> Result<Exit, UsageError> {
    let run = Run::start(&args.input)?;
    let model = &run.evaluated.model;
    let filters = session::filters(&FilterArgs::default(), &args.input, model)?;
    let (engine, mut diagnostics) = Engine::new(model, &run.evaluated.topology);
    run.session.owned_notes(&engine);
    let (set, more) = engine.effective_all();
    diagnostics.extend(more);
    let (observed, more) = Observed::keeping(&engine, FoldParts::All);
    diagnostics.extend(more);
    let exit = run.finish(diagnostics);
    let options = LintOptions {
        namespace: args.input.namespace.clone(),
        ..LintOptions::default()
    };
    let findings = lint::apply(lint::collect(&run.evaluated), model, &options);
    let lint_json = crate::render::lint::json_diagnostics(&findings.shown, &model.sources);
    let report = effective::build(&engine, &set, &filters);
    let index = EffectiveIndex::new(&report);
    let data = view::build(&engine, &observed, &filters, &index.numbers());
    let effective = ByNumber(index.policy_count(), |n, out: &mut Vec<u8>| {
        index.policy(n).write(out)
    });
    let no_findings = Vec::new();
    let lint_list = lint_json.as_array().unwrap_or(&no_findings);
    let written = write_to(&args.output, |out| {
        write_page(
            out,
            Mode::View,
            &[
                ("policies", Part::Items(&data.policies)),
                ("nodes", Part::Items(&data.nodes)),
                ("pathIds", Part::Items(&data.path_ids)),
                ("paths", Part::Items(&data.paths)),
                ("foldHeads", Part::Items(&data.fold_heads)),
                ("folds", Part::Items(&data.folds)),
                ("lost", Part::Items(&data.lost)),
                ("strings", Part::Items(&data.strings)),
                ("effective", Part::Items(&effective)),
                ("lint", Part::Items(lint_list)),
            ],
        )
    });
    crate::platform::discard(report);
    crate::platform::discard(observed);
    crate::platform::discard(set);
    crate::platform::discard(engine);
    Ok(worst(exit, written))
}

/// Writes the page to `output` (`-`: stdout); a file that cannot be written is said (exit 3).
pub(super) fn write_to(output: &str, write: impl FnOnce(&mut dyn Write) -> io::Result<()>) -> Exit {
    if output == "-" {
        return session::write_document(write);
    }
    let written = std::fs::File::create(output).and_then(|file| {
        let mut out = io::BufWriter::with_capacity(1 << 16, file);
        write(&mut out)?;
        out.flush()
    });
    match written {
        Ok(()) => Exit::Success,
        Err(e) => {
            super::console::say!("error: cannot write {output}: {e}");
            Exit::Input
        }
    }
}
