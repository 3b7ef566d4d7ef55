//! GGUF header parser (format versions 2 and 3), incremental: it reads only the header, from a
//! prefix of the file, and says how much more prefix it needs.
//!
//! # Format (ggml `docs/gguf.md`)
//!
//! Little-endian throughout (v3 allows big-endian files, which this parser refuses: there is no
//! flag for it, but the version then reads as 0x0300_0000).
//!
//! ```text
//! "GGUF"  u32 version (2, 3; v1 used u32 counts and is refused)
//! u64 tensor_count, u64 metadata_kv_count
//! metadata_kv_count × { string key, u32 value_type, value }
//! tensor_count × { string name, u32 n_dims, n_dims × u64 dim, u32 ggml_type, u64 offset }
//! padding to general.alignment (default 32), then tensor data at the given offsets
//! ```
//!
//! A string is a u64 byte length and UTF-8 bytes. Value types: 0 u8, 1 i8, 2 u16, 3 i16, 4 u32,
//! 5 i32, 6 f32, 7 bool (1 byte), 8 string, 9 array (u32 element type, u64 count, elements; arrays
//! may nest), 10 u64, 11 i64, 12 f64. The tensor data is never read.
//!
//! # Tensor sizes
//!
//! A tensor of ggml type T stores its elements in blocks: bytes = elements ÷ block elements ×
//! block bytes, and the first dimension is a whole number of blocks. [`GGML_TYPES`] lists the
//! types: ids from the `ggml_type` enum in ggml `include/ggml.h`; block sizes from the block
//! structs in ggml `src/ggml-common.h` and `type_traits` in `src/ggml.c`, checked by compiling the
//! structs' `sizeof` (ggml-org/ggml d99724f). Ids 4, 5 and 31–33, 36–38 were removed from ggml.
//!
//! # What a token reads
//!
//! [`Gguf::read_per_token_bytes`]: every tensor except the lookup tables of which one row is read
//! (`token_embd.weight` when a separate `output.weight` head exists, `position_embd.weight`,
//! `token_types.weight`); with tied embeddings `token_embd` is the head and counts once. Stacked
//! expert tensors (`*_exps*`, llama.cpp's naming) count `expert_used_count ÷ expert_count` of their
//! bytes: a token runs through its top-k experts only.
//!
//! # Hostile input
//!
//! Every count and length is checked against limits and against the file size before use, with
//! checked arithmetic; skipped arrays are walked, never materialised; nothing is allocated beyond
//! what the prefix holds. Limits: 1,000,000 tensors and metadata pairs, 8 dimensions, 64 MiB per
//! string, arrays nested 4 deep, a 512 MiB header.

use std::fmt;

use crate::estimator::arch::{Arch, Attention, Linear, LinearKind};

/// Most tensors a header may declare.
pub const MAX_TENSORS: u64 = 1_000_000;
/// Most metadata pairs a header may declare.
pub const MAX_KVS: u64 = 1_000_000;
/// Most dimensions of one tensor (ggml has 4).
pub const MAX_DIMS: u32 = 8;
/// Longest string.
pub const MAX_STRING: u64 = 64 << 20;
/// Largest header the parser will ask for; real headers are a few MiB (the tokenizer dominates).
pub const MAX_HEADER: u64 = 512 << 20;
/// Deepest array nesting.
const MAX_NESTING: u32 = 4;
/// First slice [`read_all`] reads: enough for nearly every header at once.
pub const FIRST_READ: u64 = 1 << 20;
/// Strings kept from the metadata (names, architecture); longer ones are skipped unread.
const KEEP_STRING: u64 = 4096;
/// Integer arrays summarised (per-layer head counts, sliding-window patterns).
const KEEP_ARRAY: u64 = 65_536;
/// ggml's default alignment of the tensor data.
const DEFAULT_ALIGNMENT: u64 = 32;

/// ggml tensor types: (id, name, elements per block, bytes per block).
pub const GGML_TYPES: &[(u32, &str, u64, u64)] = &[
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

/// (name, block elements, block bytes) of a ggml type id.
pub fn ggml_type(id: u32) -> Option<(&'static str, u64, u64)> {
    GGML_TYPES.iter().find(|t| t.0 == id).map(|t| (t.1, t.2, t.3))
}

/// Why a parse stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GgufError {
    /// Parse again with a prefix of at least this many bytes.
    NeedMore { at_least: u64 },
    /// Not a usable GGUF file; a human message.
    Invalid(String),
}

impl fmt::Display for GgufError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GgufError::NeedMore { at_least } => write!(f, "need the first {at_least} bytes of the file"),
            GgufError::Invalid(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for GgufError {}

/// One tensor's description from the header.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TensorInfo {
    pub name: String,
    pub ggml_type: u32,
    pub type_name: &'static str,
    pub dims: Vec<u64>,
    pub elements: u64,
    pub bytes: u64,
}

