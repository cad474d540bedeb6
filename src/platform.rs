//! Process-level tuning that is not about policies.

pub mod kept;
pub mod timing;

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

static EXIT_AFTER_COMMAND: std::sync::atomic::AtomicBool =
    std::sync::atomic::AtomicBool::new(false);

/// Says that the process exits when the command returns (the binary's `main`), so that
/// [`discard`] may skip freeing.
pub fn exit_after_command() {
    EXIT_AFTER_COMMAND.store(true, std::sync::atomic::Ordering::Relaxed);
}

/// Ends the process with `code` once stdout is flushed, without running exit handlers.
///
/// The only handler there is to run is the allocator's: it hands each of its pages back to the
/// system one `madvise` at a time, which the exit itself does at once (on a small run that was
/// a tenth of the wall time). Output is written and flushed by then; stderr is unbuffered.
pub fn exit_now(code: i32) -> ! {
    use std::io::Write;
    let _ = std::io::stdout().flush();
    #[cfg(unix)]
    {
        // SAFETY: `_exit` takes an integer and does not return.
        unsafe { libc::_exit(code) }
    }
    #[cfg(not(unix))]
    std::process::exit(code)
}

/// Gets rid of what a command built: when the process exits next, by not freeing it (freeing
/// gigabytes of trees one node at a time costs a big run a noticeable share of its time); else
/// (the library in a longer-lived process: tests, fuzzing) by dropping it.
pub fn discard<T>(value: T) {
    if EXIT_AFTER_COMMAND.load(std::sync::atomic::Ordering::Relaxed) {
        std::mem::forget(value);
    } else {
        drop(value);
    }
}

/// The binary's allocator's way to give the pages of freed memory back to the system now.
static HAND_BACK: std::sync::OnceLock<fn()> = std::sync::OnceLock::new();

/// Registers `hook` as what [`hand_back_freed_memory`] runs on each thread (the binary does, as
/// only it knows its allocator).
pub fn set_hand_back(hook: fn()) {
    let _ = HAND_BACK.set(hook);
}

/// Gives back to the system the memory a finished stage freed (the load's trees, once the model
/// is built from them), on every worker and on the caller.
///
/// The allocator keeps freed pages for reuse and returns them only after a delay, per thread: a
/// parse on every core leaves each worker holding pages that the model, built on one thread,
/// never reuses. The binary shortens that delay for the whole run (its `PURGE_DELAY_MS`); this
/// hands back what is left at once, at the one point where a stage frees most of what it built.
pub fn hand_back_freed_memory() {
    let Some(&hook) = HAND_BACK.get() else {
        return;
    };
    if let Ok(pool) = workers() {
        pool.broadcast(|_| hook());
    }
    hook();
}

/// Unmaps the pages of the executable's file that the run has read so far (Linux; the binary
/// only, as [`discard`]): the pages of the loading stage's code and of the CRDs compiled in
/// are not needed again, and later stages map back only what they run.
///
/// The kernel maps the executable in 64 KiB runs around each page a run touches: 10 MiB of the
/// 14 MB binary were resident at the peak of every command on the 49 MB benchmark. The pages
/// stay in the page cache, so mapping one back costs a minor fault.
///
/// Only mappings that cannot be written and hold no page of their own are handed back: a
/// private mapping's written pages (the relocated read-only data) would be lost, not reread.
pub fn hand_back_executable_pages() {
    #[cfg(target_os = "linux")]
    {
        if EXIT_AFTER_COMMAND.load(std::sync::atomic::Ordering::Relaxed) {
            hand_back_executable_now();
        }
    }
}

/// [`hand_back_executable_pages`] in any process.
#[cfg(target_os = "linux")]
fn hand_back_executable_now() {
    let (Ok(exe), Ok(smaps)) = (
        std::fs::read_link("/proc/self/exe"),
        std::fs::read_to_string("/proc/self/smaps"),
    ) else {
        return;
    };
    let Some(exe) = exe.to_str() else {
        return;
    };
    for (start, end) in file_only_mappings(&smaps, exe) {
        // SAFETY: advice on a whole mapping of the executable's file that is not writable and
        // has no page of its own (no private copy): `MADV_DONTNEED` unmaps its pages, and the
        // next access maps the file's unchanged bytes again.
        unsafe {
            libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_DONTNEED);
        }
    }
}

