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
    /// It costs speed (`ratio` below 1): an alternative shown apart from the levers (a cheaper
    /// machine, a higher-bit format), never advice to go faster.
    pub alternative: bool,
    /// The electricity cost of a million tokens after the change ([`super::energy`]), where the
    /// changed machine has a power figure.
    pub cost_per_mtok: Option<f64>,
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
/// not parse. A change of machine (`hw`, `with`) re-decides where the weights live for that
/// machine: everything in its own memory where it all fits there, else the placement asked for.
pub fn apply(s: &Scenario, change: &[(Key, String)]) -> Option<Scenario> {
    let next = apply_keys(s, change)?;
    let new_machine = change.iter().any(|(k, _)| matches!(k, Key::Hw | Key::With));
    let placed = PLACEMENT_KEYS.iter().any(|k| next.has(*k)) && !change.iter().any(|(k, _)| PLACEMENT_KEYS.contains(k));
    if new_machine && placed {
        let mut whole = next.clone();
        for k in PLACEMENT_KEYS {
            whole.clear(k);
        }
        let cat = crate::catalog::catalog();
        if whole.resolve(cat).is_ok_and(|i| all_in_own_memory(&estimate(&i))) {
            return Some(whole);
        }
    }
    Some(next)
}

/// The keys that say where weights live when they do not all fit the machine's own memory.
const PLACEMENT_KEYS: [Key; 3] = [Key::Offload, Key::CpuMoe, Key::GpuFrac];

/// Every byte in the machine's own memory (VRAM, unified memory, or a CPU's RAM: the estimate's
/// first pools), and it fits.
fn all_in_own_memory(e: &Estimate) -> bool {
    let own = e.pools.first().map(|p| p.pool);
    e.fits == Some(true) && e.pools.iter().all(|p| Some(p.pool) == own || p.weight_bytes + p.kv_bytes <= 0.0)
}

/// `change` applied key by key.
fn apply_keys(s: &Scenario, change: &[(Key, String)]) -> Option<Scenario> {
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
    out.extend(ctx.placement(&inputs));
    out.extend(ctx.ram(&inputs));
    out.extend(ctx.second_card(&inputs));
    out.extend(ctx.cheapest_machine());
    out.extend(ctx.draft());
    out.extend(ctx.serving());
    // A change that gains nothing is no lever; one that costs speed is an alternative.
    out.retain(|l| l.alternative || l.ratio >= MIN_GAIN);
    // These two say so when they gain little: that is the point they make.
    out.extend(ctx.context(inputs.context));
    out.extend(ctx.faster_gpu(&inputs));
    if s.text(Key::Rank) == Some("cost") {
        // Cheapest million tokens first; levers without a power figure after, by gain.
        out.sort_by(|a, b| match (a.cost_per_mtok, b.cost_per_mtok) {
            (Some(x), Some(y)) => x.total_cmp(&y),
            (x, y) => x.is_none().cmp(&y.is_none()).then(b.ratio.total_cmp(&a.ratio)),
        });
    } else {
        out.sort_by(|a, b| b.ratio.total_cmp(&a.ratio));
    }
    out
}

