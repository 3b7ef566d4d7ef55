//! The page's allocator (`tokbound::heap`) over a real buffer: a few cases by hand, then generated
//! sequences of allocations, frees and resizes, in which every block is aligned, inside memory it
//! was given, disjoint from every other live block, and keeps its bytes until freed.

use std::alloc::Layout;
use std::collections::BTreeMap;

use proptest::prelude::*;
use tokbound::heap::{Heap, PAGE};

const PAGES: usize = 256;

/// Test memory: up to `limit` pages of a buffer, handed out in order, freed with the `Pages`
/// (the heap only holds addresses into it).
struct Pages {
    _buf: Vec<u8>,
    at: usize,
    end: usize,
}

impl Pages {
    fn new(limit: usize) -> Pages {
        let mut buf = vec![0u8; (limit + 1) * PAGE];
        let at = (buf.as_mut_ptr() as usize).next_multiple_of(PAGE);
        Pages {
            _buf: buf,
            at,
            end: at + limit * PAGE,
        }
    }

    fn grow(&mut self, n: usize) -> Option<usize> {
        let base = self.at;
        (base + n * PAGE <= self.end).then(|| {
            self.at += n * PAGE;
            base
        })
    }
}

#[test]
fn a_freed_block_serves_the_next_request_of_its_class() {
    let mut mem = Pages::new(4);
    let mut h = Heap::new();
    let l = Layout::from_size_align(40, 8).unwrap();
    unsafe {
        let a = h.alloc(l, |n| mem.grow(n));
        let b = h.alloc(l, |n| mem.grow(n));
        assert_eq!(b as usize - a as usize, 64, "40 bytes take a 64-byte block");
        h.dealloc(a, l);
        assert_eq!(h.alloc(Layout::from_size_align(33, 4).unwrap(), |n| mem.grow(n)), a);
        assert_ne!(h.alloc(l, |n| mem.grow(n)), a);
    }
}

#[test]
fn out_of_memory_is_null_not_a_panic() {
    let mut mem = Pages::new(2);
    let mut h = Heap::new();
    unsafe {
        assert!(h.alloc(Layout::from_size_align(3 * PAGE, 8).unwrap(), |n| mem.grow(n)).is_null());
        assert!(h
            .alloc(Layout::from_size_align(isize::MAX as usize / 2 + 2, 1).unwrap(), |n| mem.grow(n))
            .is_null());
        assert!(!h.alloc(Layout::from_size_align(PAGE, 8).unwrap(), |n| mem.grow(n)).is_null());
    }
}

#[test]
fn large_alignments_are_honoured() {
    let mut mem = Pages::new(8);
    let mut h = Heap::new();
    unsafe {
        h.alloc(Layout::from_size_align(24, 8).unwrap(), |n| mem.grow(n));
        for align in [32, 4096, PAGE, 2 * PAGE] {
            let p = h.alloc(Layout::from_size_align(8, align).unwrap(), |n| mem.grow(n));
            assert_eq!(p as usize % align, 0, "align {align}");
        }
    }
}

#[derive(Debug, Clone)]
enum Op {
    Alloc { size: usize, align_log2: u32 },
    Free(usize),
    Resize(usize, usize),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        4 => (prop_oneof![1usize..64, 1usize..5000, 1usize..(3 * PAGE)], 0u32..8)
            .prop_map(|(size, align_log2)| Op::Alloc { size, align_log2 }),
        3 => any::<usize>().prop_map(Op::Free),
        2 => (any::<usize>(), 1usize..20_000).prop_map(|(i, size)| Op::Resize(i, size)),
    ]
}

/// A block in use: its layout and the byte it was filled with.
struct Live {
    layout: Layout,
    fill: u8,
}

fn check_fill(at: usize, len: usize, fill: u8) {
    // SAFETY: `at..at + len` is a live block inside the test's buffer.
    let bytes = unsafe { std::slice::from_raw_parts(at as *const u8, len) };
    assert!(bytes.iter().all(|&b| b == fill), "block at {at:#x} lost its contents");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn blocks_are_aligned_disjoint_inside_memory_and_keep_their_bytes(ops in prop::collection::vec(op(), 1..200)) {
        let mut mem = Pages::new(PAGES);
        let (lo, hi) = (mem.at, mem.end);
        let mut heap = Heap::new();
        let mut live: BTreeMap<usize, Live> = BTreeMap::new();
        let mut fill = 0u8;
        for op in ops {
            match op {
                Op::Alloc { size, align_log2 } => {
                    let layout = Layout::from_size_align(size, 1 << align_log2).unwrap();
                    // SAFETY: only blocks from this heap are freed below, with their layouts.
                    let p = unsafe { heap.alloc(layout, |n| mem.grow(n)) } as usize;
                    if p == 0 {
                        continue; // the buffer is full: null, as the contract says
                    }
                    prop_assert_eq!(p % layout.align(), 0);
                    prop_assert!(p >= lo && p + size <= hi);
                    if let Some((&a, l)) = live.range(..p + size).next_back() {
                        prop_assert!(a + l.layout.size() <= p || a >= p + size, "overlaps the block at {:#x}", a);
                    }
                    fill = fill.wrapping_add(1);
                    // SAFETY: the block is ours and `size` bytes long.
                    unsafe { std::ptr::write_bytes(p as *mut u8, fill, size) };
                    live.insert(p, Live { layout, fill });
                }
                Op::Free(i) if !live.is_empty() => {
                    let p = *live.keys().nth(i % live.len()).unwrap();
                    let l = live.remove(&p).unwrap();
                    check_fill(p, l.layout.size(), l.fill);
                    // SAFETY: `p` is live with this layout and is forgotten here.
                    unsafe { heap.dealloc(p as *mut u8, l.layout) };
                }
                Op::Resize(i, size) if !live.is_empty() => {
                    // What the page's realloc does: keep the block when the class is the same.
                    let p = *live.keys().nth(i % live.len()).unwrap();
                    let l = &live[&p];
                    check_fill(p, l.layout.size().min(size), l.fill);
                    if Heap::same_block(l.layout, size) {
                        let layout = Layout::from_size_align(size, l.layout.align()).unwrap();
                        let fill = l.fill;
                        // SAFETY: the block's class holds `size` bytes.
                        unsafe { std::ptr::write_bytes(p as *mut u8, fill, size) };
                        live.insert(p, Live { layout, fill });
                        if let Some((&b, _)) = live.range(p + 1..).next() {
                            prop_assert!(p + size <= b, "a kept block grew into the next one");
                        }
                    }
                }
                _ => {}
            }
        }
        for (&p, l) in &live {
            check_fill(p, l.layout.size(), l.fill);
        }
        drop(mem);
    }
}
