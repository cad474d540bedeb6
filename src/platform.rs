//! Process-level tuning that is not about policies.

/// Turns transparent huge pages off for this process (Linux).
///
/// dopol allocates hundreds of MB of small tree nodes on big inputs and frees short-lived
/// parser buffers all the time. With THP the kernel zeroes a 2 MiB page on first touch and again
/// after every purge: on a 24 MB benchmark input it zeroed ~6 GB (2,900 huge-page faults) and
/// spent 0.6–1.5 s in the kernel; with 4 KiB pages, 0.4 s. Harmless where THP is unavailable.
pub fn tune_memory() {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: PR_SET_THP_DISABLE takes integer arguments only and changes no memory.
        let _ = unsafe { libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0) };
    }
}
