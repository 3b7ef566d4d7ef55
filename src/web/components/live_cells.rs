//! A result table's body, built and kept in step with the estimate directly in the DOM: one
//! effect places the rows in order, one writes their texts, rows on screen now and rows off
//! screen after the next paint.
//!
//! Why not a keyed `<For>` of row views: the rows are the same few cells of text every time, and
//! a keystroke changes only that text. One effect per table computes each row's texts and
//! touches only the cells whose text changed (a reactive closure per cell cost a subscription
//! per cell, and an effect per row a scheduler task per row, 174 of them per keystroke). Building
//! the rows here rather than through the view macro also keeps two tables' worth of generic view
//! code out of the page's download.
//!
//! And the browser's cost of a keystroke is mostly laying out and painting the rows whose text
//! changed: rows a person cannot see (below the fold, or scrolled away inside the table's box)
//! are written after the next paint, so the frame that shows the new headline carries only the
//! rows on screen. An IntersectionObserver says which rows those are. (The comparison table's
//! re-sort after a new estimate waits for the next paint the same way, through
//! [`LiveTable::later`].) The rows themselves follow a copy of the scenario that is taken up
//! after the keystroke's paint ([`crate::web::state::Deferred`]), so the keystroke's frame holds
//! the headline alone; [`LiveTable::busy`] says when rows off screen still wait.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use leptos::html::Tbody;
use leptos::prelude::*;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// Rows off screen written per task after the paint: a key pressed meanwhile waits for one such
/// task at most, not for every row of the table.
const ROWS_PER_TASK: usize = 100;

/// Cell writes waiting for the next paint.
type Writes = Rc<RefCell<Vec<Box<dyn FnOnce()>>>>;

/// What one row shows.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RowText {
    /// The row's identity, in the table's key attribute (`data-machine`, `data-quant`).
    pub key: String,
    /// Highlighted as the scenario's own (`class="current"`).
    pub current: bool,
    /// Data attributes: set to the value when `Some`, absent when `None` (`data-measured`).
    pub data: Vec<(&'static str, Option<&'static str>)>,
    /// The row header's text, then each cell's.
    pub cells: Vec<String>,
}

/// How a table's rows are built and what they show.
pub struct TableSpec {
    /// The `<tbody>` the rows go in.
    pub body: NodeRef<Tbody>,
    /// The attribute that carries [`RowText::key`].
    pub key_attr: &'static str,
    /// The `class` of each cell after the row header (`"num"` right-aligns).
    pub classes: &'static [&'static str],
    /// Reads (and so subscribes to) every signal the rows' texts come from.
    pub track: Box<dyn Fn()>,
    /// Row `i`'s texts.
    pub text: Box<dyn Fn(usize) -> Option<RowText>>,
    /// The rows to show, in order (indices for `text`).
    pub order: Box<dyn Fn() -> Vec<usize>>,
    /// Rows that do something when chosen take keyboard focus (`tabindex=0`).
    pub focusable: bool,
}

/// One table's body (rows carry `data-row` = their index).
#[derive(Clone)]
pub struct LiveTable {
    spec: Rc<TableSpec>,
    rows: Rc<RefCell<Vec<Option<LiveRow>>>>,
    /// The row indices in the body, in order.
    shown: Rc<RefCell<Vec<usize>>>,
    /// By row index; a row not yet reported counts as on screen (written at once).
    hidden: Rc<RefCell<Vec<bool>>>,
    observer: Option<Rc<Observer>>,
    pending: Writes,
    scheduled: Rc<Cell<bool>>,
    /// Counts the table's effect runs: only the newest one's late writes happen.
    generation: Rc<Cell<u64>>,
    /// Set while rows wait for their late writes.
    busy: RwSignal<bool>,
}

/// The rows' IntersectionObserver and its callback, disconnected when the table goes away.
struct Observer {
    observer: web_sys::IntersectionObserver,
    _callback: Closure<dyn FnMut(js_sys::Array)>,
}

impl Drop for Observer {
    fn drop(&mut self) {
        self.observer.disconnect();
    }
}

/// A built row: its element, its header and cells, and what they show.
struct LiveRow {
    tr: web_sys::Element,
    cells: Vec<web_sys::Element>,
    shown: RowText,
    stale: bool,
}

