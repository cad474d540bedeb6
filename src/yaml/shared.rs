//! Shared slices and strings behind one pointer, for the collections and strings of a
//! [`super::Value`].
//!
//! A model keeps every rule value's tree to the end of the run (on the 49 MB benchmark:
//! 335,000 mapping entries, 66,000 sequence items and 88,000 strings), so the size of a node
//! is most of its memory. `Arc<[T]>` and `Box<str>` are two words each, which made a value 24
//! bytes, a node 40 and a mapping entry 64. [`Shared`] is one word, pointing at a header of
//! two 32-bit words (the count of holders and the length) followed by the items: a value is 16
//! bytes, a node 32, an entry 56, and each collection's header 8 bytes instead of `Arc`'s 16.
//! No tree node holds more than `u32::MAX` items (a YAML document holds at most 16,000,000
//! nodes, the `yaml-document-nodes` limit), nor does a string of a 1 GiB file reach 4 GiB.
//!
//! Cloning is O(1), as with `Arc`: a subtree taken out of a document is shared, not copied.

use std::alloc::{Layout, alloc, dealloc, handle_alloc_error};
use std::marker::PhantomData;
use std::ptr::NonNull;
use std::sync::atomic::{AtomicU32, Ordering, fence};

/// What a [`Shared`] allocation starts with.
#[repr(C)]
struct Header {
    /// Holders of the allocation.
    count: AtomicU32,
    /// Items after the header.
    len: u32,
}

/// An immutable, reference-counted slice behind one pointer (see the module's doc).
pub struct Shared<T> {
    header: NonNull<Header>,
    owns: PhantomData<T>,
}

// SAFETY: as for `Arc<[T]>`: the items are shared between threads (`Sync`) and dropped by
// whichever holder is last (`Send`); the count is atomic.
unsafe impl<T: Send + Sync> Send for Shared<T> {}
// SAFETY: see `Send`.
unsafe impl<T: Send + Sync> Sync for Shared<T> {}

/// The layout of an allocation of `len` items, and where the items start in it.
fn layout_of<T>(len: usize) -> (Layout, usize) {
    let items = Layout::array::<T>(len).expect("a tree collection's items fit in memory");
    let (layout, offset) = Layout::new::<Header>()
        .extend(items)
        .expect("a tree collection fits in memory");
    (layout.pad_to_align(), offset)
}

/// Where the items of the allocation starting at `header` start (the same for any length).
fn items_of<T>(header: NonNull<Header>) -> *mut T {
    let (_, offset) = layout_of::<T>(0);
    // SAFETY: the items start `offset` bytes into the allocation, within it.
    unsafe { header.as_ptr().cast::<u8>().add(offset).cast::<T>() }
}

/// An allocation being filled: dropped before it is full (a panic in the iterator that fills
/// it), it drops the items written and frees the allocation.
struct Filling<T> {
    header: NonNull<Header>,
    capacity: usize,
    written: usize,
    owns: PhantomData<T>,
}

impl<T> Filling<T> {
    fn new(capacity: usize) -> Filling<T> {
        assert!(
            u32::try_from(capacity).is_ok(),
            "a tree collection has fewer than 2^32 items"
        );
        let (layout, _) = layout_of::<T>(capacity);
        // SAFETY: the layout is never zero-sized (it holds the header).
        let raw = unsafe { alloc(layout) };
        let Some(header) = NonNull::new(raw.cast::<Header>()) else {
            handle_alloc_error(layout)
        };
        // SAFETY: freshly allocated with room and alignment for a header.
        unsafe {
            header.as_ptr().write(Header {
                count: AtomicU32::new(1),
                len: 0,
            });
        }
        Filling {
            header,
            capacity,
            written: 0,
            owns: PhantomData,
        }
    }

    fn items(&self) -> *mut T {
        items_of(self.header)
    }

    fn push(&mut self, item: T) {
        assert!(self.written < self.capacity, "more items than announced");
        // SAFETY: slot `written` is inside the allocation and not yet initialised.
        unsafe { self.items().add(self.written).write(item) };
        self.written += 1;
    }

    fn finish(self) -> Shared<T> {
        assert_eq!(self.written, self.capacity, "fewer items than announced");
        let header = self.header;
        // SAFETY: the header was written in `new`; `written` fits in u32 (checked there).
        unsafe { (*header.as_ptr()).len = self.written as u32 };
        std::mem::forget(self);
        Shared {
            header,
            owns: PhantomData,
        }
    }
}

impl<T> Drop for Filling<T> {
    fn drop(&mut self) {
        // SAFETY: the first `written` items are initialised and owned here; the allocation
        // was made with `capacity`'s layout.
        unsafe {
            std::ptr::drop_in_place(std::ptr::slice_from_raw_parts_mut(
                self.items(),
                self.written,
            ));
            dealloc(self.header.as_ptr().cast(), layout_of::<T>(self.capacity).0);
        }
    }
}

