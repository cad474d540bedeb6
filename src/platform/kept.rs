//! Kept storage: what a run keeps to its end (decoded routes and policies, their rule values,
//! every fold), copied out of the allocator's pages into one region filled from the front.
//!
//! Why: those values are made among short-lived ones. A policy's rule values are subtrees of
//! the document the parser built, most of which is freed once the policy is decoded; a fold's
//! lists are grown beside the fold's scratch maps. In the allocator they stay where they were
//! made: each rounded up to its size class (a three-entry mapping of 208 bytes takes 224) and
//! scattered over pages the freed values shared with them, pages that can then only be reused
//! for blocks of the same size. Copied into kept storage they take their exact size, side by
//! side, and the pages they leave go back. On the 49 MB benchmark that took `effective -o
//! json`'s peak from 148 to 135 MiB and `status -o json`'s from 168 to 155 (paired runs).
//!
//! How: [`keep`] runs a closure with this thread's allocations coming from the region (through
//! [`Keeping`], the binary's global allocator); each thread takes 64 KiB of the region at a
//! time and hands out its bytes in order. Nothing in the region is ever reused: freeing a value
//! there does nothing, so only what lives until the run ends belongs in it (what is freed there
//! is lost until the process exits). Growing a kept value copies it out of the region.
//!
//! Without the region — a library user, the tests, a system that refuses to reserve the
//! addresses — [`keep`] just runs the closure and every allocation is an ordinary one.

use std::alloc::{GlobalAlloc, Layout};
use std::cell::Cell;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Addresses reserved for the region (16 GiB; only the pages written are memory: 62–73 MiB
/// on a 49 MB input). A run that fills it allocates the rest as usual.
#[cfg(target_pointer_width = "64")]
const RESERVED: usize = 1 << 34;
/// A 32-bit address space has no 16 GiB to spare.
#[cfg(not(target_pointer_width = "64"))]
const RESERVED: usize = 1 << 28;

/// What a thread takes of the region at a time.
const CHUNK: usize = 1 << 16;

/// The region's first address; 0 while there is none.
static BASE: AtomicUsize = AtomicUsize::new(0);

/// The offset of the region's first byte not yet taken by a thread.
static NEXT: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    /// Whether this thread's allocations come from the region (inside [`keep`]).
    static KEEPING: Cell<bool> = const { Cell::new(false) };
    /// This thread's part of the region: the next free address and the end (0, 0: none).
    static OWN: Cell<(usize, usize)> = const { Cell::new((0, 0)) };
}

/// Reserves the region (once; later calls do nothing). Only a process whose global allocator
/// is [`Keeping`] has a use for it.
pub fn reserve() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        #[cfg(target_os = "linux")]
        {
            // SAFETY: a fresh private anonymous mapping; the result is checked before use and
            // the mapping lives until the process exits (allocations point into it).
            let start = unsafe {
                libc::mmap(
                    std::ptr::null_mut(),
                    RESERVED,
                    libc::PROT_READ | libc::PROT_WRITE,
                    libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
                    -1,
                    0,
                )
            };
            if start != libc::MAP_FAILED {
                // Small pages: a huge page would make a thread's first 64 KiB cost 2 MiB.
                // SAFETY: advice on the mapping just made.
                unsafe { libc::madvise(start, RESERVED, libc::MADV_NOHUGEPAGE) };
                BASE.store(start as usize, Ordering::Release);
            }
        }
    });
}

/// Runs `f` with this thread's allocations made in kept storage (see the module doc): what `f`
/// allocates must live until the run ends.
pub fn keep<R>(f: impl FnOnce() -> R) -> R {
    /// Puts the flag back as it was, also when `f` panics.
    struct Restore(bool);
    impl Drop for Restore {
        fn drop(&mut self) {
            let _ = KEEPING.try_with(|keeping| keeping.set(self.0));
        }
    }
    let _restore = Restore(KEEPING.with(|keeping| keeping.replace(true)));
    f()
}