impl LiveRow {
    /// A `<tr role="row" data-row=…>` with a `<th scope="row">` and one `<td>` per class.
    fn build(index: usize, classes: &[&str], focusable: bool) -> Option<LiveRow> {
        let doc = web_sys::window()?.document()?;
        let element = |tag: &str, attrs: &[(&str, &str)]| {
            let e = doc.create_element(tag).ok()?;
            for (name, value) in attrs {
                e.set_attribute(name, value).ok()?;
            }
            Some(e)
        };
        let tr = element("tr", &[("role", "row"), ("data-row", &index.to_string())])?;
        if focusable {
            tr.set_attribute("tabindex", "0").ok()?;
        }
        let mut cells = vec![element("th", &[("scope", "row"), ("role", "rowheader")])?];
        for class in classes {
            let td = element("td", &[("role", "cell")])?;
            if !class.is_empty() {
                td.set_class_name(class);
            }
            cells.push(td);
        }
        for c in &cells {
            tr.append_child(c).ok()?;
        }
        Some(LiveRow {
            tr,
            cells,
            shown: RowText::default(),
            stale: true,
        })
    }

    /// Writes what changed.
    fn write(&mut self, now: RowText, key_attr: &str) {
        if self.shown.key != now.key {
            let _ = self.tr.set_attribute(key_attr, &now.key);
        }
        if self.shown.current != now.current {
            let _ = self.tr.class_list().toggle_with_force("current", now.current);
        }
        for (name, value) in &now.data {
            let before = self.shown.data.iter().find(|(n, _)| n == name).and_then(|(_, v)| *v);
            if before != *value || self.stale {
                let _ = match value {
                    Some(v) => self.tr.set_attribute(name, v),
                    None => self.tr.remove_attribute(name),
                };
            }
        }
        for (k, cell) in self.cells.iter().enumerate() {
            let text = now.cells.get(k).map_or("", String::as_str);
            if self.shown.cells.get(k).map(String::as_str) != Some(text) {
                cell.set_text_content(Some(text));
            }
        }
        self.shown = now;
        self.stale = false;
    }
}

impl LiveTable {
    /// A table body kept in step with `spec`. The order and the texts are separate effects: a
    /// re-sort after a paint must not mark every row stale again, or the rewrite would land in
    /// the next keystroke's frame.
    pub fn new(spec: TableSpec) -> LiveTable {
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
        let observer = web_sys::IntersectionObserver::new(callback.as_ref().unchecked_ref())
            .ok()
            .map(|observer| {
                Rc::new(Observer {
                    observer,
                    _callback: callback,
                })
            });
        // When the table's owner goes away, the observer stops watching its rows.
        let held = StoredValue::new_local(observer.clone());
        on_cleanup(move || {
            held.with_value(|o| o.as_ref().map(|o| o.observer.disconnect()));
            held.dispose();
        });
        let table = LiveTable {
            spec: Rc::new(spec),
            rows: Rc::new(RefCell::new(Vec::new())),
            shown: Rc::new(RefCell::new(Vec::new())),
            hidden,
            observer,
            pending: Rc::new(RefCell::new(Vec::new())),
            scheduled: Rc::new(Cell::new(false)),
            generation: Rc::new(Cell::new(0)),
            busy: RwSignal::new(false),
        };
        let (this, that) = (table.clone(), table.clone());
        Effect::new(move |_| this.place());
        Effect::new(move |_| that.refresh());
        table
    }

    /// Builds and places the rows `order` names (the effect follows the order only): new rows,
    /// and rows coming back into the body, are written at once.
    fn place(&self) {
        let (Some(body), order) = (self.spec.body.get(), (self.spec.order)()) else {
            return;
        };
        untrack(|| {
            let before = self.shown.borrow().clone();
            let mut rows = self.rows.borrow_mut();
            for &i in &order {
                if rows.len() <= i {
                    rows.resize_with(i + 1, || None);
                }
                if rows[i].is_none() {
                    rows[i] = LiveRow::build(i, self.spec.classes, self.spec.focusable);
                    if let (Some(o), Some(row)) = (&self.observer, &rows[i]) {
                        o.observer.observe(&row.tr);
                    }
                }
                if let Some(row) = rows[i].as_mut().filter(|_| !before.contains(&i)) {
                    row.write((self.spec.text)(i).unwrap_or_default(), self.spec.key_attr);
                }
            }
            drop(rows);
            self.arrange(&body, order);
        });
    }

