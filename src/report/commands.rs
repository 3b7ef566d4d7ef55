//! The commands that run a scenario and measure it: llama.cpp's `llama-server` with the context,
//! the layers on the GPU, where the experts live, the KV cache's type, flash attention, the threads,
//! a split over cards and a draft model; and `llama-bench` measuring the same decode at the same
//! depth, whose output the calibration panel (or `tokbound calibrate`) reads back. On MLX, the
//! `mlx_lm` equivalents. Flags as llama.cpp's `llama-server --help` and `llama-bench --help` name
//! them (docs/cli.md).

use crate::calibration::Backend;
use crate::catalog::Catalog;
use crate::estimator::{Estimate, Inputs, Kind};
use crate::scenario::{Key, Scenario};

/// The two commands for a scenario, and what the bench cannot reproduce.
#[derive(Clone, Debug, PartialEq)]
pub struct Commands {
    /// Runs the scenario.
    pub run: String,
    /// Measures its decode at its depth.
    pub bench: String,
    /// What to do with the bench's output, and what it leaves out.
    pub note: String,
}

/// The GGUF file a catalog model at a catalog format is usually named by: `qwen2.5-32b-Q4_K_M.gguf`.
fn file_name(s: &Scenario, cat: &Catalog) -> String {
    match super::views::model_and_quant(s) {
        (Some(m), Some(q)) => format!(
            "{m}-{}.gguf",
            cat.quant(q).map_or(q.to_ascii_uppercase(), |q| q.name.replace(" ", "_"))
        ),
        (Some(m), None) => format!("{m}.gguf"),
        _ => "model.gguf".into(),
    }
}

/// The commands for the scenario as resolved.
pub fn commands(s: &Scenario, cat: &Catalog, inputs: &Inputs, e: &Estimate) -> Commands {
    if s.backend(cat) == Backend::Mlx {
        return mlx(s);
    }
    let file = file_name(s, cat);
    let ctx = inputs.context.max(1.0) as u64;
    let n_layers = inputs.model.layers().unwrap_or(99);
    let gpu = inputs.machine.kind != Kind::Cpu;
    // Layers on the GPU: all of them, or those the placement keeps in VRAM when layers spill.
    let ngl = if !gpu {
        0
    } else if inputs.placement.expert_offload {
        n_layers
    } else {
        let in_ram = e.spill.as_ref().map_or(0.0, |sp| sp.fraction);
        ((f64::from(n_layers) * (1.0 - in_ram)).floor() as u32).min(n_layers)
    };
    let mut shared: Vec<String> = vec![format!("-ngl {ngl}")];
    if inputs.placement.expert_offload {
        shared.push(match s.whole(Key::CpuMoe) {
            Some(n) => format!("--n-cpu-moe {n}"),
            None => "-ot exps=CPU".into(),
        });
    }
    let kv = s.text(Key::Kv).unwrap_or(crate::scenario::DEFAULT_KV);
    if kv != "f16" {
        shared.push(format!("-ctk {kv} -ctv {kv}"));
    }
    let cpu_reads = !gpu
        || e.pools
            .iter()
            .any(|p| p.weight_bytes > 0.0 && p.pool != crate::estimator::Pool::Vram);
    if let (Some(h), true) = (&inputs.host, cpu_reads) {
        shared.push(format!("-t {}", h.threads));
    }
    // A layer split: `split=` identical cards, or `with=` devices in proportion to their memory
    // (or `tensor_split=`), as llama.cpp's --tensor-split and llama-bench's -ts take them.
    let proportions: Vec<String> = match (&inputs.tensor_split, inputs.devices.is_empty()) {
        (Some(t), false) => t.iter().map(|v| super::views::trim(*v)).collect(),
        (None, false) => std::iter::once(inputs.machine.memory_gib.unwrap_or(1.0))
            .chain(inputs.devices.iter().map(|d| d.memory_gib))
            .map(super::views::trim)
            .collect(),
        _ => vec!["1".to_string(); inputs.split.max(1) as usize],
    };
    let split = proportions.len();
    let ones = |sep: &str| proportions.join(sep);
    let mut run = format!(
        "llama-server -m {file} -c {} {} -fa on",
        ctx * u64::from(inputs.batch.unwrap_or(1).max(1)),
        shared.join(" ")
    );
    if split > 1 {
        run.push_str(&format!(" --tensor-split {}", ones(",")));
    }
    if let Some(b) = inputs.batch.filter(|b| *b > 1) {
        run.push_str(&format!(" -np {b}"));
    }
    let mut note = "Paste its output into Calibrate (or tokbound calibrate) to fit the estimate to your machine".to_string();
    if let (Some(d), Some(sp)) = (s.text(Key::Draft), &inputs.speculation) {
        run.push_str(&format!(
            " -md {}-{} --draft-max {}",
            d,
            file.rsplit('-').next().unwrap_or("Q4_K_M.gguf"),
            sp.k
        ));
        note.push_str("; llama-bench has no draft model, so it measures the target alone");
    }
    let mut bench = format!("llama-bench -m {file} -p 0 -n 128 -d {ctx} -fa 1 {}", shared.join(" "));
    if split > 1 {
        bench.push_str(&format!(" -ts {}", ones("/")));
    }
    bench.push_str(" -o md");
    Commands { run, bench, note }
}

/// MLX: `mlx_lm.server` runs it, `mlx_lm.generate` prints the generation speed.
fn mlx(s: &Scenario) -> Commands {
    let model = super::views::model_and_quant(s).0.unwrap_or("model");
    let repo = format!("mlx-community/{model}");
    Commands {
        run: format!("mlx_lm.server --model {repo}"),
        bench: format!("mlx_lm.generate --model {repo} --prompt \"Write a story.\" --max-tokens 128"),
        note: "Use the MLX conversion at this format; mlx_lm.generate prints the generation speed in tokens per second".into(),
    }
}