/// What a GGUF header says.
#[derive(Clone, Debug, PartialEq)]
pub struct Gguf {
    pub version: u32,
    /// `general.name`.
    pub name: Option<String>,
    /// `general.architecture`.
    pub architecture: Option<String>,
    pub file_size: u64,
    pub tensor_count: u64,
    /// Σ tensor elements.
    pub params: u64,
    pub tensors: Vec<TensorInfo>,
    /// Σ tensor bytes.
    pub weight_bytes: u64,
    /// Bytes one decode token reads; see the module docs.
    pub read_per_token_bytes: u64,
    /// Parameters per ggml type, most first.
    pub type_counts: Vec<(String, u64)>,
    /// The shape from the `{architecture}.*` metadata, when it has the essentials.
    pub arch: Option<Arch>,
    /// What could not be read, or was assumed, in plain words.
    pub unread: Vec<String>,
}

/// Parses the header from `prefix`, the first bytes of a file of `file_size` bytes.
// Called from the file import and the Hub import: kept out of line so the page carries it once.
#[inline(never)]
pub fn parse(prefix: &[u8], file_size: u64) -> Result<Gguf, GgufError> {
    let have = prefix.len() as u64;
    if have > file_size {
        return Err(GgufError::Invalid(format!(
            "read {have} bytes of a file said to be {file_size} bytes long"
        )));
    }
    match parse_header(prefix, file_size) {
        Ok(g) => Ok(g),
        Err(Stop::Bad(m)) => Err(GgufError::Invalid(m)),
        Err(Stop::Need(end)) => {
            if end > MAX_HEADER {
                return Err(GgufError::Invalid(format!(
                    "the header runs past {} MiB, more than any model header; not reading further",
                    MAX_HEADER >> 20
                )));
            }
            if have >= file_size {
                return Err(GgufError::Invalid("truncated header".into()));
            }
            // Grow geometrically so a header is read in a few slices, never past the file.
            let grow = have.saturating_mul(2).min(MAX_HEADER);
            Err(GgufError::NeedMore {
                at_least: end.max(grow).min(file_size),
            })
        }
    }
}

/// Reads a whole header by calling `read(len)` for the first `len` bytes, starting at
/// [`FIRST_READ`] (or the whole file) and growing as [`parse`] asks.
pub fn read_all(mut read: impl FnMut(u64) -> Result<Vec<u8>, String>, file_size: u64) -> Result<Gguf, String> {
    let mut len = file_size.min(FIRST_READ);
    loop {
        let prefix = read(len)?;
        if prefix.len() as u64 != len {
            return Err(format!("asked for the first {len} bytes of the file, got {}", prefix.len()));
        }
        match parse(&prefix, file_size) {
            Ok(g) => return Ok(g),
            Err(GgufError::Invalid(m)) => return Err(m),
            // parse promises more than it had; the guard keeps a broken promise from looping.
            Err(GgufError::NeedMore { at_least }) if at_least > len => len = at_least,
            Err(GgufError::NeedMore { .. }) => return Err("the GGUF parser asked for no more bytes than it had".into()),
        }
    }
}

/// Why parsing stopped, inside the parser: `Need` holds the absolute offset wanted.
enum Stop {
    Need(u64),
    Bad(String),
}

type Step<T> = Result<T, Stop>;

fn bad<T>(m: impl Into<String>) -> Step<T> {
    Err(Stop::Bad(m.into()))
}

/// A cursor over the prefix that knows the whole file's size.
struct Reader<'a> {
    buf: &'a [u8],
    pos: u64,
    file_size: u64,
}

impl<'a> Reader<'a> {
    /// Advances `n` bytes, returning them.
    fn take(&mut self, n: u64) -> Step<&'a [u8]> {
        let end = match self.pos.checked_add(n) {
            Some(e) if e <= self.file_size => e,
            _ => {
                return bad(format!(
                    "truncated header: a field at byte {} claims {n} bytes, past the end of the {}-byte file",
                    self.pos, self.file_size
                ))
            }
        };
        if end > self.buf.len() as u64 {
            return Err(Stop::Need(end));
        }
        // Both bounds are within buf, so they fit in usize.
        let s = &self.buf[self.pos as usize..end as usize];
        self.pos = end;
        Ok(s)
    }

    fn remaining_in_file(&self) -> u64 {
        self.file_size - self.pos
    }

    fn array<const N: usize>(&mut self) -> Step<[u8; N]> {
        let mut a = [0u8; N];
        a.copy_from_slice(self.take(N as u64)?);
        Ok(a)
    }

    fn u8(&mut self) -> Step<u8> {
        Ok(self.array::<1>()?[0])
    }

    fn u32(&mut self) -> Step<u32> {
        self.array().map(u32::from_le_bytes)
    }

    fn u64(&mut self) -> Step<u64> {
        self.array().map(u64::from_le_bytes)
    }

    /// A string's length, checked against [`MAX_STRING`].
    fn string_len(&mut self, what: &dyn Fn() -> String) -> Step<u64> {
        let n = self.u64()?;
        if n > MAX_STRING {
            return bad(format!("{} is {n} bytes long, beyond the 64 MiB limit", what()));
        }
        Ok(n)
    }

    fn string(&mut self, what: &dyn Fn() -> String) -> Step<String> {
        let n = self.string_len(what)?;
        Ok(String::from_utf8_lossy(self.take(n)?).into_owned())
    }
}

