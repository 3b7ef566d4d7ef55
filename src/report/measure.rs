//! Measuring the machine's memory bandwidth: what the page's probe reports
//! (public/measure-worker.js: WebAssembly reads in Web Workers, and a WebGPU compute shader),
//! how a figure becomes the scenario's machine (the command line's own probe is `tokbound measure`, in src/bin).
//!
//! The probe's figures are what this browser could read, not a spec sheet: a CPU figure is the
//! CPU side's read bandwidth (on Apple silicon the CPU cores reach only part of the unified
//! memory's peak), a GPU figure what a compute shader streamed. A software adapter's figure
//! (SwiftShader, a fallback adapter) is shown but never used.

use crate::catalog::{Catalog, Kind, Machine};
use crate::scenario::{Key, Scenario, Value};

/// The CPU side's figure.
#[derive(Clone, Debug, PartialEq)]
pub struct CpuFigure {
    pub bandwidth_gbs: f64,
    pub threads: u32,
    /// Why the test read less memory than it meant to, if it did.
    pub notice: Option<String>,
}

/// The GPU's figure and what the browser says of the adapter.
#[derive(Clone, Debug, PartialEq)]
pub struct GpuFigure {
    pub bandwidth_gbs: f64,
    pub vendor: String,
    pub architecture: String,
    pub description: String,
    /// A software (fallback) adapter: not the user's GPU.
    pub fallback: bool,
}

/// One message from the probe.
#[derive(Clone, Debug, PartialEq)]
pub enum Message {
    Progress { value: f64, text: String },
    Cpu(CpuFigure),
    CpuFailed(String),
    Gpu(GpuFigure),
    GpuMissing(String),
    Done,
}

/// Reads one message (JSON text) from the probe.
pub fn parse_message(text: &str) -> Result<Message, String> {
    let v: serde_json::Value = serde_json::from_str(text).map_err(|e| format!("the probe sent {e}"))?;
    let s = |k: &str| v.get(k).and_then(serde_json::Value::as_str).unwrap_or_default().to_string();
    let bandwidth = || {
        v.get("bandwidth_gbs")
            .and_then(serde_json::Value::as_f64)
            .filter(|b| b.is_finite() && *b >= 0.0)
            .ok_or("the probe sent a figure without its bandwidth")
    };
    Ok(match v.get("type").and_then(serde_json::Value::as_str) {
        Some("progress") => Message::Progress {
            value: v.get("value").and_then(serde_json::Value::as_f64).unwrap_or(0.0).clamp(0.0, 1.0),
            text: s("text"),
        },
        Some("cpu") => Message::Cpu(CpuFigure {
            bandwidth_gbs: bandwidth()?,
            threads: v.get("threads").and_then(serde_json::Value::as_u64).unwrap_or(1).min(4096) as u32,
            notice: v.get("notice").and_then(serde_json::Value::as_str).map(str::to_string),
        }),
        Some("cpu-failed") => Message::CpuFailed(s("reason")),
        Some("gpu") => Message::Gpu(GpuFigure {
            bandwidth_gbs: bandwidth()?,
            vendor: s("vendor"),
            architecture: s("architecture"),
            description: s("description"),
            fallback: v.get("fallback").and_then(serde_json::Value::as_bool).unwrap_or(false),
        }),
        Some("gpu-missing") => Message::GpuMissing(s("reason")),
        Some("done") => Message::Done,
        _ => return Err("the probe sent a message of no known type".into()),
    })
}

/// The GPU figure Use as machine may take: a real adapter's.
pub fn usable_gpu(gpu: Option<&GpuFigure>) -> Option<&GpuFigure> {
    gpu.filter(|g| !g.fallback && g.bandwidth_gbs.is_finite() && g.bandwidth_gbs > 0.0)
}

/// The figure Use as machine takes and how it was measured (`webgpu` or `cpu`): the GPU's on a
/// real adapter, else the CPU's.
pub fn taken(cpu: Option<&CpuFigure>, gpu: Option<&GpuFigure>) -> Option<(f64, &'static str)> {
    usable_gpu(gpu)
        .map(|g| (g.bandwidth_gbs, "webgpu"))
        .or_else(|| cpu.filter(|c| c.bandwidth_gbs > 0.0).map(|c| (c.bandwidth_gbs, "cpu")))
}

