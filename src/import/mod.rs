//! Importers that turn a user's own model description into the estimator's terms.
//!
//! - [`config`]: a Hugging Face `config.json` gives the architecture ([`Arch`]): layer count,
//!   widths, heads, experts, attention kind. Bytes then follow from a chosen quantization.
//! - [`gguf`]: a GGUF file's header gives every tensor's ggml type and shape, so the bytes are
//!   exact: stored bytes, bytes read per decode token (input embedding and unused experts left
//!   out), and the architecture from the `{arch}.*` metadata. Only the header is read, in growing
//!   slices from the start of the file, so multi-GB files cost a few MiB of reading.
//!
//! Both are plain Rust (no web imports): the CLI, the native tests and the browser share them.
//! Each returns an `unread` list of what it could not read or had to assume, in plain words.

pub mod config;
pub mod gguf;
pub mod hub;

use crate::estimator::arch::Arch;
use gguf::Gguf;

/// A GGUF header as a custom model: (architecture, weight bytes read per token, stored weight
/// bytes). `None` when the metadata lacks the shape (see [`Gguf::unread`]).
pub fn gguf_to_model(g: &Gguf) -> Option<(Arch, f64, f64)> {
    g.arch.clone().map(|a| (a, g.read_per_token_bytes as f64, g.weight_bytes as f64))
}