/// A metadata value as kept: scalars, short strings, and array summaries.
#[derive(Clone, Debug)]
enum Meta {
    Uint(u64),
    Int(i64),
    /// No float is needed for the shape; only its presence is kept.
    Float,
    Bool(bool),
    Str(String),
    /// A string longer than [`KEEP_STRING`], skipped.
    LongStr,
    Array {
        len: u64,
        /// For integer and bool arrays up to [`KEEP_ARRAY`] long: (largest, count of non-zero).
        ints: Option<(u64, u64)>,
    },
}

impl Meta {
    /// What the value is, for messages.
    fn kind(&self) -> &'static str {
        match self {
            Meta::Uint(_) | Meta::Int(_) => "an integer",
            Meta::Float => "a float",
            Meta::Bool(_) => "a bool",
            Meta::Str(_) | Meta::LongStr => "a string",
            Meta::Array { ints: Some(_), .. } => "an integer array",
            Meta::Array { .. } => "an array",
        }
    }
}

/// Fixed byte size of a scalar value type.
fn scalar_size(ty: u32) -> Option<u64> {
    match ty {
        0 | 1 | 7 => Some(1),
        2 | 3 => Some(2),
        4..=6 => Some(4),
        10..=12 => Some(8),
        _ => None,
    }
}

fn read_scalar(r: &mut Reader, ty: u32) -> Step<Meta> {
    Ok(match ty {
        0 => Meta::Uint(r.u8()? as u64),
        1 => Meta::Int(r.u8()? as i8 as i64),
        2 => Meta::Uint(u16::from_le_bytes(r.array()?) as u64),
        3 => Meta::Int(i16::from_le_bytes(r.array()?) as i64),
        4 => Meta::Uint(r.u32()? as u64),
        5 => Meta::Int(i32::from_le_bytes(r.array()?) as i64),
        6 => r.array::<4>().map(|_| Meta::Float)?,
        7 => Meta::Bool(r.u8()? != 0),
        10 => Meta::Uint(r.u64()?),
        11 => Meta::Int(i64::from_le_bytes(r.array()?)),
        12 => r.array::<8>().map(|_| Meta::Float)?,
        _ => return bad(format!("unknown metadata value type {ty}")),
    })
}

fn read_value(r: &mut Reader, ty: u32, key: &str) -> Step<Meta> {
    match ty {
        8 => {
            let n = r.string_len(&|| format!("metadata value {key}"))?;
            let s = r.take(n)?;
            Ok(if n <= KEEP_STRING {
                Meta::Str(String::from_utf8_lossy(s).into_owned())
            } else {
                Meta::LongStr
            })
        }
        9 => {
            let elem = r.u32()?;
            let len = r.u64()?;
            let ints = skip_array(r, elem, len, key, 1)?;
            Ok(Meta::Array { len, ints })
        }
        _ if scalar_size(ty).is_some() => read_scalar(r, ty),
        _ => bad(format!("metadata key {key}: unknown value type {ty}")),
    }
}

/// Advances past `len` elements of type `elem` without keeping them; returns the
/// (largest, non-zero count) summary of a short integer or bool array.
fn skip_array(r: &mut Reader, elem: u32, len: u64, key: &str, depth: u32) -> Step<Option<(u64, u64)>> {
    // Every element takes at least this many bytes; a count the rest of the file cannot hold is
    // refused before any loop runs.
    let min_size = match elem {
        8 => 8,
        9 => 12,
        t => scalar_size(t).ok_or_else(|| Stop::Bad(format!("metadata key {key}: array of unknown value type {t}")))?,
    };
    let claimed = len.checked_mul(min_size);
    if claimed.is_none_or(|b| b > r.remaining_in_file()) {
        return bad(format!(
            "metadata key {key}: an array of {len} elements needs more bytes than the {}-byte file has",
            r.file_size
        ));
    }
    match elem {
        8 => {
            for _ in 0..len {
                let n = r.string_len(&|| format!("a string in metadata array {key}"))?;
                r.take(n)?;
            }
            Ok(None)
        }
        9 => {
            if depth >= MAX_NESTING {
                return bad(format!("metadata key {key}: arrays nested more than {MAX_NESTING} deep"));
            }
            for _ in 0..len {
                let inner = r.u32()?;
                let inner_len = r.u64()?;
                skip_array(r, inner, inner_len, key, depth + 1)?;
            }
            Ok(None)
        }
        // Integers and bools (not floats): summarised when short.
        0..=5 | 7 | 10 | 11 if len <= KEEP_ARRAY => {
            let (mut max, mut nonzero) = (0u64, 0u64);
            for _ in 0..len {
                let v = match read_scalar(r, elem)? {
                    Meta::Uint(v) => v,
                    Meta::Int(v) => v.max(0) as u64,
                    Meta::Bool(b) => b as u64,
                    _ => 0,
                };
                max = max.max(v);
                nonzero += (v != 0) as u64;
            }
            Ok(Some((max, nonzero)))
        }
        // Checked above: len × size fits in the file.
        _ => r.take(len * min_size).map(|_| None),
    }
}

