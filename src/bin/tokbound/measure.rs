//! `tokbound measure`: this computer's memory read bandwidth, measured natively with the page's
//! method (every core reads its own buffer at once, 64 bytes a step). The command line does its
//! own I/O and timing here; the library stays free of threads and clocks.

use serde::Serialize;
use std::time::{Duration, Instant};

/// `tokbound measure`'s JSON.
#[derive(Clone, Debug, Serialize)]
pub struct HostFigure {
    pub bandwidth_gbs: f64,
    pub threads: usize,
    /// Bytes read in the best pass.
    pub bytes: u64,
    pub seconds: f64,
}

/// Reads the buffer once, 64 bytes a step as four 16-byte vector loads into four sums: the
/// page's kernel (scripts/measure/kernel.wat), written with the CPU's vector loads so the
/// release build's size-first optimisation (`opt-level = "z"`, which leaves loops unvectorised)
/// cannot halve the figure.
#[cfg(target_arch = "x86_64")]
fn read(buf: &[u64]) -> u64 {
    use std::arch::x86_64::{__m128i, _mm_add_epi64, _mm_loadu_si128, _mm_setzero_si128, _mm_storeu_si128};
    let mut acc = [[0u64; 2]; 4];
    // SAFETY: SSE2 is part of every x86_64 CPU; each load reads 16 bytes inside `chunk`, which
    // holds 64; the unaligned load and store need no alignment.
    unsafe {
        let mut sums = [_mm_setzero_si128(); 4];
        for chunk in buf.chunks_exact(8) {
            let p = chunk.as_ptr().cast::<__m128i>();
            sums[0] = _mm_add_epi64(sums[0], _mm_loadu_si128(p));
            sums[1] = _mm_add_epi64(sums[1], _mm_loadu_si128(p.add(1)));
            sums[2] = _mm_add_epi64(sums[2], _mm_loadu_si128(p.add(2)));
            sums[3] = _mm_add_epi64(sums[3], _mm_loadu_si128(p.add(3)));
        }
        for (out, sum) in acc.iter_mut().zip(sums) {
            _mm_storeu_si128(out.as_mut_ptr().cast::<__m128i>(), sum);
        }
    }
    acc.iter().flatten().fold(0u64, |s, a| s.wrapping_add(*a))
}

/// [`read`] on other CPUs: eight independent sums, 64 bytes a step.
#[cfg(not(target_arch = "x86_64"))]
fn read(buf: &[u64]) -> u64 {
    let mut acc = [0u64; 8];
    for chunk in buf.chunks_exact(8) {
        for (a, v) in acc.iter_mut().zip(chunk) {
            *a = a.wrapping_add(*v);
        }
    }
    acc.iter().fold(0u64, |s, a| s.wrapping_add(*a))
}

/// Reads `total_bytes` (split among the threads) in `passes` timed passes of at least
/// `pass_time` each; the best pass's figure.
pub fn measure(total_bytes: usize, passes: usize, pass_time: Duration) -> HostFigure {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let per = (total_bytes / threads / 8).max(1024);
    let mut best: Option<HostFigure> = None;
    let buffers: Vec<Vec<u64>> = (0..threads).map(|i| vec![i as u64 + 1; per]).collect();
    for _ in 0..passes {
        let start = std::sync::Barrier::new(threads);
        let results: Vec<(u64, f64, u64)> = std::thread::scope(|scope| {
            let handles: Vec<_> = buffers
                .iter()
                .map(|buf| {
                    let start = &start;
                    scope.spawn(move || {
                        start.wait();
                        let t0 = Instant::now();
                        let (mut bytes, mut sum) = (0u64, 0u64);
                        while t0.elapsed() < pass_time {
                            sum = sum.wrapping_add(read(std::hint::black_box(buf)));
                            bytes += (buf.len() * 8) as u64;
                        }
                        (bytes, t0.elapsed().as_secs_f64(), sum)
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap_or((0, 1.0, 0))).collect()
        });
        std::hint::black_box(results.iter().map(|r| r.2).sum::<u64>());
        let bytes: u64 = results.iter().map(|r| r.0).sum();
        let seconds = results.iter().map(|r| r.1).fold(0.0, f64::max);
        let gbs = bytes as f64 / seconds / 1e9;
        if best.as_ref().is_none_or(|b| gbs > b.bandwidth_gbs) {
            best = Some(HostFigure {
                bandwidth_gbs: gbs,
                threads,
                bytes,
                seconds,
            });
        }
    }
    best.unwrap_or(HostFigure {
        bandwidth_gbs: 0.0,
        threads,
        bytes: 0,
        seconds: 0.0,
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_kernel_reads_every_word() {
        let buf: Vec<u64> = (1..=64).collect();
        assert_eq!(super::read(&buf), 64 * 65 / 2);
    }

    #[test]
    fn the_host_probe_reads_memory() {
        let f = super::measure(8 << 20, 2, std::time::Duration::from_millis(20));
        // A figure, not a floor: a busy machine reads slowly, and speeds belong to `make bench`.
        assert!(f.bandwidth_gbs > 0.0 && f.bytes > 0 && f.seconds > 0.0 && f.threads >= 1, "{f:?}");
    }
}