impl<T> Shared<T> {
    /// The items of `items`, allocated once at their exact number (what a collection copied
    /// into kept storage needs: nothing allocated there is freed).
    ///
    /// # Panics
    /// When `items` gives another number of items than its `len()` said.
    pub fn from_exact(items: impl ExactSizeIterator<Item = T>) -> Shared<T> {
        Shared::from_counted(items.len(), items)
    }

    /// The `len` items of `items`, allocated once (as [`Shared::from_exact`]).
    ///
    /// # Panics
    /// When `items` gives another number of items than `len`.
    pub fn from_counted(len: usize, items: impl Iterator<Item = T>) -> Shared<T> {
        let mut filling = Filling::new(len);
        for item in items {
            filling.push(item);
        }
        filling.finish()
    }

    /// A copy of `items`, copied at once.
    pub fn copied(items: &[T]) -> Shared<T>
    where
        T: Copy,
    {
        let mut filling = Filling::new(items.len());
        // SAFETY: room for `items.len()` items, none written yet; `T: Copy` (no drop).
        unsafe {
            std::ptr::copy_nonoverlapping(items.as_ptr(), filling.items(), items.len());
        }
        filling.written = items.len();
        filling.finish()
    }

    fn header(&self) -> &Header {
        // SAFETY: the header lives as long as any holder.
        unsafe { self.header.as_ref() }
    }

    fn items(&self) -> *mut T {
        items_of(self.header)
    }

    /// How many hold these items.
    pub fn strong_count(this: &Shared<T>) -> usize {
        this.header().count.load(Ordering::Acquire) as usize
    }

    /// The items, mutable, when nothing else holds them.
    pub fn get_mut(this: &mut Shared<T>) -> Option<&mut [T]> {
        if Shared::strong_count(this) != 1 {
            return None;
        }
        // SAFETY: the only holder, borrowed mutably: nothing else can read the items.
        Some(unsafe { std::slice::from_raw_parts_mut(this.items(), this.header().len as usize) })
    }
}

impl<T> std::ops::Deref for Shared<T> {
    type Target = [T];

    fn deref(&self) -> &[T] {
        // SAFETY: `len` items are initialised and live as long as any holder.
        unsafe { std::slice::from_raw_parts(self.items(), self.header().len as usize) }
    }
}

impl<T> Clone for Shared<T> {
    fn clone(&self) -> Shared<T> {
        let before = self.header().count.fetch_add(1, Ordering::Relaxed);
        if before >= u32::MAX / 2 {
            // As `Arc` does: a count this high is a leak of holders; wrapping would free the
            // items while still held.
            std::process::abort();
        }
        Shared {
            header: self.header,
            owns: PhantomData,
        }
    }
}

impl<T> Drop for Shared<T> {
    fn drop(&mut self) {
        if self.header().count.fetch_sub(1, Ordering::Release) != 1 {
            return;
        }
        fence(Ordering::Acquire);
        let len = self.header().len as usize;
        // SAFETY: the last holder: the items are dropped once, then the allocation made with
        // `len`'s layout is freed.
        unsafe {
            std::ptr::drop_in_place(std::ptr::slice_from_raw_parts_mut(self.items(), len));
            dealloc(self.header.as_ptr().cast(), layout_of::<T>(len).0);
        }
    }
}

impl<T> From<Vec<T>> for Shared<T> {
    fn from(items: Vec<T>) -> Shared<T> {
        Shared::from_exact(items.into_iter())
    }
}

impl<T: Clone> From<&[T]> for Shared<T> {
    fn from(items: &[T]) -> Shared<T> {
        Shared::from_exact(items.iter().cloned())
    }
}

impl<T> FromIterator<T> for Shared<T> {
    fn from_iter<I: IntoIterator<Item = T>>(items: I) -> Shared<T> {
        Shared::from(items.into_iter().collect::<Vec<T>>())
    }
}

impl<T: PartialEq> PartialEq for Shared<T> {
    fn eq(&self, other: &Shared<T>) -> bool {
        **self == **other
    }
}

impl<T: Eq> Eq for Shared<T> {}

impl<T: PartialOrd> PartialOrd for Shared<T> {
    fn partial_cmp(&self, other: &Shared<T>) -> Option<std::cmp::Ordering> {
        (**self).partial_cmp(&**other)
    }
}

impl<T: Ord> Ord for Shared<T> {
    fn cmp(&self, other: &Shared<T>) -> std::cmp::Ordering {
        (**self).cmp(&**other)
    }
}

impl<T: std::hash::Hash> std::hash::Hash for Shared<T> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        (**self).hash(state);
    }
}

impl<T: std::fmt::Debug> std::fmt::Debug for Shared<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        (**self).fmt(f)
    }
}

/// An immutable, reference-counted string behind one pointer (see the module's doc).
#[derive(Clone)]
pub struct SharedStr(Shared<u8>);

