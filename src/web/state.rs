//! The page's shared state, which every component may use and none owns: the scenario signal,
//! what the link held that could not be used, what is wrong with each key, and how a change is
//! written to the address bar.

use leptos::prelude::*;

use crate::catalog::catalog;
use crate::scenario::Scenario;

/// The scenario every component reads and writes.
pub fn scenario() -> RwSignal<Scenario> {
    expect_context::<RwSignal<Scenario>>()
}

/// Reads a query string into a scenario that resolves, with one notice per key that could not be
/// used (the key is then left at its default).
pub fn scenario_from_query(query: &str) -> (Scenario, Vec<Notice>) {
    let cat = catalog();
    let (mut s, issues, unknown) = Scenario::from_query_with_unknown(query);
    let used = |s: &Scenario, i: &crate::scenario::KeyIssue| match s.default_text(i.key, cat).as_str() {
        "none" => format!("{i}; ignored"),
        d => format!("{i}; using {d}"),
    };
    let mut notices: Vec<(Option<crate::scenario::Key>, String)> = issues.iter().map(|i| (Some(i.key), used(&s, i))).collect();
    notices.extend(unknown.lines().into_iter().map(|l| (None, format!("{l} (ignored)"))));
    for _ in 0..4 {
        match s.resolve(cat) {
            Ok(_) => break,
            Err(issues) => {
                for i in issues {
                    s.clear(i.key);
                    notices.push((Some(i.key), used(&s, &i)));
                }
            }
        }
    }
    if s.resolve(cat).is_err() {
        s = Scenario::default();
        notices.push((None, "the link's scenario could not be used; showing the default".into()));
    }
    let notices = notices
        .into_iter()
        .map(|(key, text)| Notice {
            key,
            at_load: key.and_then(|k| s.value_text(k)),
            text,
        })
        .collect();
    (s, notices)
}

/// A notice about the link the page was opened with. One about a key goes away once that key is
/// changed on the page.
#[derive(Clone, Debug, PartialEq)]
pub struct Notice {
    pub key: Option<crate::scenario::Key>,
    /// The key's value as the page started with it.
    pub at_load: Option<String>,
    pub text: String,
}

/// What is wrong with each key now: the scenario's own problems, and the link's notices about
/// keys that still hold what the page opened with. A select shows its key's beside it.
#[derive(Clone, Copy)]
pub struct KeyProblems(pub Memo<Vec<(crate::scenario::Key, String)>>);

/// Writes the scenario to the address bar as a committed change (a new history entry).
#[derive(Clone, Copy)]
pub struct UrlCommit(pub Callback<()>);
