//! Table cells whose text follows the estimate, one effect per row.
//!
//! A reactive closure per cell costs a subscription per cell: a 174-row table with five changing
//! columns re-links about 870 of them on every keystroke, and that bookkeeping, not the text,
//! was most of a keystroke's time. One effect per row computes the row's texts and writes only
//! the cells whose text changed.

use leptos::html::Td;
use leptos::prelude::*;

/// `n` cell references for a row, to put on its `<td node_ref=…>`s.
pub fn cell_refs(n: usize) -> Vec<NodeRef<Td>> {
    (0..n).map(|_| NodeRef::new()).collect()
}

/// Keeps each cell's text equal to the matching entry of `texts()` (empty when missing).
pub fn live_cells(cells: Vec<NodeRef<Td>>, texts: impl Fn() -> Vec<String> + 'static) {
    // The state is what the cells show, once every cell is mounted and written.
    Effect::new(move |shown: Option<Option<Vec<String>>>| {
        let now = texts();
        let shown = shown.flatten();
        let mut all = true;
        for (k, cell) in cells.iter().enumerate() {
            let text = now.get(k).map_or("", String::as_str);
            match cell.get() {
                Some(td) => {
                    if shown.as_ref().and_then(|s| s.get(k)).map(String::as_str) != Some(text) {
                        td.set_text_content(Some(text));
                    }
                }
                None => all = false,
            }
        }
        all.then_some(now)
    });
}
