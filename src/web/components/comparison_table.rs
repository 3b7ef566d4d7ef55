//! Every catalog machine for the chosen model, format and context: sortable, filterable by kind,
//! the chosen machine highlighted.

use leptos::prelude::*;

use super::live_cells::{LiveTable, RowText, TableSpec};
use super::number_field::NumberField;
use crate::catalog::Kind;
use crate::report::views::{self, Column, MachineRow};
use crate::scenario::keys::MACHINE_SETS;
use crate::scenario::Key;
use crate::text::units::{fmt_bytes, fmt_tok_s};
use crate::web::state::{stale_attr, Rows};

/// The comparison table (`comparison-table`), one `<tbody>` row per machine.
#[component]
pub fn ComparisonTable(
    /// One row per machine, recomputed when the scenario changes.
    rows: Rows<MachineRow>,
) -> impl IntoView {
    let Rows { list: rows, shown } = rows;
    let scenario = shown.scenario;
    let (sort, set_sort) = signal((Column::Ceiling, false));
    let (kind, set_kind) = signal(None::<Kind>);
    // A memo, so the rows' highlight re-runs only when the chosen machine changes.
    let chosen = Memo::new(move |_| scenario.with(|s| views::machine_id(s).unwrap_or_default().to_string()));
    let order = Memo::new(move |_| {
        let (col, asc) = sort.get();
        let k = kind.get();
        rows.with(|rows| views::sorted_order(rows, |r| k.is_none_or(|k| r.kind == k), col, asc))
    });
    // The order the rows are shown in. A sort or filter someone chose moves the rows at once; a
    // new estimate updates the numbers in place first and re-sorts after the next paint (moving
    // rows re-lays out the whole table, which would hold back the frame with the new numbers).
    let placed = RwSignal::new(order.get_untracked());
    // Rows stay in catalog order; sorting and filtering only reorder the same <tr>s, and a new
    // estimate only rewrites the text of each cell, so a keystroke never rebuilds the table. The
    // rows are built and written directly (live_cells), rows off screen after the next paint.
    let body = NodeRef::new();
    let live = LiveTable::new(TableSpec {
        body,
        key_attr: "data-machine",
        classes: &["", "num", "num", "num", "num", "", "num", "num", "num", "num"],
        track: Box::new(move || {
            chosen.track();
            rows.track();
        }),
        text: Box::new(move |i| {
            let chosen = chosen.get();
            rows.with(|r| r.get(i).map(|r| row_text(r, &chosen)))
        }),
        order: Box::new(move || placed.get()),
        focusable: false,
    });
    let busy = live.busy();
    resort_after_paint(order, sort, kind, placed, live);
    // Stale until the rows show this scenario, each in its place.
    let stale = move || shown.waiting() || busy.get() || order.with(|o| placed.with(|p| o != p));
    let header = move |col: Column| {
        let first = matches!(col, Column::Machine | Column::Kind | Column::Price);
        super::sort_header::sort_header(col, col.label(), format!("sort-{}", col.id()), first, sort, set_sort)
    };
    view! {
        <section class="table-section" data-stale=move || stale_attr(stale())>
            <h2 id="what-do-i-need">"What do I need? Every machine, this model"</h2>
            <p class="hint">"Give a target speed: the machines that fit this model and reach it are marked ✓ and listed first, whichever column you sort by."</p>
            {kind_filter(set_kind)}
            {machine_set_field()}
            <NumberField key=Key::Target label="Target" hint="tok/s: which machines reach it?" testid="input-target" placeholder="none".to_string() />
            <p class="hint" data-testid="meets-count">
                {move || rows.with(|r| scenario.with(|s| meets_count(r, s)))}
            </p>
            <button
                type="button"
                class="export"
                data-testid="export-machines-csv"
                on:click={move |_| {
                    crate::web::browser::download_text("tokbound-machines.csv", "text/csv", &views::machine_rows_csv(&in_order(order, rows)));
                }}
            >
                "Download CSV"
            </button>
            <p class="scroll-cue" aria-hidden="true">"Scroll the table sideways for more columns →"</p>
            <div class="table-wrap" tabindex="0" role="region" aria-label="every machine, this model">
                <table class="rows machines" role="table" data-testid="comparison-table">
                    <thead role="rowgroup">
                        <tr role="row">
                            {Column::ALL.into_iter().map(header).collect_view()}
                            <th scope="col" role="columnheader">"Measured (tok/s)"</th>
                        </tr>
                    </thead>
                    <tbody role="rowgroup" node_ref=body></tbody>
                </table>
            </div>
        </section>
    }
}

