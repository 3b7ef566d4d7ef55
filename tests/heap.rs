//! The page's allocator (`tokbound::heap`) under generated sequences of allocations, frees and
//! resizes, over a real buffer: every block is aligned, inside memory it was given, disjoint from
//! every other live block, and keeps its bytes until freed.

use std::alloc::Layout;
use std::collections::BTreeMap;

use proptest::prelude::*;
use tokbound::heap::{Heap, PAGE};

const PAGES: usize = 256;

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
        // The heap's memory: freed when the case ends (the heap only holds addresses into it).
        let mut buf = vec![0u8; (PAGES + 1) * PAGE];
        let lo = (buf.as_mut_ptr() as usize).next_multiple_of(PAGE);
        let hi = lo + PAGES * PAGE;
        let mut top = lo;
        let mut grow = |n: usize| {
            let base = top;
            (base + n * PAGE <= hi).then(|| {
                top += n * PAGE;
                base
            })
        };
        let mut heap = Heap::new();
        let mut live: BTreeMap<usize, Live> = BTreeMap::new();
        let mut fill = 0u8;
        for op in ops {
            match op {
                Op::Alloc { size, align_log2 } => {
                    let layout = Layout::from_size_align(size, 1 << align_log2).unwrap();
                    // SAFETY: only blocks from this heap are freed below, with their layouts.
                    let p = unsafe { heap.alloc(layout, &mut grow) } as usize;
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
        drop(buf);
    }
}
