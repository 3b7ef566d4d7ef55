//! What would make it faster: for a scenario, the figure its headline would show under each single
//! change a person can make (a format, the KV cache, the context, where the weights live, the RAM's
//! channels and speed, a second card, another machine, a draft model, serving a batch), ranked by
//! gain. A change that does not help says so: with the bytes in system RAM, a faster GPU gains
//! nothing, which is the essay's point.

use crate::catalog::Catalog;
use crate::estimator::{estimate, Estimate, Kind, Pool};
use crate::scenario::{Key, Scenario};
use crate::text::units::{fmt_bytes, fmt_gib};

/// Which of the headline's figures a lever's `expected_tok_s` is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Figure {
    /// The estimate's expected figure.
    Expected,
    /// Speculative decoding's expected speed.
    Speculative,
    /// A batch's aggregate speed over its streams.
    Aggregate,
}

impl Figure {
    pub fn id(self) -> &'static str {
        match self {
            Figure::Expected => "expected",
            Figure::Speculative => "speculative",
            Figure::Aggregate => "aggregate",
        }
    }

    /// This figure of an estimate (`None` where the estimate has none).
    pub fn of(self, e: &Estimate) -> Option<f64> {
        match self {
            Figure::Expected => Some(e.expected_tok_s),
            Figure::Speculative => e.speculative.as_ref().map(|s| s.tok_s),
            Figure::Aggregate => e.batch.as_ref().and_then(|b| b.aggregate_tok_s),
        }
    }
}

/// One change and what it gives.
#[derive(Clone, Debug, PartialEq)]
pub struct Lever {
    /// The keys it sets, each `key=value` (an empty value unsets the key), joined by `&`.
    pub change: Vec<(Key, String)>,
    pub label: String,
    pub expected_tok_s: f64,
    pub figure: Figure,
    /// `expected_tok_s` over today's expected figure.
    pub ratio: f64,
    pub fits: Option<bool>,
    /// What it costs: memory, bits per weight and a quality caution, or a launch price.
    pub cost: String,
    pub note: String,
}

impl Lever {
    /// The change as query keys: `quant=q3_k_m&kv=q8_0`.
    pub fn change_text(&self) -> String {
        self.change
            .iter()
            .map(|(k, v)| format!("{}={}", k.name(), v))
            .collect::<Vec<_>>()
            .join("&")
    }
}

/// The scenario with `change` applied (an empty value unsets its key); `None` where a value does
/// not parse.
pub fn apply(s: &Scenario, change: &[(Key, String)]) -> Option<Scenario> {
    let mut next = if let Some((_, id)) = change.iter().find(|(k, _)| *k == Key::Hw) {
        super::views::with_machine(s, id)
    } else {
        s.clone()
    };
    for (k, v) in change {
        if v.is_empty() {
            next.clear(*k);
        } else if *k != Key::Hw {
            next.set(*k, v).ok()?;
        }
    }
    Some(next)
}

/// Every lever for the scenario, ranked by gain (none where it does not resolve).
pub fn levers(s: &Scenario, cat: &Catalog) -> Vec<Lever> {
    let Ok(inputs) = s.resolve(cat) else {
        return Vec::new();
    };
    let base = estimate(&inputs);
    if base.expected_tok_s <= 0.0 {
        return Vec::new();
    }
    let ctx = Ctx { s, cat, base: &base };
    let mut out: Vec<Lever> = Vec::new();
    out.extend(ctx.formats());
    out.extend(ctx.kv_cache());
    out.extend(ctx.context(inputs.context));
    out.extend(ctx.placement(&inputs));
    out.extend(ctx.ram(&inputs));
    out.extend(ctx.faster_gpu(&inputs));
    out.extend(ctx.second_card(&inputs));
    out.extend(ctx.cheapest_machine());
    out.extend(ctx.draft());
    out.extend(ctx.serving());
    out.sort_by(|a, b| b.ratio.total_cmp(&a.ratio));
    out
}

