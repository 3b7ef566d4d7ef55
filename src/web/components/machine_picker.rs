//! The machine: a catalog select grouped by kind with a search box, or a custom machine.

use leptos::prelude::*;

use super::number_field::NumberField;
use super::option_list::{bind_options, OptionGroup};
use super::search_box::SearchBox;
use super::select_field::SelectField;
use crate::calibration::{Backend, Vendor};
use crate::catalog::{catalog, Kind};
use crate::report::naming::field_label;
use crate::report::views;
use crate::scenario::{Key, Scenario, Value, DEFAULT_HW};
use crate::web::long_tail::Tail;
use crate::web::state::{scenario, want_long_tail};

const CUSTOM: &str = "custom";

/// Between a machine's id and a CPU's in an option's value: a CPU machine with that CPU.
const PAIR: char = '@';

/// The option value of machine `hw` with CPU `cpu`.
fn pair(hw: &str, cpu: &str) -> String {
    format!("{hw}{PAIR}{cpu}")
}

/// Machine select (`input-machine`), its search box (`input-machine-search`), for a custom
/// machine its bandwidth, memory, kind and TFLOPS fields, and for a GPU the other cards of a split.
#[component]
pub fn MachinePicker() -> impl IntoView {
    let scenario = scenario();
    let cat = catalog();
    let search = RwSignal::new(String::new());
    let is_custom = Memo::new(move |_| scenario.with(Scenario::is_custom_machine));
    // A memo: the select follows the choice, not every keystroke elsewhere in the form.
    let current = Memo::new(move |_| {
        if is_custom.get() {
            CUSTOM.to_string()
        } else {
            scenario.with(chosen_value)
        }
    });
    let choose = move |v: String| scenario.update(|s| choose_value(s, &v));
    let on_change = move |ev| choose(event_target_value(&ev));
    let (found, chosen_pair) = searched(search, current);
    let select = NodeRef::new();
    bind_options(
        select,
        Box::new(move || {
            let searching = search.with(|q| !q.trim().is_empty());
            // A search keeps the chosen machine listed, so only then does the list follow the
            // choice; otherwise a new choice just selects another option of the same list.
            let cur = if searching { current.get() } else { chosen_pair.get() };
            machine_options(&cur, &found.get())
        }),
        current,
    );
    let (backends, engines) = runtime_options();
    view! {
        <fieldset class="picker">
            <legend>"Machine"</legend>
            <super::gpu_guess::GpuGuess />
            <SearchBox
                testid="input-machine-search"
                status_testid="machine-search-status"
                label="Search machines"
                placeholder="4090, MacBook, 7950X, DDR5…"
                nouns=("machine", "machines")
                hint="a model number (4090, M3 Max, 7950X)"
                search=search
                found=found
                on_choose=Callback::new(choose)
            />
            <label class="field wide">
                <span class="field-label">"Machine"</span>
                <select data-testid="input-machine" on:change={on_change} node_ref=select></select>
            </label>
            // Where the machine's figures come from: a wrong bandwidth is the commonest complaint
            // about calculators like this one, so the page says where each one was read.
            <p class="hint" data-testid="machine-source">
                {move || {
                    let id = current.get();
                    let hw = id.split(PAIR).next().unwrap_or_default();
                    cat.machine(hw).map(views::machine_source).unwrap_or_default()
                }}
            </p>
            {move || long_tail_note(&current.get())}
            {move || is_custom.get().then(custom_fields)}
            <super::split_devices::SplitDevices />
            <NumberField key=Key::Usable label="Usable memory share" hint="0–1" testid="input-usable" placeholder="catalog".to_string() />
            <SelectField key=Key::Backend label="Backend" testid="input-backend" options=backends default="" />
            <SelectField key=Key::Engine label="Engine" testid="input-engine" options=engines default=crate::scenario::keys::ENGINES[0] />
            <super::cpu_fields::CpuFields />
            <super::measure_panel::MeasurePanel />
        </fieldset>
    }
}