/// Moves `list` to kept storage, at exactly its length (its spare room dropped, as
/// [`super::fit`] does for a list that is not kept).
pub fn keep_list<T>(list: &mut Vec<T>) {
    keep(|| super::move_to_exact(list));
}

/// Whether `address` is in the region.
fn in_region(address: *mut u8) -> bool {
    let base = BASE.load(Ordering::Relaxed);
    base != 0 && (address as usize).wrapping_sub(base) < RESERVED
}

/// Whether this thread is inside [`keep`].
fn keeping() -> bool {
    KEEPING.try_with(Cell::get).unwrap_or(false)
}

/// `size` bytes of the region not yet taken, or `None` when it is full or absent.
fn claim(size: usize) -> Option<usize> {
    let base = BASE.load(Ordering::Acquire);
    if base == 0 {
        return None;
    }
    // The offset only moves when the bytes fit: a refused claim (the region full, or a size
    // past its end) leaves it where it was, so it can neither wrap around nor creep on.
    let offset = NEXT
        .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |offset| {
            offset.checked_add(size).filter(|&end| end <= RESERVED)
        })
        .ok()?;
    Some(base + offset)
}

/// A block for `layout` in the region, when this thread is keeping and the region has room.
fn take(layout: Layout) -> Option<*mut u8> {
    if !keeping() {
        return None;
    }
    let (size, align) = (layout.size(), layout.align());
    let aligned = |at: usize| (at + align - 1) & !(align - 1);
    if size > CHUNK / 4 || align > CHUNK / 4 {
        return claim(size + align).map(|at| aligned(at) as *mut u8);
    }
    OWN.try_with(|own| {
        let (next, end) = own.get();
        let mut at = aligned(next);
        if next == 0 || at + size > end {
            let start = claim(CHUNK)?;
            own.set((start, start + CHUNK));
            at = aligned(start);
        }
        own.set((at + size, own.get().1));
        Some(at as *mut u8)
    })
    .ok()
    .flatten()
}

/// A global allocator that serves [`keep`] from kept storage and everything else from `A`.
pub struct Keeping<A>(pub A);