/// The address ranges of the mappings of `path` in `smaps` (`/proc/<pid>/smaps`) that are not
/// writable and have no anonymous (privately copied) pages.
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
fn file_only_mappings(smaps: &str, path: &str) -> Vec<(usize, usize)> {
    let mut found = Vec::new();
    // The mapping being read: its range, and whether it is a candidate so far.
    let mut current: Option<(usize, usize)> = None;
    for line in smaps.lines() {
        let mut fields = line.split_ascii_whitespace();
        let first = fields.next().unwrap_or_default();
        if let Some((start, end)) = first.split_once('-')
            && let (Ok(start), Ok(end)) = (
                usize::from_str_radix(start, 16),
                usize::from_str_radix(end, 16),
            )
        {
            let perms = fields.next().unwrap_or_default();
            let name = fields.nth(3).unwrap_or_default();
            current = (name == path && perms.starts_with('r') && !perms.contains('w'))
                .then_some((start, end));
        } else if first == "Anonymous:"
            && let Some(range) = current.take()
            && fields.next() == Some("0")
        {
            found.push(range);
        }
    }
    found
}

/// The stack of every dopol worker thread. The `cel` crate's parser and interpreter recurse once
/// per tree level and use up to ~40 KiB per level in a debug build; the worst tree the expression
/// limits allow needs about 16 MiB there. This is address space: only touched pages are committed.
pub const WORKER_STACK_BYTES: usize = 64 << 20;

/// What a panic inside deep work (the `cel` crate) is reported as.
pub const PANIC_MESSAGE: &str = "internal error: the CEL library panicked";

thread_local! {
    /// Whether this thread is one of [`workers`], whose stack fits any deep job.
    static DEEP: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// dopol's one thread pool: the parallel loops of a command and the deep recursive jobs share it,
/// so a deep job submitted from a parallel loop runs inline on a stack that fits it.
fn workers() -> Result<&'static rayon::ThreadPool, String> {
    static POOL: std::sync::OnceLock<Result<rayon::ThreadPool, String>> =
        std::sync::OnceLock::new();
    POOL.get_or_init(|| {
        rayon::ThreadPoolBuilder::new()
            .thread_name(|i| format!("dopol-{i}"))
            .stack_size(WORKER_STACK_BYTES)
            .start_handler(|_| DEEP.set(true))
            .build()
            .map_err(|error| format!("cannot start worker threads: {error}"))
    })
    .as_ref()
    .map_err(Clone::clone)
}

/// Runs a whole command on [`workers`], so that its `par_iter`s run there (and not on rayon's
/// global pool, whose threads have small stacks). Runs inline when threads cannot be started.
pub fn on_workers<T: Send>(job: impl FnOnce() -> T + Send) -> T {
    match workers() {
        Ok(pool) if !DEEP.get() => pool.install(job),
        _ => job(),
    }
}

/// Runs a deeply recursive `job` on a stack of [`WORKER_STACK_BYTES`]; a panic becomes an error.
///
/// On a worker it runs inline. On another rayon pool's thread it runs on a scoped thread of its
/// own: `install` from there would, while waiting, run that pool's other jobs on the waiting
/// thread's small stack, nesting one job in another until the stack overflows. Anywhere else it
/// runs on the workers.
pub fn deep<T: Send>(job: impl FnOnce() -> T + Send) -> Result<T, String> {
    let guarded = || {
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(job))
            .map_err(|_| PANIC_MESSAGE.to_string())
    };
    if DEEP.get() {
        guarded()
    } else if rayon::current_thread_index().is_some() {
        std::thread::scope(|scope| {
            std::thread::Builder::new()
                .stack_size(WORKER_STACK_BYTES)
                .spawn_scoped(scope, guarded)
                .map_err(|error| format!("cannot start a worker thread: {error}"))?
                .join()
                .unwrap_or_else(|_| Err(PANIC_MESSAGE.to_string()))
        })
    } else {
        workers()?.install(guarded)
    }
}

