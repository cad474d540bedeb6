//! Inputs the fuzz targets once broke dopol with (testdata/fuzz/, see its README), through every
//! report command and `lint`: no panic, no exit 4 ("a bug"), no hang.

use crate::common::dopol;
use std::path::Path;
use std::time::{Duration, Instant};

/// Far above what any of these inputs needs in a debug build; a hang is minutes.
const SLOW: Duration = Duration::from_secs(20);

#[test]
fn every_fuzz_finding_stays_fixed() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/fuzz");
    let mut inputs: Vec<_> = std::fs::read_dir(&dir)
        .expect("testdata/fuzz")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .collect();
    inputs.sort();
    for input in &inputs {
        let file = input.display().to_string();
        let commands: [&[&str]; 7] = [
            &["effective", "-o", "json"],
            &["effective"],
            &["status", "-o", "json"],
            &["overridden", "-o", "json"],
            &["topology"],
            &["lint", "-o", "json"],
            &["lint", "-o", "sarif"],
        ];
        for args in commands {
            let mut all = args.to_vec();
            all.extend(["-f", &file]);
            let started = Instant::now();
            let out = dopol(&all);
            assert!(
                started.elapsed() < SLOW,
                "{all:?} took {:?}",
                started.elapsed()
            );
            assert!(
                out.code != 4 && !out.stderr.contains("panicked"),
                "{all:?}: exit {}\n{}",
                out.code,
                out.stderr
            );
        }
    }
}