/// The scenario, its catalog and today's estimate, for building levers.
struct Ctx<'a> {
    s: &'a Scenario,
    cat: &'a Catalog,
    base: &'a Estimate,
}

impl Ctx<'_> {
    /// The lever for `change`: its scenario's figure; `None` where it does not resolve or has no
    /// such figure.
    fn lever(&self, change: Vec<(Key, String)>, label: String, figure: Figure, cost: String, note: String) -> Option<Lever> {
        let next = apply(self.s, &change)?;
        let e = estimate(&next.resolve(self.cat).ok()?);
        let value = figure.of(&e)?;
        Some(Lever {
            change,
            label,
            expected_tok_s: value,
            figure,
            ratio: value / self.base.expected_tok_s,
            fits: e.fits,
            cost,
            note,
        })
    }

    /// Whether the scenario with `change` fits (`None` where it does not resolve; `Some(None)`
    /// where fit is unknown).
    fn fits_after(&self, change: &[(Key, String)]) -> Option<Option<bool>> {
        let next = apply(self.s, change)?;
        Some(estimate(&next.resolve(self.cat).ok()?).fits)
    }

    /// The next lower and the next higher catalog format that fit.
    fn formats(&self) -> Vec<Lever> {
        let (model, quant) = super::views::model_and_quant(self.s);
        let (Some(_), Some(current)) = (model, quant) else {
            return Vec::new();
        };
        let Ok(cur) = self.cat.quant(current) else {
            return Vec::new();
        };
        let mut ladder: Vec<&crate::catalog::Quant> = self.cat.quants.iter().filter(|q| q.weights && q.format == cur.format).collect();
        ladder.sort_by(|a, b| a.bpw.total_cmp(&b.bpw));
        let fits = |q: &crate::catalog::Quant| self.fits_after(&[(Key::Quant, q.id.clone())]).is_some_and(|f| f != Some(false));
        let lower = ladder.iter().rev().filter(|q| q.bpw < cur.bpw).find(|q| fits(q));
        let higher = ladder.iter().filter(|q| q.bpw > cur.bpw).find(|q| fits(q));
        let mut out = Vec::new();
        if let Some(q) = lower {
            out.extend(self.lever(
                vec![(Key::Quant, q.id.clone())],
                format!("a lower-bit format: {}", q.name),
                Figure::Expected,
                format!("{:.2} bits per weight (now {:.2})", q.bpw, cur.bpw),
                "fewer bits read per token; fewer bits also lose some quality, more so below 4".into(),
            ));
        }
        if let Some(q) = higher {
            out.extend(self.lever(
                vec![(Key::Quant, q.id.clone())],
                format!("a higher-bit format: {}", q.name),
                Figure::Expected,
                format!("{:.2} bits per weight (now {:.2})", q.bpw, cur.bpw),
                "closer to the original weights, and slower: more bytes per token".into(),
            ));
        }
        out
    }

    /// The KV cache at 8 bits.
    fn kv_cache(&self) -> Option<Lever> {
        let kv = self.s.text(Key::Kv).unwrap_or(crate::scenario::DEFAULT_KV);
        (kv == "f16").then_some(())?;
        self.lever(
            vec![(Key::Kv, "q8_0".into())],
            "a quantized KV cache (q8_0)".into(),
            Figure::Expected,
            format!("{} less KV cache read per token", fmt_bytes(self.base.bytes_per_token.kv * 0.47)),
            "llama.cpp's -ctk q8_0 -ctv q8_0: close to lossless".into(),
        )
    }

    /// Half the context where that gains a quarter or more; otherwise what context costs here.
    fn context(&self, context: f64) -> Option<Lever> {
        let half = (context / 2.0).floor();
        if half < 1024.0 {
            return None;
        }
        let share = self.base.bytes_per_token.kv / self.base.bytes_per_token.total.max(1.0);
        let mut l = self.lever(
            vec![(Key::Ctx, format!("{half}"))],
            format!("half the context ({half} tokens)"),
            Figure::Expected,
            "shorter conversations and documents".into(),
            format!("the KV cache is {:.0}% of each token's bytes at {context} tokens", share * 100.0),
        )?;
        if l.ratio < 1.25 {
            l.label = format!("a shorter context: little gain (half is {:+.0}%)", (l.ratio - 1.0) * 100.0);
        }
        Some(l)
    }

    /// Where spilled weights live: routed experts in RAM instead of whole layers, and as many
    /// layers on the GPU as fit.
    fn placement(&self, inputs: &crate::estimator::Inputs) -> Vec<Lever> {
        let mut out = Vec::new();
        let spills = self
            .base
            .spill
            .as_ref()
            .is_some_and(|sp| sp.into == Pool::SystemRam || sp.into == Pool::Disk);
        if inputs.machine.kind != Kind::Gpu {
            return out;
        }
        if spills && inputs.routing().is_some() && !self.s.offload_experts() {
            out.extend(self.lever(
                vec![(Key::Offload, "experts".into())],
                "routed experts in system RAM instead of whole layers".into(),
                Figure::Expected,
                "the same RAM".into(),
                "only the few experts a token uses are read from RAM (llama.cpp -ot exps=CPU)".into(),
            ));
        }
        out.extend(self.experts_in_vram(inputs));
        if self.s.has(Key::GpuFrac) {
            out.extend(self.lever(
                vec![(Key::GpuFrac, String::new())],
                "as many layers on the GPU as fit".into(),
                Figure::Expected,
                "none".into(),
                "layers in VRAM are read at VRAM's speed".into(),
            ));
        }
        out
    }

    /// With experts in RAM and room left in VRAM: the later layers' experts in VRAM, as many as
    /// fit (the fewest first layers, `cpu_moe=N`, whose experts must stay in RAM).
    fn experts_in_vram(&self, inputs: &crate::estimator::Inputs) -> Option<Lever> {
        let layers = inputs.model.layers()?;
        let now = self.s.whole(Key::CpuMoe).unwrap_or(layers);
        if !self.s.offload_experts() || self.base.fits != Some(true) || now == 0 {
            return None;
        }
        let fits = |n: u32| self.fits_after(&[(Key::CpuMoe, n.to_string())]) == Some(Some(true));
        // Fewer layers in RAM only ever need more VRAM: bisect for the fewest that fit.
        let (mut lo, mut hi) = (0, now);
        while lo < hi {
            let mid = (lo + hi) / 2;
            if fits(mid) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        (hi < now).then_some(())?;
        if hi == 0 {
            return self.lever(
                vec![(Key::Offload, String::new()), (Key::CpuMoe, String::new())],
                "every expert in VRAM: the whole model fits".into(),
                Figure::Expected,
                "the same GPU".into(),
                "nothing is read from system RAM".into(),
            );
        }
        self.lever(
            vec![(Key::CpuMoe, hi.to_string())],
            format!("the experts of layers {}–{layers} in VRAM, as many as fit", hi + 1),
            Figure::Expected,
            "the same GPU".into(),
            format!("only the first {hi} layers' experts are read from RAM (llama.cpp --n-cpu-moe {hi})"),
        )
    }

    /// More memory channels (or the next catalog platform), and a faster speed grade, where bytes
    /// are read from system RAM or the machine is a CPU.
    fn ram(&self, inputs: &crate::estimator::Inputs) -> Vec<Lever> {
        let ram_share = ram_time_share(self.base);
        let mut out = Vec::new();
        match inputs.machine.kind {
            Kind::Cpu => {
                let Some(m) = super::views::machine_id(self.s).and_then(|id| self.cat.machine(id).ok()) else {
                    // A custom CPU machine: its bandwidth, doubled as twice the channels would.
                    out.extend(self.lever(
                        vec![(Key::Bw, super::views::trim(inputs.machine.bandwidth_gbs * 2.0))],
                        "twice the memory channels".into(),
                        Figure::Expected,
                        "a platform with twice the memory channels".into(),
                        format!("{:.0}% of this token's time is reading memory", ram_share * 100.0),
                    ));
                    return out;
                };
                let (Some(bus), Some(rate)) = (m.bus_bits, m.data_rate_mts) else {
                    return out;
                };
                let cpus = self
                    .cat
                    .machines
                    .iter()
                    .filter(|o| o.kind == Kind::Cpu && o.sockets == m.sockets && o.id != m.id);
                let wider = cpus.clone().filter(|o| o.bus_bits.is_some_and(|b| b > bus)).min_by(|a, b| {
                    let key = |o: &crate::catalog::Machine| (o.bus_bits.unwrap_or(0.0), (o.data_rate_mts.unwrap_or(0.0) - rate).abs());
                    key(a).partial_cmp(&key(b)).unwrap_or(std::cmp::Ordering::Equal)
                });
                if let Some(o) = wider {
                    let cpu = o
                        .cpu
                        .as_deref()
                        .and_then(|c| self.cat.cpu(c).ok())
                        .map_or(String::new(), |c| format!(" (CPU: {})", c.name));
                    out.extend(self.lever(
                        vec![(Key::Hw, o.id.clone())],
                        format!("more memory channels: {}", o.name),
                        Figure::Expected,
                        format!("a platform with {} channels{cpu}", o.bus_bits.unwrap_or(0.0) / 64.0),
                        format!("{:.0}% of this token's time is reading memory", ram_share * 100.0),
                    ));
                }
                let faster = cpus
                    .filter(|o| o.bus_bits == Some(bus) && o.data_rate_mts.is_some_and(|r| r > rate))
                    .min_by(|a, b| a.data_rate_mts.partial_cmp(&b.data_rate_mts).unwrap_or(std::cmp::Ordering::Equal));
                if let Some(o) = faster {
                    out.extend(self.lever(
                        vec![(Key::Hw, o.id.clone())],
                        format!("a faster speed grade: {}", o.name),
                        Figure::Expected,
                        "faster memory modules (and a platform rated for them)".into(),
                        format!("{:.0}% of this token's time is reading memory", ram_share * 100.0),
                    ));
                }
            }
            Kind::Gpu if ram_share > 0.0 => {
                let bw = inputs.placement.ram_bw_gbs;
                out.extend(self.lever(
                    vec![(Key::RamBw, super::views::trim(bw * 2.0))],
                    "twice the RAM channels (the same RAM)".into(),
                    Figure::Expected,
                    "a platform with twice the memory channels".into(),
                    format!("{:.0}% of this token's time is reading system RAM", ram_share * 100.0),
                ));
                out.extend(self.lever(
                    vec![(Key::RamBw, super::views::trim(bw * 6400.0 / 5600.0))],
                    "a faster RAM speed grade (+14%, as DDR5-5600 → 6400)".into(),
                    Figure::Expected,
                    "faster memory modules".into(),
                    format!("{:.0}% of this token's time is reading system RAM", ram_share * 100.0),
                ));
            }
            _ => {}
        }
        out
    }

    /// A GPU with twice the bandwidth: no gain where the time goes to system RAM.
    fn faster_gpu(&self, inputs: &crate::estimator::Inputs) -> Option<Lever> {
        (inputs.machine.kind != Kind::Cpu).then_some(())?;
        let mut l = self.lever(
            vec![(Key::Bw, super::views::trim(inputs.machine.bandwidth_gbs * 2.0))],
            "a GPU with twice the memory bandwidth".into(),
            Figure::Expected,
            "a faster, dearer card".into(),
            "bandwidth, not compute, sets decode speed".into(),
        )?;
        let ram = ram_time_share(self.base);
        if l.ratio < 1.05 && ram > 0.0 {
            l.label = format!("a faster GPU: no gain, {:.0}% of this token's time is system RAM", ram * 100.0);
        }
        Some(l)
    }

    /// A second identical card beside this one (`with=`), layers split between them.
    fn second_card(&self, inputs: &crate::estimator::Inputs) -> Option<Lever> {
        let free = !self.s.has(Key::Split) && !self.s.has(Key::Tp) && !self.s.has(Key::With);
        (inputs.machine.kind == Kind::Gpu && free).then_some(())?;
        let id = super::views::machine_id(self.s)?;
        let price = self
            .cat
            .machine(id)
            .ok()
            .and_then(|m| m.price_usd)
            .map_or("a second card".to_string(), |p| format!("a second card, ${p:.0} at launch"));
        self.lever(
            vec![(Key::With, id.to_string())],
            format!(
                "a second {} beside it (layers split)",
                super::views::short_name(&inputs.machine.name)
            ),
            Figure::Expected,
            price,
            "twice the memory; each layer still read at one card's speed".into(),
        )
    }

    /// The cheapest catalog machine that holds everything in its own memory.
    fn cheapest_machine(&self) -> Option<Lever> {
        let mut best: Option<(f64, &crate::catalog::Machine)> = None;
        for m in self.cat.machines.iter().filter(|m| m.price_usd.is_some()) {
            let Some(next) = apply(self.s, &[(Key::Hw, m.id.clone())]) else {
                continue;
            };
            let Ok(i) = next.resolve(self.cat) else { continue };
            let e = estimate(&i);
            let whole = e.fits == Some(true) && e.pools.iter().skip(1).all(|p| p.weight_bytes <= 0.0 || p.pool == Pool::Vram);
            let price = m.price_usd.unwrap_or(f64::MAX);
            if whole && best.is_none_or(|(p, _)| price < p) {
                best = Some((price, m));
            }
        }
        let (price, m) = best?;
        (super::views::machine_id(self.s) != Some(m.id.as_str())).then_some(())?;
        self.lever(
            vec![(Key::Hw, m.id.clone())],
            format!("the cheapest machine that holds it all in fast memory: {}", m.name),
            Figure::Expected,
            format!("${price:.0} at launch"),
            "no byte read from system RAM or disk".into(),
        )
    }

    /// Speculative decoding with a same-family draft from the catalog, at the default acceptance.
    fn draft(&self) -> Option<Lever> {
        if self.s.has(Key::Draft) || self.s.has(Key::DraftWeights) {
            return None;
        }
        let model = self.cat.model(super::views::model_and_quant(self.s).0?).ok()?;
        let draft = self
            .cat
            .models
            .iter()
            .filter(|d| d.draft && d.family == model.family && d.id != model.id && d.params_b < model.params_b)
            .min_by(|a, b| a.params_b.total_cmp(&b.params_b))?;
        self.lever(
            vec![(Key::Draft, draft.id.clone())],
            format!("speculative decoding with {}", draft.name),
            Figure::Speculative,
            format!("{} more memory for the draft", fmt_gib(draft.arch.total_params() * 0.6)),
            "as fast as the draft guesses right: the default acceptance is assumed".into(),
        )
    }

    /// Serving several people: the aggregate at the largest batch that fits.
    fn serving(&self) -> Option<Lever> {
        let next = apply(self.s, &[(Key::Batch, "2".into())])?;
        let e = estimate(&next.resolve(self.cat).ok()?);
        let most = e.batch.and_then(|b| b.max_streams).filter(|m| *m > 1)?;
        self.lever(
            vec![(Key::Batch, most.to_string())],
            format!("serving {most} streams at once (in all, not each)"),
            Figure::Aggregate,
            "each stream is slower; the weights are read once for all".into(),
            format!("{most} streams' KV caches fit beside the weights at this context"),
        )
    }
}

/// The share of a token's memory time spent reading system RAM (and disk).
fn ram_time_share(e: &Estimate) -> f64 {
    let total: f64 = e.pools.iter().map(|p| p.seconds).sum();
    let ram: f64 = e
        .pools
        .iter()
        .filter(|p| matches!(p.pool, Pool::SystemRam | Pool::Disk))
        .map(|p| p.seconds)
        .sum();
    if total > 0.0 {
        ram / total
    } else {
        0.0
    }
}