// SAFETY: blocks from the region are distinct (each address is handed out once), aligned as
// asked, zero when first handed out (fresh anonymous pages, never reused) and valid until the
// process exits; every other request is `A`'s, and no block of `A` is mistaken for one of the
// region (`in_region` checks the address range).
unsafe impl<A: GlobalAlloc> GlobalAlloc for Keeping<A> {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        match take(layout) {
            Some(block) => block,
            // SAFETY: the caller's contract, passed on.
            None => unsafe { self.0.alloc(layout) },
        }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        match take(layout) {
            Some(block) => block,
            // SAFETY: the caller's contract, passed on.
            None => unsafe { self.0.alloc_zeroed(layout) },
        }
    }

    unsafe fn dealloc(&self, block: *mut u8, layout: Layout) {
        if !in_region(block) {
            // SAFETY: a block of `A`'s, as the caller's contract says.
            unsafe { self.0.dealloc(block, layout) }
        }
    }

    unsafe fn realloc(&self, block: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let kept = in_region(block);
        if !kept && !keeping() {
            // SAFETY: a block of `A`'s, as the caller's contract says.
            return unsafe { self.0.realloc(block, layout, new_size) };
        }
        if kept && new_size <= layout.size() {
            // A kept block shrinks where it is (its bytes are not reused either way).
            return block;
        }
        // SAFETY: `new_size` with `layout`'s alignment is a valid layout (the caller's contract).
        let new_layout = unsafe { Layout::from_size_align_unchecked(new_size, layout.align()) };
        // SAFETY: a non-zero size, as the caller's contract says.
        let moved = unsafe { self.alloc(new_layout) };
        if !moved.is_null() {
            // SAFETY: both blocks hold at least the bytes copied and do not overlap (the new
            // one is fresh); the old one is freed once, as `realloc` would.
            unsafe {
                std::ptr::copy_nonoverlapping(block, moved, layout.size().min(new_size));
                self.dealloc(block, layout);
            }
        }
        moved
    }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::{GlobalAlloc, Keeping, Layout, in_region, keep, keep_list, reserve};
    use std::alloc::System;

    /// Reserves the region; `false` (with a note) where the system refuses the addresses
    /// (`ulimit -v`, strict overcommit), where there is nothing to test.
    fn reserved() -> bool {
        reserve();
        let reserved = super::BASE.load(std::sync::atomic::Ordering::Acquire) != 0;
        if !reserved {
            eprintln!("note: no kept storage region on this system; nothing to test");
        }
        reserved
    }

    #[test]
    fn a_refused_claim_leaves_the_region_as_it_was() {
        if !reserved() {
            return;
        }
        let before = super::NEXT.load(std::sync::atomic::Ordering::Relaxed);
        assert_eq!(super::claim(usize::MAX - 8), None);
        assert_eq!(super::claim(super::RESERVED + 1), None);
        let after = super::NEXT.load(std::sync::atomic::Ordering::Relaxed);
        // Other tests may claim meanwhile, but never this much.
        assert!(after - before < super::RESERVED / 2, "{before} -> {after}");
    }

    #[test]
    fn kept_blocks_come_from_the_region_in_order_and_outlive_free() {
        if !reserved() {
            return;
        }
        let alloc = Keeping(System);
        let layout = Layout::from_size_align(24, 8).unwrap();
        // SAFETY: non-zero layouts; blocks are written within their sizes and freed once.
        unsafe {
            let (a, b) = keep(|| (alloc.alloc(layout), alloc.alloc(layout)));
            assert!(in_region(a) && in_region(b));
            assert_eq!(b as usize - a as usize, 24, "handed out side by side");
            a.write_bytes(7, 24);
            alloc.dealloc(a, layout);
            assert_eq!(*a.add(23), 7, "freeing a kept block leaves it as it was");
            let odd = keep(|| alloc.alloc(Layout::from_size_align(3, 64).unwrap()));
            assert_eq!(odd as usize % 64, 0);
            let zeroed = keep(|| alloc.alloc_zeroed(Layout::from_size_align(100, 8).unwrap()));
            assert!((0..100).all(|i| *zeroed.add(i) == 0));
            let big = keep(|| alloc.alloc(Layout::from_size_align(1 << 20, 8).unwrap()));
            assert!(in_region(big));
            big.add((1 << 20) - 1).write(1);
        }
    }

    #[test]
    fn outside_keep_blocks_are_the_inner_allocators_and_growing_copies_out() {
        if !reserved() {
            return;
        }
        let alloc = Keeping(System);
        let layout = Layout::from_size_align(16, 8).unwrap();
        // SAFETY: as above.
        unsafe {
            let plain = alloc.alloc(layout);
            assert!(!in_region(plain));
            let kept = keep(|| alloc.realloc(plain, layout, 32));
            assert!(in_region(kept), "growing inside keep moves the block in");
            kept.write_bytes(5, 32);
            let shrunk = alloc.realloc(kept, Layout::from_size_align(32, 8).unwrap(), 32);
            assert_eq!(shrunk, kept, "a kept block shrinks where it is");
            let out = alloc.realloc(kept, Layout::from_size_align(32, 8).unwrap(), 64);
            assert!(!in_region(out));
            assert!((0..32).all(|i| *out.add(i) == 5), "the bytes moved with it");
            alloc.dealloc(out, Layout::from_size_align(64, 8).unwrap());
        }
    }

    #[test]
    fn keep_restores_the_flag_and_keep_list_drops_spare_room() {
        let result = std::panic::catch_unwind(|| keep(|| panic!("inside")));
        assert!(result.is_err());
        assert!(!super::keeping(), "a panic inside keep ends keeping");
        let mut list = Vec::with_capacity(10);
        list.extend([1, 2, 3]);
        keep_list(&mut list);
        assert_eq!((list.as_slice(), list.capacity()), (&[1, 2, 3][..], 3));
    }
}
