//! The CPU catalog (data/cpus.csv): the desktop, workstation, server and ARM parts people run
//! models on, each with its cores, clocks and the integer dot-product and 16-bit float throughput per core
//! per cycle of its SIMD units, with sources. It gives the compute side of whatever reads system
//! RAM ([`crate::estimator::HostCpu`]).

use super::{csv, unknown, Catalog, Kind, Machine, MemoryClass};
use crate::calibration::Backend;
use crate::estimator::cpu::{busy_cores, numa_factor};
use crate::estimator::{CpuFamily, HostCpu};

/// The CPU assumed for a discrete GPU's host and for a custom CPU machine when `cpu=` is not
/// given: a 16-core desktop of the current generation but one (documented in docs/scenario.md).
pub const TYPICAL_DESKTOP: &str = "ryzen-9-7950x";

/// The SIMD families a described CPU (`cpu_simd=`) can name, as the catalog's rows of each
/// family have them: (id, name, ARM, int8 operations and 16-bit FLOP per core per cycle). The
/// figures are the catalog's own for that family (data/cpus.csv `int8_ops_per_cycle`,
/// `f16_flops_per_cycle`, whose `throughput_source` cites the vendors' optimization guides):
/// AVX without FMA as Sandy/Ivy Bridge; AVX2 as two 256-bit FMA pipes (Haswell to Raptor Lake,
/// Zen 2/3); AVX-512 on 256-bit units as Zen 4 and one-FMA-unit Xeons; AVX-512 as two 512-bit FMA
/// units (Skylake-SP Gold/Platinum, Zen 5 desktop); AMX parts decode with their AVX-512; NEON
/// without dot product as Cortex-A72; NEON with `SDOT` on two 128-bit pipes as Cortex-A76; `SMMLA`
/// (i8mm) on two pipes as Neoverse N2/Graviton 3's NEON; SVE on two 256-bit pipes as Neoverse V1.
pub const SIMD: [(&str, &str, bool, f64, f64); 9] = [
    ("avx", "AVX (no FMA)", false, 32.0, 16.0),
    ("avx2", "AVX2", false, 128.0, 32.0),
    ("avx512-256", "AVX-512 on 256-bit units", false, 128.0, 32.0),
    ("avx512", "AVX-512", false, 256.0, 64.0),
    ("amx", "AVX-512 with AMX", false, 256.0, 64.0),
    ("neon", "NEON (no dot product)", true, 16.0, 16.0),
    ("neon-dotprod", "NEON dot product", true, 64.0, 32.0),
    ("neon-i8mm", "NEON i8mm", true, 128.0, 32.0),
    ("sve", "SVE", true, 256.0, 64.0),
];

/// The ids of [`SIMD`], for the `cpu_simd` key.
pub const SIMD_IDS: &[&str] = &[
    "avx",
    "avx2",
    "avx512-256",
    "avx512",
    "amx",
    "neon",
    "neon-dotprod",
    "neon-i8mm",
    "sve",
];

/// The id a described CPU goes by.
pub const DESCRIBED: &str = "described";

/// One CPU.
#[derive(Clone, Debug)]
pub struct Cpu {
    pub id: String,
    pub name: String,
    pub family: CpuFamily,
    /// Performance cores (all cores where there is one kind).
    pub cores: u32,
    /// Efficiency cores (Intel E-cores, Apple E-cores, Cortex-A55).
    pub efficiency_cores: u32,
    /// Hardware threads.
    pub threads: u32,
    /// All-core base clock, GHz: what a core holds under a long vector load.
    pub base_ghz: f64,
    pub boost_ghz: f64,
    pub simd: String,
    /// Int8 operations per performance core per cycle: two per multiply-accumulate of the widest
    /// int8 multiply instruction (`VPMADDUBSW`, `VPDPBUSD`, `SDOT`, `SMMLA`) times the units issuing it.
    pub int8_ops_per_cycle: f64,
    /// FLOP per performance core per cycle for 16-bit weights (two per fused multiply-add): FP16
    /// arithmetic on ARM, FP32 on x86, which widens them.
    pub f16_flops_per_cycle: f64,
    /// The memory it is specified for, and its channels per socket.
    pub memory: String,
    pub channels: u32,
    /// The most sockets it runs in.
    pub max_sockets: u32,
    pub source: String,
    pub throughput_source: String,
    /// The package power its maker states (AMD's default TDP, Intel's TDP or Processor Base
    /// Power), watts, per socket; `None` where the maker states none (Apple, most boards).
    pub tdp_w: Option<f64>,
    pub tdp_source: String,
}

