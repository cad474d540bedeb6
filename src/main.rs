//! The `dopol` binary: everything lives in the library; this only tunes the allocator and the
//! process, and exits with the code the command returned.

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Tunes memory before anything allocates: the Rust runtime allocates before `main`, and the
/// allocator's first pages would otherwise be huge pages (see [`dopol::platform::tune_memory`]).
/// An `.init_array` entry runs when the executable is loaded, before the runtime starts.
#[cfg(target_os = "linux")]
#[used]
#[unsafe(link_section = ".init_array")]
static TUNE_MEMORY_FIRST: extern "C" fn() = {
    extern "C" fn tune() {
        dopol::platform::tune_memory();
    }
    tune
};

fn main() {
    #[cfg(not(target_os = "linux"))]
    dopol::platform::tune_memory();
    dopol::platform::exit_after_command();
    dopol::platform::exit_now(dopol::cli::main_exit_code());
}