/// What the search box finds (option values), and the chosen value to list without a search too
/// (a CPU machine paired with its CPU, or a machine of the long tail: no plain option shows them).
/// The long tail of GPUs is searched once it has arrived, and fetched when a search finds nothing
/// in the curated catalog; the long tail of CPUs is fetched for any search.
fn searched(search: RwSignal<String>, current: Memo<String>) -> (Memo<Vec<String>>, Memo<String>) {
    let found = Memo::new(move |_| search.with(|q| found_values(q)));
    let again = move || search.update(|_| {});
    let (want_gpus, want_cpus) = (want_long_tail(Tail::Gpus, again), want_long_tail(Tail::Cpus, again));
    Effect::new(move |_| {
        if search.with(|q| !q.trim().is_empty()) {
            // A search may name any CPU; a GPU only where the curated catalog has none.
            want_cpus();
            if found.with(Vec::is_empty) {
                want_gpus();
            }
        }
    });
    let chosen = Memo::new(move |_| {
        current.with(|c| {
            let long_tail = || catalog().machine(c).is_ok_and(|m| m.long_tail);
            if c.contains(PAIR) || long_tail() {
                c.clone()
            } else {
                String::new()
            }
        })
    });
    (found, chosen)
}

/// For a machine of the long tail of GPUs (`machine-long-tail`): says so, with its TechPowerUp page.
fn long_tail_note(value: &str) -> Option<impl IntoView> {
    let m = catalog().machine(value).ok().filter(|m| m.long_tail)?;
    let url = crate::catalog::long_tail::source_url(&m.id);
    Some(view! {
        <p class="hint" data-testid="machine-long-tail">
            "From the long tail of GPUs: TechPowerUp's published figures, not checked by hand like the curated catalog's. "
            <a href=url target="_blank" rel="noopener">"Its TechPowerUp page"</a>
        </p>
    })
}

/// The select's value for the scenario's catalog machine: its id, or a CPU machine paired with the
/// CPU chosen on it, as a search for that CPU lists it.
fn chosen_value(s: &Scenario) -> String {
    let cat = catalog();
    let hw = s.text(Key::Hw).unwrap_or(DEFAULT_HW);
    let carried = |cpu: &str| cat.cpu(cpu).is_ok_and(|c| cat.machines_with_cpu(c).iter().any(|m| m.id == hw));
    match s.text(Key::Cpu) {
        Some(cpu) if carried(cpu) => pair(hw, cpu),
        _ => hw.to_string(),
    }
}

/// Moves the scenario to a select value: a machine, a CPU machine with a CPU (`hw=` and `cpu=`),
/// or a custom machine.
fn choose_value(s: &mut Scenario, v: &str) {
    if v == CUSTOM {
        start_custom(s);
        return;
    }
    let (hw, cpu) = v.split_once(PAIR).map_or((v, None), |(hw, cpu)| (hw, Some(cpu)));
    *s = views::with_machine(s, hw);
    if let Some(cpu) = cpu {
        s.put(Key::Cpu, Value::Text(cpu.to_string()));
    }
    if hw == DEFAULT_HW {
        s.clear(Key::Hw);
    }
}

/// What the search box finds, in the select's order: the machines the text names, kind by kind
/// (every machine when it is blank), then the machines of the CPUs it names, paired with them.
fn found_values(text: &str) -> Vec<String> {
    let cat = catalog();
    let mut machines = cat.search_machines(text);
    machines.sort_by_key(|m| Kind::ALL.iter().position(|k| *k == m.kind));
    machines
        .iter()
        .map(|m| m.id.clone())
        .chain(cat.search_cpu_machines(text).iter().map(|(m, c)| pair(&m.id, &c.id)))
        .collect()
}

/// A custom machine starts from the chosen catalog machine's figures.
fn start_custom(s: &mut Scenario) {
    let m = catalog().machine(s.text(Key::Hw).unwrap_or(DEFAULT_HW)).ok().cloned();
    s.put_if_unset(Key::Bw, Some(Value::Number(m.as_ref().map_or(100.0, |m| m.bandwidth_gbs))));
    s.put_if_unset(Key::Mem, m.as_ref().map(|m| Value::Number(m.memory_gib)));
    s.put_if_unset(Key::Kind, m.as_ref().map(|m| Value::Kind(m.kind)));
    s.put_if_unset(Key::Tflops, m.as_ref().and_then(|m| m.fp16_tflops).map(Value::Number));
    s.clear(Key::Hw);
}

