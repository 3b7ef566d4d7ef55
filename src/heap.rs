//! The page's memory allocator: one free list per power-of-two block size.
//!
//! Why not the standard one: on `wasm32-unknown-unknown` std allocates with dlmalloc, whose
//! coalescing and splitting a calculator does not need; this one made the page's compressed
//! WebAssembly 2.7 KB smaller. The page's allocations are small and repeat (a keystroke makes the same strings and
//! vectors as the one before), so a block freed by one is the right size for the next.
//!
//! - A request of `size` bytes at `align` gets a block of the next power of two at or above both
//!   (8 bytes at least): its size class.
//! - A freed block goes on the front of its class's list (the list's link lives in the block) and
//!   is handed out again by the next request of that class. Blocks never split or merge.
//! - With no free block, the next one is cut from the current region at 16-byte alignment (or
//!   the request's, when larger). A region that runs out is replaced by fresh memory from `grow`,
//!   in 64 KiB pages.
//!
//! The cost is that memory freed in one class serves only that class, and up to half of a block
//! can be slack; the page's heap stays a few megabytes either way. `Heap` is plain Rust, tested
//! natively over a buffer (tests/heap.rs), and installed below as the global allocator of every single-threaded
//! WebAssembly build.

use std::alloc::Layout;

/// WebAssembly's page: what `grow` hands out.
pub const PAGE: usize = 64 * 1024;

/// Alignment of every block cut from a region; requests that need more get it when cut.
const BLOCK_ALIGN: usize = 16;

/// Free-list heads (0 = empty) for blocks of 2^k bytes, k < usize::BITS, and the region that
/// new blocks are cut from.
pub struct Heap {
    free: [usize; usize::BITS as usize],
    next: usize,
    end: usize,
}

impl Default for Heap {
    fn default() -> Self {
        Self::new()
    }
}

impl Heap {
    pub const fn new() -> Heap {
        Heap {
            free: [0; usize::BITS as usize],
            next: 0,
            end: 0,
        }
    }

    /// The size class of `layout`: log2 of its block size, or `None` when no block can hold it.
    fn class(layout: Layout) -> Option<usize> {
        let size = layout.size().max(layout.align()).max(8).checked_next_power_of_two()?;
        Some(size.trailing_zeros() as usize)
    }

    /// A block for `layout`, or null when `grow` has no more memory. `grow(pages)` adds that many
    /// pages of fresh memory and returns their address, or `None`.
    ///
    /// # Safety
    /// Every block freed into this heap must have come from it, with the same layout, and not be
    /// in use; the memory `grow` returns must be writable and used by nothing else.
    pub unsafe fn alloc(&mut self, layout: Layout, grow: impl FnOnce(usize) -> Option<usize>) -> *mut u8 {
        let Some(k) = Self::class(layout) else {
            return std::ptr::null_mut();
        };
        let head = self.free[k];
        if head != 0 && head & (layout.align() - 1) == 0 {
            // SAFETY: a freed block holds the address of the next free block of its class.
            self.free[k] = unsafe { (head as *const usize).read() };
            return head as *mut u8;
        }
        let block = 1usize << k;
        let align = layout.align().max(BLOCK_ALIGN);
        if let Some(at) = fit(self.next, self.end, block, align) {
            self.next = at + block;
            return at as *mut u8;
        }
        // A new region: enough pages for the block at any alignment it needs.
        let Some(pages) = block.checked_add(align).map(|b| b.div_ceil(PAGE)) else {
            return std::ptr::null_mut();
        };
        let Some(base) = grow(pages) else { return std::ptr::null_mut() };
        // (At the very top of a 32-bit address space the end does not fit in a usize: no block.)
        let Some(end) = pages.checked_mul(PAGE).and_then(|n| base.checked_add(n)) else {
            return std::ptr::null_mut();
        };
        // Fresh memory right after the region continues it; otherwise the old rest is left.
        let start = if base == self.end { self.next } else { base };
        match fit(start, end, block, align) {
            Some(at) => {
                self.next = at + block;
                self.end = end;
                at as *mut u8
            }
            None => std::ptr::null_mut(),
        }
    }

    /// Returns a block to its class's list.
    ///
    /// # Safety
    /// `ptr` came from [`Heap::alloc`] on this heap with this `layout`, and is no longer used.
    pub unsafe fn dealloc(&mut self, ptr: *mut u8, layout: Layout) {
        if let Some(k) = Self::class(layout) {
            // SAFETY: the block is at least 8 bytes, aligned to 8, and ours again.
            unsafe { (ptr as *mut usize).write(self.free[k]) };
            self.free[k] = ptr as usize;
        }
    }

    /// Whether a block for `old` also serves `new_size` (same class): then `realloc` keeps it.
    pub fn same_block(old: Layout, new_size: usize) -> bool {
        Layout::from_size_align(new_size, old.align()).is_ok_and(|new| Self::class(new) == Self::class(old))
    }
}

/// Where a `block`-byte block at `align` starts in `[next, end)`, if it fits.
fn fit(next: usize, end: usize, block: usize, align: usize) -> Option<usize> {
    let at = next.checked_add(align - 1)? & !(align - 1);
    (at.checked_add(block)? <= end).then_some(at)
}

/// On single-threaded WebAssembly (the page, and its browser tests) every allocation comes from one
/// [`Heap`] over `memory.grow`, with no lock (the `cfg` keeps it to builds without threads).
#[cfg(all(target_arch = "wasm32", not(target_feature = "atomics")))]
mod global {
    use super::{Heap, PAGE};
    use std::alloc::{GlobalAlloc, Layout};
    use std::cell::UnsafeCell;

    struct PageHeap(UnsafeCell<Heap>);

    // SAFETY: without the `atomics` feature there is one thread.
    unsafe impl Sync for PageHeap {}

    fn grow(pages: usize) -> Option<usize> {
        let old = core::arch::wasm32::memory_grow(0, pages);
        (old != usize::MAX).then(|| old * PAGE)
    }

    unsafe impl GlobalAlloc for PageHeap {
        unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
            // SAFETY: one thread, and the allocator never calls back into itself.
            unsafe { (*self.0.get()).alloc(layout, grow) }
        }

        unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
            // SAFETY: as for `alloc`; `ptr` came from it with `layout` (GlobalAlloc's contract).
            unsafe { (*self.0.get()).dealloc(ptr, layout) }
        }

        unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
            if Heap::same_block(layout, new_size) {
                return ptr;
            }
            // SAFETY: the new layout is valid (GlobalAlloc's contract for `new_size`); the old
            // block is copied up to the smaller size and then freed.
            unsafe {
                let new = Layout::from_size_align_unchecked(new_size, layout.align());
                let p = self.alloc(new);
                if !p.is_null() {
                    std::ptr::copy_nonoverlapping(ptr, p, layout.size().min(new_size));
                    self.dealloc(ptr, layout);
                }
                p
            }
        }
    }

    #[global_allocator]
    static HEAP: PageHeap = PageHeap(UnsafeCell::new(Heap::new()));
}
