//! The commands that run a scenario and measure it, in the engine's own spelling: llama.cpp's
//! `llama-server` and `llama-bench`, ik_llama.cpp's (its bench measures at a depth with `-gp`),
//! llamafile's `--server` and `llamafile-bench`, Ollama's server settings and `ollama run
//! --verbose`, ktransformers' `kt run`; on MLX, `mlx_lm`. Each carries the context, the layers on
//! the GPU, where the experts live, the KV cache's type, flash attention, the threads, a split over
//! cards and a draft model where the engine has the flag. Every flag printed is checked against
//! the engine's own argument parser at a named commit (data/engine-flags.csv, docs/cli.md).

use crate::calibration::Backend;
use crate::catalog::Catalog;
use crate::estimator::{Estimate, Inputs, Kind};
use crate::scenario::{Key, Scenario};

/// The two commands for a scenario, and what the bench cannot reproduce.
#[derive(Clone, Debug, PartialEq)]
pub struct Commands {
    /// Runs the scenario (none where no listed engine runs its format).
    pub run: Option<String>,
    /// Measures its decode at its depth (none where the engine has no bench).
    pub bench: Option<String>,
    /// What to do with the bench's output, and what it leaves out.
    pub note: String,
}

/// Tokens each command generates: llama-bench's `-n`, and the room `-c` keeps after the context.
pub const GENERATED_TOKENS: u64 = 128;

/// The file a custom or imported model's commands name, for the user to replace.
pub const PLACEHOLDER_FILE: &str = "YOUR_MODEL.gguf";

/// One shell word: as it is where it holds only characters no shell treats specially, else in
/// single quotes (a quote inside written `'\''`).
pub fn shell_word(text: &str) -> String {
    let plain = !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '/' | ':' | '=' | ',' | '+' | '@' | '%'));
    if plain {
        text.to_string()
    } else {
        format!("'{}'", text.replace('\'', "'\\''"))
    }
}

/// The GGUF file a catalog model at a catalog format is usually named by
/// (`qwen2.5-32b-Q4_K_M.gguf`); a custom or imported model names [`PLACEHOLDER_FILE`].
fn file_name(s: &Scenario, cat: &Catalog) -> String {
    if s.is_custom_model() {
        return PLACEHOLDER_FILE.into();
    }
    match super::views::model_and_quant(s) {
        (Some(m), Some(q)) => format!(
            "{m}-{}.gguf",
            cat.quant(q).map_or(q.to_ascii_uppercase(), |q| q.name.replace(' ', "_"))
        ),
        (Some(m), None) => format!("{m}.gguf"),
        _ => PLACEHOLDER_FILE.into(),
    }
}

/// The runtimes that run the scenario's format where none of the listed engines does.
fn other_runtime(s: &Scenario, cat: &Catalog) -> Option<String> {
    let (_, quant) = super::views::model_and_quant(s);
    let q = cat.quant(quant?).ok()?;
    (q.engines.is_empty() && q.backends.iter().all(|b| b != "mlx")).then(|| q.runtimes.clone())
}

/// What every engine's command is made of, worked out once from the scenario.
struct Plan {
    /// The model file, as the user names it, and as one shell word.
    file: String,
    file_word: String,
    /// Context tokens at generation (the depth) and the context the server keeps (depth plus
    /// generated tokens, times the streams).
    depth: u64,
    server_ctx: u64,
    /// Layers on the GPU (`-ngl`), counting the output layer where everything is on the GPU.
    ngl: u32,
    /// Routed experts in system RAM: `Some(None)` all of them, `Some(Some(n))` the first n layers'.
    experts: Option<Option<u32>>,
    /// The KV cache's type where it is not f16.
    kv: Option<String>,
    /// Threads, where the CPU reads weights.
    threads: Option<u32>,
    /// A layer split's proportions (empty for one device).
    split: Vec<String>,
    /// Streams served at once, above one.
    streams: Option<u32>,
    /// A draft model's file and its draft length.
    draft: Option<(String, u32)>,
}

