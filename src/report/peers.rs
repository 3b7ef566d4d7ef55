//! What the measured runs of one machine say about a run of it: each decode-only row of
//! data/measured.csv on the same machine and backend, scored against the shipped calibration
//! (its measured figure over the figure the fit expects for that row), with the build it ran.
//!
//! Diagnosing a run reads two causes from them that no change of scenario
//! models: an old build, where the same machine's runs on newer builds read faster against their
//! own expected figures, and a laptop or power-limited part, where the same part has itself been
//! measured as far below its expected figure as the run (its speed follows the power limit its
//! maker or its owner set, which no catalog figure knows).

use crate::calibration::median;
use crate::catalog::methods::build_digits;
use crate::catalog::{calibration, Catalog, Machine};

/// One measured run of the machine, scored.
#[derive(Clone, Debug, PartialEq)]
pub struct Peer {
    /// The llama.cpp build number, where the row gives one (`b7938`, `8cf427ff (5163)`).
    pub build: Option<u32>,
    /// Measured over what the shipped fit expects for the row.
    pub ratio: f64,
}

/// The decode-only measured runs of machine `hw` on `backend`, each scored.
pub fn peers(hw: &str, backend: &str, cat: &Catalog) -> Vec<Peer> {
    cat.decode_measurements()
        .filter(|m| m.hw == hw && m.backend == backend)
        .filter_map(|m| {
            let p = cat.point(m).ok()?;
            let expected = calibration().predict(&p);
            (expected > 0.0).then(|| Peer {
                build: build_number(&m.build),
                ratio: m.tg_tok_s / expected,
            })
        })
        .collect()
}

/// The build number a llama.cpp build string gives ([`build_digits`]): `b7938`, `b7938 (e0c93af2a)`,
/// `8cf427ff (5163)` or a bare `5163`; `None` for a commit alone, a branch or another runtime.
pub fn build_number(build: &str) -> Option<u32> {
    build_digits(build).parse().ok().filter(|n| *n > 0)
}

/// A part whose speed follows a power limit set per machine: a laptop GPU (one part under many
/// power limits, TGP), or a SoC, whose package power its maker sets per device and its owner
/// per power mode (configurable TDP, Jetson power modes).
pub fn power_limited(m: &Machine) -> bool {
    m.laptop || m.kind == crate::estimator::Kind::Soc
}

/// Where the run stands against its expected figure: its ratio (measured over expected) and the
/// band's low end as a ratio.
#[derive(Clone, Copy, Debug)]
pub struct Standing {
    pub ratio: f64,
    pub low_ratio: f64,
}

/// An old build: the run names build `build`, and the machine's runs on newer builds read within
/// the band (their median ratio at least its low end) and faster than its runs on this build or
/// older, where it has some. The evidence, in words; `None` where the runs do not say so.
pub fn old_build(peers: &[Peer], build: u32, at: Standing) -> Option<String> {
    let newer: Vec<&Peer> = peers.iter().filter(|p| p.build.is_some_and(|b| b > build)).collect();
    let older: Vec<f64> = peers
        .iter()
        .filter(|p| p.build.is_some_and(|b| b <= build))
        .map(|p| p.ratio)
        .collect();
    let older_runs = older.len();
    let newer_median = median(newer.iter().map(|p| p.ratio).collect());
    let older_median = median(older);
    if newer.len() < 2 || newer_median < at.low_ratio || (older_runs > 0 && older_median >= newer_median) {
        return None;
    }
    let builds = newer.iter().filter_map(|p| p.build);
    let (first, last) = (builds.clone().min()?, builds.max()?);
    let older_text = if older_runs == 0 {
        String::new()
    } else {
        format!(", its {older_runs} on this build or older at {:.0}%", older_median * 100.0)
    };
    Some(format!(
        "the run names build {build}; {} measured runs of this machine on builds {first}–{last} read at {:.0}% of tokbound's expected figure (median){older_text}, this run at {:.0}%: update llama.cpp",
        newer.len(),
        newer_median * 100.0,
        at.ratio * 100.0
    ))
}

/// A laptop or power-limited part: the machine is one ([`power_limited`]) and its own measured
/// runs include some below the band, as the run is. The evidence, in words; `None` where the
/// runs do not say so.
pub fn power_limit(machine: &Machine, peers: &[Peer], at: Standing) -> Option<String> {
    if !power_limited(machine) {
        return None;
    }
    let mut ratios: Vec<f64> = peers.iter().map(|p| p.ratio).collect();
    ratios.sort_by(f64::total_cmp);
    let below = ratios.iter().filter(|r| **r < at.low_ratio).count();
    if below == 0 {
        return None;
    }
    let what = if machine.kind == crate::estimator::Kind::Gpu {
        "a laptop GPU, whose maker sets its power limit (TGP) per laptop"
    } else {
        "a part whose package power is set per machine or power mode"
    };
    Some(format!(
        "{what}: {below} of the {} measured runs of this part read below tokbound's band ({:.0}–{:.0}% of the expected figure), this run at {:.0}%: run it plugged in, at its highest power mode",
        ratios.len(),
        ratios[0] * 100.0,
        ratios[ratios.len() - 1] * 100.0,
        at.ratio * 100.0
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn build_numbers_read_as_llama_cpp_prints_them() {
        assert_eq!(build_number("b7938 (e0c93af2a)"), Some(7938));
        assert_eq!(build_number("b10050"), Some(10050));
        assert_eq!(build_number("8cf427ff (5163)"), Some(5163));
        assert_eq!(build_number("5163"), Some(5163));
        assert_eq!(build_number("2f68ce7cf"), None);
        assert_eq!(build_number("mlx-lm 0.20.4 / mlx 0.21.1"), None);
        assert_eq!(build_number("master"), None);
        assert_eq!(build_number(""), None);
    }
}