/// Catalog machines that an adapter's vendor and architecture (all a browser tells) may be.
/// Vendor ids and architecture names as Chromium reports them (Dawn's `gpu_info` tables).
const ARCHITECTURES: &[(&str, &str, &[&str])] = &[
    ("nvidia", "turing", &["RTX 20", "TITAN RTX", "Tesla T4", "GTX 16"]),
    ("nvidia", "ampere", &["RTX 30", "A100", "RTX A", "A40", "A10"]),
    ("nvidia", "lovelace", &["RTX 40", "L40", "L4 ", "Ada"]),
    ("nvidia", "hopper", &["H100", "H200", "GH200"]),
    ("nvidia", "blackwell", &["RTX 50", "B200", "B300", "GB10", "DGX Spark", "RTX PRO"]),
    ("amd", "rdna-2", &["RX 6"]),
    ("amd", "rdna-3", &["RX 7", "780M", "W7"]),
    ("amd", "rdna-3.5", &["Strix", "Ryzen AI", "890M"]),
    ("amd", "rdna-4", &["RX 9", "R9700"]),
    ("amd", "cdna-3", &["MI300", "MI325"]),
    ("intel", "xe-hpg", &["Arc A"]),
    ("intel", "xe-lpg", &["Meteor Lake", "Arc 140"]),
    ("intel", "xe2", &["Arc B", "Lunar Lake", "Arc 140V"]),
];

/// The catalog machines an adapter may be: by vendor and architecture where the table knows
/// the architecture, every Apple machine for an Apple adapter.
pub fn adapter_matches<'a>(cat: &'a Catalog, gpu: &GpuFigure) -> Vec<&'a Machine> {
    let vendor = gpu.vendor.to_ascii_lowercase();
    let arch = gpu.architecture.to_ascii_lowercase();
    if vendor.contains("apple") {
        return cat.machines.iter().filter(|m| m.kind == Kind::Apple).collect();
    }
    let Some((_, _, names)) = ARCHITECTURES.iter().find(|(v, a, _)| vendor.contains(v) && arch == *a) else {
        return Vec::new();
    };
    cat.machines.iter().filter(|m| names.iter().any(|n| m.name.contains(n))).collect()
}

/// Whether a WebGL renderer string names a software renderer (SwiftShader, llvmpipe), no GPU.
pub fn is_software_renderer(renderer: &str) -> bool {
    renderer.to_ascii_lowercase().contains("swiftshader") || renderer.contains("llvmpipe")
}

/// The catalog machine a browser's GPU name most likely is, from WebGL's renderer string
/// ("ANGLE (NVIDIA, NVIDIA GeForce RTX 4090 (0x00002684) Direct3D11 vs_5_0 ps_5_0, D3D11)",
/// "ANGLE (Apple, ANGLE Metal Renderer: Apple M3 Max, Unspecified Version)", or a bare
/// "NVIDIA GeForce RTX 3090/PCIe/SSE2"). Software renderers and names the catalog does not know
/// give `None`; several variants (an M3 Max's 30- and 40-core GPUs) give the first.
pub fn machine_from_renderer<'a>(cat: &'a Catalog, renderer: &str) -> Option<&'a Machine> {
    if is_software_renderer(renderer) {
        return None;
    }
    // ANGLE wraps the device between the first comma and the driver details.
    let device = match renderer.strip_prefix("ANGLE (") {
        Some(rest) => rest.split(", ").nth(1).unwrap_or(rest),
        None => renderer,
    };
    // What follows the last "Renderer: ", read forwards: a reverse substring search would bring
    // its searcher into the page (about 0.5 KB gzipped) for this one call.
    let device = device.split("Renderer: ").last().unwrap_or(device);
    let device = device
        .split(['/', '('])
        .next()
        .unwrap_or(device)
        .split(" Direct3D")
        .next()
        .unwrap_or(device)
        .trim();
    if device.split_whitespace().count() < 2 {
        return None;
    }
    // The machine of that exact name, else the first a search finds within one product line.
    if let Some(m) = cat.machines_named(device).first() {
        return Some(m);
    }
    let found = cat.search_machines(device);
    found.first().copied().filter(|_| found.len() <= 4)
}