impl Cpu {
    /// The CPU reading system RAM with `threads` threads over `sockets` sockets, with the compute
    /// efficiency and the remote share's streaming rate the caller has from the calibration.
    pub fn host(&self, threads: u32, sockets: u32, efficiency: f64, numa_remote: f64) -> HostCpu {
        let per_socket = threads.div_ceil(sockets.max(1));
        let cores = busy_cores(per_socket, self.cores, self.efficiency_cores) * f64::from(sockets.max(1));
        let cycles = cores * self.base_ghz * 1e9;
        HostCpu {
            id: self.id.clone(),
            name: self.name.clone(),
            family: self.family,
            int8_ops: cycles * self.int8_ops_per_cycle,
            f16_flops: cycles * self.f16_flops_per_cycle,
            threads,
            cores,
            sockets,
            efficiency,
            attention: crate::estimator::cpu::ATTENTION_PRIOR,
            numa: numa_factor(sockets, numa_remote),
        }
    }

    /// The memory it is specified for as a catalog memory type and its top data rate, MT/s:
    /// "DDR5-5600" → `("ddr5", Some(5600))`, "LPDDR5X" → `("lpddr5x", None)`. DDR3L is DDR3 at
    /// 1.35 V, one type with it.
    pub fn memory_spec(&self) -> (String, Option<f64>) {
        let lower = self.memory.to_ascii_lowercase();
        let (kind, rate) = lower.split_once('-').unwrap_or((&lower, ""));
        let kind = match kind.strip_suffix('l') {
            Some(plain) if MemoryClass::of(plain).is_some() => plain,
            _ => kind,
        };
        (kind.to_string(), rate.parse::<u32>().ok().map(f64::from))
    }

    /// Its maker: the first word of its name ("AMD", "Intel", "Apple").
    pub fn maker(&self) -> &str {
        self.name.split(' ').next().unwrap_or_default()
    }

    /// Whether `m` is a single-socket CPU machine of its platform: the memory it is specified
    /// for, at its top data rate, in all its channels. Only DDR: a module's channel is 64 bits,
    /// where LPDDR's width differs from one maker's count to another's.
    fn platform_is(&self, m: &Machine) -> bool {
        let (kind, rate) = self.memory_spec();
        m.kind == Kind::Cpu
            && m.sockets == 1
            && m.memory_class() == MemoryClass::Ddr
            && m.memory_type == kind
            && rate.zip(m.data_rate_mts).is_some_and(|(a, b)| (a - b).abs() < 0.5)
            && m.bus_bits == Some(f64::from(64 * self.channels))
    }

    /// This CPU with the figures a person gave for theirs (`cpu_cores`, `cpu_ghz`, `cpu_simd`,
    /// each `None` where not given): a CPU outside the catalog. It keeps this one's memory and
    /// channels, runs in up to 8 sockets, has no stated package power, and is x86-server where an
    /// x86 CPU has more than 16 cores.
    pub fn described(&self, cores: Option<u32>, ghz: Option<f64>, simd: Option<&str>) -> Cpu {
        let mut c = self.clone();
        if let Some(n) = cores {
            c.cores = n;
            c.efficiency_cores = 0;
            c.threads = c.threads.max(n);
        }
        if let Some(g) = ghz {
            c.base_ghz = g;
            c.boost_ghz = g;
        }
        let family = simd.and_then(|id| SIMD.iter().find(|s| s.0 == id));
        if let Some(&(_, name, arm, int8, f16)) = family {
            c.simd = name.to_string();
            c.int8_ops_per_cycle = int8;
            c.f16_flops_per_cycle = f16;
            c.family = if arm { CpuFamily::Arm } else { CpuFamily::X86Desktop };
        }
        if matches!(c.family, CpuFamily::X86Desktop | CpuFamily::X86Server) {
            c.family = if c.cores > 16 {
                CpuFamily::X86Server
            } else {
                CpuFamily::X86Desktop
            };
        }
        c.name = format!("a described CPU ({} cores at {} GHz, {})", c.cores, c.base_ghz, c.simd);
        c.id = DESCRIBED.to_string();
        c.max_sockets = 8;
        c.tdp_w = None;
        c.tdp_source = String::new();
        c.source = String::new();
        c
    }

    /// The threads a runtime uses by default on `sockets` sockets: one per performance core
    /// (llama.cpp's default), or every core where there is one kind.
    pub fn default_threads(&self, sockets: u32) -> u32 {
        self.cores * sockets.max(1)
    }
}

