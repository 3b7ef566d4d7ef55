//! The other cards of a layer split (`with=`): one machine picker per card added beside the
//! machine, a share of the layers for every card including the machine's own (together
//! `tensor_split=`; empty: in proportion to memory), and each problem beside the field it is about.

use leptos::prelude::*;

use super::number_field::NumberField;
use super::option_list::{bind_options, OptionGroup};
use crate::catalog::{catalog, Kind};
use crate::scenario::Key;
use crate::web::state::{scenario, UrlCommit};

/// The cards beside the machine (`input-with`, each with `input-with-share` and
/// `input-with-remove`), the machine's own share (`input-share`, shown with cards or shares) and
/// `with-add`. Shown beside a catalog GPU, or wherever the link names cards or shares.
#[component]
pub fn SplitDevices() -> impl IntoView {
    let scenario = scenario();
    let cat = catalog();
    let commit = use_context::<UrlCommit>();
    let run_commit = move || {
        if let Some(c) = commit {
            c.0.run(());
        }
    };
    let count = Memo::new(move |_| scenario.with(|s| s.with_ids().len()));
    let gpu = Memo::new(move |_| scenario.with(|s| !s.is_custom_machine() && s.machine_kind(cat) == Kind::Gpu));
    let shares = Memo::new(move |_| count.get() > 0 || scenario.with(|s| s.has(Key::TensorSplit)));
    // A new card starts as a second one of the machine: the commonest split, changed in its picker.
    let add = move |_| {
        scenario.update(|s| {
            let id = s.text(Key::Hw).unwrap_or(crate::scenario::DEFAULT_HW).to_string();
            s.add_card(cat, &id);
        });
        run_commit();
    };
    view! {
        <div class="split-devices" role="group" aria-label="cards of a layer split" hidden=move || !(gpu.get() || shares.get())>
            <div class="slot" hidden=move || !shares.get()>
                {share_field(0, "GPU 1's share", "input-share")}
            </div>
            {move || (0..count.get()).map(|i| card(i, Callback::new(move |()| run_commit()))).collect_view()}
            <button type="button" data-testid="with-add" on:click=add>
                "Add another GPU (layer split)"
            </button>
        </div>
    }
}

/// Card `i` beside the machine: its picker, its share and its remove button; its problem (a
/// card that is not a GPU or cannot run the backend; for the first, the split's own) beside it.
fn card(i: usize, commit: Callback<()>) -> impl IntoView {
    let scenario = scenario();
    let cat = catalog();
    let current = Memo::new(move |_| scenario.with(|s| s.with_ids().get(i).cloned().unwrap_or_default()));
    let problem = Memo::new(move |_| {
        scenario.with(|s| {
            let own = s.split_device(cat, &current.get()).err();
            own.or_else(|| if i == 0 { s.split_problem(cat) } else { None })
        })
    });
    let select = NodeRef::new();
    bind_options(
        select,
        Box::new(move || {
            OptionGroup::ungrouped(
                cat.machines
                    .iter()
                    .filter(|m| m.kind == Kind::Gpu)
                    .map(|m| {
                        (
                            m.id.clone(),
                            format!("{} — {} GB/s", m.name, crate::report::views::trim(m.bandwidth_gbs)),
                        )
                    })
                    .collect(),
            )
        }),
        current,
    );
    // The machine is GPU 1.
    let label = format!("GPU {}", i + 2);
    view! {
        <div class="split-card">
            <label class="field wide" class:invalid=move || problem.with(Option::is_some)>
                <span class="field-label">{label}</span>
                <select
                    data-testid="input-with"
                    node_ref=select
                    aria-describedby=format!("input-with-error-{i}")
                    on:change=move |ev| {
                        let id = event_target_value(&ev);
                        scenario.update(|s| s.set_card(i, &id));
                    }
                ></select>
                <span class="field-error" id=format!("input-with-error-{i}") data-testid="input-with-error" role="status">{move || problem.get()}</span>
            </label>
            {share_field(i + 1, "Its share", "input-with-share")}
            <button
                type="button"
                class="remove"
                data-testid="input-with-remove"
                aria-label=format!("Remove GPU {}", i + 2)
                on:click=move |_| {
                    scenario.update(|s| s.remove_card(i));
                    commit.run(());
                }
            >
                "Remove"
            </button>
        </div>
    }
}

/// Card `i`'s share of the layers (the machine is card 0), `testid` with `{testid}-error`: a
/// positive number, or empty for its memory.
fn share_field(i: usize, label: &'static str, testid: &'static str) -> impl IntoView {
    view! { <NumberField key=Key::TensorSplit share=i label=label hint="of the layers" testid=testid placeholder="by memory".to_string() /> }
}
