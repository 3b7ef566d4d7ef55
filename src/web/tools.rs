//! The readers: the GGUF, config.json, Hugging Face listing, calibration and diagnosis paste parsers, and the
//! reading of the bandwidth probe's messages. Where the release page is split
//! (`--cfg tokbound_split`, [`crate::web::parts`]) they are a part of the module of their own,
//! `tools`, fetched the first time a user imports, calibrates or measures.
//!
//! The parse worker ([`crate::web::parse_worker`]) calls the first three; the import panel's
//! Hugging Face import and the measure panel call the rest on the page's thread.

use crate::import::gguf::{self, Gguf, GgufError};
use crate::import::{config, hub};
use crate::report::calibrate;
use crate::report::imported::Imported;
use crate::report::measure::{self, Message};
pub use crate::web::parts::Unloaded;

/// Nothing: awaiting it fetches the part, before a run that reads many messages in order.
#[cfg_attr(tokbound_split, wasm_split_helpers::wasm_split(tools, fallible))]
pub fn ready() -> Result<(), Unloaded> {
    Ok(())
}

/// A finished import for the page: `["ok", query, lines…]`, or `["error", message]`.
fn reply(result: Result<Imported, String>) -> Vec<String> {
    match result {
        Ok(i) => {
            let mut out = vec!["ok".to_string(), i.to_query()];
            out.extend(i.lines());
            out
        }
        Err(e) => vec!["error".to_string(), e],
    }
}

/// The model a config.json describes.
fn imported_config(text: &str) -> Result<Imported, String> {
    config::from_config_json(text).map(Imported::from_config)
}

/// The parse worker's answer for the first `prefix.len()` bytes of a `size`-byte GGUF file:
/// the import, or `["need", n]` for the first `n` bytes instead (at least double, at most the
/// file).
#[cfg_attr(tokbound_split, wasm_split_helpers::wasm_split(tools, fallible))]
pub fn gguf_reply(prefix: Vec<u8>, size: f64) -> Result<Vec<String>, Unloaded> {
    let (have, size) = (prefix.len() as u64, size as u64);
    Ok(match gguf::parse(&prefix, size) {
        Ok(g) => reply(Imported::from_gguf(&g)),
        Err(GgufError::NeedMore { at_least }) if at_least > have && have < size => {
            vec!["need".to_string(), at_least.max(have.saturating_mul(2)).min(size).to_string()]
        }
        Err(e) => reply(Err(e.to_string())),
    })
}

/// The parse worker's answer for a config.json.
#[cfg_attr(tokbound_split, wasm_split_helpers::wasm_split(tools, fallible))]
pub fn config_reply(text: String) -> Result<Vec<String>, Unloaded> {
    Ok(reply(imported_config(&text)))
}

/// An answer the parse worker awaits: the long tails its scenario names are fetched first.
pub type Later = std::pin::Pin<Box<dyn std::future::Future<Output = Vec<String>>>>;

/// The parse worker's answer for a calibration paste fitted for the scenario `query`:
/// `["ok", parts of [`calibrate::Shown`]…]` or `["error", message]`, once the long tails `query`
/// names are in the worker's catalog ([`crate::web::long_tail::ready_for`]).
#[cfg_attr(tokbound_split, wasm_split_helpers::wasm_split(tools, fallible))]
pub fn calibrate_reply(paste: String, query: String) -> Result<Later, Unloaded> {
    Ok(Box::pin(async move {
        let _ = wasm_bindgen_futures::JsFuture::from(crate::web::long_tail::ready_for(&query)).await;
        let (scenario, _) = crate::scenario::Scenario::from_query(&query);
        match calibrate::calibrate_on_screen(&paste, &scenario, crate::catalog::catalog()) {
            Ok(c) => std::iter::once("ok".to_string()).chain(c.shown().to_parts()).collect(),
            Err(e) => vec!["error".to_string(), e],
        }
    }))
}

/// The parse worker's answer for a run to diagnose against the scenario `query` (the page's
/// own): `["ok", parts of [`Diagnosis::to_parts`](crate::report::diagnose::Diagnosis::to_parts)…]`
/// or `["error", message]`, once the long tails `query` names are in the worker's catalog.
#[cfg_attr(tokbound_split, wasm_split_helpers::wasm_split(tools, fallible))]
pub fn diagnose_reply(paste: String, query: String) -> Result<Later, Unloaded> {
    Ok(Box::pin(async move {
        let _ = wasm_bindgen_futures::JsFuture::from(crate::web::long_tail::ready_for(&query)).await;
        let (scenario, _) = crate::scenario::Scenario::from_query(&query);
        match crate::report::diagnose::diagnose(&paste, &scenario, crate::catalog::catalog(), true) {
            Ok(d) => std::iter::once("ok".to_string()).chain(d.to_parts()).collect(),
            Err(e) => vec!["error".to_string(), e],
        }
    }))
}

/// A GGUF header from the first `prefix.len()` bytes of a `size`-byte file (a Hub download).
#[cfg_attr(tokbound_split, wasm_split_helpers::wasm_split(tools, fallible))]
pub fn gguf_header(prefix: Vec<u8>, size: u64) -> Result<Result<Gguf, GgufError>, Unloaded> {
    Ok(gguf::parse(&prefix, size))
}

/// The model of a GGUF file split in shards (`rest` after the first; none for one file).
#[cfg_attr(tokbound_split, wasm_split_helpers::wasm_split(tools, fallible))]
pub fn gguf_model(first: Gguf, rest: Vec<Gguf>) -> Result<Result<Imported, String>, Unloaded> {
    Ok(Imported::from_gguf(&first.join_shards(rest)))
}

/// The model of a config.json (a Hub download).
#[cfg_attr(tokbound_split, wasm_split_helpers::wasm_split(tools, fallible))]
pub fn config_model(text: String) -> Result<Result<Imported, String>, Unloaded> {
    Ok(imported_config(&text))
}

/// The files of a Hub repository, from its API's answer.
#[cfg_attr(tokbound_split, wasm_split_helpers::wasm_split(tools, fallible))]
pub fn hub_files(listing: String) -> Result<Result<Vec<String>, String>, Unloaded> {
    Ok(hub::listed_files(&listing))
}

/// One message of the bandwidth probe.
#[cfg_attr(tokbound_split, wasm_split_helpers::wasm_split(tools, fallible))]
pub fn probe_message(text: String) -> Result<Result<Message, String>, Unloaded> {
    Ok(measure::parse_message(&text))
}