impl SharedStr {
    /// How many hold this string.
    pub fn strong_count(this: &SharedStr) -> usize {
        Shared::strong_count(&this.0)
    }
}

impl std::ops::Deref for SharedStr {
    type Target = str;

    fn deref(&self) -> &str {
        // SAFETY: built only from `str`s (below).
        unsafe { std::str::from_utf8_unchecked(&self.0) }
    }
}

impl From<&str> for SharedStr {
    fn from(text: &str) -> SharedStr {
        SharedStr(Shared::copied(text.as_bytes()))
    }
}

impl From<String> for SharedStr {
    fn from(text: String) -> SharedStr {
        SharedStr::from(text.as_str())
    }
}

impl From<Box<str>> for SharedStr {
    fn from(text: Box<str>) -> SharedStr {
        SharedStr::from(&*text)
    }
}

impl AsRef<str> for SharedStr {
    fn as_ref(&self) -> &str {
        self
    }
}

impl std::borrow::Borrow<str> for SharedStr {
    fn borrow(&self) -> &str {
        self
    }
}

impl PartialEq for SharedStr {
    fn eq(&self, other: &SharedStr) -> bool {
        **self == **other
    }
}

impl Eq for SharedStr {}

impl PartialEq<str> for SharedStr {
    fn eq(&self, other: &str) -> bool {
        &**self == other
    }
}

impl PartialEq<&str> for SharedStr {
    fn eq(&self, other: &&str) -> bool {
        &**self == *other
    }
}

impl std::hash::Hash for SharedStr {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        (**self).hash(state);
    }
}

impl std::fmt::Debug for SharedStr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        (**self).fmt(f)
    }
}

impl std::fmt::Display for SharedStr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        (**self).fmt(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[test]
    #[cfg(target_pointer_width = "64")]
    fn one_word_each() {
        assert_eq!(std::mem::size_of::<Shared<u64>>(), 8);
        assert_eq!(std::mem::size_of::<Option<SharedStr>>(), 8);
    }

    /// Items are dropped once, when the last holder goes; a unique holder may change them.
    #[test]
    fn items_live_as_long_as_a_holder() {
        let marker = Arc::new(());
        let items: Shared<Arc<()>> = vec![marker.clone(), marker.clone()].into();
        assert_eq!(Arc::strong_count(&marker), 3);
        let mut other = items.clone();
        assert_eq!(Shared::strong_count(&items), 2);
        assert!(Shared::get_mut(&mut other).is_none());
        drop(items);
        assert_eq!(Arc::strong_count(&marker), 3);
        let own = Shared::get_mut(&mut other).expect("the only holder");
        own[0] = Arc::new(());
        assert_eq!(Arc::strong_count(&marker), 2);
        drop(other);
        assert_eq!(Arc::strong_count(&marker), 1);
        let empty: Shared<Arc<()>> = Vec::new().into();
        assert!(empty.is_empty());
    }

    /// An iterator that panics while a collection is filled leaves nothing behind: the items
    /// given so far are dropped.
    #[test]
    fn a_panic_while_filling_drops_what_was_written() {
        let marker = Arc::new(());
        let filled = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            Shared::from_exact((0..4).map(|i| {
                assert!(i < 2, "stop");
                marker.clone()
            }))
        }));
        assert!(filled.is_err());
        assert_eq!(Arc::strong_count(&marker), 1);
        let lying = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let mut items = vec![marker.clone(), marker.clone()].into_iter();
            items.next_back();
            struct Claims<I>(I, usize);
            impl<I: Iterator> Iterator for Claims<I> {
                type Item = I::Item;
                fn next(&mut self) -> Option<I::Item> {
                    self.0.next()
                }
                fn size_hint(&self) -> (usize, Option<usize>) {
                    (self.1, Some(self.1))
                }
            }
            impl<I: Iterator> ExactSizeIterator for Claims<I> {}
            Shared::from_exact(Claims(items, 2))
        }));
        assert!(lying.is_err());
        assert_eq!(Arc::strong_count(&marker), 1);
    }

    #[test]
    fn strings_read_back_and_compare_as_str() {
        let text = SharedStr::from("héllo");
        assert_eq!(&*text, "héllo");
        assert_eq!(text, SharedStr::from(String::from("héllo")));
        assert!(text == "héllo");
        assert_eq!(format!("{text:?} {text}"), "\"héllo\" héllo");
        assert_eq!(&*SharedStr::from(""), "");
        let shared: Vec<SharedStr> = (0..64).map(|_| text.clone()).collect();
        std::thread::scope(|s| {
            for chunk in shared.chunks(16) {
                s.spawn(move || chunk.iter().all(|t| &**t == "héllo"));
            }
        });
        drop(shared);
        assert_eq!(SharedStr::strong_count(&text), 1);
    }
}
