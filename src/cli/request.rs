//! `dopol request`: reads the request first (a malformed one is a usage error before any
//! manifest is read), then the manifests, then prints the trace.

use super::args::RequestArgs;
use super::session::{self, Exit, Run, UsageError, worst};
use crate::engine::Engine;
use crate::render::request as render;
use crate::report::filter;
use crate::report::request::{self, Detail, input};

/// Runs `dopol request`.
pub fn run(args: &RequestArgs) -> Result<Exit, UsageError> {
    let wanted = input::RequestArgs {
        method_url: args.method.clone().zip(args.url.clone()),
        grpc: args.grpc.clone(),
        authority: args.authority.clone(),
        tls: args.tls,
        headers: args.headers.clone(),
        attributes: args.attributes.clone(),
    };
    let parsed = input::parse(&wanted).map_err(UsageError)?;
    let registry = super::session::registry(&args.input)?;
    let kinds = filter::parse_kinds(&registry, &args.kinds).map_err(UsageError)?;
    let run = Run::start(&args.input)?;
    let (engine, mut diagnostics) = Engine::new(&run.evaluated.model, &run.evaluated.topology);
    run.session.owned_notes(&engine);
    let shows_kind = |k| filter::shows_kind_index(&registry, &kinds, k);
    let gateway = args.gateway.as_deref();
    let (trace, more) = request::simulate(&engine, &parsed, gateway, shows_kind, Detail::Full)
        .map_err(UsageError)?;
    diagnostics.extend(more);
    let exit = run.finish(diagnostics);
    let written =
        session::write_report_with(args.output, &trace, |layout| render::text(&trace, layout));
    // Every request the rule matches answered 500 by unresolvable backends is no success.
    let every_500 = trace
        .backend_failure
        .as_ref()
        .is_some_and(|f| f.share == crate::report::request::backends::Share::All);
    let found = if trace.matched.is_some() && !every_500 {
        Exit::Success
    } else {
        Exit::Findings
    };
    Ok(worst(worst(exit, written), found))
}