    /// Writes the texts of the rows on screen now and the others after the next paint. (The
    /// effect follows the spec's `track` only, not the order.)
    fn refresh(&self) {
        let generation = self.generation.get().wrapping_add(1);
        self.generation.set(generation);
        (self.spec.track)();
        let deferred = untrack(|| {
            let mut deferred = false;
            let mut rows = self.rows.borrow_mut();
            for &i in self.shown.borrow().iter() {
                let Some(row) = rows.get_mut(i).and_then(Option::as_mut) else {
                    continue;
                };
                if self.on_screen(i) {
                    row.write((self.spec.text)(i).unwrap_or_default(), self.spec.key_attr);
                } else {
                    row.stale = true;
                    deferred = true;
                }
            }
            deferred
        });
        if self.busy.get_untracked() != deferred {
            self.busy.set(deferred);
        }
        if deferred {
            let this = self.clone();
            self.later(Box::new(move || this.catch_up(generation)));
        }
    }

    /// Set while rows off screen still show an older scenario (their writes wait for a paint).
    pub fn busy(&self) -> RwSignal<bool> {
        self.busy
    }

    /// Puts the body's rows in `order`, moving as few as it can.
    fn arrange(&self, body: &web_sys::HtmlTableSectionElement, order: Vec<usize>) {
        let before = self.shown.borrow().clone();
        if order == before {
            return;
        }
        let rows = self.rows.borrow();
        let tr = |i: usize| rows.get(i).and_then(Option::as_ref).map(|r| &r.tr);
        for &i in before.iter().filter(|i| !order.contains(i)) {
            if let Some(tr) = tr(i) {
                tr.remove();
            }
        }
        // Every moved row is laid out again, so only the rows outside the longest run already in
        // order move (a new estimate re-sorts by a few rows changing places).
        let was: Vec<Option<usize>> = order.iter().map(|i| before.iter().position(|b| b == i)).collect();
        let stay = crate::report::views::longest_increasing(&was);
        let mut next: Option<&web_sys::Element> = None;
        for (k, &i) in order.iter().enumerate().rev() {
            let Some(el) = tr(i) else { continue };
            if !stay[k] {
                let _ = body.insert_before(el, next.map(|e| e.as_ref()));
            }
            next = Some(el);
        }
        drop(rows);
        *self.shown.borrow_mut() = order;
    }

    /// Writes the rows left stale by the effect run `generation`, [`ROWS_PER_TASK`] a task, unless a
    /// newer run has come since.
    fn catch_up(&self, generation: u64) {
        if self.generation.get() != generation {
            return;
        }
        if untrack(|| self.write_stale()) {
            self.busy.try_set(false);
        } else {
            let this = self.clone();
            crate::web::browser::in_turn(move || this.catch_up(generation));
        }
    }

    /// Writes up to [`ROWS_PER_TASK`] of the rows left stale; whether none is left.
    fn write_stale(&self) -> bool {
        let mut rows = self.rows.borrow_mut();
        let mut written = 0;
        for &i in self.shown.borrow().iter() {
            if let Some(row) = rows.get_mut(i).and_then(Option::as_mut).filter(|r| r.stale) {
                if written == ROWS_PER_TASK {
                    return false;
                }
                row.write((self.spec.text)(i).unwrap_or_default(), self.spec.key_attr);
                written += 1;
            }
        }
        true
    }

    fn on_screen(&self, row: usize) -> bool {
        !self.hidden.borrow().get(row).copied().unwrap_or(false)
    }

    /// Runs `write` after the next paint, with every other write waiting then.
    pub fn later(&self, write: Box<dyn FnOnce()>) {
        self.pending.borrow_mut().push(write);
        if !self.scheduled.replace(true) {
            let (pending, scheduled) = (self.pending.clone(), self.scheduled.clone());
            crate::web::browser::after_next_paint(move || {
                scheduled.set(false);
                let writes = std::mem::take(&mut *pending.borrow_mut());
                for w in writes {
                    w();
                }
            });
        }
    }
}
