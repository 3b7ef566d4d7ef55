//! The importers on real inputs.
//!
//! config.json fixtures (tests/fixtures), real files of published models:
//! - `llama-3.1-8b.config.json`: meta-llama/Meta-Llama-3.1-8B, as re-uploaded by
//!   NousResearch/Meta-Llama-3.1-8B (a byte-for-byte copy in a public test suite). Meta: 8.03B.
//! - `mixtral-8x7b.config.json`: mistralai/Mixtral-8x7B-v0.1 (three public copies agree).
//!   Mistral: 46.7B total, 12.9B active.
//! - `gemma-2-9b-it.config.json`: google/gemma-2-9b-it (copy in doggy8088/GemmaTokenizerExtractor).
//!   Gemma 2 report: 9.24B.
//! - `gpt-oss-20b.config.json`: openai/gpt-oss-20b without its `quantization_config` block (copy in
//!   jihengzhang/jihz-gpt-oss-20b). Model card: 20.91B total, 3.6B active.
//! - `deepseek-v3.config.json`: deepseek-ai/DeepSeek-V3 (copies in public issue threads; the
//!   `quantization_config` block as in the identical DeepSeek-R1 config). README_WEIGHTS.md: 671B
//!   main model, 37B active.
//!
//! GGUF files are written here by a small writer following ggml docs/gguf.md, to a temporary file,
//! and read back through `read_all` with real seeks and reads.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

use tokbound::catalog::catalog;
use tokbound::estimator::arch::Attention;
use tokbound::import::config::{from_config_json, ImportedConfig};
use tokbound::import::gguf::{self, Gguf, GgufError};
use tokbound::import::gguf_to_model;

// ---------------------------------------------------------------------------------------------
// config.json