/// The rows in `order`, as the table shows them.
fn in_order(order: Memo<Vec<usize>>, rows: Memo<Vec<MachineRow>>) -> Vec<MachineRow> {
    order.get().into_iter().filter_map(|i| rows.with(|r| r.get(i).cloned())).collect()
}

/// One machine's row as the table shows it.
fn row_text(r: &MachineRow, chosen: &str) -> RowText {
    RowText {
        key: r.id.clone(),
        current: r.id == chosen,
        data: vec![
            ("data-measured", r.measured.is_some().then_some("true")),
            ("data-meets", r.meets.map(|m| if m { "true" } else { "false" })),
        ],
        cells: vec![
            r.name.clone(),
            r.kind.id().to_string(),
            views::trim(r.bandwidth_gbs),
            views::trim(r.memory_gib),
            fmt_tok_s(r.ceiling),
            {
                let (e, band) = crate::text::units::fmt_band_parts(r.expected, r.low, r.high);
                format!("{e} {band}")
            },
            views::fits_text(r.fits, r.spill_fraction),
            fmt_bytes(r.bytes_per_token),
            r.price_usd.map(|p| format!("${p:.0}")).unwrap_or_default(),
            r.tokens_per_joule.map(crate::report::energy::fmt_sig).unwrap_or_default(),
            r.measured.map(|(c, t)| format!("{} @ {c:.0}", fmt_tok_s(t))).unwrap_or_default(),
        ],
    }
}

/// Keeps `placed` following `order`. An Effect that writes a signal, on purpose: a new
/// estimate's numbers are painted in place first and the rows re-sorted after that paint
/// (`live.later`), because moving rows re-lays out the whole table and would hold back the frame
/// with the new headline past the 16 ms keystroke budget. A memo could not defer the work; a sort
/// or filter someone chose is applied at once.
fn resort_after_paint(
    order: Memo<Vec<usize>>,
    sort: ReadSignal<(Column, bool)>,
    kind: ReadSignal<Option<Kind>>,
    placed: RwSignal<Vec<usize>>,
    live: LiveTable,
) {
    let newest = StoredValue::new(0u64);
    Effect::new(move |chosen: Option<((Column, bool), Option<Kind>)>| {
        let next = order.get();
        let now = (sort.get(), kind.get());
        newest.update_value(|n| *n += 1);
        let this = newest.get_value();
        if chosen == Some(now) && next.len() == placed.with_untracked(Vec::len) {
            live.later(Box::new(move || {
                if newest.get_value() == this {
                    placed.set(next);
                }
            }));
        } else {
            placed.set(next);
        }
        now
    });
}

/// With a target: how many machines fit the model and are expected to reach it.
fn meets_count(rows: &[MachineRow], s: &crate::scenario::Scenario) -> Option<String> {
    let target = crate::report::views::target(s)?;
    let meet = rows.iter().filter(|r| r.meets == Some(true)).count();
    Some(format!(
        "{meet} of {} machines fit this model and are expected to reach {} tok/s.",
        rows.len(),
        fmt_tok_s(target)
    ))
}

/// The table's kind filter (`filter-kind`): every kind, or one.
fn kind_filter(set_kind: WriteSignal<Option<Kind>>) -> impl IntoView {
    view! {
        <label class="field">
            <span class="field-label">"Show"</span>
            <select
                data-testid="filter-kind"
                on:change={move |ev| set_kind.set(Kind::parse(&event_target_value(&ev)))}
            >
                <option value="all">"all kinds"</option>
                {Kind::ALL.into_iter().map(|k| view! { <option value=k.id()>{crate::report::views::kind_label(k)}</option> }).collect_view()}
            </select>
        </label>
    }
}

/// The machines the table and charts show (`input-machines`): the curated catalog, or every GPU
/// with the long tail too (fetched when chosen).
fn machine_set_field() -> impl IntoView {
    view! {
        <super::select_field::SelectField
            key=Key::Machines
            label="Machines"
            testid="input-machines"
            options=vec![
                (MACHINE_SETS[0].to_string(), "the curated catalog".to_string()),
                (MACHINE_SETS[1].to_string(), "every GPU (with the long tail)".to_string()),
            ]
            default=MACHINE_SETS[0]
        />
    }
}
