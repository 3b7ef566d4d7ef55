//! The ceiling over a grid of machines × weight formats × contexts, for tables and charts that
//! need many points at once. The per-format weight bytes and the per-context KV bytes are worked
//! out once; each grid point is then a handful of flops. It follows [`super::estimate`]'s
//! placement rules (auto spill to system RAM on GPUs, to disk on unified memory; expert offload is
//! not modelled here), so each value
//! equals that estimate's `ceiling_tok_s` (a test checks).

use super::{Inputs, Kind, MachineSpec, WeightSpec, DISK_BW_GBS, GB, GIB, RUNTIME_OVERHEAD_BYTES};

/// Ceilings in tok/s, machine-major: `out[(m * formats + f) * contexts + c]`.
pub fn ceilings(base: &Inputs, machines: &[MachineSpec], formats: &[WeightSpec], contexts: &[f64], out: &mut Vec<f64>) {
    let mut inp = base.clone();
    let weights: Vec<(f64, f64)> = formats
        .iter()
        .map(|w| {
            inp.weights = *w;
            let wb = inp.weight_bytes();
            (
                wb.read(
                    match &inp.model {
                        super::ModelSpec::Arch { arch, .. } => Some(arch),
                        super::ModelSpec::Custom { .. } => None,
                    },
                    1.0,
                ),
                wb.stored,
            )
        })
        .collect();
    let kv: Vec<f64> = contexts.iter().map(|&c| base.kv_bytes(c)).collect();
    let devices = base.tp.max(1) as f64 * base.split.max(1) as f64;
    out.resize(machines.len() * weights.len() * kv.len(), 0.0);
    let mut cells = out.chunks_exact_mut(kv.len().max(1));
    for m in machines {
        inp.machine = m.clone();
        let inv_fast = 1.0 / (inp.fast_bandwidth_gbs() * GB);
        let gpu = m.kind == Kind::Gpu;
        let inv_slow = 1.0 / (if gpu { base.placement.ram_bw_gbs } else { DISK_BW_GBS } * GB);
        // Free room for weights once the runtime overhead is out; `None` means "all fits".
        let room = match (base.placement.gpu_frac, m.memory_gib) {
            (Some(_), _) if gpu => None,
            (_, Some(g)) => Some(g * GIB * m.usable_fraction * devices - RUNTIME_OVERHEAD_BYTES),
            _ => None,
        };
        let fixed_share = if gpu {
            base.placement.gpu_frac.map(|f| f.clamp(0.0, 1.0))
        } else {
            None
        };
        for &(read, stored) in &weights {
            let Some(row) = cells.next() else { return };
            let inv_stored = if stored > 0.0 { 1.0 / stored } else { 0.0 };
            for (cell, &k) in row.iter_mut().zip(&kv) {
                let share = match (fixed_share, room) {
                    (Some(f), _) => f,
                    (None, Some(r)) if stored > 0.0 => ((r - k) * inv_stored).clamp(0.0, 1.0),
                    _ => 1.0,
                };
                let t = (read + k) * (inv_slow + share * (inv_fast - inv_slow));
                *cell = if t > 0.0 { 1.0 / t } else { 0.0 };
            }
        }
    }
}
