//! The CPU that reads system RAM: the compute half of decode's roofline wherever the CPU does the
//! matrix-vector products (a CPU machine's own memory, and in llama.cpp every tensor kept in a GPU
//! machine's system RAM: spilled layers, routed experts).
//!
//! Decode does about two operations per weight read (a multiply and an add). llama.cpp quantizes
//! the activations to 8 bits and runs quantized weights through integer dot products (AVX2
//! `VPMADDUBSW`, AVX-512/AVX `VPDPBUSD`, NEON `SDOT`, `SMMLA`), and multiplies 16-bit weights with
//! fused multiply-adds (in FP16 on ARM, widened to FP32 on x86); so a CPU's peak is its integer
//! dot-product rate for quantized formats and that float rate for 16-bit ones, per core per cycle × clock × the cores its threads occupy.
//! What a runtime reaches of that peak (unpacking 4-bit blocks, scales, thread synchronisation)
//! is fitted per CPU family on measured runs (data/measured-ram.csv).

/// A CPU's family, which its compute efficiency is fitted by.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum CpuFamily {
    /// Desktop and laptop x86 (Ryzen, Core): two or fewer memory channels per socket mostly.
    X86Desktop,
    /// Workstation and server x86 (Threadripper, EPYC, Xeon).
    X86Server,
    /// Apple M-series CPU clusters.
    Apple,
    /// Other ARM (boards, Snapdragon, Grace, Altra).
    Arm,
}

impl CpuFamily {
    pub const ALL: [CpuFamily; 4] = [CpuFamily::X86Desktop, CpuFamily::X86Server, CpuFamily::Apple, CpuFamily::Arm];

    /// The id used in data/cpus.csv and data/calibration.csv.
    pub fn id(self) -> &'static str {
        match self {
            CpuFamily::X86Desktop => "x86-desktop",
            CpuFamily::X86Server => "x86-server",
            CpuFamily::Apple => "apple",
            CpuFamily::Arm => "arm",
        }
    }

    pub fn parse(s: &str) -> Option<CpuFamily> {
        CpuFamily::ALL.into_iter().find(|f| f.id() == s)
    }
}

/// The share of a CPU's peak that decode's matrix-vector products reach where its family has no
/// fit: a stated prior of 15%, what the few runs that show a CPU's arithmetic binding imply (a
/// two-thread Core i5-4278U, and an Apple M2 Max on three or four threads, whose runs are not
/// fitted; docs/accuracy.md).
pub const COMPUTE_EFFICIENCY_PRIOR: f64 = 0.15;

/// The share of a CPU's attention peak ([`HostCpu::attention_peak`]) that decode's attention over
/// the context reaches where no engine has deep runs from two hosts: a stated prior of 15%, about
/// what llama.cpp's runs at depth show (ik_llama.cpp's reach several times more; docs/accuracy.md).
pub const ATTENTION_PRIOR: f64 = 0.15;

/// How fast the share of a run held by another socket streams, relative to the first socket's,
/// where no multi-socket run was measured: a stated prior of one half (pages live on the node
/// that first touched them, so that share crosses the socket link). Two sockets then stream at
/// three quarters of their summed rate.
pub const NUMA_PRIOR: f64 = 0.5;

/// The CPU reading system RAM, as the estimator needs it.
#[derive(Clone, Debug, PartialEq)]
pub struct HostCpu {
    /// Its catalog id and name.
    pub id: String,
    pub name: String,
    pub family: CpuFamily,
    /// Peak int8 dot-product operations per second over the threads used (two per multiply-add).
    pub int8_ops: f64,
    /// Peak FLOP/s for 16-bit weights over the threads used.
    pub f16_flops: f64,
    pub threads: u32,
    /// The cores those threads keep busy over every socket ([`busy_cores`]).
    pub cores: f64,
    pub sockets: u32,
    /// Share of the peak decode's matrix-vector products reach (fitted per family, else the prior).
    pub efficiency: f64,
    /// Share of its attention peak ([`HostCpu::attention_peak`]) decode's attention over the
    /// context reaches on this CPU (fitted per engine, else llama.cpp's, else [`ATTENTION_PRIOR`]).
    pub attention: f64,
    /// Multiplier on the streaming rate of system RAM for spanning `sockets` (1 on one socket).
    pub numa: f64,
}

