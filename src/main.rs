//! The `dopol` binary: everything lives in the library; this only tunes the allocator and the
//! process, and exits with the code the command returned.

/// mimalloc, with what the run keeps to its end in kept storage
/// ([`dopol::platform::kept`]).
#[global_allocator]
static GLOBAL: dopol::platform::kept::Keeping<mimalloc::MiMalloc> =
    dopol::platform::kept::Keeping(mimalloc::MiMalloc);

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
    /// Sets one of mimalloc's options (`mi_option_t`, in `mimalloc.h`).
    fn mi_option_set(option: std::ffi::c_int, value: std::ffi::c_long);
}

/// `mi_option_purge_delay` in `mimalloc.h` (the 16th option, in v2 and v3 alike; the test below
/// checks that it reads as its documented default).
const MI_OPTION_PURGE_DELAY: std::ffi::c_int = 15;

/// How long (ms) the allocator keeps a freed page before handing it back to the system.
///
/// mimalloc's default (1000 ms in v3, the version linked) is longer than most of dopol's stages:
/// each stage's freed pages were still held when the next one filled new ones, and the run's
/// peak memory was the sum.
/// At 20 ms the pages go back soon after they are free. On the 49 MB benchmark that takes 25 MB
/// off `effective`'s peak and 45 MB off `lint`'s, with no change in time measured in paired
/// runs (1 ms saves a few MB more; the time stayed within the runs' noise at both).
const PURGE_DELAY_MS: std::ffi::c_long = 20;

fn hand_back() {
    // SAFETY: `mi_collect` takes a flag and only returns unused pages of the calling thread.
    unsafe { mi_collect(true) }
}

fn main() {
    dopol::platform::timing::begin();
    // A delay the user set for mimalloc (`MIMALLOC_PURGE_DELAY`) is theirs to keep.
    if std::env::var_os("MIMALLOC_PURGE_DELAY").is_none() {
        // SAFETY: sets an integer option; mimalloc reads it at its next purge.
        unsafe { mi_option_set(MI_OPTION_PURGE_DELAY, PURGE_DELAY_MS) };
    }
    #[cfg(not(target_os = "linux"))]
    dopol::platform::tune_memory();
    dopol::platform::kept::reserve();
    dopol::platform::set_hand_back(hand_back);
    dopol::platform::exit_after_command();
    dopol::platform::exit_now(dopol::cli::main_exit_code());
}

#[cfg(test)]
mod tests {
    unsafe extern "C" {
        /// Reads one of mimalloc's options.
        fn mi_option_get(option: std::ffi::c_int) -> std::ffi::c_long;
    }

    #[test]
    fn the_purge_delay_option_is_the_one_mimalloc_documents() {
        // SAFETY: reads an integer option.
        let delay = unsafe { mi_option_get(super::MI_OPTION_PURGE_DELAY) };
        let expected = std::env::var("MIMALLOC_PURGE_DELAY")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(1000);
        assert_eq!(delay, expected);
    }
}