impl Plan {
    fn new(s: &Scenario, cat: &Catalog, inputs: &Inputs, e: &Estimate) -> Plan {
        let file = file_name(s, cat);
        let depth = inputs.context.max(0.0) as u64;
        let streams = inputs.batch.filter(|b| *b > 1);
        let n_layers = inputs.model.layers().unwrap_or(99);
        let gpu = inputs.machine.kind != Kind::Cpu;
        let expert_offload = inputs.placement.expert_offload && inputs.routing().is_some();
        // Layers on the GPU: all of them and the output layer (llama.cpp offloads it only when
        // -ngl exceeds the layer count), or those the placement keeps in VRAM when layers spill.
        let in_ram = e.spill.as_ref().map_or(0.0, |sp| sp.fraction);
        let ngl = if !gpu {
            0
        } else if expert_offload || in_ram <= 0.0 {
            n_layers + 1
        } else {
            // The share in VRAM over one layer's share (the head, in RAM, is no layer's).
            let all_layers = inputs.ngl_share(n_layers).filter(|s| *s > 0.0).unwrap_or(1.0);
            ((f64::from(n_layers) * (1.0 - in_ram) / all_layers + 1e-9).floor() as u32).min(n_layers)
        };
        let kv = s.text(Key::Kv).unwrap_or(crate::scenario::DEFAULT_KV);
        let cpu_reads = !gpu
            || e.pools
                .iter()
                .any(|p| p.weight_bytes > 0.0 && p.pool != crate::estimator::Pool::Vram);
        // A layer split: `split=` identical cards, or `with=` devices in proportion to their
        // memory (or `tensor_split=`), as llama.cpp's --tensor-split and llama-bench's -ts take them.
        let split: Vec<String> = match (&inputs.tensor_split, inputs.devices.is_empty()) {
            (Some(t), false) => t.iter().map(|v| super::views::trim(*v)).collect(),
            (None, false) => std::iter::once(inputs.machine.memory_gib.unwrap_or(1.0))
                .chain(inputs.devices.iter().map(|d| d.memory_gib))
                .map(super::views::trim)
                .collect(),
            _ if inputs.split > 1 => vec!["1".to_string(); inputs.split as usize],
            _ => Vec::new(),
        };
        let draft = match (s.text(Key::Draft), &inputs.speculation) {
            (Some(d), Some(sp)) => Some((format!("{d}-{}", file.rsplit('-').next().unwrap_or("Q4_K_M.gguf")), sp.k)),
            _ => None,
        };
        Plan {
            file_word: shell_word(&file),
            file,
            depth,
            server_ctx: (depth + GENERATED_TOKENS) * u64::from(streams.unwrap_or(1)),
            ngl,
            experts: expert_offload.then(|| s.whole(Key::CpuMoe)),
            kv: (kv != "f16").then(|| kv.to_string()),
            threads: inputs.host.as_ref().filter(|_| cpu_reads).map(|h| h.threads),
            split,
            streams,
            draft,
        }
    }

    /// The flags that place the weights and set the KV cache and threads, shared by a server and
    /// its bench; `experts_flags` says whether the engine can keep experts in RAM.
    fn placement(&self, experts_flags: bool) -> Vec<String> {
        let mut out = vec![format!("-ngl {}", self.ngl)];
        match self.experts {
            Some(Some(n)) if experts_flags => out.push(format!("--n-cpu-moe {n}")),
            Some(None) if experts_flags => out.push("-ot exps=CPU".into()),
            _ => {}
        }
        if let Some(kv) = &self.kv {
            out.push(format!("-ctk {kv} -ctv {kv}"));
        }
        if let Some(t) = self.threads {
            out.push(format!("-t {t}"));
        }
        out
    }