fn parse_header(buf: &[u8], file_size: u64) -> Step<Gguf> {
    let mut r = Reader { buf, pos: 0, file_size };
    let (version, tensor_count, kv_count) = read_preamble(&mut r)?;
    let (meta, alignment) = read_metadata(&mut r, kv_count)?;
    let mut tensors = Vec::new();
    let (mut params, mut weight_bytes, mut data_end) = (0u64, 0u64, 0u64);
    for i in 0..tensor_count {
        let (t, offset) = read_tensor_info(&mut r, i, alignment)?;
        let overflow = || Stop::Bad(format!("tensor {}: the tensor data runs past 2^64 bytes", clip(&t.name)));
        data_end = data_end.max(offset.checked_add(t.bytes).ok_or_else(overflow)?);
        params = params.checked_add(t.elements).ok_or_else(overflow)?;
        weight_bytes = weight_bytes.checked_add(t.bytes).ok_or_else(overflow)?;
        tensors.push(t);
    }
    // The data section starts at the next multiple of the alignment.
    let data_start = r
        .pos
        .checked_next_multiple_of(alignment)
        .ok_or_else(|| Stop::Bad("the data offset overflows".into()))?;
    if data_start.checked_add(data_end).is_none_or(|end| end > file_size) {
        return bad(format!(
            "the tensors need {} bytes after the {data_start}-byte header but the file is {file_size} bytes: truncated download?",
            data_end
        ));
    }
    Ok(summarise(version, file_size, tensor_count, params, tensors, weight_bytes, &meta))
}

/// The magic, the version and the two counts, each checked against its limit.
fn read_preamble(r: &mut Reader) -> Step<(u32, u64, u64)> {
    let magic = r.array::<4>()?;
    if &magic != b"GGUF" {
        return bad(format!(
            "not a GGUF file: it starts with {:02x} {:02x} {:02x} {:02x}, not \"GGUF\"",
            magic[0], magic[1], magic[2], magic[3]
        ));
    }
    let version_bytes = r.array::<4>()?;
    let version = u32::from_le_bytes(version_bytes);
    match version {
        2 | 3 => {}
        1 => return bad("GGUF v1 is not supported (it predates 64-bit counts); convert the model again"),
        _ if matches!(u32::from_be_bytes(version_bytes), 2 | 3) => return bad("big-endian GGUF files are not supported"),
        v => return bad(format!("unsupported GGUF version {v}")),
    }
    let tensor_count = r.u64()?;
    if tensor_count > MAX_TENSORS {
        return bad(format!(
            "the header declares {tensor_count} tensors, beyond the limit of {MAX_TENSORS}"
        ));
    }
    let kv_count = r.u64()?;
    if kv_count > MAX_KVS {
        return bad(format!(
            "the header declares {kv_count} metadata entries, beyond the limit of {MAX_KVS}"
        ));
    }
    Ok((version, tensor_count, kv_count))
}

/// The metadata entries, and the data alignment they give.
fn read_metadata(r: &mut Reader, kv_count: u64) -> Step<(Metadata, u64)> {
    let mut meta = Metadata::new();
    for i in 0..kv_count {
        let key = r.string(&|| format!("metadata key {i}"))?;
        let ty = r.u32()?;
        let value = read_value(r, ty, &clip(&key))?;
        meta.push((key, value));
    }
    let alignment = match lookup(&meta, "general.alignment") {
        None => DEFAULT_ALIGNMENT,
        Some(Meta::Uint(a)) if a.is_power_of_two() => *a,
        Some(Meta::Uint(a)) => return bad(format!("general.alignment {a} is not a power of two")),
        Some(_) => return bad("general.alignment is not an unsigned integer"),
    };
    Ok((meta, alignment))
}

/// Tensor `i`'s name, shape and type, and its data offset, each checked.
fn read_tensor_info(r: &mut Reader, i: u64, alignment: u64) -> Step<(TensorInfo, u64)> {
    let name = r.string(&|| format!("the name of tensor {i}"))?;
    let label = clip(&name);
    let n_dims = r.u32()?;
    if n_dims > MAX_DIMS {
        return bad(format!("tensor {label}: {n_dims} dimensions, more than {MAX_DIMS}"));
    }
    let mut dims = Vec::with_capacity(n_dims as usize);
    let mut elements = 1u64;
    for d in 0..n_dims {
        let n = r.u64()?;
        if n == 0 {
            return bad(format!("tensor {label}: dimension {d} is 0"));
        }
        elements = elements
            .checked_mul(n)
            .ok_or_else(|| Stop::Bad(format!("tensor {label}: the element count overflows 64 bits")))?;
        dims.push(n);
    }
    let ggml_type = r.u32()?;
    let (type_name, block, block_bytes) =
        self::ggml_type(ggml_type).ok_or_else(|| Stop::Bad(format!("tensor {label}: unknown ggml type {ggml_type}")))?;
    let row = dims.first().copied().unwrap_or(1);
    if row % block != 0 {
        return bad(format!(
            "tensor {label}: a row of {row} elements is not whole {type_name} blocks of {block}"
        ));
    }
    // elements is a multiple of block (row is); the product is checked.
    let bytes = (elements / block)
        .checked_mul(block_bytes)
        .ok_or_else(|| Stop::Bad(format!("tensor {label}: its byte size overflows 64 bits")))?;
    let offset = r.u64()?;
    if offset % alignment != 0 {
        return bad(format!(
            "tensor {label}: data offset {offset} is not a multiple of the alignment {alignment}"
        ));
    }
    let info = TensorInfo {
        name,
        ggml_type,
        type_name,
        dims,
        elements,
        bytes,
    };
    Ok((info, offset))
}

