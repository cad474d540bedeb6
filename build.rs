//! Links the `dopol` binary at a fixed address (Linux, glibc) instead of as a position-
//! independent executable.
//!
//! A PIE's pointers to its own data (about 65,000 of them: clap's and the CRD catalogue's
//! tables, trait-object tables, string slices in statics) are written by the dynamic loader at
//! every start: 1.5 MB of relocations read and 1.5 MB of data copied and written, about 400 page
//! faults, a quarter of the CPU time of linting a 100-object repository
//! (docs/performance.md#small-runs). Linked at a fixed address those pointers are final in the
//! file, and their pages are read only where they are used. The code stays position-independent
//! (only the link changes), and the libraries still load at random addresses; the executable's
//! own address is no longer randomised.
fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let env = std::env::var("CARGO_CFG_TARGET_ENV").unwrap_or_default();
    let static_crt = std::env::var("CARGO_CFG_TARGET_FEATURE")
        .unwrap_or_default()
        .split(',')
        .any(|feature| feature == "crt-static");
    if os == "linux" && env == "gnu" && !static_crt {
        println!("cargo:rustc-link-arg-bins=-no-pie");
    }
}
