//! What a token costs in energy and money: the machine's power over its expected speed.
//!
//! Joules per token = watts ÷ tokens per second; the cost of a million tokens = joules per token
//! × 10⁶ ÷ 3.6 × 10⁶ J/kWh × the price of a kWh (`kwh_price`, in the user's own currency). The
//! power is the rated one (TDP) unless the user gives what they measured (`power`): the GPU's
//! board power and a second GPU's (`with`); the host CPU's package power added where weights are
//! read from system RAM or disk (the CPU then does that share's arithmetic); a CPU machine's CPU
//! package power × sockets; a SoC's package power. A rated power is what the part may draw at
//! most, so the figures it gives are a ceiling on the energy, said "at TDP"; memory, drives and
//! the power supply's losses are left out. Sources: data/machines.csv `power_source`,
//! data/cpus.csv `tdp_source`.

use super::naming::Naming;
use crate::catalog::{Catalog, Kind, Machine};
use crate::estimator::{Estimate, HostCpu, Inputs, Pool};
use crate::scenario::{Key, Scenario};

/// The price of a kWh where the link gives none (the key's documented default).
pub const DEFAULT_KWH_PRICE: f64 = 0.30;

/// Where the power figure comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PowerSource {
    /// The parts' rated power (board power, package power): a ceiling on what decode draws.
    Tdp,
    /// What the user measured (`power=`).
    Measured,
}

impl PowerSource {
    /// The CLI's `power_source` value.
    pub fn id(self) -> &'static str {
        match self {
            PowerSource::Tdp => "tdp",
            PowerSource::Measured => "measured",
        }
    }
}

/// The energy figures of one estimate, or why there are none.
#[derive(Clone, Debug, PartialEq)]
pub struct Energy {
    /// Watts and where they come from; `None` where no part of the machine has a stated power.
    pub power: Option<(f64, PowerSource)>,
    /// What the power is made of ("NVIDIA GeForce RTX 4090 (24 GiB) 450 W"), or why it is missing.
    pub parts: Vec<String>,
    pub joules_per_token: Option<f64>,
    pub cost_per_mtok: Option<f64>,
    pub kwh_price: f64,
}

impl Energy {
    /// Tokens per joule (the machine table's column).
    pub fn tokens_per_joule(&self) -> Option<f64> {
        self.joules_per_token.filter(|&j| j > 0.0).map(|j| 1.0 / j)
    }

    /// The headline's sentence: "0.87 J a token at TDP (450 W: …); a million tokens cost 0.07 at
    /// 0.30 a kWh." or why there is no figure.
    pub fn text(&self, naming: Naming) -> String {
        match (self.power, self.joules_per_token, self.cost_per_mtok) {
            (Some((w, source)), Some(j), Some(cost)) => {
                let how = match source {
                    PowerSource::Tdp => format!("at TDP ({} W: {})", fmt_sig(w), self.parts.join(" + ")),
                    PowerSource::Measured => format!("at the {} W you gave ({})", fmt_sig(w), naming.key(Key::Power)),
                };
                format!(
                    "Energy: {} J a token {how}; a million tokens cost {} at {} a kWh.",
                    fmt_sig(j),
                    fmt_money(cost),
                    self.kwh_price
                )
            }
            _ => format!(
                "Energy: no figure: {}; {} (watts you measured) for one.",
                self.parts.join("; "),
                naming.give(&[Key::Power])
            ),
        }
    }
}

/// Three significant figures, plainly written (0.0712, 1.23, 450).
pub fn fmt_sig(v: f64) -> String {
    if v == 0.0 || !v.is_finite() {
        return format!("{v}");
    }
    let digits = (2 - v.abs().log10().floor() as i32).max(0) as usize;
    format!("{v:.digits$}")
}

/// Money to the cent where it is a cent or more, else to three significant figures.
fn fmt_money(v: f64) -> String {
    if v >= 0.01 {
        format!("{v:.2}")
    } else {
        fmt_sig(v)
    }
}

/// The tokens a second the energy is spread over: every stream's where a batch runs, the
/// speculative figure where a draft model runs, else the expected figure.
pub fn tokens_per_second(e: &Estimate) -> f64 {
    if let Some(agg) = e.batch.as_ref().and_then(|b| b.aggregate_tok_s) {
        return agg;
    }
    e.speculative.as_ref().map_or(e.expected_tok_s, |s| s.tok_s)
}

