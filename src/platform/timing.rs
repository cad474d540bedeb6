//! Stage timings: with `DOPOL_TIMINGS` set, each stage of a run prints its wall time to stderr.
//!
//! Why not only `perf`: a sampling profile with call stacks slows a run unevenly (the unwinder
//! copies each sample's stack), and says how much CPU a function took, not when. Which stages
//! run on one core, and for how long, is what speeding up a two-core run needs, and a line per
//! stage says it at no cost when unset (one relaxed load). Not a user-facing setting: it is
//! for measuring (docs/performance.md).

use std::io::Write;
use std::sync::OnceLock;
use std::time::Instant;

/// When the run started, if timings are on.
static START: OnceLock<Option<Instant>> = OnceLock::new();
/// The end of the last stage, in nanoseconds since `START`.
static LAST: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

fn start() -> Option<Instant> {
    *START.get_or_init(|| std::env::var_os("DOPOL_TIMINGS").map(|_| Instant::now()))
}

/// Starts the clock (the binary calls it first, so that the first stage includes nothing
/// before it).
pub fn begin() {
    let _ = start();
}

/// Ends `stage`: prints its wall time since the last stage ended and the time since the start.
pub fn mark(stage: &str) {
    let Some(start) = start() else { return };
    let now = start.elapsed().as_nanos() as u64;
    let last = LAST.swap(now, std::sync::atomic::Ordering::Relaxed);
    let ms = |ns: u64| ns as f64 / 1e6;
    let _ = writeln!(
        std::io::stderr(),
        "dopol timing: {stage:<24} {:>9.1} ms  (at {:>9.1} ms)",
        ms(now.saturating_sub(last)),
        ms(now)
    );
}
