//! Table cells whose text follows the estimate: one effect per table, with rows off screen
//! written after the next paint.
//!
//! A reactive closure per cell costs a subscription per cell, and even an effect per row costs
//! the scheduler a task per row: a 174-row table re-ran 174 of them on every keystroke. One
//! effect per table computes each row's texts and writes only the cells whose text changed. And
//! the browser's cost of a keystroke is mostly laying out and painting the rows whose text
//! changed: rows a person cannot see (below the fold, or scrolled away inside the table's box)
//! are written after the next paint, so the frame that shows the new headline carries only the
//! rows on screen. An IntersectionObserver says which rows those are. (The comparison table's
//! re-sort after a new estimate waits for the next paint the same way, through
//! [`LiveTable::later`].)

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use leptos::html::{Td, Tr};
use leptos::prelude::*;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// Cell writes waiting for the next paint.
type Writes = Rc<RefCell<Vec<Box<dyn FnOnce()>>>>;

/// One table's rows with changing cells, by row index (rows carry `data-row` = their index).
#[derive(Clone)]
pub struct LiveTable {
    /// Row `i`'s changing texts (read inside the table's effect: a change re-writes the rows).
    texts: Rc<dyn Fn(usize) -> Vec<String>>,
    rows: Rc<RefCell<Vec<Option<LiveRow>>>>,
    /// By row index; a row not yet reported counts as on screen (written at once).
    hidden: Rc<RefCell<Vec<bool>>>,
    observer: Option<web_sys::IntersectionObserver>,
    pending: Writes,
    scheduled: Rc<Cell<bool>>,
    /// Counts the table's effect runs: only the newest one's late writes happen.
    generation: Rc<Cell<u64>>,
}

/// A mounted row: its row element, its changing cells and the text each shows.
struct LiveRow {
    tr: web_sys::HtmlTableRowElement,
    cells: Vec<NodeRef<Td>>,
    shown: Vec<Option<String>>,
    stale: bool,
}

impl LiveRow {
    fn write(&mut self, now: &[String]) {
        for (k, cell) in self.cells.iter().enumerate() {
            let text = now.get(k).map_or("", String::as_str);
            if self.shown[k].as_deref() != Some(text) {
                if let Some(td) = cell.get_untracked() {
                    td.set_text_content(Some(text));
                    self.shown[k] = Some(text.to_string());
                }
            }
        }
        self.stale = false;
    }
}

impl LiveTable {
    /// A table whose row `i` shows `texts(i)` in its changing cells (empty where missing), kept
    /// up to date by one effect.
    pub fn new(texts: impl Fn(usize) -> Vec<String> + 'static) -> LiveTable {
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
        let table = LiveTable {
            texts: Rc::new(texts),
            rows: Rc::new(RefCell::new(Vec::new())),
            hidden,
            observer,
            pending: Rc::new(RefCell::new(Vec::new())),
            scheduled: Rc::new(Cell::new(false)),
            generation: Rc::new(Cell::new(0)),
        };
        let this = table.clone();
        Effect::new(move |_| this.refresh());
        table
    }

    /// Writes the rows on screen now (reading the texts subscribes the effect) and the others
    /// after the next paint.
    fn refresh(&self) {
        let generation = self.generation.get().wrapping_add(1);
        self.generation.set(generation);
        // The texts are read even with no row mounted yet, so that the effect subscribes.
        let _ = (self.texts)(0);
        let mut deferred = false;
        for (i, row) in self.rows.borrow_mut().iter_mut().enumerate() {
            let Some(row) = row else { continue };
            if self.on_screen(i) {
                row.write(&(self.texts)(i));
            } else {
                row.stale = true;
                deferred = true;
            }
        }
        if deferred {
            let this = self.clone();
            self.later(Box::new(move || {
                if this.generation.get() == generation {
                    untrack(|| this.write_stale());
                }
            }));
        }
    }

    /// Writes the rows left stale, forgetting rows that have left the page.
    fn write_stale(&self) {
        for (i, slot) in self.rows.borrow_mut().iter_mut().enumerate() {
            let Some(row) = slot else { continue };
            if !row.tr.is_connected() {
                if let Some(o) = &self.observer {
                    o.unobserve(&row.tr);
                }
                *slot = None;
            } else if row.stale {
                row.write(&(self.texts)(i));
            }
        }
    }

    /// Row `row` of the table: references for its `<tr node_ref=… data-row=row>` and its `n`
    /// changing `<td node_ref=…>`s, whose text then follows the table's texts for that row.
    pub fn live_row(&self, row: usize, n: usize) -> (NodeRef<Tr>, Vec<NodeRef<Td>>) {
        let tr = NodeRef::new();
        let cells: Vec<NodeRef<Td>> = (0..n).map(|_| NodeRef::new()).collect();
        let (this, refs) = (self.clone(), cells.clone());
        tr.on_load(move |tr: web_sys::HtmlTableRowElement| {
            if let Some(o) = &this.observer {
                o.observe(&tr);
            }
            let mut live = LiveRow {
                tr,
                cells: refs,
                shown: vec![None; n],
                stale: false,
            };
            live.write(&(this.texts)(row));
            let mut rows = this.rows.borrow_mut();
            if rows.len() <= row {
                rows.resize_with(row + 1, || None);
            }
            rows[row] = Some(live);
        });
        (tr, cells)
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