/// A whole file mapped read-only into memory, for reading a big input without copying it.
///
/// The point is what happens after parsing: the text of a big input is read again only for
/// the few places diagnostics and re-reads point at, and [`Mapped::release_range`] hands its
/// pages back, so they stop counting against the process (on the 49 MB benchmark, the input
/// was an eighth of peak memory). A released page is read again from the page cache on first
/// touch. The mapping is private and the file is not expected to change while dopol runs
/// (`docs/limits.md`): a file truncated meanwhile ends the process with `SIGBUS`, and one
/// rewritten in place meanwhile is read as its new bytes wherever it is read again.
#[cfg(unix)]
pub struct Mapped {
    start: std::ptr::NonNull<u8>,
    len: usize,
    /// The page-table span (by address, divided by [`table_span`]) the last stretch read again
    /// ended in, kept in until a read moves on from it ([`Mapped::read_again_from`]);
    /// `usize::MAX` for none.
    current_span: std::sync::atomic::AtomicUsize,
}

// SAFETY: the mapping is read-only and owned by this value; sharing `&[u8]` across threads is
// as safe as for any immutable buffer.
#[cfg(unix)]
unsafe impl Send for Mapped {}
// SAFETY: as for `Send`: nothing writes through the mapping.
#[cfg(unix)]
unsafe impl Sync for Mapped {}

#[cfg(unix)]
impl Mapped {
    /// Maps the first `len` bytes of `file` (`len` > 0), reading them in at once.
    pub fn map(file: &std::fs::File, len: usize) -> std::io::Result<Mapped> {
        use std::os::unix::io::AsRawFd;
        if len == 0 {
            return Err(std::io::Error::other("cannot map an empty file"));
        }
        #[cfg(target_os = "linux")]
        let flags = libc::MAP_PRIVATE | libc::MAP_POPULATE;
        #[cfg(not(target_os = "linux"))]
        let flags = libc::MAP_PRIVATE;
        // SAFETY: a fresh read-only private mapping of an open descriptor; the result is
        // checked before use and unmapped exactly once, in `drop`.
        let start = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                len,
                libc::PROT_READ,
                flags,
                file.as_raw_fd(),
                0,
            )
        };
        if start == libc::MAP_FAILED {
            return Err(std::io::Error::last_os_error());
        }
        let start = std::ptr::NonNull::new(start.cast::<u8>())
            .ok_or_else(|| std::io::Error::other("mmap returned null"))?;
        Ok(Mapped {
            start,
            len,
            current_span: std::sync::atomic::AtomicUsize::new(usize::MAX),
        })
    }

    /// The mapped bytes.
    pub fn bytes(&self) -> &[u8] {
        // SAFETY: `start..start + len` is mapped readable for as long as `self` lives.
        unsafe { std::slice::from_raw_parts(self.start.as_ptr(), self.len) }
    }

    /// Hands back the pages wholly inside `range` (Linux); the next read of a page brings it
    /// in again. Elsewhere a hint the system may ignore.
    pub fn release_range(&self, range: std::ops::Range<usize>) {
        let page = page_size();
        let end = if range.end >= self.len {
            self.len
        } else {
            range.end / page * page
        };
        self.advise_dont_need(range.start.div_ceil(page) * page, end);
    }

    /// Says that `range` was just read again, so that what earlier reads brought in goes back:
    /// for a reader of small stretches (objects read again), where those pages would otherwise
    /// stay in until the run ends.
    ///
    /// One read of one page maps more than that page: the neighbours already in the page
    /// cache (Linux's fault-around, 64 KiB), or the whole large folio the page cache holds it
    /// in (up to 2 MiB on ext4; readahead grows them along a file). Both stay inside the span
    /// of one page table ([`table_span`]), so whole spans are handed back. Handing back the
    /// stretch's own pages only left most of what each read brought in: `request`, which reads
    /// the routes of one listener again (1,800 spread over the 49 MB benchmark), held 38 MB of
    /// the file at the end, then 15 MB with 64 KiB windows.
    ///
    /// The span `range` ends in stays in until a later read ends in another one: readers in
    /// file order (every route, in order) then hand back each span once, not once per object
    /// (each hand-back and the read after it cost about 12 µs: 0.4 s for 36,000 objects). The
    /// spans before the last one `range` touches go at once.
    pub fn read_again_from(&self, range: std::ops::Range<usize>) {
        let window = table_span();
        let base = self.start.as_ptr() as usize;
        let first = (base + range.start) / window;
        let last = (base + range.end.max(range.start + 1) - 1) / window;
        let previous = self
            .current_span
            .swap(last, std::sync::atomic::Ordering::Relaxed);
        if first < last {
            self.release_spans(first..last);
        }
        if previous != last && previous != usize::MAX {
            self.release_spans(previous..previous + 1);
        }
    }

    /// Hands back the page-table spans `spans` (by address, divided by [`table_span`]), the
    /// parts inside the mapping.
    fn release_spans(&self, spans: std::ops::Range<usize>) {
        let window = table_span();
        let base = self.start.as_ptr() as usize;
        let start = (spans.start * window).saturating_sub(base);
        let end = (spans.end * window).saturating_sub(base).min(self.len);
        self.advise_dont_need(start, end);
    }

    /// `MADV_DONTNEED` on `start..end` (`start` page-aligned; nothing when empty).
    fn advise_dont_need(&self, start: usize, end: usize) {
        if start >= end {
            return;
        }
        // SAFETY: advice on whole pages of this value's own mapping (`start` is page-aligned
        // and `start..end` lies inside it); for a private read-only file mapping
        // `MADV_DONTNEED` drops the pages, and later reads see the file's bytes again.
        unsafe {
            libc::madvise(
                self.start.as_ptr().add(start).cast(),
                end - start,
                libc::MADV_DONTNEED,
            );
        }
    }
}

