//! Table cells whose text follows the estimate, one effect per row, with rows off screen
//! written after the next paint.
//!
//! A reactive closure per cell costs a subscription per cell: a 174-row table with five changing
//! columns re-links about 870 of them on every keystroke. One effect per row computes the row's
//! texts and writes only the cells whose text changed. And the browser's cost of a keystroke is
//! mostly laying out and painting the rows whose text changed: rows a person cannot see (below
//! the fold, or scrolled away inside the table's box) are written after the next paint, so the
//! frame that shows the new headline carries only the rows on screen. An IntersectionObserver
//! says which rows those are. (The comparison table's re-sort after a new estimate waits for the
//! next paint the same way, through [`OnScreen::later`].)

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use leptos::html::{Td, Tr};
use leptos::prelude::*;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// Cell writes waiting for the next paint.
type Writes = Rc<RefCell<Vec<Box<dyn FnOnce()>>>>;

/// Which rows of one table are on screen (rows carry `data-row` = their index), and the writes
/// waiting for the next paint.
#[derive(Clone)]
pub struct OnScreen {
    /// By row index; a row not yet reported counts as on screen (written at once).
    hidden: Rc<RefCell<Vec<bool>>>,
    observer: Option<web_sys::IntersectionObserver>,
    pending: Writes,
    scheduled: Rc<Cell<bool>>,
}

impl OnScreen {
    pub fn new() -> OnScreen {
        let hidden = Rc::new(RefCell::new(Vec::new()));
        let flags = hidden.clone();
        let callback = Closure::<dyn FnMut(js_sys::Array)>::new(move |entries: js_sys::Array| {
            let mut flags = flags.borrow_mut();
            for entry in entries.iter() {
                let Ok(entry) = entry.dyn_into::<web_sys::IntersectionObserverEntry>() else {
                    continue;
                };
                let Some(i) = entry.target().get_attribute("data-row").and_then(|v| v.parse::<usize>().ok()) else {
                    continue;
                };
                if flags.len() <= i {
                    flags.resize(i + 1, false);
                }
                flags[i] = !entry.is_intersecting();
            }
        });
        let observer = web_sys::IntersectionObserver::new(callback.as_ref().unchecked_ref()).ok();
        // The observer calls back for as long as the page lives.
        callback.forget();
        OnScreen {
            hidden,
            observer,
            pending: Rc::new(RefCell::new(Vec::new())),
            scheduled: Rc::new(Cell::new(false)),
        }
    }

    /// Row `row` of the table: references for its `<tr node_ref=… data-row=row>` and its `n`
    /// changing `<td node_ref=…>`s, whose text then follows `texts()` (empty where missing).
    pub fn live_row(&self, row: usize, n: usize, texts: impl Fn() -> Vec<String> + 'static) -> (NodeRef<Tr>, Vec<NodeRef<Td>>) {
        let tr = NodeRef::new();
        self.watch(tr);
        let cells: Vec<NodeRef<Td>> = (0..n).map(|_| NodeRef::new()).collect();
        live_cells(cells.clone(), texts, self.clone(), row);
        (tr, cells)
    }

    /// Starts watching a row's `tr` (its `data-row` names it) until the row goes away.
    fn watch(&self, tr: NodeRef<Tr>) {
        let observer = self.observer.clone();
        tr.on_load(move |tr| {
            if let Some(o) = &observer {
                o.observe(&tr);
                let o = o.clone();
                on_cleanup(move || o.unobserve(&tr));
            }
        });
    }

    fn on_screen(&self, row: usize) -> bool {
        !self.hidden.borrow().get(row).copied().unwrap_or(false)
    }

    /// Runs `write` after the next paint, with every other write waiting then.
    pub fn later(&self, write: Box<dyn FnOnce()>) {
        self.pending.borrow_mut().push(write);
        if !self.scheduled.replace(true) {
            let (pending, scheduled) = (self.pending.clone(), self.scheduled.clone());
            crate::browser::after_next_paint(move || {
                scheduled.set(false);
                let writes = std::mem::take(&mut *pending.borrow_mut());
                for w in writes {
                    w();
                }
            });
        }
    }
}

impl Default for OnScreen {
    fn default() -> Self {
        OnScreen::new()
    }
}

/// Keeps each cell's text equal to the matching entry of `texts()` (empty when missing), written
/// after the next paint while row `row` is off screen.
fn live_cells(cells: Vec<NodeRef<Td>>, texts: impl Fn() -> Vec<String> + 'static, screen: OnScreen, row: usize) {
    let shown: Rc<RefCell<Vec<Option<String>>>> = Rc::new(RefCell::new(vec![None; cells.len()]));
    // Only the newest computation writes: a late write must not undo a newer one.
    let generation = Rc::new(Cell::new(0u64));
    Effect::new(move |_| {
        let now = texts();
        let tds: Vec<_> = cells.iter().map(|c| c.get()).collect();
        let this = generation.get().wrapping_add(1);
        generation.set(this);
        let (shown, generation) = (shown.clone(), generation.clone());
        let write = move || {
            if generation.get() != this {
                return;
            }
            let mut shown = shown.borrow_mut();
            for (k, td) in tds.iter().enumerate() {
                let text = now.get(k).map_or("", String::as_str);
                if let Some(td) = td {
                    if shown[k].as_deref() != Some(text) {
                        td.set_text_content(Some(text));
                        shown[k] = Some(text.to_string());
                    }
                }
            }
        };
        if screen.on_screen(row) {
            write();
        } else {
            screen.later(Box::new(write));
        }
    });
}