    /// The note that goes with the commands: the placeholder file to replace, and where the output
    /// goes.
    fn note(&self, after: &str) -> String {
        let mut note = String::new();
        if self.file == PLACEHOLDER_FILE {
            note.push_str(&format!("Replace {PLACEHOLDER_FILE} with your model's GGUF file. "));
        }
        note.push_str(after);
        note
    }
}

const CALIBRATE: &str = "Paste its output into Calibrate (or tokbound calibrate) to fit the estimate to your machine";

/// The commands for the scenario as resolved, in its engine's spelling.
pub fn commands(s: &Scenario, cat: &Catalog, inputs: &Inputs, e: &Estimate) -> Commands {
    if s.backend(cat) == Backend::Mlx {
        return mlx(s);
    }
    if let Some(runtimes) = other_runtime(s, cat) {
        return Commands {
            run: None,
            bench: None,
            note: format!("This format is not GGUF: llama.cpp and its family do not load it. {runtimes} run it"),
        };
    }
    let plan = Plan::new(s, cat, inputs, e);
    match s.text(Key::Engine).unwrap_or(crate::scenario::keys::ENGINES[0]) {
        "ik_llama.cpp" => llama_family(&plan, &IK_LLAMA),
        "llamafile" => llama_family(&plan, &LLAMAFILE),
        "ollama" => ollama(&plan, s),
        "ktransformers" => ktransformers(&plan),
        _ => llama_family(&plan, &LLAMA_CPP),
    }
}

/// How one of the llama.cpp family spells its server and bench.
struct Spelling {
    /// The server's program and the flag that turns flash attention on.
    server: &'static str,
    flash: &'static str,
    /// The server's layer-split flag.
    split: &'static str,
    /// Whether it can keep experts in system RAM (`-ot`, `--n-cpu-moe`).
    experts: bool,
    /// A draft model's flags after `-md <file>`, with `{k}` the draft length; none where the
    /// server has no draft model.
    draft: Option<&'static str>,
    bench: &'static str,
    /// How its bench measures generation at a depth.
    depth: Depth,
}

/// How a bench measures generation after `depth` tokens.
enum Depth {
    /// llama-bench's `-d`.
    Flag,
    /// ik_llama.cpp's `-gp depth,tokens` (no `-d`).
    PromptThenGenerate,
    /// llamafile-bench: none; it measures an empty context.
    None,
}

const LLAMA_CPP: Spelling = Spelling {
    server: "llama-server",
    flash: "-fa on",
    split: "--tensor-split",
    experts: true,
    draft: Some("--spec-type draft-simple --spec-draft-n-max {k}"),
    bench: "llama-bench",
    depth: Depth::Flag,
};

const IK_LLAMA: Spelling = Spelling {
    server: "llama-server",
    flash: "-fa on",
    split: "-ts",
    experts: true,
    draft: Some("--spec-type draft:n_max={k}"),
    bench: "llama-bench",
    depth: Depth::PromptThenGenerate,
};

/// llamafile: flash attention is a switch, no tensor overrides and no draft model in its server.
const LLAMAFILE: Spelling = Spelling {
    server: "llamafile --server",
    flash: "-fa",
    split: "-ts",
    experts: false,
    draft: None,
    bench: "llamafile-bench",
    depth: Depth::None,
};