/// The bytes one page table maps (2 MiB with 4 KiB pages: one entry of 8 bytes per page), at
/// addresses that are a multiple of it: nothing one read of a page maps crosses the edge of
/// such a span (see [`Mapped::read_again_from`]).
#[cfg(unix)]
fn table_span() -> usize {
    let page = page_size();
    page * (page / 8)
}

/// The system's page size, read once.
#[cfg(unix)]
fn page_size() -> usize {
    static PAGE: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    // SAFETY: sysconf takes an integer and reads a constant.
    *PAGE.get_or_init(|| {
        usize::try_from(unsafe { libc::sysconf(libc::_SC_PAGESIZE) }).unwrap_or(4096)
    })
}

#[cfg(unix)]
impl Drop for Mapped {
    fn drop(&mut self) {
        // SAFETY: unmaps this value's own mapping, once; no borrow of it outlives `self`.
        unsafe {
            libc::munmap(self.start.as_ptr().cast(), self.len);
        }
    }
}

#[cfg(unix)]
impl std::fmt::Debug for Mapped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Mapped({} bytes)", self.len)
    }
}

/// Drops the spare capacity of `list` by moving its items to storage of exactly their size.
///
/// `Vec::shrink_to_fit` asks the allocator to shrink the block in place, and mimalloc keeps a
/// block that is less than twice the size asked for: a route's five rules (120 bytes) stayed in
/// the 192 bytes they had grown to. Moving them took 5.5 MiB off what the allocator handed out
/// at `effective`'s peak on the 49 MB benchmark (a counting allocator's measure); a new block
/// of the exact size wastes only the rounding to the allocator's size class.
pub fn fit<T>(list: &mut Vec<T>) {
    if list.capacity() > list.len() {
        move_to_exact(list);
    }
}

/// Moves the items of `list` to a new block of exactly their size (what [`fit`] and
/// [`kept::keep_list`] do).
fn move_to_exact<T>(list: &mut Vec<T>) {
    let mut exact = Vec::with_capacity(list.len());
    exact.append(list);
    *list = exact;
}

/// [`fit`] for a `String`.
pub fn fit_string(text: &mut String) {
    if text.capacity() > text.len() {
        *text = text.as_str().to_owned();
    }
}

/// The items of `parts` in order, as one list: per-task results joined without holding them
/// twice. `concat` copies every part before any is freed, so the run held the whole result two
/// times over; here each part is freed as soon as it is copied, and the result's pages are
/// touched only as it fills, so the join holds the result and at most one part more.
pub fn join_parts<T>(parts: Vec<Vec<T>>) -> Vec<T> {
    let mut joined = Vec::with_capacity(parts.iter().map(Vec::len).sum());
    for part in parts {
        joined.extend(part);
    }
    joined
}

#[cfg(test)]
mod join_tests {
    #[test]
    fn parts_join_in_order() {
        let parts = vec![vec![1, 2], Vec::new(), vec![3], vec![4, 5, 6]];
        assert_eq!(super::join_parts(parts), [1, 2, 3, 4, 5, 6]);
        assert!(super::join_parts(Vec::<Vec<u8>>::new()).is_empty());
    }
}

#[cfg(all(test, target_os = "linux"))]
mod mapped_tests {
    use super::Mapped;