pub(super) fn parse_cpu(r: &csv::Record) -> Result<Cpu, String> {
    let family = r.required("family")?;
    Ok(Cpu {
        id: r.required("id")?.to_string(),
        name: r.required("name")?.to_string(),
        family: CpuFamily::parse(family).ok_or_else(|| format!("line {}: family \"{family}\" is not known", r.line))?,
        cores: r.count("cores")?,
        efficiency_cores: r.count("efficiency_cores")?,
        threads: r.count("threads")?,
        base_ghz: r.f64("base_ghz")?,
        // The page's copy leaves it out (build.rs): the estimate uses the base clock.
        boost_ghz: r.opt_f64("boost_ghz")?.unwrap_or(f64::NAN),
        simd: r.text("simd").to_string(),
        int8_ops_per_cycle: r.f64("int8_ops_per_cycle")?,
        f16_flops_per_cycle: r.f64("f16_flops_per_cycle")?,
        memory: r.text("memory").to_string(),
        channels: r.count("channels")?,
        max_sockets: r.count("max_sockets")?,
        source: r.text("source").to_string(),
        throughput_source: r.text("throughput_source").to_string(),
        tdp_w: r.opt_f64("tdp_w")?,
        tdp_source: r.text("tdp_source").to_string(),
    })
}

impl Catalog {
    /// The machines that carry `cpu`, its platform's first: the single-socket CPU machines of its
    /// platform ([`Cpu::platform_is`]; where several share it, those whose own CPU is of its
    /// maker, so a Threadripper is not put on a Xeon board), then every other machine that names
    /// it as its CPU and runs on it (another speed grade, a second socket, a SoC's CPU backend).
    pub fn machines_with_cpu(&self, cpu: &Cpu) -> Vec<&Machine> {
        let maker = |m: &Machine| m.cpu.as_deref().and_then(|id| self.cpu(id).ok()).map(Cpu::maker);
        let platform: Vec<&Machine> = self.machines.iter().filter(|m| cpu.platform_is(m)).collect();
        let same_maker = platform.iter().any(|m| maker(m) == Some(cpu.maker()));
        let mut out: Vec<&Machine> = platform
            .into_iter()
            .filter(|m| !same_maker || maker(m) == Some(cpu.maker()))
            .collect();
        for m in &self.machines {
            let runs_on_it = m.kind == Kind::Cpu || m.default_backend() == Backend::Cpu;
            if m.cpu.as_deref() == Some(cpu.id.as_str()) && runs_on_it && !out.iter().any(|o| o.id == m.id) {
                out.push(m);
            }
        }
        out
    }

    /// A CPU by id, of the catalog or of the page's long tail of CPUs where it is loaded.
    pub fn cpu(&self, id: &str) -> Result<&Cpu, String> {
        self.every_cpu()
            .find(|c| c.id == id)
            .ok_or_else(|| unknown("CPU", id, self.every_cpu().map(|c| c.id.as_str())))
    }

    /// Every CPU: the catalog's, then on the page the long tail of CPUs where it is loaded.
    pub fn every_cpu(&self) -> impl Iterator<Item = &Cpu> {
        self.cpus.iter().chain(long_tail())
    }
}

/// The page's long tail of CPUs: the catalog's CPUs that no machine names (build.rs cuts them
/// from the page's copy, `cpus-longtail.txt`), fetched when something asks for one and handed to
/// [`load_long_tail`]. The CLI and the tests read data/cpus.csv whole, so there it is empty.
static LONG_TAIL: std::sync::OnceLock<Vec<Cpu>> = std::sync::OnceLock::new();

/// The long tail of CPUs where it is loaded.
fn long_tail() -> &'static [Cpu] {
    LONG_TAIL.get().map_or(&[], Vec::as_slice)
}

/// Whether every CPU of the catalog is at hand: always in the CLI and the tests, on the page once
/// the long tail of CPUs is loaded.
pub fn all_loaded() -> bool {
    cfg!(not(target_arch = "wasm32")) || LONG_TAIL.get().is_some()
}

/// Takes the page's fetched copy of the long tail of CPUs; a second call keeps the first.
pub fn load_long_tail(text: &str) -> Result<(), String> {
    let cpus = csv::records(text, parse_cpu).map_err(|e| format!("cpus-longtail.txt: {e}"))?;
    let _ = LONG_TAIL.set(cpus);
    Ok(())
}
