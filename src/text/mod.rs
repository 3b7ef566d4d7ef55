//! Text in and out, below every other layer: numbers and sizes as people type them
//! ([`units`], [`decimal`]), figures as the page and the CLI write them, and user text cut short
//! for messages.

pub mod decimal;
pub mod units;

/// Cuts long user text in messages so a hostile URL cannot flood the page.
pub fn shorten(t: &str) -> String {
    if t.chars().count() > 40 {
        format!("{}…", t.chars().take(40).collect::<String>())
    } else {
        t.to_string()
    }
}