impl HostCpu {
    /// The FLOP/s decode's attention over the context can reach: the 16-bit rate of √cores of the
    /// cores busy. A decode token's attention is a few small products per layer (a query against
    /// each head's keys, then its values), split over the threads head by head and chunk by chunk
    /// with a barrier after each, so it spreads over more cores less well than the weights'
    /// long matrix-vector products do: of the powers of the cores tried (1, ¾, ½, ¼), the square
    /// root predicts the held-out hosts' runs at depth best (docs/accuracy.md).
    pub fn attention_peak(&self) -> f64 {
        self.f16_flops / self.cores.max(1.0).sqrt()
    }

    /// The peak operations per second that apply to weights stored at `bpw` bits: the float rate for
    /// 16-bit and wider formats, the integer dot-product rate for quantized ones.
    pub fn peak_ops(&self, bpw: f64) -> f64 {
        if bpw >= 12.0 {
            self.f16_flops
        } else {
            self.int8_ops
        }
    }
}

/// The cores `threads` threads keep busy: performance cores first, then efficiency cores (counted
/// at half a performance core, as their SIMD units are half as wide or half as many), and nothing
/// for a second thread on a core (SMT shares the core's SIMD units).
pub fn busy_cores(threads: u32, cores: u32, efficiency_cores: u32) -> f64 {
    let p = threads.min(cores);
    let e = threads.saturating_sub(p).min(efficiency_cores);
    f64::from(p) + 0.5 * f64::from(e)
}

/// The rounds of thread synchronisation a layer costs on `threads` threads, per second of the
/// fitted cost per round (data/calibration.csv, `sync`): log2(threads), none on one thread.
///
/// llama.cpp's CPU backend computes a graph node by node, every thread taking a share of each
/// node, and the threads meet at a barrier after each node (ggml-cpu.c: `ggml_graph_compute_thread`
/// calls `ggml_barrier` between nodes; `ggml_barrier` returns at once on one thread, else each
/// thread increments one shared counter and spins until the last one arrives). A layer is a
/// couple of dozen nodes, so a token waits at some thousand barriers, and a barrier waits for the
/// slowest thread: the more threads, the longer both the counter's cache line takes to pass
/// through every core and the straggler's lead. Of the shapes tried, log2(threads) predicted the
/// held-out hosts of data/measured-ram.csv best (a cost linear in threads overshoots the 64-thread
/// Graviton3 and EPYC runs); docs/accuracy.md gives the figures.
pub fn sync_rounds(threads: u32) -> f64 {
    f64::from(threads.max(1)).log2()
}

/// The multiplier on a spanning run's streaming rate: 1 on one socket; over `sockets`, the first
/// socket's share at full rate and the others' at `remote`.
pub fn numa_factor(sockets: u32, remote: f64) -> f64 {
    let s = f64::from(sockets.max(1));
    (1.0 + (s - 1.0) * remote) / s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn threads_fill_performance_cores_then_efficiency_cores_at_half() {
        assert_eq!(busy_cores(8, 8, 16), 8.0);
        assert_eq!(busy_cores(24, 8, 16), 16.0);
        assert_eq!(busy_cores(64, 8, 16), 16.0);
        assert_eq!(busy_cores(4, 16, 0), 4.0);
    }

    #[test]
    fn one_socket_streams_at_full_rate_and_more_lose_the_remote_share() {
        assert_eq!(numa_factor(1, 0.5), 1.0);
        assert_eq!(numa_factor(2, 0.5), 0.75);
        assert!((numa_factor(4, 0.5) - 0.625).abs() < 1e-12);
    }

    #[test]
    fn one_thread_never_meets_and_each_doubling_adds_a_round() {
        assert_eq!(sync_rounds(1), 0.0);
        assert_eq!(sync_rounds(0), 0.0);
        assert_eq!(sync_rounds(16), 4.0);
        assert_eq!(sync_rounds(64), 6.0);
    }
}