/// A key or tensor name for a message: hostile files may carry names megabytes long.
fn clip(s: &str) -> String {
    const MAX: usize = 80;
    match s.char_indices().nth(MAX) {
        Some((cut, _)) => format!("{}…", &s[..cut]),
        None => s.to_string(),
    }
}

/// The header's metadata in file order, looked up a few dozen times by name. A real header holds
/// a few dozen entries; a hostile one at `MAX_KVS` (a million, 26 MB) parses in 0.2 s natively
/// searched in place, against 0.5 s with a `BTreeMap`, whose code was 1.3 KB gzipped of the page.
type Metadata = Vec<(String, Meta)>;

/// The value of `key`; where a header repeats a key, its last value.
fn lookup<'a>(meta: &'a Metadata, key: &str) -> Option<&'a Meta> {
    meta.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v)
}

/// Metadata lookups under an architecture prefix.
struct View<'a> {
    meta: &'a Metadata,
    arch: &'a str,
}

impl View<'_> {
    fn get(&self, suffix: &str) -> Option<&Meta> {
        lookup(self.meta, &format!("{}.{suffix}", self.arch))
    }

    /// A non-negative integer that fits u32; a per-layer array gives its largest entry, noted.
    /// How many layers of a per-layer integer array are non-zero.
    fn nonzero(&self, suffix: &str) -> Option<u32> {
        match lookup(self.meta, &format!("{}.{suffix}", self.arch)) {
            Some(Meta::Array { ints: Some((_, n)), .. }) => Some((*n).min(u64::from(u32::MAX)) as u32),
            _ => None,
        }
    }

    fn u32(&self, suffix: &str, unread: &mut Vec<String>) -> Result<Option<u32>, String> {
        let key = format!("{}.{suffix}", self.arch);
        let v = match lookup(self.meta, &key) {
            None => return Ok(None),
            Some(Meta::Uint(v)) => *v,
            Some(Meta::Int(v)) if *v >= 0 => *v as u64,
            Some(Meta::Array { ints: Some((max, _)), .. }) => {
                unread.push(format!("{key}: per-layer values; using the largest, {max}"));
                *max
            }
            Some(other) => return Err(format!("{key}: expected a whole number, found {}", other.kind())),
        };
        u32::try_from(v).map(Some).map_err(|_| format!("{key}: {v} is too large"))
    }
}

fn summarise(
    version: u32,
    file_size: u64,
    tensor_count: u64,
    params: u64,
    tensors: Vec<TensorInfo>,
    weight_bytes: u64,
    meta: &Metadata,
) -> Gguf {
    let string = |k: &str| match lookup(meta, k) {
        Some(Meta::Str(s)) => Some(s.clone()),
        _ => None,
    };
    let name = string("general.name");
    let architecture = string("general.architecture");
    let mut unread = Vec::new();
    // gguf-split shards each describe only their own tensors.
    if let Some(Meta::Uint(n)) = lookup(meta, "split.count").filter(|m| matches!(m, Meta::Uint(n) if *n > 1)) {
        unread.push(format!("split.count: this file is one of {n} parts; sizes cover this part only"));
    }

    let arch = match &architecture {
        None => {
            unread.push("general.architecture: missing, so no layer shape (only tensor sizes)".into());
            None
        }
        Some(a) => match build_arch(&View { meta, arch: a }, meta, &tensors, &mut unread) {
            Ok(arch) => Some(arch),
            Err(why) => {
                unread.push(format!("no layer shape: {why}"));
                None
            }
        },
    };

    let (read, unrouted) = read_per_token(&tensors, arch.as_ref());
    if unrouted {
        unread.push("expert_count / expert_used_count: missing, so every expert counts as read per token".into());
    }
    Gguf {
        version,
        name,
        architecture,
        file_size,
        tensor_count,
        params,
        type_counts: type_counts(&tensors),
        tensors,
        weight_bytes,
        // At most weight_bytes, which fits u64.
        read_per_token_bytes: read.min(weight_bytes),
        arch,
        unread,
    }
}

/// Bytes a decode token reads of `tensors` (see the module docs), and whether expert tensors
/// were found without the routing to scale them by.
fn read_per_token(tensors: &[TensorInfo], arch: Option<&Arch>) -> (u64, bool) {
    // Top-k of E experts per token, for the stacked expert tensors.
    let routing = arch
        .filter(|a| a.experts > 0 && a.experts_per_token > 0)
        .map(|a| (a.experts_per_token.min(a.experts) as u128, a.experts as u128));
    let has_head = tensors.iter().any(|t| t.name == "output.weight");
    let mut read: u128 = 0;
    let mut unrouted = false;
    for t in tensors {
        let lookup_table =
            (t.name == "token_embd.weight" && has_head) || t.name == "position_embd.weight" || t.name == "token_types.weight";
        if lookup_table {
            continue;
        }
        read += match (t.name.contains("_exps"), routing) {
            (true, Some((k, e))) => t.bytes as u128 * k / e,
            (true, None) => {
                unrouted = true;
                t.bytes as u128
            }
            (false, _) => t.bytes as u128,
        };
    }
    (read.min(u64::MAX as u128) as u64, unrouted)
}