    /// Resident KiB of the mapping that starts at `start`, from `/proc/self/smaps`.
    fn resident_kib(start: usize) -> usize {
        let smaps = std::fs::read_to_string("/proc/self/smaps").expect("smaps");
        let header = format!("{start:x}-");
        let at = smaps.find(&header).expect("the mapping is listed");
        let rss = smaps[at..].find("\nRss:").expect("an Rss line") + at + 5;
        let line = &smaps[rss..rss + smaps[rss..].find('\n').expect("a line")];
        line.trim()
            .trim_end_matches("kB")
            .trim()
            .parse()
            .expect("a number")
    }

    #[test]
    fn a_stretch_read_again_is_handed_back_once_reading_moves_on() {
        let path = std::env::temp_dir().join(format!("dopol-mapped-{}", std::process::id()));
        let len = 8 << 20;
        let text: Vec<u8> = (0..len).map(|i| b'a' + (i % 26) as u8).collect();
        std::fs::write(&path, &text).expect("write");
        let file = std::fs::File::open(&path).expect("open");
        let mapped = Mapped::map(&file, len).expect("map");
        let start = mapped.start.as_ptr() as usize;
        mapped.release_range(0..len);
        assert_eq!(resident_kib(start), 0);

        // Two stretches in different page-table spans (6 MiB apart, spans are 2 MiB).
        let (near, far) = (100, 6 << 20);
        assert_eq!(mapped.bytes()[near], text[near]);
        mapped.read_again_from(near..near + 10);
        let near_only = resident_kib(start);
        assert!(near_only >= 4, "{near_only} KiB");
        // Reading the far one keeps the near one in until it is said to be read...
        assert_eq!(mapped.bytes()[far], text[far]);
        let both = resident_kib(start);
        assert!(both > near_only, "{both} of {near_only} KiB");
        // ...and then everything the near read brought in goes, its neighbours too.
        mapped.read_again_from(far..far + 10);
        let far_only = resident_kib(start);
        assert!(0 < far_only && far_only < both, "{far_only} of {both} KiB");
        // More reads in the span it stays in hand nothing back.
        assert_eq!(mapped.bytes()[far + 1000], text[far + 1000]);
        mapped.read_again_from(far + 1000..far + 1010);
        assert_eq!(resident_kib(start), far_only);
        // A read elsewhere hands the far span back; the bytes read again are the file's.
        assert_eq!(mapped.bytes()[near], text[near]);
        mapped.read_again_from(near..near + 10);
        assert_eq!(resident_kib(start), near_only);
        assert_eq!(&mapped.bytes()[far..far + 3], &text[far..far + 3]);
        drop(mapped);
        let _ = std::fs::remove_file(path);
    }
}

#[cfg(test)]
mod executable_tests {
    use super::file_only_mappings;

    #[test]
    fn only_unwritable_mappings_without_private_pages_are_handed_back() {
        let smaps = "\
55d0a0000000-55d0a0200000 r--p 00000000 08:01 42 /usr/bin/dopol
Size:               2048 kB
Anonymous:             0 kB
55d0a0200000-55d0a0c00000 r-xp 00200000 08:01 42 /usr/bin/dopol
Rss:                6636 kB
Anonymous:             0 kB
55d0a0c00000-55d0a0d80000 r--p 00c00000 08:01 42 /usr/bin/dopol
Anonymous:          1496 kB
55d0a0d80000-55d0a0d90000 rw-p 00d80000 08:01 42 /usr/bin/dopol
Anonymous:            16 kB
7f0000000000-7f0000100000 r-xp 00000000 08:01 43 /usr/lib/libc.so.6
Anonymous:             0 kB
7f0000200000-7f0000300000 rw-p 00000000 00:00 0 
Anonymous:          1024 kB
";
        assert_eq!(
            file_only_mappings(smaps, "/usr/bin/dopol"),
            [
                (0x55d0a0000000, 0x55d0a0200000),
                (0x55d0a0200000, 0x55d0a0c00000)
            ]
        );
        assert!(file_only_mappings(smaps, "/usr/bin/other").is_empty());
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn handing_back_the_executable_keeps_it_running() {
        // The test binary's pages, as the binary's: its code runs again after the hand-back.
        super::hand_back_executable_now();
        let text: String = (0..1000)
            .map(|i| char::from(b'a' + (i % 26) as u8))
            .collect();
        assert_eq!(text.len(), 1000);
        assert_eq!(format!("{}", 6 * 7), "42");
    }
}
