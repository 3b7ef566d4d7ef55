//! The ceiling over a grid of machines × weight formats × contexts, for tables and charts that
//! need many points at once. The per-format weight bytes and the per-context KV bytes are worked
//! out once; each grid point is then a handful of flops. It follows [`super::estimate`]'s
//! placement (layers split between VRAM, system RAM and disk on GPUs, with `gpu_frac` capped at
//! what VRAM holds; weights past unified memory read from disk; expert offload is not modelled
//! here), so each value equals that estimate's `ceiling_tok_s` (a test checks).

use super::{fixed_overhead, Inputs, Kind, MachineSpec, WeightSpec, DISK_BW_GBS, GB, GIB};

/// Ceilings in tok/s, machine-major: `out[(m * formats + f) * contexts + c]`.
pub fn ceilings(base: &Inputs, machines: &[MachineSpec], formats: &[WeightSpec], contexts: &[f64], out: &mut Vec<f64>) {
    let mut inp = base.clone();
    let weights: Vec<(f64, f64)> = formats
        .iter()
        .map(|w| {
            inp.weights = *w;
            let wb = inp.weight_bytes();
            (wb.read(inp.routing(), 1.0), wb.stored)
        })
        .collect();
    let kv: Vec<f64> = contexts.iter().map(|&c| base.kv_bytes(c)).collect();
    let streams = base.batch.unwrap_or(1).max(1) as f64;
    let over = fixed_overhead(base);
    let clamp = |v: f64| if v.is_finite() { v.clamp(0.0, 1.0) } else { 1.0 };
    out.resize(machines.len() * weights.len() * kv.len(), 0.0);
    let mut cells = out.chunks_exact_mut(kv.len().max(1));
    for m in machines {
        inp.machine = m.clone();
        let inv_fast = 1.0 / (inp.fast_bandwidth_gbs() * GB);
        let inv_ram = 1.0 / (base.placement.ram_bw_gbs * GB);
        let inv_disk = 1.0 / (DISK_BW_GBS * GB);
        let gpu = m.kind == Kind::Gpu;
        let cap = inp.capacity_bytes();
        let ram_cap = m.ram_gib * GIB;
        for &(read, stored) in &weights {
            let Some(row) = cells.next() else { return };
            for (cell, &k) in row.iter_mut().zip(&kv) {
                let kv_total = k * streams;
                let t = if gpu {
                    let room = match cap {
                        Some(c) if stored + kv_total > 0.0 => clamp((c - over) / (stored + kv_total)),
                        _ => 1.0,
                    };
                    let fast = base.placement.gpu_frac.map_or(room, |f| f.clamp(0.0, 1.0).min(room));
                    let ram = if stored > 0.0 {
                        clamp((ram_cap - (1.0 - fast) * kv_total).max(0.0) / stored).min(1.0 - fast)
                    } else {
                        1.0 - fast
                    };
                    let disk = (1.0 - fast - ram).max(0.0);
                    (read * fast + k * fast) * inv_fast + (read * ram + k * (1.0 - fast)) * inv_ram + read * disk * inv_disk
                } else {
                    let room = match cap {
                        Some(c) if stored > 0.0 => clamp((c - over - kv_total) / stored),
                        _ => 1.0,
                    };
                    let fast = base.placement.gpu_frac.map_or(room, |f| f.clamp(0.0, 1.0).min(room));
                    (read * fast + k) * inv_fast + read * (1.0 - fast) * inv_disk
                };
                *cell = if t > 0.0 { 1.0 / t } else { 0.0 };
            }
        }
    }
}