/// Parameters per ggml type, most first.
fn type_counts(tensors: &[TensorInfo]) -> Vec<(String, u64)> {
    let mut by_type: Vec<(String, u64)> = Vec::new();
    for t in tensors {
        match by_type.iter_mut().find(|(n, _)| n == t.type_name) {
            Some((_, p)) => *p = p.saturating_add(t.elements),
            None => by_type.push((t.type_name.to_string(), t.elements)),
        }
    }
    by_type.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    by_type
}

impl Gguf {
    /// A split GGUF as one file: the first shard's metadata (the only one with the model's
    /// shape) with every shard's tensors, sizes and bytes read per token.
    pub fn join_shards(mut self, rest: Vec<Gguf>) -> Gguf {
        if rest.is_empty() {
            return self;
        }
        let parts = rest.len() + 1;
        for g in rest {
            self.file_size = self.file_size.saturating_add(g.file_size);
            self.tensor_count = self.tensor_count.saturating_add(g.tensor_count);
            self.params = self.params.saturating_add(g.params);
            self.weight_bytes = self.weight_bytes.saturating_add(g.weight_bytes);
            self.tensors.extend(g.tensors);
        }
        self.read_per_token_bytes = read_per_token(&self.tensors, self.arch.as_ref()).0.min(self.weight_bytes);
        self.type_counts = type_counts(&self.tensors);
        self.unread.retain(|u| !u.starts_with("split.count"));
        self.unread
            .push(format!("read from the headers of all {parts} parts of a split GGUF"));
        self
    }
}

/// Sliding-window period llama.cpp's model loaders set in code, where the GGUF carries no
/// `attention.sliding_window_pattern`: N−1 of every N layers slide.
const SWA_PERIODS: &[(&str, u32)] = &[("gemma2", 2), ("gemma3", 6), ("gpt-oss", 2), ("cohere2", 4)];

/// Architectures whose attention's q projection also produces an output gate.
const GATED_ATTENTION: &[&str] = &["qwen3next", "qwen35", "qwen35moe"];

/// The linear layers of a hybrid file, from its `ssm.*` keys (llama.cpp's names: `state_size` the
/// key width or Mamba state, `group_count` the key heads or groups, `time_step_rank` the value
/// heads, `inner_size` value heads × value width, `conv_kernel`). Gated DeltaNet (Qwen3-Next):
/// every layer but each `full_attention_interval`-th. Mamba-2 (Nemotron-H, Granite 4.0-H): the
/// blocks whose per-layer `attention.head_count_kv` is 0, less Nemotron-H's MLP-only blocks.
fn linear_layers(v: &View, meta: &Metadata, layers: u32, unread: &mut Vec<String>) -> Result<Option<Linear>, String> {
    let a = v.arch;
    let Some(state) = v.u32("ssm.state_size", unread)? else {
        return Ok(None);
    };
    let need = |x: Option<u32>, suffix: &str| x.filter(|&n| n > 0).ok_or(format!("{a}.{suffix} missing for the linear layers"));
    let v_heads = need(v.u32("ssm.time_step_rank", unread)?, "ssm.time_step_rank")?;
    let inner = need(v.u32("ssm.inner_size", unread)?, "ssm.inner_size")?;
    let k_heads = v.u32("ssm.group_count", unread)?.unwrap_or(1);
    let conv = v.u32("ssm.conv_kernel", unread)?.unwrap_or(4);
    let (kind, linear) = match v.u32("full_attention_interval", unread)?.filter(|&n| n > 1) {
        Some(interval) => (LinearKind::GatedDeltaNet, layers - layers / interval),
        None => {
            let key = format!("{a}.attention.head_count_kv");
            let attention = match lookup(meta, &key) {
                Some(Meta::Array {
                    ints: Some((_, nonzero)), ..
                }) => (*nonzero).min(layers as u64) as u32,
                _ => 0,
            };
            let mlp_only = if a == "nemotron_h" {
                v.nonzero("feed_forward_length").unwrap_or(0)
            } else {
                0
            };
            (LinearKind::Mamba2, layers.saturating_sub(attention).saturating_sub(mlp_only))
        }
    };
    if linear == 0 {
        return Ok(None);
    }
    Ok(Some(Linear {
        kind,
        layers: linear,
        k_heads,
        v_heads,
        k_dim: state,
        v_dim: inner / v_heads,
        conv,
    }))
}