/// A llama.cpp-family engine's server and bench, in its spelling.
fn llama_family(p: &Plan, e: &Spelling) -> Commands {
    let shared = p.placement(e.experts).join(" ");
    let mut run = format!("{} -m {} -c {} {shared} {}", e.server, p.file_word, p.server_ctx, e.flash);
    if !p.split.is_empty() {
        run.push_str(&format!(" {} {}", e.split, p.split.join(",")));
    }
    if let Some(b) = p.streams {
        run.push_str(&format!(" -np {b}"));
    }
    let mut note = p.note(CALIBRATE);
    match (&p.draft, e.draft) {
        (Some((draft, k)), Some(flags)) => {
            run.push_str(&format!(" -md {} {}", shell_word(draft), flags.replace("{k}", &k.to_string())));
            note.push_str("; llama-bench has no draft model, so it measures the target alone");
        }
        (Some(_), None) => note.push_str("; its server has no draft model"),
        _ => {}
    }
    let test = match e.depth {
        Depth::Flag => format!("-n {GENERATED_TOKENS} -d {}", p.depth),
        Depth::PromptThenGenerate if p.depth > 0 => format!("-n 0 -gp {},{GENERATED_TOKENS}", p.depth),
        Depth::PromptThenGenerate | Depth::None => format!("-n {GENERATED_TOKENS}"),
    };
    let mut bench = format!("{} -m {} -p 0 {test} -fa 1 {shared}", e.bench, p.file_word);
    if !p.split.is_empty() {
        bench.push_str(&format!(" -ts {}", p.split.join("/")));
    }
    bench.push_str(" -o md");
    if matches!(e.depth, Depth::None) {
        note.push_str("; its bench has no depth, so it measures an empty context");
    }
    if !e.experts && p.experts.is_some() {
        note.push_str("; it cannot keep experts in system RAM (it has no -ot), so its layers split as they fit");
    }
    Commands {
        run: Some(run),
        bench: Some(bench),
        note,
    }
}

/// Ollama: its server's settings are environment variables (`OLLAMA_CONTEXT_LENGTH` and the
/// rest), and `ollama run --verbose` prints the eval rate.
fn ollama(p: &Plan, s: &Scenario) -> Commands {
    let mut env = vec![
        format!("OLLAMA_CONTEXT_LENGTH={}", p.depth + GENERATED_TOKENS),
        "OLLAMA_FLASH_ATTENTION=1".into(),
    ];
    if let Some(kv) = &p.kv {
        env.push(format!("OLLAMA_KV_CACHE_TYPE={kv}"));
    }
    if let Some(b) = p.streams {
        env.push(format!("OLLAMA_NUM_PARALLEL={b}"));
    }
    let tag = super::views::model_and_quant(s)
        .0
        .filter(|_| !s.is_custom_model())
        .unwrap_or("YOUR_MODEL");
    Commands {
        run: Some(format!("{} ollama serve", env.join(" "))),
        bench: Some(format!("ollama run --verbose {}", shell_word(tag))),
        note: format!(
            "Name the model as Ollama's library or your Modelfile tags it ({tag} is tokbound's id); inside ollama run, /set parameter num_ctx sets the context for one session. Paste the eval rate into Calibrate (or tokbound calibrate)"
        ),
    }
}

/// ktransformers: `kt run` serves the model with its experts on the CPU; it has no bench, its
/// log prints the decode speed.
fn ktransformers(p: &Plan) -> Commands {
    let mut run = format!(
        "kt run --model-path YOUR_MODEL_DIR --weights-path YOUR_GGUF_DIR --max-total-tokens {}",
        p.server_ctx
    );
    if let Some(t) = p.threads {
        run.push_str(&format!(" --cpu-threads {t}"));
    }
    Commands {
        run: Some(run),
        bench: None,
        note: format!(
            "Replace YOUR_MODEL_DIR with the model's Hugging Face folder (its config) and YOUR_GGUF_DIR with the folder holding {}; ktransformers has no bench: its server log prints the decode speed",
            p.file
        ),
    }
}

/// MLX: `mlx_lm.server` runs it, `mlx_lm.generate` prints the generation speed.
fn mlx(s: &Scenario) -> Commands {
    let model = super::views::model_and_quant(s).0.unwrap_or("model");
    let repo = shell_word(&format!("mlx-community/{model}"));
    Commands {
        run: Some(format!("mlx_lm.server --model {repo}")),
        bench: Some(format!(
            "mlx_lm.generate --model {repo} --prompt 'Write a story.' --max-tokens {GENERATED_TOKENS}"
        )),
        note: "Use the MLX conversion at this format; mlx_lm.generate prints the generation speed in tokens per second".into(),
    }
}