/// The select's options in the order of `found` (kind by kind, then the CPU machines found with a
/// CPU: "… (CPU) with AMD Ryzen 9 7950X"), each run of one kind under its label; then the chosen
/// one, `cur`, where the search did not find it; then Custom machine….
fn machine_options(cur: &str, found: &[String]) -> Vec<OptionGroup> {
    let chosen = (!cur.is_empty() && !found.iter().any(|f| f == cur)).then_some(cur);
    let mut groups: Vec<OptionGroup> = Vec::new();
    for value in found.iter().map(String::as_str).chain(chosen) {
        let Some((label, text)) = machine_option(value) else { continue };
        let option = (value.to_string(), text);
        match groups.last_mut() {
            Some(g) if g.label == Some(label) => g.options.push(option),
            _ => groups.push(OptionGroup {
                label: Some(label),
                options: vec![option],
            }),
        }
    }
    groups.push(OptionGroup {
        label: None,
        options: vec![(CUSTOM.into(), "Custom machine…".into())],
    });
    groups
}

/// The group and text of an option value: a machine under its kind, a machine with a CPU under
/// the CPUs found; `None` for anything else.
fn machine_option(value: &str) -> Option<(&'static str, String)> {
    let cat = catalog();
    let text = |name: &str, bw: f64| format!("{name} — {} GB/s", views::trim(bw));
    match value.split_once(PAIR) {
        Some((hw, cpu)) => {
            let (m, c) = (cat.machine(hw).ok()?, cat.cpu(cpu).ok()?);
            let name = views::machine_with_cpu(&m.name, &c.name);
            Some(("CPUs found, on their memory systems", text(&name, m.bandwidth_gbs)))
        }
        None => {
            let m = cat.machine(value).ok()?;
            Some((views::kind_label(m.kind), text(&m.name, m.bandwidth_gbs)))
        }
    }
}

/// A select's (value, label) pairs.
type Choices = Vec<(String, String)>;

/// The backend and engine choices: the machine's default first, then every one.
fn runtime_options() -> (Choices, Choices) {
    let mut backends = vec![(String::new(), "the machine's default".to_string())];
    backends.extend(Backend::ALL.into_iter().map(|b| (b.id().to_string(), b.id().to_string())));
    let engines: Vec<(String, String)> = crate::scenario::keys::ENGINES
        .iter()
        .map(|e| (e.to_string(), e.to_string()))
        .collect();
    (backends, engines)
}

/// A custom machine's figures: bandwidth, memory, kind, TFLOPS and vendor.
fn custom_fields() -> impl IntoView {
    let scenario = scenario();
    let mut vendors = vec![(String::new(), "the one the backend names".to_string())];
    vendors.extend(
        [Vendor::Nvidia, Vendor::Amd, Vendor::Intel, Vendor::Apple, Vendor::Other]
            .into_iter()
            .map(|v| (v.id().to_string(), v.label().to_string())),
    );
    let kind_select = NodeRef::new();
    let kind = Memo::new(move |_| scenario.with(|s| s.kind().unwrap_or(Kind::Gpu).id().to_string()));
    bind_options(
        kind_select,
        Box::new(|| {
            OptionGroup::ungrouped(
                Kind::ALL
                    .into_iter()
                    .map(|k| (k.id().to_string(), views::kind_label(k).to_string()))
                    .collect(),
            )
        }),
        kind,
    );
    view! {
        <div class="custom-fields">
            <NumberField key=Key::Bw label="Bandwidth" hint="GB/s" testid="input-bw" />
            <NumberField key=Key::Mem label="Memory" hint="GiB" testid="input-mem" placeholder="unknown".to_string() />
            <label class="field">
                <span class="field-label">"Kind"</span>
                <select
                    data-testid="input-kind"
                    on:change={move |ev| {
                        let v = event_target_value(&ev);
                        scenario.update(|s| match Kind::parse(&v) {
                            Some(k) => s.put(Key::Kind, Value::Kind(k)),
                            None => s.clear(Key::Kind),
                        });
                    }}
                    node_ref=kind_select
                ></select>
            </label>
            <NumberField key=Key::Tflops label={field_label(Key::Tflops)} testid="input-tflops" placeholder="unknown".to_string() />
            <SelectField key=Key::Vendor label={field_label(Key::Vendor)} testid="input-vendor" options=vendors default="" />
        </div>
    }
}