/// Puts the measured figures into the scenario. A GPU figure becomes the machine's bandwidth
/// (`bw`, the chosen catalog machine's other figures kept as a custom machine's), with the CPU
/// figure as `ram_bw` on a discrete GPU; a CPU figure alone is `ram_bw` on a discrete-GPU machine
/// and the bandwidth on any other. `measured` says which.
pub fn apply(s: &mut Scenario, cat: &Catalog, cpu: Option<&CpuFigure>, gpu: Option<&GpuFigure>) -> Result<(), String> {
    let Some((figure, how)) = taken(cpu, gpu) else {
        return Err("nothing measured to use yet".into());
    };
    let machine = crate::report::views::machine_id(s).and_then(|id| cat.machine(id).ok());
    let kind = machine.map_or_else(|| s.kind().unwrap_or(Kind::Gpu), |m| m.kind);
    let number = |v: f64| Value::Number((v * 10.0).round() / 10.0);
    let cpu_figure = cpu.map(|c| c.bandwidth_gbs).filter(|v| *v > 0.0);
    if how == "cpu" && kind == Kind::Gpu {
        // The CPU side is the slow pool of a discrete-GPU machine; VRAM keeps its figure.
        s.put(Key::RamBw, number(figure));
    } else {
        if let Some(m) = machine {
            // A custom machine with the catalog machine's other figures.
            s.put_if_unset(Key::Mem, Some(Value::Number(m.memory_gib)));
            s.put_if_unset(Key::Kind, Some(Value::Kind(m.kind)));
            s.put_if_unset(Key::Tflops, m.fp16_tflops.map(Value::Number));
            s.put_if_unset(Key::Backend, Some(Value::Text(m.default_backend().id().to_string())));
            s.clear(Key::Hw);
        }
        s.put(Key::Bw, number(figure));
        if kind == Kind::Gpu {
            if let Some(c) = cpu_figure {
                s.put(Key::RamBw, number(c));
            }
        }
    }
    s.put(Key::Measured, Value::Text(how.to_string()));
    Ok(())
}

/// What Use as machine did, in words: which pool it set, what stays, and what that changes for
/// this scenario ("system RAM: 21.1 GB/s; the RTX 4090's VRAM stays 1008 GB/s. No change here:
/// the model is read from VRAM alone.").
pub fn applied_text(before: &Scenario, after: &Scenario, cat: &Catalog) -> String {
    let ceiling = |s: &Scenario| s.resolve(cat).ok().map(|i| crate::estimator::estimate(&i).ceiling_tok_s);
    let machine = crate::report::views::machine_id(before).and_then(|id| cat.machine(id).ok());
    let kind = machine.map_or_else(|| before.kind().unwrap_or(Kind::Gpu), |m| m.kind);
    let how = match after.text(Key::Measured) {
        Some("webgpu") => "measured through WebGPU",
        _ => "measured by the CPU cores",
    };
    let set = if after.has(Key::Bw) && after.number(Key::Bw) != before.number(Key::Bw) {
        let bw = after.number(Key::Bw).unwrap_or(0.0);
        let ram = if kind == Kind::Gpu {
            after
                .number(Key::RamBw)
                .map_or(String::new(), |r| format!("; system RAM: {} GB/s", crate::report::views::trim(r)))
        } else {
            String::new()
        };
        format!(
            "The machine's memory bandwidth is now {} GB/s, {how}{ram}.",
            crate::report::views::trim(bw)
        )
    } else {
        let ram = after.number(Key::RamBw).unwrap_or(crate::estimator::DEFAULT_RAM_BW_GBS);
        let vram = machine.map_or(String::new(), |m| {
            format!(
                "; the {}'s VRAM stays {} GB/s",
                crate::report::views::short_name(&m.name),
                crate::report::views::trim(m.bandwidth_gbs)
            )
        });
        format!("System RAM: {} GB/s, {how}{vram}.", crate::report::views::trim(ram))
    };
    let change = match (ceiling(before), ceiling(after)) {
        (Some(b), Some(a)) if (a - b).abs() < 0.05 => {
            " No change for this scenario: nothing it reads per token is in the pool that was measured.".to_string()
        }
        (Some(b), Some(a)) => format!(
            " For this scenario the ceiling goes from {} to {} tok/s.",
            crate::text::units::fmt_tok_s(b),
            crate::text::units::fmt_tok_s(a)
        ),
        _ => String::new(),
    };
    format!("{set}{change}")
}

