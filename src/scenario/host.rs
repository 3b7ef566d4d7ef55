//! The CPU that reads system RAM: `cpu=`, `threads=` and `sockets=` against the CPU catalog, with
//! the compute efficiency and the multi-socket streaming rate fitted on measured runs.

use super::{Key, Resolving, Scenario};
use crate::calibration::Backend;
use crate::catalog::cpus::TYPICAL_DESKTOP;
use crate::catalog::Catalog;
use crate::estimator::{HostCpu, Kind, MachineSpec, Note};

impl Scenario {
    /// The host CPU of this scenario: `None` where no CPU reads the machine's memory (an Apple or
    /// SoC machine on its GPU backend, whose `cpu`/`threads`/`sockets` are then ignored with a note).
    pub(super) fn resolve_host(&self, cat: &Catalog, machine: Option<&MachineSpec>, r: &mut Resolving) -> Option<HostCpu> {
        let kind = machine.map(|m| m.kind)?;
        let catalog_machine = cat
            .machine(self.text(Key::Hw).unwrap_or(super::DEFAULT_HW))
            .ok()
            .filter(|_| !self.is_custom_machine());
        let cpu_reads = match kind {
            Kind::Gpu | Kind::Cpu => true,
            Kind::Apple | Kind::Soc => self.backend(cat) == Backend::Cpu,
        };
        if !cpu_reads {
            if [Key::Cpu, Key::Threads, Key::Sockets, Key::CpuCores, Key::CpuGhz, Key::CpuSimd]
                .iter()
                .any(|&k| self.has(k))
            {
                r.notes.push(Note::HostIgnored);
            }
            return None;
        }
        let own = catalog_machine.and_then(|m| m.cpu.as_deref());
        let (id, assumed) = match (self.text(Key::Cpu), own) {
            (Some(id), _) => (id, false),
            (None, Some(id)) => (id, false),
            // Apple's CPU clusters and SoCs without a catalog CPU keep their machine's compute, as
            // does a custom machine given its own (`tflops`).
            (None, None) if matches!(kind, Kind::Apple | Kind::Soc) => return None,
            (None, None) if kind == Kind::Cpu && self.is_custom_machine() && self.has(Key::Tflops) => return None,
            (None, None) => (TYPICAL_DESKTOP, true),
        };
        let cpu = match cat.cpu(id) {
            Ok(c) => c,
            Err(e) => {
                r.fail(Key::Cpu, e);
                return None;
            }
        };
        // A CPU outside the catalog, described by its figures over this one's.
        let described = [Key::CpuCores, Key::CpuGhz, Key::CpuSimd]
            .iter()
            .any(|&k| self.has(k))
            .then(|| cpu.described(self.whole(Key::CpuCores), self.number(Key::CpuGhz), self.text(Key::CpuSimd)));
        let assumed = assumed && described.is_none();
        let cpu = described.as_ref().unwrap_or(cpu);
        let sockets = self
            .whole(Key::Sockets)
            .unwrap_or_else(|| catalog_machine.map_or(1, |m| m.sockets).min(cpu.max_sockets));
        if sockets > cpu.max_sockets {
            r.fail(
                Key::Sockets,
                format!(
                    "{} runs in at most {} socket{}",
                    cpu.name,
                    cpu.max_sockets,
                    if cpu.max_sockets == 1 { "" } else { "s" }
                ),
            );
        }
        let threads = self.whole(Key::Threads).unwrap_or_else(|| cpu.default_threads(sockets));
        let cal = crate::catalog::calibration();
        let (efficiency, compute_runs) = cal.compute_efficiency(cpu.family);
        let (remote, numa_runs) = cal.numa_remote();
        let mut host = cpu.host(threads, sockets, efficiency, remote);
        host.attention = cal.attention_share(self.text(Key::Engine).unwrap_or(super::keys::ENGINES[0])).0;
        if assumed {
            r.notes.push(Note::HostAssumed { cpu: cpu.name.clone() });
        }
        if compute_runs.is_none() {
            r.notes.push(Note::ComputePrior { family: cpu.family.id() });
        }
        if threads > cpu.threads * sockets {
            r.notes.push(Note::ThreadsBeyondCpu {
                threads: cpu.threads * sockets,
            });
        }
        if sockets > 1 {
            r.notes.push(Note::Numa {
                sockets,
                factor: host.numa,
                runs: numa_runs,
            });
        }
        Some(host)
    }
}
