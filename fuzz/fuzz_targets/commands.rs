//! Raw bytes as one input file, through a command the last byte picks among every report
//! command in every format, `lint` in every format and `diff` against a fixture.
#![no_main]

#[path = "common.rs"]
mod common;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    common::quiet();
    // The last byte picks the command, so that any manifest file is a seed as it is.
    let Some((&choice, _)) = bytes.split_last() else {
        return;
    };
    let file = common::scratch("input.yaml");
    std::fs::write(&file, bytes).expect("write input");
    let file = file.display().to_string();
    common::one_command(choice, &file, "default/r0", "default/p0");
});