/// The headline figure of the result: the one Use as machine takes, to one decimal, then what
/// it is and how it compares with the chosen machine's spec.
/// `spec` is the chosen catalog machine's name, bandwidth and kind: on a discrete GPU a CPU
/// figure is system RAM's, with no spec of its own to compare.
pub fn result_text(cpu: Option<&CpuFigure>, gpu: Option<&GpuFigure>, spec: Option<(&str, f64, Kind)>) -> Option<String> {
    let (figure, how) = taken(cpu, gpu)?;
    let what = if how == "webgpu" { "through WebGPU" } else { "by the CPU cores" };
    let compare = match spec {
        Some((_, _, Kind::Gpu)) if how == "cpu" => "; on this discrete-GPU machine that is system RAM's bandwidth (ram_bw)".to_string(),
        Some((name, bw, _)) => format!(
            "; {name}'s spec says {} GB/s, so this is {:.0}% of it",
            crate::report::views::trim(bw),
            100.0 * figure / bw
        ),
        None => String::new(),
    };
    Some(format!("{figure:.1} GB/s read {what}{compare}."))
}

/// The CPU line.
pub fn cpu_text(c: &CpuFigure) -> String {
    let notice = c.notice.as_ref().map_or(String::new(), |n| format!(" ({n})"));
    format!("CPU: {:.1} GB/s with {} workers{notice}", c.bandwidth_gbs, c.threads)
}

