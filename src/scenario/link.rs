//! A link as the page opens it: its query string read into a scenario that resolves, with one
//! notice per key that could not be used. The page's first view and the app read it the same way,
//! so both show the same scenario.

use super::{Key, KeyIssue, Scenario};
use crate::catalog::Catalog;

/// Reads a query string into a scenario that resolves, with one notice per key that could not be
/// used (the key is then left at its default).
pub fn read(query: &str, cat: &Catalog) -> (Scenario, Vec<Notice>) {
    let (mut s, issues, unknown) = Scenario::from_query_with_unknown(query);
    let used = |s: &Scenario, i: &KeyIssue| match s.default_text(i.key, cat).as_str() {
        "none" => format!("{i}; ignored"),
        d => format!("{i}; using {d}"),
    };
    let mut notices: Vec<(Option<Key>, String)> = issues.iter().map(|i| (Some(i.key), used(&s, i))).collect();
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

/// Whether the link needs the long tail of GPUs before it is read (the page fetches it first): it
/// names a machine of the long tail's id shape that the curated catalog lacks, here or among
/// `with=`, or asks for every machine (`machines=all`).
pub fn needs_long_tail(query: &str, cat: &Catalog) -> bool {
    let (s, _) = Scenario::from_query(query);
    let missing = |id: &str| crate::catalog::long_tail::is_long_tail_id(id) && !cat.machines.iter().any(|m| m.id == id);
    s.all_machines() || s.text(Key::Hw).is_some_and(missing) || s.with_ids().iter().any(|id| missing(id))
}

/// Whether the link names a CPU (`cpu=`) that the CPUs at hand lack: on the page, where the long
/// tail of CPUs is not loaded yet, one of it (the page fetches it first); never in the CLI.
pub fn needs_cpu_long_tail(query: &str, cat: &Catalog) -> bool {
    let (s, _) = Scenario::from_query(query);
    !crate::catalog::cpus::all_loaded() && s.text(Key::Cpu).is_some_and(|id| cat.cpu(id).is_err())
}

/// A notice about the link the page was opened with. One about a key goes away once that key is
/// changed on the page.
#[derive(Clone, Debug, PartialEq)]
pub struct Notice {
    pub key: Option<Key>,
    /// The key's value as the page started with it.
    pub at_load: Option<String>,
    pub text: String,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::catalog;

    #[test]
    fn a_link_resolves_with_a_notice_per_key_it_could_not_use() {
        let (s, notices) = read("?hw=m4-max-40c&model=no-such-model&ctx=8192&colour=blue", catalog());
        assert!(s.resolve(catalog()).is_ok());
        assert_eq!(s.value_text(Key::Hw).as_deref(), Some("m4-max-40c"));
        assert_eq!(s.value_text(Key::Ctx).as_deref(), Some("8192"));
        assert!(
            notices
                .iter()
                .any(|n| n.key == Some(Key::Model) && n.text.contains("no-such-model")),
            "{notices:?}"
        );
        assert!(notices.iter().any(|n| n.key.is_none() && n.text.contains("colour")), "{notices:?}");
        let (plain, none) = read("", catalog());
        assert_eq!(plain, Scenario::default());
        assert!(none.is_empty());
    }

    #[test]
    fn a_link_naming_the_long_tail_needs_it_first() {
        let cat = catalog();
        assert!(needs_long_tail("?hw=geforce-gtx-1660-c3365&model=llama-3.1-8b", cat));
        assert!(needs_long_tail("?hw=rtx-4090&with=radeon-rx-580-c2938", cat));
        assert!(needs_long_tail("?machines=all", cat));
        assert!(!needs_long_tail("?hw=rtx-4090&machines=curated", cat));
        assert!(!needs_long_tail("", cat));
        // The CLI has every CPU at hand.
        assert!(!needs_cpu_long_tail("?hw=ddr4-2666-12ch&cpu=xeon-gold-6138", cat));
    }
}