fn fixture(name: &str) -> String {
    let path = format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn import(name: &str) -> ImportedConfig {
    from_config_json(&fixture(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// (fixture, published total params in billions, catalog id with the same architecture)
const FIXTURES: &[(&str, f64, &str)] = &[
    ("llama-3.1-8b.config.json", 8.03, "llama-3.1-8b"),
    ("mixtral-8x7b.config.json", 46.7, "mixtral-8x7b"),
    ("gemma-2-9b-it.config.json", 9.24, "gemma-2-9b"),
    ("gpt-oss-20b.config.json", 20.91, "gpt-oss-20b"),
    ("deepseek-v3.config.json", 671.0, "deepseek-v3"),
];

#[test]
fn every_fixture_lands_within_3_percent_of_its_published_total() {
    for &(file, published, _) in FIXTURES {
        let c = import(file);
        let err = c.params_b / published - 1.0;
        assert!(
            err.abs() < 0.03,
            "{file}: {:.3}B vs published {published}B ({:+.1}%)",
            c.params_b,
            err * 100.0
        );
        assert!(c.active_params_b <= c.params_b, "{file}");
    }
}

#[test]
fn every_fixture_matches_the_hand_entered_catalog_architecture() {
    for &(file, _, id) in FIXTURES {
        let c = import(file);
        assert_eq!(c.arch, catalog().model(id).unwrap().arch, "{file} vs catalog {id}");
    }
}

#[test]
fn sliding_window_layers_are_counted() {
    let gemma = import("gemma-2-9b-it.config.json");
    assert_eq!(
        gemma.arch.attention,
        Attention::SlidingWindow {
            window: 4096,
            swa_layers: 21
        }
    );
    // Gemma 2's config.json lists neither the pattern nor tie_word_embeddings; both are assumed and said.
    assert!(gemma.arch.tied_embeddings);
    assert!(gemma.unread.iter().any(|u| u.contains("Gemma 2 alternates")), "{:?}", gemma.unread);
    assert!(
        gemma.unread.iter().any(|u| u.starts_with("tie_word_embeddings")),
        "{:?}",
        gemma.unread
    );

    let oss = import("gpt-oss-20b.config.json");
    assert_eq!(
        oss.arch.attention,
        Attention::SlidingWindow {
            window: 128,
            swa_layers: 12
        }
    );
    assert!(oss.unread.is_empty(), "{:?}", oss.unread);

    // Mixtral says "sliding_window": null: full attention.
    assert_eq!(import("mixtral-8x7b.config.json").arch.attention, Attention::Full);
}

#[test]
fn deepseek_v3_reads_its_latent_attention_and_experts() {
    let c = import("deepseek-v3.config.json");
    assert_eq!(
        c.arch.attention,
        Attention::Latent {
            kv_lora_rank: 512,
            q_lora_rank: 1536,
            qk_rope_dim: 64,
            qk_nope_dim: 128,
            v_head_dim: 128,
        }
    );
    assert_eq!(c.arch.head_dim, 192);
    assert_eq!((c.arch.experts, c.arch.experts_per_token, c.arch.shared_experts), (256, 8, 1));
    assert_eq!(
        (c.arch.moe_intermediate, c.arch.shared_intermediate, c.arch.dense_layers),
        (2048, 2048, 3)
    );
    assert_eq!(c.name.as_deref(), Some("deepseek_v3"));
    // README_WEIGHTS.md: 36.7B activated in the main model (0.9B of them the output head).
    assert!((c.active_params_b / 36.7 - 1.0).abs() < 0.03, "{}", c.active_params_b);
    // A null q_lora_rank means no query compression.
    let v2_lite = fixture("deepseek-v3.config.json").replace("\"q_lora_rank\": 1536", "\"q_lora_rank\": null");
    match from_config_json(&v2_lite).unwrap().arch.attention {
        Attention::Latent { q_lora_rank, .. } => assert_eq!(q_lora_rank, 0),
        other => panic!("{other:?}"),
    }
}

#[test]
fn mixture_of_experts_reads_its_experts() {
    let c = import("mixtral-8x7b.config.json");
    assert_eq!((c.arch.experts, c.arch.experts_per_token, c.arch.moe_intermediate), (8, 2, 14336));
    assert_eq!((c.arch.intermediate, c.arch.dense_layers), (0, 0));
    // Mistral: 12.9B active (counting the input embedding, 0.13B, which a token does not read).
    assert!((c.active_params_b / 12.9 - 1.0).abs() < 0.03, "{}", c.active_params_b);

    let oss = import("gpt-oss-20b.config.json");
    assert_eq!(
        (oss.arch.experts, oss.arch.experts_per_token, oss.arch.moe_intermediate),
        (32, 4, 2880)
    );
    // Model card: 3.61B active, the embedding left out.
    assert!((oss.active_params_b / 3.61 - 1.0).abs() < 0.03, "{}", oss.active_params_b);
}

#[test]
fn llama_says_what_it_assumed() {
    let c = import("llama-3.1-8b.config.json");
    assert_eq!((c.arch.head_dim, c.arch.kv_heads), (128, 8));
    assert_eq!(c.name.as_deref(), Some("llama"));
    assert_eq!(
        c.unread,
        vec!["head_dim: not given, using hidden_size / num_attention_heads = 128".to_string()]
    );
}

#[test]
fn bad_config_json_gives_errors_naming_the_field() {
    let llama = fixture("llama-3.1-8b.config.json");
    let cases: Vec<(String, &str)> = vec![
        (
            llama.replace("\"vocab_size\": 128256", "\"vocab_size_x\": 1"),
            "vocab_size: missing",
        ),
        (llama.replace("\"num_hidden_layers\": 32,", ""), "num_hidden_layers: missing"),
        (
            llama.replace("\"hidden_size\": 4096", "\"hidden_size\": 1e300"),
            "hidden_size: expected a whole number",
        ),
        (
            llama.replace("\"hidden_size\": 4096", "\"hidden_size\": 4096.5"),
            "hidden_size: expected a whole number",
        ),
        (
            llama.replace("\"hidden_size\": 4096", "\"hidden_size\": -4096"),
            "hidden_size: expected a whole number",
        ),
        (
            llama.replace("\"hidden_size\": 4096", "\"hidden_size\": 4294967296"),
            "hidden_size: 4294967296 is larger",
        ),
        (
            llama.replace("\"vocab_size\": 128256", "\"vocab_size\": 340282366920938463463374607431768211456"),
            "vocab_size: expected a whole number",
        ),
        (
            llama.replace("\"num_attention_heads\": 32", "\"num_attention_heads\": 0"),
            "num_attention_heads: must be at least 1",
        ),
        (
            llama.replace("\"num_attention_heads\": 32", "\"num_attention_heads\": \"32\""),
            "num_attention_heads: expected a whole number",
        ),
        (
            llama.replace("\"tie_word_embeddings\": false", "\"tie_word_embeddings\": 0"),
            "tie_word_embeddings: expected true or false",
        ),
        (
            llama.replace("\"model_type\": \"llama\"", "\"model_type\": 7"),
            "model_type: expected a string",
        ),
        (llama.replacen('{', "{\"text_config\": 5,", 1), "text_config: not an object"),
        (llama.replacen('{', "{\"layer_types\": [1],", 1), "layer_types: expected strings"),
        (
            llama.replace("\"vocab_size\": 128256", "\"vocab_size\": 128256, \"sliding_window\": -1"),
            "sliding_window: expected",
        ),
    ];
    for (text, want) in cases {
        let e = from_config_json(&text).unwrap_err();
        assert!(e.starts_with(want), "{e:?} should start with {want:?}");
    }
    let mla = fixture("deepseek-v3.config.json").replace("\"v_head_dim\": 128,", "");
    assert_eq!(from_config_json(&mla).unwrap_err(), "v_head_dim: missing");

    assert!(from_config_json("").unwrap_err().contains("not valid JSON"));
    assert!(from_config_json(&llama[..llama.len() / 2]).unwrap_err().contains("not valid JSON"));
    assert!(from_config_json("[]").unwrap_err().contains("not a JSON object"));
    assert!(from_config_json("null").unwrap_err().contains("not a JSON object"));
    // Deep nesting is refused by the reader's depth limit, not a stack overflow.
    let deep = format!("{{\"a\": {}{}}}", "[".repeat(100_000), "]".repeat(100_000));
    assert!(from_config_json(&deep).unwrap_err().contains("not valid JSON"));
}

// ---------------------------------------------------------------------------------------------
// GGUF: a writer

/// ggml types as ggml-org/ggml's block structs give them: (id, name, block elements, block bytes).
const TYPES: &[(u32, &str, u64, u64)] = &[
    (0, "F32", 1, 4),
    (1, "F16", 1, 2),
    (2, "Q4_0", 32, 18),
    (3, "Q4_1", 32, 20),
    (6, "Q5_0", 32, 22),
    (7, "Q5_1", 32, 24),
    (8, "Q8_0", 32, 34),
    (9, "Q8_1", 32, 36),
    (10, "Q2_K", 256, 84),
    (11, "Q3_K", 256, 110),
    (12, "Q4_K", 256, 144),
    (13, "Q5_K", 256, 176),
    (14, "Q6_K", 256, 210),
    (15, "Q8_K", 256, 292),
    (16, "IQ2_XXS", 256, 66),
    (17, "IQ2_XS", 256, 74),
    (18, "IQ3_XXS", 256, 98),
    (19, "IQ1_S", 256, 50),
    (20, "IQ4_NL", 32, 18),
    (21, "IQ3_S", 256, 110),
    (22, "IQ2_S", 256, 82),
    (23, "IQ4_XS", 256, 136),
    (24, "I8", 1, 1),
    (25, "I16", 1, 2),
    (26, "I32", 1, 4),
    (27, "I64", 1, 8),
    (28, "F64", 1, 8),
    (29, "IQ1_M", 256, 56),
    (30, "BF16", 1, 2),
    (34, "TQ1_0", 256, 54),
    (35, "TQ2_0", 256, 66),
    (39, "MXFP4", 32, 17),
    (40, "NVFP4", 64, 36),
    (41, "Q1_0", 128, 18),
    (42, "Q2_0", 64, 18),
];

fn type_id(name: &str) -> u32 {
    TYPES.iter().find(|t| t.1 == name).unwrap().0
}

fn tensor_bytes(ty: u32, dims: &[u64]) -> u64 {
    let t = TYPES.iter().find(|t| t.0 == ty).unwrap();
    dims.iter().product::<u64>() / t.2 * t.3
}

/// Metadata values the writer can emit.
enum V {
    U8(u8),
    I8(i8),
    U16(u16),
    I16(i16),
    U32(u32),
    I32(i32),
    F32(f32),
    Bool(bool),
    Str(String),
    U64(u64),
    I64(i64),
    F64(f64),
    /// (element type, elements already encoded, count)
    Array(u32, Vec<u8>, u64),
}

fn put_str(out: &mut Vec<u8>, s: &str) {
    out.extend((s.len() as u64).to_le_bytes());
    out.extend(s.as_bytes());
}

impl V {
    fn type_id(&self) -> u32 {
        match self {
            V::U8(_) => 0,
            V::I8(_) => 1,
            V::U16(_) => 2,
            V::I16(_) => 3,
            V::U32(_) => 4,
            V::I32(_) => 5,
            V::F32(_) => 6,
            V::Bool(_) => 7,
            V::Str(_) => 8,
            V::Array(..) => 9,
            V::U64(_) => 10,
            V::I64(_) => 11,
            V::F64(_) => 12,
        }
    }

    fn encode(&self, out: &mut Vec<u8>) {
        match self {
            V::U8(v) => out.push(*v),
            V::I8(v) => out.extend(v.to_le_bytes()),
            V::U16(v) => out.extend(v.to_le_bytes()),
            V::I16(v) => out.extend(v.to_le_bytes()),
            V::U32(v) => out.extend(v.to_le_bytes()),
            V::I32(v) => out.extend(v.to_le_bytes()),
            V::F32(v) => out.extend(v.to_le_bytes()),
            V::Bool(v) => out.push(*v as u8),
            V::Str(s) => put_str(out, s),
            V::U64(v) => out.extend(v.to_le_bytes()),
            V::I64(v) => out.extend(v.to_le_bytes()),
            V::F64(v) => out.extend(v.to_le_bytes()),
            V::Array(elem, bytes, count) => {
                out.extend(elem.to_le_bytes());
                out.extend(count.to_le_bytes());
                out.extend(bytes);
            }
        }
    }

    fn strings(items: impl IntoIterator<Item = String>) -> V {
        let (mut bytes, mut n) = (Vec::new(), 0);
        for s in items {
            put_str(&mut bytes, &s);
            n += 1;
        }
        V::Array(8, bytes, n)
    }

    fn array(items: Vec<V>) -> V {
        let elem = items.first().map_or(4, V::type_id);
        let mut bytes = Vec::new();
        for v in &items {
            v.encode(&mut bytes);
        }
        V::Array(elem, bytes, items.len() as u64)
    }
}

/// A GGUF file's description: metadata and tensors (name, dims, ggml type).
struct Model {
    version: u32,
    meta: Vec<(String, V)>,
    tensors: Vec<(String, Vec<u64>, u32)>,
}

impl Model {
    fn kv(mut self, key: &str, v: V) -> Self {
        self.meta.push((key.to_string(), v));
        self
    }

    fn tensor(mut self, name: &str, dims: &[u64], ty: &str) -> Self {
        self.tensors.push((name.to_string(), dims.to_vec(), type_id(ty)));
        self
    }

    /// The header bytes (up to the aligned data start) and the data length that follows.
    fn header(&self) -> (Vec<u8>, u64) {
        let mut b = b"GGUF".to_vec();
        b.extend(self.version.to_le_bytes());
        b.extend((self.tensors.len() as u64).to_le_bytes());
        b.extend((self.meta.len() as u64).to_le_bytes());
        for (k, v) in &self.meta {
            put_str(&mut b, k);
            b.extend(v.type_id().to_le_bytes());
            v.encode(&mut b);
        }
        let mut offset = 0u64;
        for (name, dims, ty) in &self.tensors {
            put_str(&mut b, name);
            b.extend((dims.len() as u32).to_le_bytes());
            for d in dims {
                b.extend(d.to_le_bytes());
            }
            b.extend(ty.to_le_bytes());
            b.extend(offset.to_le_bytes());
            offset = (offset + tensor_bytes(*ty, dims)).next_multiple_of(32);
        }
        b.resize(b.len().next_multiple_of(32), 0);
        (b, offset)
    }

    /// Parses the header alone, told the size the whole file would have.
    fn parse(&self) -> Gguf {
        let (header, data) = self.header();
        gguf::parse(&header, header.len() as u64 + data).unwrap()
    }

    /// Writes the header and extends the file to its full length without writing the data: a
    /// sparse file, however large the model.
    fn write(&self, tag: &str) -> TempFile {
        let (header, data) = self.header();
        let f = TempFile::new(tag);
        let mut file = File::create(&f.0).unwrap();
        file.write_all(&header).unwrap();
        file.set_len(header.len() as u64 + data).unwrap();
        f
    }
}

fn model(version: u32) -> Model {
    Model {
        version,
        meta: Vec::new(),
        tensors: Vec::new(),
    }
}

/// A file under the system temp dir, removed when dropped.
struct TempFile(PathBuf);

impl TempFile {
    fn new(tag: &str) -> TempFile {
        static N: AtomicU32 = AtomicU32::new(0);
        let n = N.fetch_add(1, Ordering::Relaxed);
        TempFile(std::env::temp_dir().join(format!("tokbound-import-{}-{n}-{tag}.gguf", std::process::id())))
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// Parses a file through `read_all`, reading real slices from its start; returns the result and
/// the bytes asked for in total.
fn read_gguf(f: &TempFile) -> (Result<Gguf, String>, u64) {
    let mut file = File::open(&f.0).unwrap();
    let size = file.metadata().unwrap().len();
    let mut asked = 0u64;
    let result = gguf::read_all(
        |len| {
            asked += len;
            let mut buf = vec![0u8; usize::try_from(len).map_err(|e| e.to_string())?];
            file.seek(SeekFrom::Start(0)).map_err(|e| e.to_string())?;
            file.read_exact(&mut buf).map_err(|e| e.to_string())?;
            Ok(buf)
        },
        size,
    );
    (result, asked)
}

/// A two-layer llama-shaped model with mixed quantization (a Q4_K_M-like mix) and a real-sized
/// tokenizer, plus metadata of every value type.
fn tiny_llama(version: u32, vocab: u64) -> Model {
    let (h, ff, kv) = (256, 512, 128);
    let mut m = model(version)
        .kv("general.architecture", V::Str("llama".into()))
        .kv("general.name", V::Str("Tiny Llama".into()))
        .kv("general.alignment", V::U32(32))
        .kv("general.file_type", V::U32(15))
        .kv("llama.block_count", V::U32(2))
        .kv("llama.context_length", V::U64(131072))
        .kv("llama.embedding_length", V::U32(h as u32))
        .kv("llama.feed_forward_length", V::U32(ff as u32))
        .kv("llama.attention.head_count", V::U32(4))
        .kv("llama.attention.head_count_kv", V::U32(2))
        .kv("llama.rope.freq_base", V::F32(500000.0))
        .kv("llama.attention.layer_norm_rms_epsilon", V::F32(1e-5))
        .kv("llama.rope.scaling.finetuned", V::Bool(true))
        .kv("test.i8", V::I8(-3))
        .kv("test.u8", V::U8(200))
        .kv("test.u16", V::U16(65535))
        .kv("test.i16", V::I16(-300))
        .kv("test.i32", V::I32(-70000))
        .kv("test.i64", V::I64(-1))
        .kv("test.f64", V::F64(0.5))
        .kv(
            "test.nested",
            V::array(vec![V::array(vec![V::U16(1), V::U16(2)]), V::array(vec![V::U16(3)])]),
        )
        .kv("tokenizer.ggml.model", V::Str("gpt2".into()))
        .kv("tokenizer.ggml.tokens", V::strings((0..vocab).map(|i| format!("tok{i}"))))
        .kv("tokenizer.ggml.scores", V::array((0..vocab).map(|i| V::F32(-(i as f32))).collect()))
        .kv("tokenizer.ggml.token_type", V::array((0..vocab).map(|_| V::I32(1)).collect()))
        .kv("tokenizer.ggml.merges", V::strings((0..vocab / 2).map(|i| format!("t {i}"))))
        .kv(
            "tokenizer.chat_template",
            V::Str("{% for m in messages %}{{ m.content }}{% endfor %}".repeat(200)),
        )
        .tensor("token_embd.weight", &[h, vocab], "Q4_K")
        .tensor("output_norm.weight", &[h], "F32")
        .tensor("output.weight", &[h, vocab], "Q6_K");
    for (i, kv_type, up_type) in [(0, "Q4_K", "Q4_K"), (1, "F16", "Q8_0")] {
        m = m
            .tensor(&format!("blk.{i}.attn_norm.weight"), &[h], "F32")
            .tensor(&format!("blk.{i}.attn_q.weight"), &[h, h], "Q4_K")
            .tensor(&format!("blk.{i}.attn_k.weight"), &[h, kv], kv_type)
            .tensor(&format!("blk.{i}.attn_v.weight"), &[h, kv], "Q6_K")
            .tensor(&format!("blk.{i}.attn_output.weight"), &[h, h], "Q4_K")
            .tensor(&format!("blk.{i}.ffn_norm.weight"), &[h], "F32")
            .tensor(&format!("blk.{i}.ffn_gate.weight"), &[h, ff], "Q4_K")
            .tensor(&format!("blk.{i}.ffn_up.weight"), &[h, ff], up_type)
            .tensor(&format!("blk.{i}.ffn_down.weight"), &[ff, h], "Q6_K");
    }
    m
}

// ---------------------------------------------------------------------------------------------
// GGUF: well-formed files

#[test]
fn a_v3_and_a_v2_file_read_back_with_exact_sizes_and_shape() {
    for version in [3, 2] {
        let m = tiny_llama(version, 50_000);
        let f = m.write(&format!("tiny-v{version}"));
        let (g, asked) = read_gguf(&f);
        let g = g.unwrap();
        assert_eq!(g.version, version);
        assert_eq!(g.name.as_deref(), Some("Tiny Llama"));
        assert_eq!(g.architecture.as_deref(), Some("llama"));
        assert_eq!(g.tensor_count, m.tensors.len() as u64);
        assert_eq!(g.file_size, std::fs::metadata(&f.0).unwrap().len());
        // The 50,000-token tokenizer makes the header larger than the first 1 MiB slice.
        assert!(asked > gguf::FIRST_READ, "{asked}");

        let params: u64 = m.tensors.iter().map(|t| t.1.iter().product::<u64>()).sum();
        let bytes: u64 = m.tensors.iter().map(|t| tensor_bytes(t.2, &t.1)).sum();
        assert_eq!((g.params, g.weight_bytes), (params, bytes));
        for (t, (name, dims, ty)) in g.tensors.iter().zip(&m.tensors) {
            assert_eq!((&t.name, &t.dims, t.ggml_type), (name, dims, *ty));
            assert_eq!(t.bytes, tensor_bytes(*ty, dims), "{name}");
        }
        // Parameters and bytes per type.
        for (name, n) in &g.type_counts {
            let id = type_id(name);
            let want: u64 = m.tensors.iter().filter(|t| t.2 == id).map(|t| t.1.iter().product::<u64>()).sum();
            assert_eq!(*n, want, "{name}");
        }
        let per_type = |ty: &str| -> u64 { g.tensors.iter().filter(|t| t.type_name == ty).map(|t| t.bytes).sum() };
        // 256 × 50,000 Q4_K embedding (7.2 MB) + Q4_K attention and MLP, in 256-element blocks of 144 bytes.
        assert_eq!(
            per_type("Q4_K"),
            (256 * 50_000 + 2 * (2 * 256 * 256 + 256 * 512) + 256 * 128 + 256 * 512) / 256 * 144
        );
        assert_eq!(per_type("Q8_0"), 256 * 512 / 32 * 34);
        assert_eq!(per_type("F16"), 256 * 128 * 2);
        assert_eq!(per_type("F32"), 5 * 256 * 4);
        assert_eq!(g.type_counts.iter().map(|t| t.1).sum::<u64>(), params);

        // The input embedding is not read per token; everything else is.
        let embd = tensor_bytes(type_id("Q4_K"), &[256, 50_000]);
        assert_eq!(g.read_per_token_bytes, bytes - embd);

        let a = g.arch.clone().unwrap();
        assert_eq!((a.layers, a.hidden, a.heads, a.kv_heads, a.head_dim), (2, 256, 4, 2, 64));
        assert_eq!(
            (a.vocab, a.tied_embeddings, a.intermediate, a.experts, a.dense_layers),
            (50_000, false, 512, 0, 2)
        );
        assert_eq!(a.attention, Attention::Full);

        let (arch, read, stored) = gguf_to_model(&g).unwrap();
        assert_eq!((arch, read, stored), (a, (bytes - embd) as f64, bytes as f64));
    }
}

#[test]
fn tied_embeddings_count_the_table_once_as_the_head() {
    let m = model(3)
        .kv("general.architecture", V::Str("gemma2".into()))
        .kv("gemma2.block_count", V::U32(42))
        .kv("gemma2.embedding_length", V::U32(3584))
        .kv("gemma2.feed_forward_length", V::U32(14336))
        .kv("gemma2.attention.head_count", V::U32(16))
        .kv("gemma2.attention.head_count_kv", V::U32(8))
        .kv("gemma2.attention.key_length", V::U32(256))
        .kv("gemma2.attention.sliding_window", V::U32(4096))
        .tensor("token_embd.weight", &[3584, 256_000], "Q8_0")
        .tensor("blk.0.attn_q.weight", &[3584, 4096], "Q4_K");
    let g = m.parse();
    assert_eq!(g.read_per_token_bytes, g.weight_bytes);
    let a = g.arch.unwrap();
    assert!(a.tied_embeddings);
    // No tokenizer in the file: the vocabulary comes from the embedding's rows, and says so.
    assert_eq!(a.vocab, 256_000);
    assert!(g.unread.iter().any(|u| u.contains("token_embd.weight")), "{:?}", g.unread);
    // gemma2 files carry no sliding-window pattern; llama.cpp alternates.
    assert_eq!(
        a.attention,
        Attention::SlidingWindow {
            window: 4096,
            swa_layers: 21
        }
    );
    assert_eq!(a.head_dim, 256);
}

#[test]
fn expert_tensors_count_only_the_routed_share_per_token() {
    let (h, e, ffe) = (256u64, 8u64, 512u64);
    let m = model(3)
        .kv("general.architecture", V::Str("qwen3moe".into()))
        .kv("qwen3moe.block_count", V::U32(1))
        .kv("qwen3moe.embedding_length", V::U32(h as u32))
        .kv("qwen3moe.feed_forward_length", V::U32(6144))
        .kv("qwen3moe.expert_feed_forward_length", V::U32(ffe as u32))
        .kv("qwen3moe.attention.head_count", V::U32(4))
        .kv("qwen3moe.attention.head_count_kv", V::U32(4))
        .kv("qwen3moe.expert_count", V::U32(e as u32))
        .kv("qwen3moe.expert_used_count", V::U32(2))
        .kv("tokenizer.ggml.tokens", V::strings((0..1000).map(|i| i.to_string())))
        .tensor("token_embd.weight", &[h, 1000], "Q8_0")
        .tensor("output.weight", &[h, 1000], "Q8_0")
        .tensor("blk.0.attn_q.weight", &[h, h], "Q8_0")
        .tensor("blk.0.ffn_gate_inp.weight", &[h, e], "F32")
        .tensor("blk.0.ffn_gate_exps.weight", &[h, ffe, e], "MXFP4")
        .tensor("blk.0.ffn_up_exps.weight", &[h, ffe, e], "MXFP4")
        .tensor("blk.0.ffn_down_exps.weight", &[ffe, h, e], "MXFP4");
    let g = m.parse();
    let exps = 3 * tensor_bytes(type_id("MXFP4"), &[h, ffe, e]);
    let fixed = tensor_bytes(type_id("Q8_0"), &[h, 1000]) + tensor_bytes(type_id("Q8_0"), &[h, h]) + h * e * 4;
    assert_eq!(g.read_per_token_bytes, fixed + exps * 2 / 8);
    let a = g.arch.unwrap();
    assert_eq!(
        (a.experts, a.experts_per_token, a.moe_intermediate, a.intermediate, a.dense_layers),
        (8, 2, 512, 6144, 0)
    );
    assert_eq!(a.vocab, 1000);
}

#[test]
fn deepseek2_metadata_gives_latent_attention() {
    let m = model(3)
        .kv("general.architecture", V::Str("deepseek2".into()))
        .kv("deepseek2.block_count", V::U32(61))
        .kv("deepseek2.embedding_length", V::U32(7168))
        .kv("deepseek2.feed_forward_length", V::U32(18432))
        .kv("deepseek2.expert_feed_forward_length", V::U32(2048))
        .kv("deepseek2.expert_count", V::U32(256))
        .kv("deepseek2.expert_used_count", V::U32(8))
        .kv("deepseek2.expert_shared_count", V::U32(1))
        .kv("deepseek2.leading_dense_block_count", V::U32(3))
        .kv("deepseek2.attention.head_count", V::U32(128))
        .kv("deepseek2.attention.head_count_kv", V::U32(1))
        // A newer conversion: absorbed widths in key/value_length, per-head ones in *_mla.
        .kv("deepseek2.attention.key_length", V::U32(576))
        .kv("deepseek2.attention.value_length", V::U32(512))
        .kv("deepseek2.attention.key_length_mla", V::U32(192))
        .kv("deepseek2.attention.value_length_mla", V::U32(128))
        .kv("deepseek2.attention.q_lora_rank", V::U32(1536))
        .kv("deepseek2.attention.kv_lora_rank", V::U32(512))
        .kv("deepseek2.rope.dimension_count", V::U32(64))
        .kv("deepseek2.vocab_size", V::U32(129280))
        .tensor("output.weight", &[7168, 129280], "Q6_K");
    let g = m.parse();
    let a = g.arch.unwrap();
    assert_eq!(
        a.attention,
        Attention::Latent {
            kv_lora_rank: 512,
            q_lora_rank: 1536,
            qk_rope_dim: 64,
            qk_nope_dim: 128,
            v_head_dim: 128
        }
    );
    assert_eq!((a.head_dim, a.vocab, a.dense_layers, a.shared_intermediate), (192, 129280, 3, 2048));
    // Same shape as the catalog's DeepSeek-V3 but for the K/V head count, which MLA does not use.
    let cat = &catalog().model("deepseek-v3").unwrap().arch;
    assert!((a.total_params() / cat.total_params() - 1.0).abs() < 1e-9);
}

#[test]
fn every_ggml_type_has_its_block_size() {
    let mut ids: Vec<u32> = gguf::GGML_TYPES.iter().map(|t| t.0).collect();
    ids.sort();
    assert_eq!(
        ids,
        TYPES.iter().map(|t| t.0).collect::<Vec<_>>(),
        "the table and this test's list differ"
    );
    let mut m = model(3);
    for (_, name, _, _) in TYPES {
        m = m.tensor(&format!("t.{name}"), &[256, 4], name);
    }
    let f = m.write("types");
    let g = read_gguf(&f).0.unwrap();
    for (t, (id, name, block, block_bytes)) in g.tensors.iter().zip(TYPES) {
        assert_eq!((t.ggml_type, t.type_name, t.elements), (*id, *name, 1024));
        assert_eq!(t.bytes, 1024 / block * block_bytes, "{name}");
    }
    assert!(g.arch.is_none());
}

// ---------------------------------------------------------------------------------------------
// GGUF: truncation, hostile input

#[test]
fn every_truncation_asks_for_more_and_never_panics() {
    let (header, data) = tiny_llama(3, 300).header();
    let size = header.len() as u64 + data;
    let full = gguf::parse(&header, size).unwrap();
    let mut first_ok = None;
    for n in 0..=header.len() {
        match gguf::parse(&header[..n], size) {
            Err(GgufError::NeedMore { at_least }) => {
                assert!(first_ok.is_none(), "NeedMore at {n} after Ok at {first_ok:?}");
                assert!(at_least > n as u64 && at_least <= size, "{n}: {at_least}");
            }
            Ok(g) => {
                assert_eq!(g, full);
                first_ok.get_or_insert(n);
            }
            Err(GgufError::Invalid(m)) => panic!("{n}: {m}"),
        }
    }
    // Only the alignment padding may follow the header proper.
    let end = first_ok.unwrap();
    assert!(end + 32 > header.len(), "{end} of {}", header.len());
    // A file that ends inside its header is truncated, not "need more".
    let cut = &header[..end - 1];
    match gguf::parse(cut, cut.len() as u64) {
        Err(GgufError::Invalid(m)) => assert!(m.starts_with("truncated header"), "{m}"),
        other => panic!("{other:?}"),
    }
}

fn header_start(version: u32, tensors: u64, kvs: u64) -> Vec<u8> {
    let mut b = b"GGUF".to_vec();
    b.extend(version.to_le_bytes());
    b.extend(tensors.to_le_bytes());
    b.extend(kvs.to_le_bytes());
    b
}

/// Asserts `bytes` (with a file size, padded past the header so only the defect can stop the
/// parse) gives Invalid containing `want`, quickly.
fn assert_invalid(bytes: &[u8], want: &str) {
    let mut file = bytes.to_vec();
    file.resize(file.len() + 4096, 0);
    let t = Instant::now();
    match gguf::parse(&file, file.len() as u64) {
        Err(GgufError::Invalid(m)) => assert!(m.contains(want), "{m:?} lacks {want:?}"),
        other => panic!("expected Invalid({want:?}), got {other:?}"),
    }
    assert!(t.elapsed() < Duration::from_secs(1));
}

#[test]
fn malformed_headers_are_refused_with_clear_messages() {
    let mut bad_magic = b"GGML".to_vec();
    bad_magic.extend(&header_start(3, 0, 0)[4..]);
    assert_invalid(&bad_magic, "not a GGUF file");
    assert_invalid(&header_start(1, 0, 0), "GGUF v1 is not supported");
    assert_invalid(&header_start(7, 0, 0), "unsupported GGUF version 7");
    let mut big_endian = b"GGUF".to_vec();
    big_endian.extend(3u32.to_be_bytes());
    assert_invalid(&big_endian, "big-endian");
    assert_invalid(&header_start(3, 1 << 40, 0), "1099511627776 tensors");
    assert_invalid(&header_start(3, 0, 1 << 40), "1099511627776 metadata entries");

    // A key 2^62 bytes long.
    let mut long_key = header_start(3, 0, 1);
    long_key.extend((1u64 << 62).to_le_bytes());
    assert_invalid(&long_key, "beyond the 64 MiB limit");

    // An array of 2^60 u64s: 2^63 bytes.
    let mut huge_array = header_start(3, 0, 1);
    put_str(&mut huge_array, "a");
    huge_array.extend(9u32.to_le_bytes());
    huge_array.extend(10u32.to_le_bytes());
    huge_array.extend((1u64 << 60).to_le_bytes());
    assert_invalid(&huge_array, "array of 1152921504606846976 elements");
    // Of strings, and of arrays: each element needs at least its length prefix.
    for elem in [8u32, 9] {
        let mut a = header_start(3, 0, 1);
        put_str(&mut a, "a");
        a.extend(9u32.to_le_bytes());
        a.extend(elem.to_le_bytes());
        a.extend((1u64 << 40).to_le_bytes());
        assert_invalid(&a, "needs more bytes than");
    }
    // Arrays nested five deep.
    let mut nested = header_start(3, 0, 1);
    put_str(&mut nested, "n");
    nested.extend(9u32.to_le_bytes());
    for _ in 0..5 {
        nested.extend(9u32.to_le_bytes());
        nested.extend(1u64.to_le_bytes());
    }
    assert_invalid(&nested, "nested more than 4 deep");
    let mut unknown_value = header_start(3, 0, 1);
    put_str(&mut unknown_value, "k");
    unknown_value.extend(13u32.to_le_bytes());
    assert_invalid(&unknown_value, "unknown value type 13");

    let tensor = |name: &str, dims: &[u64], ty: u32, offset: u64| {
        let mut b = header_start(3, 1, 0);
        put_str(&mut b, name);
        b.extend((dims.len() as u32).to_le_bytes());
        for d in dims {
            b.extend(d.to_le_bytes());
        }
        b.extend(ty.to_le_bytes());
        b.extend(offset.to_le_bytes());
        b
    };
    let mut many_dims = header_start(3, 1, 0);
    put_str(&mut many_dims, "w");
    many_dims.extend(200u32.to_le_bytes());
    assert_invalid(&many_dims, "tensor w: 200 dimensions");
    assert_invalid(&tensor("w", &[256, 4], 999, 0), "tensor w: unknown ggml type 999");
    assert_invalid(&tensor("w", &[256, 0], 0, 0), "tensor w: dimension 1 is 0");
    assert_invalid(&tensor("w", &[1 << 32, 1 << 32], 0, 0), "overflows 64 bits");
    assert_invalid(&tensor("w", &[100], 12, 0), "not whole Q4_K blocks of 256");
    assert_invalid(&tensor("w", &[256], 0, 7), "not a multiple of the alignment 32");
    assert_invalid(&tensor("w", &[1 << 20], 0, 0), "truncated download");
    // A megabyte-long name is cut short in the message.
    let long = "x".repeat(1 << 20);
    match gguf::parse(&tensor(&long, &[256], 999, 0), 1 << 21) {
        Err(GgufError::Invalid(m)) => assert!(m.len() < 200 && m.contains("unknown ggml type 999"), "{}", &m[..200.min(m.len())]),
        other => panic!("{other:?}"),
    }
    let mut odd_alignment = header_start(3, 0, 1);
    put_str(&mut odd_alignment, "general.alignment");
    odd_alignment.extend(4u32.to_le_bytes());
    odd_alignment.extend(24u32.to_le_bytes());
    assert_invalid(&odd_alignment, "general.alignment 24 is not a power of two");
}

#[test]
fn a_header_bigger_than_512_mib_is_refused_without_reading_it() {
    let mut b = header_start(3, 0, 1);
    put_str(&mut b, "big");
    b.extend(9u32.to_le_bytes());
    b.extend(0u32.to_le_bytes());
    b.extend((1u64 << 40).to_le_bytes());
    // The file is large enough to hold it, so only the header cap stops the parse.
    match gguf::parse(&b, 1 << 50) {
        Err(GgufError::Invalid(m)) => assert!(m.contains("512 MiB"), "{m}"),
        other => panic!("{other:?}"),
    }
    // Below the cap, the parser asks to double what it has, or at least what it needs.
    let mut small = header_start(3, 0, 1);
    put_str(&mut small, "s");
    small.extend(9u32.to_le_bytes());
    small.extend(0u32.to_le_bytes());
    small.extend(100_000u64.to_le_bytes());
    let have = small.len() as u64;
    assert_eq!(gguf::parse(&small, 1 << 30), Err(GgufError::NeedMore { at_least: have + 100_000 }));
    small.resize(small.len() + 60_000, 0);
    assert_eq!(
        gguf::parse(&small, 1 << 30),
        Err(GgufError::NeedMore {
            at_least: 2 * small.len() as u64
        })
    );
}

#[test]
fn a_sparse_400_gib_file_is_sized_from_its_header_alone() {
    // 40 F16 tensors of 65536 × 65536 (8 GiB each): 320 GiB of weights after a tiny header.
    let mut m = model(3).kv("general.architecture", V::Str("llama".into()));
    for i in 0..40 {
        m = m.tensor(&format!("blk.{i}.ffn_up.weight"), &[65536, 65536], "F16");
    }
    let (header, data) = m.header();
    assert_eq!(data, 40 << 33);
    let f = TempFile::new("sparse");
    let mut file = File::create(&f.0).unwrap();
    file.write_all(&header).unwrap();
    file.set_len(400 << 30).unwrap();
    drop(file);
    let (g, asked) = read_gguf(&f);
    let g = g.unwrap();
    assert_eq!(g.file_size, 400 << 30);
    assert_eq!(g.weight_bytes, 40 << 33);
    assert_eq!(g.params, 40 << 32);
    assert!(asked < 64 << 20, "asked for {asked} bytes");
    // No embedding or head: every tensor is read per token.
    assert_eq!(g.read_per_token_bytes, g.weight_bytes);
}

/// xorshift64* (Vigna 2016): a fixed-seed generator for the mutation loop.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Cases for the mutation loop: `FUZZ_CASES` (`make fuzz` sets a million), else a CI-sized share.
fn fuzz_cases() -> usize {
    std::env::var("FUZZ_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(20_000)
}

#[test]
fn mutated_headers_never_panic() {
    let cases = fuzz_cases();
    let (valid, data) = tiny_llama(3, 64).header();
    let full_size = valid.len() as u64 + data;
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let (mut ok, mut need, mut invalid) = (0, 0, 0);
    let t = Instant::now();
    for _ in 0..cases {
        let mut b = valid.clone();
        for _ in 0..1 + rng.below(4) {
            let at = rng.below(b.len());
            match rng.below(5) {
                0 => b[at] = rng.next() as u8,
                1 => b[at] ^= 1 << rng.below(8),
                // Lengths and counts are u64s: plant extreme ones.
                2 => {
                    let v = [0, 1, u64::MAX, 1 << 62, 1 << 40, rng.next()][rng.below(6)];
                    let end = (at + 8).min(b.len());
                    b[at..end].copy_from_slice(&v.to_le_bytes()[..end - at]);
                }
                3 => b.truncate(at),
                _ => b[at] = [0, 7, 8, 9, 12, 13, 255][rng.below(7)],
            }
            if b.is_empty() {
                break;
            }
        }
        // The file as written (header then data), a file cut where the bytes end, or a bigger one.
        let size = match rng.below(3) {
            0 => full_size.max(b.len() as u64),
            1 => b.len() as u64,
            _ => b.len() as u64 + rng.below(1 << 30) as u64,
        };
        let cut = rng.below(b.len() + 1);
        match gguf::parse(&b[..cut], size) {
            Ok(_) => ok += 1,
            Err(GgufError::NeedMore { at_least }) => {
                assert!(at_least > cut as u64 && at_least <= size);
                need += 1;
            }
            Err(GgufError::Invalid(m)) => {
                assert!(!m.is_empty());
                invalid += 1;
            }
        }
    }
    assert_eq!(ok + need + invalid, cases);
    assert!(ok > 0 && need > 0 && invalid > 0, "{ok} ok, {need} need more, {invalid} invalid");
    println!(
        "fuzz gguf: {cases} mutated headers in {:.1} s: {ok} parsed, {need} asked for more, {invalid} refused",
        t.elapsed().as_secs_f64()
    );
}

// ---------------------------------------------------------------------------------------------
// Hybrid layers: Gated DeltaNet and Mamba-2, from config.json and from GGUF metadata.

/// A config.json's total lands within 2% of the catalog row entered from the same model card.
fn assert_matches_catalog(c: &ImportedConfig, id: &str) {
    let row = catalog().model(id).unwrap();
    let off = c.arch.total_params() / 1e9 / row.params_b - 1.0;
    assert!(off.abs() <= 0.02, "{id}: {:.3}B vs {}B", c.arch.total_params() / 1e9, row.params_b);
    assert_eq!(c.arch.linear(), row.arch.linear(), "{id}");
}

#[test]
fn qwen3_next_config_reads_its_gated_deltanet_layers_and_gated_attention() {
    let c = from_config_json(
        r#"{"model_type": "qwen3_next", "num_hidden_layers": 48, "hidden_size": 2048, "num_attention_heads": 16,
            "num_key_value_heads": 2, "head_dim": 256, "vocab_size": 151936, "tie_word_embeddings": false,
            "intermediate_size": 5120, "num_experts": 512, "num_experts_per_tok": 10, "moe_intermediate_size": 512,
            "shared_expert_intermediate_size": 512, "full_attention_interval": 4, "linear_num_key_heads": 16,
            "linear_num_value_heads": 32, "linear_key_head_dim": 128, "linear_value_head_dim": 128,
            "linear_conv_kernel_dim": 4, "max_position_embeddings": 262144}"#,
    )
    .unwrap();
    assert!(c.arch.attn_gate, "Qwen3-Next gates its attention output");
    assert_eq!(c.arch.attention_layers(), 12.0);
    assert_matches_catalog(&c, "qwen3-next-80b-a3b");
}

#[test]
fn granite_4_h_config_reads_its_mamba2_layers() {
    let mut types = vec!["mamba"; 40];
    for i in [5, 15, 25, 35] {
        types[i] = "attention";
    }
    let c = from_config_json(&format!(
        r#"{{"model_type": "granitemoehybrid", "num_hidden_layers": 40, "hidden_size": 4096, "num_attention_heads": 32,
            "num_key_value_heads": 8, "vocab_size": 100352, "tie_word_embeddings": true, "intermediate_size": 768,
            "num_local_experts": 72, "num_experts_per_tok": 10, "shared_intermediate_size": 1536,
            "mamba_n_heads": 128, "mamba_d_state": 128, "mamba_d_conv": 4, "mamba_expand": 2, "mamba_n_groups": 1,
            "mamba_d_head": "auto", "layer_types": {types:?}}}"#
    ))
    .unwrap();
    let l = c.arch.linear().copied().unwrap();
    assert_eq!(
        (l.layers, l.v_heads, l.v_dim, l.k_dim),
        (36, 128, 64, 128),
        "d_head auto = 2 × 4096 / 128"
    );
    assert_matches_catalog(&c, "granite-4.0-h-small");
}

#[test]
fn nemotron_h_config_reads_its_block_pattern() {
    let pattern = "M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M-";
    let c = from_config_json(&format!(
        r#"{{"model_type": "nemotron_h", "num_hidden_layers": 52, "hidden_size": 4096, "num_attention_heads": 32,
            "num_key_value_heads": 8, "attention_head_dim": 128, "vocab_size": 131072, "tie_word_embeddings": false,
            "intermediate_size": 21504, "mlp_hidden_act": "relu2", "hybrid_override_pattern": "{pattern}",
            "mamba_num_heads": 128, "mamba_head_dim": 64, "n_groups": 8, "ssm_state_size": 128, "conv_kernel": 4}}"#
    ))
    .unwrap();
    assert_eq!((c.arch.layers, c.arch.dense_layers, c.arch.mlp_gated), (28, 24, false));
    assert_matches_catalog(&c, "nemotron-h-8b");
    let bad = from_config_json(
        r#"{"num_hidden_layers": 2, "hidden_size": 64, "num_attention_heads": 4, "vocab_size": 10, "hybrid_override_pattern": "MX"}"#,
    );
    assert!(bad.unwrap_err().starts_with("hybrid_override_pattern: expected only M, * and -"));
}

#[test]
fn hybrid_gguf_metadata_gives_the_linear_layers() {
    // Qwen3-Next as llama.cpp converts it: ssm.* keys and a full-attention interval.
    let next = model(3)
        .kv("general.architecture", V::Str("qwen3next".into()))
        .kv("qwen3next.block_count", V::U32(48))
        .kv("qwen3next.embedding_length", V::U32(2048))
        .kv("qwen3next.attention.head_count", V::U32(16))
        .kv("qwen3next.attention.head_count_kv", V::U32(2))
        .kv("qwen3next.attention.key_length", V::U32(256))
        .kv("qwen3next.expert_count", V::U32(512))
        .kv("qwen3next.expert_used_count", V::U32(10))
        .kv("qwen3next.expert_feed_forward_length", V::U32(512))
        .kv("qwen3next.expert_shared_feed_forward_length", V::U32(512))
        .kv("qwen3next.full_attention_interval", V::U32(4))
        .kv("qwen3next.ssm.state_size", V::U32(128))
        .kv("qwen3next.ssm.group_count", V::U32(16))
        .kv("qwen3next.ssm.time_step_rank", V::U32(32))
        .kv("qwen3next.ssm.inner_size", V::U32(4096))
        .kv("qwen3next.ssm.conv_kernel", V::U32(4))
        .kv("qwen3next.vocab_size", V::U32(151936))
        .tensor("output.weight", &[2048, 151936], "Q6_K");
    let a = next.parse().arch.unwrap();
    let cat = &catalog().model("qwen3-next-80b-a3b").unwrap().arch;
    assert_eq!(a.linear(), cat.linear());
    assert!(a.attn_gate);
    assert!(
        (a.total_params() / cat.total_params() - 1.0).abs() < 1e-6,
        "{} vs {}",
        a.total_params(),
        cat.total_params()
    );

    // Nemotron-H: per-layer KV heads (0 on Mamba and MLP blocks) and feed-forward lengths (0 on
    // mixer blocks).
    let pattern: Vec<char> = "M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M-".chars().collect();
    let per_layer = |f: &dyn Fn(char) -> u32| V::array(pattern.iter().map(|c| V::U32(f(*c))).collect());
    let nemo = model(3)
        .kv("general.architecture", V::Str("nemotron_h".into()))
        .kv("nemotron_h.block_count", V::U32(52))
        .kv("nemotron_h.embedding_length", V::U32(4096))
        .kv("nemotron_h.attention.head_count", V::U32(32))
        .kv("nemotron_h.attention.head_count_kv", per_layer(&|c| if c == '*' { 8 } else { 0 }))
        .kv("nemotron_h.attention.key_length", V::U32(128))
        .kv("nemotron_h.feed_forward_length", per_layer(&|c| if c == '-' { 21504 } else { 0 }))
        .kv("nemotron_h.ssm.state_size", V::U32(128))
        .kv("nemotron_h.ssm.group_count", V::U32(8))
        .kv("nemotron_h.ssm.time_step_rank", V::U32(128))
        .kv("nemotron_h.ssm.inner_size", V::U32(8192))
        .kv("nemotron_h.ssm.conv_kernel", V::U32(4))
        .kv("nemotron_h.vocab_size", V::U32(131072))
        .tensor("output.weight", &[4096, 131072], "Q6_K");
    let a = nemo.parse().arch.unwrap();
    let cat = &catalog().model("nemotron-h-8b").unwrap().arch;
    assert_eq!((a.layers, a.dense_layers, a.mlp_gated), (28, 24, false));
    assert_eq!(a.linear(), cat.linear());
    assert!(
        (a.total_params() / cat.total_params() - 1.0).abs() < 1e-6,
        "{} vs {}",
        a.total_params(),
        cat.total_params()
    );
}