/// The GPU line.
pub fn gpu_text(g: &GpuFigure) -> String {
    let adapter = [g.vendor.as_str(), g.architecture.as_str(), g.description.as_str()]
        .iter()
        .filter(|t| !t.is_empty())
        .copied()
        .collect::<Vec<_>>()
        .join(" ");
    let adapter = if adapter.is_empty() {
        "an adapter that does not name itself".to_string()
    } else {
        adapter
    };
    if g.fallback {
        format!("GPU: {:.1} GB/s on {adapter}: software, not your GPU, so not used", g.bandwidth_gbs)
    } else {
        format!("GPU: {:.1} GB/s on {adapter}", g.bandwidth_gbs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::catalog;

    fn gpu(vendor: &str, arch: &str, fallback: bool) -> GpuFigure {
        GpuFigure {
            bandwidth_gbs: 800.0,
            vendor: vendor.into(),
            architecture: arch.into(),
            description: String::new(),
            fallback,
        }
    }

    #[test]
    fn a_renderer_string_names_a_catalog_machine() {
        let cat = catalog();
        let id = |r: &str| machine_from_renderer(cat, r).map(|m| m.id.clone());
        assert_eq!(
            id("ANGLE (NVIDIA, NVIDIA GeForce RTX 4090 (0x00002684) Direct3D11 vs_5_0 ps_5_0, D3D11)").as_deref(),
            Some("rtx-4090")
        );
        assert_eq!(id("NVIDIA GeForce RTX 3090/PCIe/SSE2").as_deref(), Some("rtx-3090"));
        assert!(id("ANGLE (Apple, ANGLE Metal Renderer: Apple M3 Max, Unspecified Version)").is_some_and(|m| m.starts_with("m3-max")));
        assert_eq!(
            id("ANGLE (AMD, AMD Radeon RX 7900 XTX (0x0000744C) Direct3D11 vs_5_0 ps_5_0, D3D11)").as_deref(),
            Some("rx-7900-xtx")
        );
        assert_eq!(
            id("ANGLE (Google, Vulkan 1.3.0 (SwiftShader Device (Subzero) (0x0000C0DE)), SwiftShader driver)"),
            None
        );
        assert_eq!(id("Mali-G610"), None);
        assert_eq!(id(""), None);
    }

    #[test]
    fn messages_are_read_and_junk_is_an_error() {
        assert_eq!(
            parse_message(r#"{"type":"cpu","bandwidth_gbs":40.5,"threads":8,"bytes":1,"seconds":0.25,"notice":null}"#).unwrap(),
            Message::Cpu(CpuFigure {
                bandwidth_gbs: 40.5,
                threads: 8,
                notice: None
            })
        );
        assert!(matches!(parse_message(r#"{"type":"gpu-missing","reason":"no"}"#).unwrap(), Message::GpuMissing(r) if r == "no"));
        assert!(
            matches!(parse_message(r#"{"type":"progress","value":7,"text":"x"}"#).unwrap(), Message::Progress { value, .. } if value == 1.0)
        );
        assert!(parse_message("{").is_err());
        assert!(parse_message(r#"{"type":"cpu"}"#).is_err());
        assert!(parse_message(r#"{"type":"hello"}"#).is_err());
    }

    #[test]
    fn a_software_adapter_is_never_taken() {
        let cpu = CpuFigure {
            bandwidth_gbs: 50.0,
            threads: 4,
            notice: None,
        };
        assert_eq!(taken(Some(&cpu), Some(&gpu("google", "swiftshader", true))), Some((50.0, "cpu")));
        assert_eq!(taken(Some(&cpu), Some(&gpu("nvidia", "lovelace", false))), Some((800.0, "webgpu")));
        assert_eq!(taken(None, None), None);
        assert!(gpu_text(&gpu("google", "", true)).contains("software, not your GPU"));
    }

    #[test]
    fn adapters_offer_the_machines_of_their_architecture() {
        let cat = catalog();
        let ada = adapter_matches(cat, &gpu("nvidia", "lovelace", false));
        assert!(ada.iter().any(|m| m.id == "rtx-4090"));
        assert!(ada.iter().all(|m| !m.name.contains("RTX 30")));
        let apple = adapter_matches(cat, &gpu("apple", "metal-3", false));
        assert!(!apple.is_empty() && apple.iter().all(|m| m.kind == Kind::Apple));
        assert!(adapter_matches(cat, &gpu("", "", true)).is_empty());
    }

    #[test]
    fn use_as_machine_puts_each_figure_where_it_belongs() {
        let cat = catalog();
        let cpu = CpuFigure {
            bandwidth_gbs: 61.24,
            threads: 8,
            notice: None,
        };
        // A discrete GPU with only a CPU figure: system RAM's bandwidth.
        let (mut s, _) = Scenario::from_query("hw=rtx-4090");
        apply(&mut s, cat, Some(&cpu), None).unwrap();
        assert_eq!(s.to_query(), "v=1&measured=cpu&ram_bw=61.2");
        // With a GPU figure: the machine's bandwidth, its other figures kept.
        let (mut s, _) = Scenario::from_query("hw=rx-7900-xtx");
        apply(&mut s, cat, Some(&cpu), Some(&gpu("amd", "rdna-3", false))).unwrap();
        let inputs = s.resolve(cat).unwrap();
        assert_eq!(inputs.machine.bandwidth_gbs, 800.0);
        assert_eq!(inputs.machine.memory_gib, Some(24.0));
        assert_eq!(s.backend(cat).id(), "rocm");
        assert_eq!(s.text(Key::Measured), Some("webgpu"));
        assert_eq!(s.number(Key::RamBw), Some(61.2));
        // A Mac with a CPU figure: that is its bandwidth.
        let (mut s, _) = Scenario::from_query("hw=m4-max-40c");
        apply(&mut s, cat, Some(&cpu), Some(&gpu("google", "swiftshader", true))).unwrap();
        assert_eq!(s.number(Key::Bw), Some(61.2));
        assert_eq!(s.kind(), Some(Kind::Apple));
        assert!(!s.has(Key::Hw));
        assert!(apply(&mut s, cat, None, None).is_err());
    }

    #[test]
    fn the_result_leads_with_the_figure_taken() {
        let cpu = CpuFigure {
            bandwidth_gbs: 61.24,
            threads: 8,
            notice: None,
        };
        let t = result_text(Some(&cpu), None, Some(("Apple M4 Max", 546.0, Kind::Apple))).unwrap();
        assert!(
            t.starts_with("61.2 GB/s read by the CPU cores; Apple M4 Max's spec says 546 GB/s, so this is 11% of it"),
            "{t}"
        );
        let t = result_text(Some(&cpu), None, Some(("RTX 4090", 1008.0, Kind::Gpu))).unwrap();
        assert!(t.ends_with("that is system RAM's bandwidth (ram_bw)."), "{t}");
    }
}