fn build_arch(v: &View, meta: &Metadata, tensors: &[TensorInfo], unread: &mut Vec<String>) -> Result<Arch, String> {
    let a = v.arch;
    let required = |x: Option<u32>, suffix: &str| match x {
        Some(n) if n > 0 => Ok(n),
        _ => Err(format!("{a}.{suffix} missing")),
    };
    let layers = required(v.u32("block_count", unread)?, "block_count")?;
    let hidden = required(v.u32("embedding_length", unread)?, "embedding_length")?;
    let heads = required(v.u32("attention.head_count", unread)?, "attention.head_count")?;
    let kv_heads = match v.u32("attention.head_count_kv", unread)? {
        Some(n) => n,
        None => {
            unread.push(format!("{a}.attention.head_count_kv: missing, using the head count ({heads})"));
            heads
        }
    };
    let vocab = vocab_size(v, meta, tensors, unread)?;
    let tied_embeddings = !tensors.iter().any(|t| t.name == "output.weight");
    let ff = v.u32("feed_forward_length", unread)?;

    // Nemotron-H's blocks are each a Mamba-2 mixer, an attention layer or an MLP alone (those have
    // a feed-forward length); a layer here is a block with a mixer.
    let mlp_only = (a == "nemotron_h").then(|| v.nonzero("feed_forward_length")).flatten();
    let mixer_layers = layers - mlp_only.unwrap_or(0).min(layers - 1);
    let mlp = ffn_shape(v, layers, ff, mlp_only, unread)?;

    let (attention, head_dim) = attention_kind(v, meta, layers, (hidden, heads), unread)?;
    if head_dim == 0 {
        return Err(format!("{a}: head width is 0"));
    }
    Ok(Arch {
        layers: mixer_layers,
        hidden,
        heads,
        kv_heads,
        head_dim,
        vocab,
        tied_embeddings,
        intermediate: mlp.intermediate,
        mlp_gated: a != "nemotron_h",
        attn_gate: GATED_ATTENTION.contains(&a),
        experts: mlp.experts,
        experts_per_token: mlp.experts_per_token,
        shared_experts: mlp.shared_experts,
        moe_intermediate: mlp.moe_intermediate,
        shared_intermediate: mlp.shared_intermediate,
        dense_layers: mlp.dense_layers,
        attention,
    })
}

/// The vocabulary size: the tokenizer's token count, else `vocab_size`, else the embedding's rows.
fn vocab_size(v: &View, meta: &Metadata, tensors: &[TensorInfo], unread: &mut Vec<String>) -> Result<u32, String> {
    Ok(match lookup(meta, "tokenizer.ggml.tokens") {
        Some(Meta::Array { len, .. }) => u32::try_from(*len).map_err(|_| format!("tokenizer.ggml.tokens: {len} tokens"))?,
        _ => match v.u32("vocab_size", unread)? {
            Some(n) => n,
            None => {
                let rows = tensors
                    .iter()
                    .find(|t| t.name == "token_embd.weight")
                    .and_then(|t| t.dims.get(1).copied());
                let rows = rows.ok_or("no vocabulary size (tokenizer.ggml.tokens, vocab_size or token_embd.weight)")?;
                unread.push(format!("vocabulary: taken from token_embd.weight ({rows} rows)"));
                u32::try_from(rows).map_err(|_| format!("token_embd.weight: {rows} rows"))?
            }
        },
    })
}

/// The feed-forward part: dense, or a mixture of experts' counts and widths.
struct FfnShape {
    intermediate: u32,
    experts: u32,
    experts_per_token: u32,
    shared_experts: u32,
    moe_intermediate: u32,
    shared_intermediate: u32,
    dense_layers: u32,
}

/// The feed-forward shape from the `{arch}.expert_*` and `feed_forward_length` keys (`ff`);
/// `mlp_only` counts a hybrid's MLP-only blocks.
fn ffn_shape(v: &View, layers: u32, ff: Option<u32>, mlp_only: Option<u32>, unread: &mut Vec<String>) -> Result<FfnShape, String> {
    let a = v.arch;
    let experts = v.u32("expert_count", unread)?.unwrap_or(0);
    let (intermediate, experts_per_token, shared_experts, moe_intermediate, shared_intermediate, dense_layers);
    if experts > 0 {
        experts_per_token = match v.u32("expert_used_count", unread)? {
            Some(k) => k,
            None => {
                unread.push(format!("{a}.expert_used_count: missing, assuming 1"));
                1
            }
        };
        // Mixtral-style files give the expert width as feed_forward_length.
        let expert_ff = v.u32("expert_feed_forward_length", unread)?;
        moe_intermediate = expert_ff.or(ff).unwrap_or(0);
        intermediate = if expert_ff.is_some() { ff.unwrap_or(0) } else { 0 };
        shared_experts = v.u32("expert_shared_count", unread)?.unwrap_or(0);
        shared_intermediate = match v.u32("expert_shared_feed_forward_length", unread)? {
            Some(w) => w,
            None => shared_experts.saturating_mul(moe_intermediate),
        };
        dense_layers = v.u32("leading_dense_block_count", unread)?.unwrap_or(0).min(layers);
    } else {
        intermediate = ff.unwrap_or_else(|| {
            unread.push(format!("{a}.feed_forward_length: missing, counting no MLP"));
            0
        });
        (experts_per_token, shared_experts, moe_intermediate, shared_intermediate) = (0, 0, 0, 0);
        dense_layers = mlp_only.unwrap_or(layers);
    }

    Ok(FfnShape {
        intermediate,
        experts,
        experts_per_token,
        shared_experts,
        moe_intermediate,
        shared_intermediate,
        dense_layers,
    })
}

