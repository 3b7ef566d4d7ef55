//! The CPU that reads system RAM: which catalog CPU (`input-cpu`), how many threads the runtime
//! uses (`input-threads`), how many sockets the run spans (`input-sockets`), and a CPU outside
//! the catalog described by its cores, clock and SIMD family (`input-cpu-cores`, `input-cpu-ghz`,
//! `input-cpu-simd`).

use leptos::prelude::*;

use super::number_field::NumberField;
use super::select_field::{Options, SelectField};
use crate::catalog::catalog;
use crate::report::naming::field_label;
use crate::scenario::Key;
use crate::web::long_tail::Tail;
use crate::web::state::want_long_tail;

/// The CPU, threads and sockets fields of the Machine group. The CPU select lists the CPUs the
/// catalog's machines name; focusing it fetches the long tail of CPUs, listed after them when it
/// arrives.
#[component]
pub fn CpuFields() -> impl IntoView {
    let arrived = Trigger::new();
    let cpus = Options(Box::new(move || {
        arrived.track();
        let mut cpus = vec![(String::new(), "the machine's (or a typical desktop)".to_string())];
        cpus.extend(catalog().every_cpu().map(|c| (c.id.clone(), c.name.clone())));
        cpus
    }));
    let want_cpus = want_long_tail(Tail::Cpus, move || arrived.notify());
    let mut simd = vec![(String::new(), "the CPU's".to_string())];
    simd.extend(crate::catalog::cpus::SIMD.iter().map(|f| (f.0.to_string(), f.1.to_string())));
    view! {
        <SelectField key=Key::Cpu label={field_label(Key::Cpu)} testid="input-cpu" options=cpus default="" on_open=Callback::new(move |()| want_cpus()) />
        <NumberField key=Key::Threads label={field_label(Key::Threads)} hint="-t" testid="input-threads" placeholder="P-cores".to_string() />
        <NumberField key=Key::Sockets label={field_label(Key::Sockets)} hint="1–8" testid="input-sockets" placeholder="1".to_string() />
        <NumberField key=Key::CpuCores label={field_label(Key::CpuCores)} hint="a CPU not listed" testid="input-cpu-cores" placeholder="the CPU's".to_string() />
        <NumberField key=Key::CpuGhz label={field_label(Key::CpuGhz)} hint="GHz, all-core" testid="input-cpu-ghz" placeholder="the CPU's".to_string() />
        <SelectField key=Key::CpuSimd label={field_label(Key::CpuSimd)} testid="input-cpu-simd" options=simd default="" />
    }
}
