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

unsafe extern "C" {
    /// mimalloc's collection of the calling thread's free pages (`force`: now, not after the
    /// purge delay). It is in the library `GLOBAL` links.
    fn mi_collect(force: bool);
}

fn hand_back() {
    // SAFETY: `mi_collect` takes a flag and only returns unused pages of the calling thread.
    unsafe { mi_collect(true) }
}

fn main() {
    #[cfg(not(target_os = "linux"))]
    dopol::platform::tune_memory();
    dopol::platform::set_hand_back(hand_back);
    dopol::platform::exit_after_command();
    dopol::platform::exit_now(dopol::cli::main_exit_code());
}