/// The energy of scenario `s` as estimated (`inputs`, `e`).
pub fn energy(s: &Scenario, cat: &Catalog, inputs: &Inputs, e: &Estimate) -> Energy {
    let kwh_price = s.number(Key::KwhPrice).unwrap_or(DEFAULT_KWH_PRICE);
    let (power, parts) = match s.number(Key::Power) {
        Some(w) => (Some((w, PowerSource::Measured)), vec![format!("{} W measured", fmt_sig(w))]),
        None => match rated(s, cat, inputs, e) {
            Ok((w, parts)) => (Some((w, PowerSource::Tdp)), parts),
            Err(why) => (None, vec![why]),
        },
    };
    let tok_s = tokens_per_second(e);
    let joules_per_token = power.map(|(w, _)| w / tok_s).filter(|j| j.is_finite());
    Energy {
        power,
        parts,
        joules_per_token,
        cost_per_mtok: joules_per_token.map(|j| j * 1e6 / 3.6e6 * kwh_price),
        kwh_price,
    }
}

/// The rated power of what runs the scenario, with its parts; the error says what has none.
fn rated(s: &Scenario, cat: &Catalog, inputs: &Inputs, e: &Estimate) -> Result<(f64, Vec<String>), String> {
    let machine = (!s.is_custom_machine())
        .then(|| cat.machine(s.text(Key::Hw).unwrap_or(crate::scenario::DEFAULT_HW)).ok())
        .flatten();
    let host = inputs.host.as_ref();
    let mut parts = match (machine, inputs.machine.kind) {
        // The CPU the scenario resolved (`cpu`, `sockets`), not only the machine's own.
        (_, Kind::Cpu) => vec![host_power(cat, host)?],
        (Some(m), _) => machine_power(cat, m, host, e)?,
        (None, _) => return Err("a custom machine has no rated power".into()),
    };
    for id in s.with_ids() {
        let d = cat.machine(id)?;
        parts.push((d.name.clone(), d.power().ok_or_else(|| no_power(d))?));
    }
    Ok(total(parts))
}

/// The rated power of catalog machine `m` running estimate `e`, the host CPU's added where `e`
/// reads system RAM or disk beside a GPU: (name, watts) per part. A CPU machine's is its own
/// CPU's package power × its sockets.
pub fn machine_power(cat: &Catalog, m: &Machine, host: Option<&HostCpu>, e: &Estimate) -> Result<Vec<(String, f64)>, String> {
    match m.kind {
        Kind::Cpu => {
            let cpu = m.cpu.as_deref().ok_or_else(|| format!("no CPU named for the {}", m.name))?;
            Ok(vec![cpu_power(cat, cpu, m.sockets)?])
        }
        _ => {
            let mut parts = vec![(m.name.clone(), m.power().ok_or_else(|| no_power(m))?)];
            let reads_ram = e
                .pools
                .iter()
                .any(|p| matches!(p.pool, Pool::SystemRam | Pool::Disk) && p.weight_bytes + p.kv_bytes > 0.0);
            if m.kind == Kind::Gpu && reads_ram {
                parts.push(host_power(cat, host)?);
            }
            Ok(parts)
        }
    }
}

/// Watts in all, and the parts as the headline names them.
pub fn total(parts: Vec<(String, f64)>) -> (f64, Vec<String>) {
    let w = parts.iter().map(|p| p.1).sum();
    (w, parts.into_iter().map(|(name, w)| format!("{name} {} W", fmt_sig(w))).collect())
}

fn no_power(m: &Machine) -> String {
    match m.kind {
        Kind::Apple => format!("Apple publishes no package power for the {}", m.name),
        _ => format!("no rated power for the {}", m.name),
    }
}

fn host_power(cat: &Catalog, host: Option<&HostCpu>) -> Result<(String, f64), String> {
    let h = host.ok_or("the CPU that reads system RAM is not known")?;
    if h.id == crate::catalog::cpus::DESCRIBED {
        return Err(format!("{} has no stated package power", h.name));
    }
    cpu_power(cat, &h.id, h.sockets)
}

/// Catalog CPU `id`'s package power over `sockets`.
fn cpu_power(cat: &Catalog, id: &str, sockets: u32) -> Result<(String, f64), String> {
    let cpu = cat.cpu(id)?;
    let w = cpu.tdp_w.ok_or_else(|| format!("{} has no stated package power", cpu.name))?;
    let sockets = sockets.max(1);
    let name = if sockets > 1 {
        format!("{} × {sockets}", cpu.name)
    } else {
        cpu.name.clone()
    };
    Ok((name, w * f64::from(sockets)))
}
