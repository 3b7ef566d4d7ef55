//! A sortable column header, shared by the result tables.

use leptos::prelude::*;

/// A `<th>` whose button sorts by `col`, or reverses the order when it already does; a new
/// column starts `ascending_first` (text A→Z) or descending (numbers, largest first).
pub fn sort_header<C: Copy + PartialEq + Send + Sync + 'static>(
    col: C,
    label: &'static str,
    testid: String,
    ascending_first: bool,
    sort: ReadSignal<(C, bool)>,
    set_sort: WriteSignal<(C, bool)>,
) -> impl IntoView {
    let aria = move || match sort.get() {
        (c, true) if c == col => "ascending",
        (c, false) if c == col => "descending",
        _ => "none",
    };
    view! {
        <th scope="col" role="columnheader" aria-sort=aria>
            <button
                type="button"
                data-testid=testid
                on:click=move |_| {
                    set_sort.update(|(c, asc)| {
                        if *c == col {
                            *asc = !*asc;
                        } else {
                            *c = col;
                            *asc = ascending_first;
                        }
                    })
                }
            >
                {label}
                {move || match sort.get() {
                    (c, true) if c == col => " ▲",
                    (c, false) if c == col => " ▼",
                    _ => "",
                }}
            </button>
        </th>
    }
}