/// The attention kind — MLA, linear-attention hybrids, sliding windows, else full — and the
/// head width.
fn attention_kind(
    v: &View,
    meta: &Metadata,
    layers: u32,
    (hidden, heads): (u32, u32),
    unread: &mut Vec<String>,
) -> Result<(Attention, u32), String> {
    let a = v.arch;
    let key_length = v.u32("attention.key_length", unread)?;
    let mut head_dim = match key_length {
        Some(d) if d > 0 => d,
        _ => hidden / heads,
    };
    let attention = if let Some(kv_lora_rank) = v.u32("attention.kv_lora_rank", unread)?.filter(|&r| r > 0) {
        // Newer llama.cpp conversions store the absorbed widths in key_length/value_length and
        // the per-head ones in the *_mla keys.
        let rope = v
            .u32("rope.dimension_count", unread)?
            .ok_or(format!("{a}.rope.dimension_count missing for MLA"))?;
        let qk = v
            .u32("attention.key_length_mla", unread)?
            .or(key_length)
            .ok_or(format!("{a}.attention.key_length missing for MLA"))?;
        let v_head_dim = v
            .u32("attention.value_length_mla", unread)?
            .or(v.u32("attention.value_length", unread)?)
            .ok_or(format!("{a}.attention.value_length missing for MLA"))?;
        let qk_nope_dim = qk
            .checked_sub(rope)
            .ok_or(format!("{a}: key length {qk} is smaller than the rope dimensions {rope}"))?;
        head_dim = qk;
        Attention::Latent {
            kv_lora_rank,
            q_lora_rank: v.u32("attention.q_lora_rank", unread)?.unwrap_or(0),
            qk_rope_dim: rope,
            qk_nope_dim,
            v_head_dim,
        }
    } else if let Some(linear) = linear_layers(v, meta, layers, unread)? {
        Attention::HybridLinear(linear)
    } else if let Some(window) = v.u32("attention.sliding_window", unread)?.filter(|&w| w > 0) {
        sliding_window(v, window, layers, unread)
    } else {
        Attention::Full
    };
    Ok((attention, head_dim))
}

/// Sliding-window attention over the layers its pattern says slide (every layer where none is
/// known, with a note); full attention where none does.
fn sliding_window(v: &View, window: u32, layers: u32, unread: &mut Vec<String>) -> Attention {
    let a = v.arch;
    let swa_layers = match v.get("attention.sliding_window_pattern") {
        // One bool per layer: true where the layer slides.
        Some(Meta::Array {
            ints: Some((_, sliding)), ..
        }) => (*sliding).min(layers as u64) as u32,
        Some(Meta::Uint(n)) if *n > 0 => layers - (layers as u64 / n) as u32,
        _ => match SWA_PERIODS.iter().find(|(name, _)| *name == a) {
            Some((_, n)) => layers - layers / n,
            None => {
                unread.push(format!(
                    "{a}.attention.sliding_window: no layer pattern known, assuming every layer slides"
                ));
                layers
            }
        },
    };
    if swa_layers == 0 {
        Attention::Full
    } else {
        Attention::SlidingWindow { window, swa_layers }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn string(out: &mut Vec<u8>, s: &str) {
        out.extend((s.len() as u64).to_le_bytes());
        out.extend(s.as_bytes());
    }

    /// A header with one u32 key and one F32 tensor of 8 elements, and its 32 data bytes.
    fn tiny() -> Vec<u8> {
        let mut b = b"GGUF".to_vec();
        b.extend(3u32.to_le_bytes());
        b.extend(1u64.to_le_bytes());
        b.extend(1u64.to_le_bytes());
        string(&mut b, "general.alignment");
        b.extend(4u32.to_le_bytes());
        b.extend(32u32.to_le_bytes());
        string(&mut b, "t");
        b.extend(1u32.to_le_bytes());
        b.extend(8u64.to_le_bytes());
        b.extend(0u32.to_le_bytes());
        b.extend(0u64.to_le_bytes());
        b.resize(b.len().next_multiple_of(32) + 32, 0);
        b
    }

    #[test]
    fn every_type_in_the_table_has_a_unique_id_and_sane_blocks() {
        for (i, t) in GGML_TYPES.iter().enumerate() {
            assert!(GGML_TYPES[i + 1..].iter().all(|u| u.0 != t.0 && u.1 != t.1), "{t:?}");
            assert!(t.2 >= 1 && t.3 >= 1 && t.2.is_power_of_two());
        }
        assert_eq!(ggml_type(12), Some(("Q4_K", 256, 144)));
        assert_eq!(ggml_type(4), None);
    }

    #[test]
    fn a_tiny_header_parses_and_every_prefix_asks_for_more() {
        let file = tiny();
        let g = parse(&file, file.len() as u64).unwrap();
        assert_eq!((g.params, g.weight_bytes, g.tensors[0].type_name), (8, 32, "F32"));
        assert!(g.arch.is_none());
        // The header proper ends after the tensor's offset, at byte 90; padding follows.
        for n in 0..file.len() {
            match parse(&file[..n], file.len() as u64) {
                Err(GgufError::NeedMore { at_least }) if n < 90 => assert!(at_least > n as u64 && at_least <= file.len() as u64),
                Ok(_) if n >= 90 => {}
                other => panic!("{n}: {other:?}"),
            }
        }
    }

    #[test]
    fn a_file_cut_inside_its_header_is_truncated() {
        let file = tiny();
        let cut = &file[..30];
        match parse(cut, 30) {
            Err(GgufError::Invalid(m)) => assert!(m.starts_with("truncated header"), "{m}"),
            other => panic!("{other:?}"),
        }
    }
}