/// The levers that go with the headline: at most two that make this stream faster than today
/// (never an alternative, nor serving a batch, whose figure is the streams' sum), those that fit
/// first, so a scenario that does not fit shows what would run; otherwise in `levers`'s order.
pub fn headline_levers(levers: &[Lever]) -> Vec<Lever> {
    let mut out = Vec::new();
    for fitting in [true, false] {
        for l in levers {
            let faster = !l.alternative && l.ratio >= MIN_GAIN && l.figure != Figure::Aggregate;
            if faster && (l.fits != Some(false)) == fitting && out.len() < 2 {
                out.push(l.clone());
            }
        }
    }
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
    fn lever(&self, mut change: Vec<(Key, String)>, label: String, figure: Figure, cost: String, note: String) -> Option<Lever> {
        let next = apply(self.s, &change)?;
        // The placement keys a new machine made needless are part of the change, so the change's
        // text opens the same scenario.
        for k in PLACEMENT_KEYS {
            if self.s.has(k) && !next.has(k) && !change.iter().any(|(c, _)| *c == k) {
                change.push((k, String::new()));
            }
        }
        let inputs = next.resolve(self.cat).ok()?;
        let e = estimate(&inputs);
        let value = figure.of(&e)?;
        let cost_per_mtok = super::energy::energy(&next, self.cat, &inputs, &e).cost_per_mtok;
        let ratio = value / self.base.expected_tok_s;
        Some(Lever {
            change,
            label,
            expected_tok_s: value,
            figure,
            ratio,
            fits: e.fits,
            cost,
            note,
            alternative: ratio < 1.0 - 1e-9,
            cost_per_mtok,
        })
    }

    /// Whether the scenario with `change` fits (`None` where it does not resolve; `Some(None)`
    /// where fit is unknown).
    fn fits_after(&self, change: &[(Key, String)]) -> Option<Option<bool>> {
        let next = apply(self.s, change)?;
        Some(estimate(&next.resolve(self.cat).ok()?).fits)
    }

    /// Whether the scenario with `change` fits with [`VRAM_HEADROOM`] of every device's memory
    /// left free: a lever that fills VRAM leaves the runtime the room it keeps for itself.
    fn fits_with_headroom(&self, change: &[(Key, String)]) -> bool {
        let Some(Ok(i)) = apply(self.s, change).map(|n| n.resolve(self.cat)) else {
            return false;
        };
        let e = estimate(&i);
        e.fits == Some(true)
            && e.pools
                .iter()
                .filter(|p| p.pool == Pool::Vram)
                .all(|p| p.capacity_bytes.is_none_or(|c| p.needed_bytes <= c * (1.0 - VRAM_HEADROOM)))
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
        let Ok(model) = self.cat.model(model.unwrap_or_default()) else {
            return Vec::new();
        };
        // Only formats the model comes in and the engine named (if any) loads.
        let engine = self.s.text(Key::Engine);
        let mut ladder: Vec<&crate::catalog::Quant> = self
            .cat
            .quants
            .iter()
            .filter(|q| q.weights && q.format == cur.format)
            .filter(|q| super::runnable::format_exists(self.cat, model, &q.id))
            .filter(|q| engine.is_none_or(|e| q.runs_on_engine(e)))
            .collect();
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
        let fits = |n: u32| self.fits_with_headroom(&[(Key::CpuMoe, n.to_string())]);
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

    /// Where weights are read from disk: the memory that holds them (`ram=` beside a GPU, `mem=`
    /// on a CPU machine), at the next size memory is sold in.
    fn more_memory(&self, inputs: &crate::estimator::Inputs) -> Option<Lever> {
        let disk = time_share(self.base, Pool::Disk);
        (disk > 0.0).then_some(())?;
        let needed = self.base.notes.iter().find_map(|n| match n {
            crate::estimator::Note::ReadFromDisk { ram_needed_bytes, .. } => Some(*ram_needed_bytes),
            _ => None,
        })?;
        let gib = MEMORY_SIZES_GIB
            .iter()
            .copied()
            .find(|g| *g * crate::estimator::GIB >= needed)
            .unwrap_or((needed / crate::estimator::GIB).ceil());
        let (key, what) = match inputs.machine.kind {
            Kind::Gpu => (Key::Ram, "system RAM"),
            Kind::Cpu => (Key::Mem, "memory"),
            _ => return None,
        };
        self.lever(
            vec![(key, super::views::trim(gib))],
            format!("more {what}: {} GiB, so no weight is read from disk", super::views::trim(gib)),
            Figure::Expected,
            format!("{} GiB of {what}", super::views::trim(gib)),
            format!("{:.0}% of this token's time is reading the disk", disk * 100.0),
        )
    }

    /// More memory channels (or the next catalog platform), and a faster speed grade, where bytes
    /// are read from system RAM or the machine is a CPU; more memory where weights are read from
    /// disk.
    fn ram(&self, inputs: &crate::estimator::Inputs) -> Vec<Lever> {
        let ram_share = time_share(self.base, Pool::SystemRam);
        let mut out = Vec::new();
        out.extend(self.more_memory(inputs));
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
                    .filter(|o| o.kind == Kind::Cpu && o.sockets == m.sockets && o.id != m.id && o.memory_type == m.memory_type);
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
                    out.extend(self.faster_grade(inputs, o, ram_share));
                }
            }
            // Where system RAM is a small share of the time (the disk binds), its speed is no lever.
            Kind::Gpu if ram_share >= MIN_SHARE => {
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

    /// The same channels of faster modules (`o`, a CPU machine): the CPU stays the one this
    /// scenario runs, where the other machine's own would differ.
    fn faster_grade(&self, inputs: &crate::estimator::Inputs, o: &crate::catalog::Machine, ram_share: f64) -> Option<Lever> {
        let mut change = vec![(Key::Hw, o.id.clone())];
        let mut what = "faster memory modules (and a platform rated for them)";
        if let (Some(h), false) = (&inputs.host, self.s.has(Key::Cpu)) {
            if o.cpu.as_deref() != Some(h.id.as_str()) {
                change.push((Key::Cpu, h.id.clone()));
                what = "faster memory modules on the same CPU";
            }
        }
        self.lever(
            change,
            format!("a faster speed grade: {}", o.name),
            Figure::Expected,
            what.into(),
            format!("{:.0}% of this token's time is reading memory", ram_share * 100.0),
        )
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
        let (ram, disk) = (time_share(self.base, Pool::SystemRam), time_share(self.base, Pool::Disk));
        if l.ratio < 1.05 && ram + disk > 0.0 {
            let (share, pool) = if disk > ram { (disk, "the disk") } else { (ram, "system RAM") };
            l.label = format!(
                "a faster GPU: no gain, {:.0}% of this token's time is reading {pool}",
                share * 100.0
            );
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
            .and_then(|m| m.price())
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
        for m in self.cat.machines.iter().filter(|m| m.price().is_some()) {
            let Some(next) = apply(self.s, &[(Key::Hw, m.id.clone())]) else {
                continue;
            };
            let Ok(i) = next.resolve(self.cat) else { continue };
            let e = estimate(&i);
            let whole = e.fits == Some(true) && e.pools.iter().skip(1).all(|p| p.weight_bytes <= 0.0 || p.pool == Pool::Vram);
            let price = m.price().unwrap_or(f64::MAX);
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

/// The share of a token's memory time spent reading `pool`.
fn time_share(e: &Estimate, pool: Pool) -> f64 {
    let total: f64 = e.pools.iter().map(|p| p.seconds).sum();
    let part: f64 = e.pools.iter().filter(|p| p.pool == pool).map(|p| p.seconds).sum();
    if total > 0.0 {
        part / total
    } else {
        0.0
    }
}

/// The share of a card's memory a lever that moves weights into VRAM leaves free: the fit counts
/// a fixed 0.5 GiB for the runtime, but its compute buffers grow with the batch and the context,
/// so a lever never fills the card to its last byte.
const VRAM_HEADROOM: f64 = 0.05;

/// The least gain that makes a change a lever (1%).
const MIN_GAIN: f64 = 1.01;

/// Below this share of a token's time, a pool's speed is not offered as a lever.
const MIN_SHARE: f64 = 0.1;

/// Sizes system memory is commonly fitted in (GiB), for the "more memory" lever.
const MEMORY_SIZES_GIB: [f64; 14] = [
    16.0, 24.0, 32.0, 48.0, 64.0, 96.0, 128.0, 192.0, 256.0, 384.0, 512.0, 768.0, 1024.0, 1536.0,
];
