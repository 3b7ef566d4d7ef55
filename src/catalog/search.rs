//! Finding a machine or a model as people type it: "rtx4090", "nvidia 4090", "amd 7900",
//! "macbook", "mac studio m2". Case, spaces, hyphens and vendor words do not matter, and Apple's
//! product names stand for the chips they ship with.

use super::{Catalog, Kind, Machine, Model};

/// Words that name a vendor or a brand line rather than a product: dropped from both sides.
const VENDOR_WORDS: &[&str] = &["nvidia", "geforce", "amd", "radeon", "intel", "apple", "qualcomm"];

/// A chip tier of Apple silicon: the plain chip, Pro, Max and Ultra.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Tier {
    Base,
    Pro,
    Max,
    Ultra,
}

/// Apple's products and the chip tiers they ship with (Apple's tech-specs pages): the longest
/// phrase is tried first, so "macbook pro" wins over "macbook".
const PRODUCTS: &[(&[&str], &[Tier])] = &[
    (&["macbook", "air"], &[Tier::Base]),
    (&["macbook", "pro"], &[Tier::Base, Tier::Pro, Tier::Max]),
    (&["macbook"], &[Tier::Base, Tier::Pro, Tier::Max]),
    (&["mac", "studio"], &[Tier::Max, Tier::Ultra]),
    (&["mac", "mini"], &[Tier::Base, Tier::Pro]),
    (&["mac", "pro"], &[Tier::Ultra]),
    (&["imac"], &[Tier::Base]),
];

/// Lowercase letters and digits only, vendor words left out: "NVIDIA GeForce RTX 4090" → "rtx4090".
fn squash(text: &str) -> String {
    words(text).into_iter().filter(|w| !VENDOR_WORDS.contains(&w.as_str())).collect()
}

/// Lowercase words split at anything that is not a letter or digit.
fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_ascii_lowercase)
        .collect()
}

/// An Apple machine's tier, from its id (`m3`, `m3-pro`, `m3-max-40c`, `m2-ultra-76c`).
fn tier(m: &Machine) -> Option<Tier> {
    if m.kind != Kind::Apple {
        return None;
    }
    let id = m.id.as_str();
    Some(if id.contains("-ultra") {
        Tier::Ultra
    } else if id.contains("-max") {
        Tier::Max
    } else if id.contains("-pro") {
        Tier::Pro
    } else {
        Tier::Base
    })
}

/// A query read once: the Apple product it names (as chip tiers), and the rest, squashed.
struct Query {
    tiers: Option<&'static [Tier]>,
    rest: String,
}

impl Query {
    fn new(text: &str) -> Query {
        let mut ws = words(text);
        let mut tiers = None;
        for (phrase, t) in PRODUCTS {
            if let Some(at) = ws
                .windows(phrase.len())
                .position(|w| w.iter().zip(phrase.iter()).all(|(a, b)| a == b))
            {
                ws.drain(at..at + phrase.len());
                tiers = Some(*t);
                break;
            }
        }
        Query {
            tiers,
            rest: squash(&ws.join(" ")),
        }
    }

    fn text_matches(&self, texts: &[&str]) -> bool {
        self.rest.is_empty() || texts.iter().any(|t| squash(t).contains(&self.rest))
    }

    fn machine(&self, m: &Machine) -> bool {
        let product = match self.tiers {
            Some(tiers) => tier(m).is_some_and(|t| tiers.contains(&t)),
            None => true,
        };
        product && self.text_matches(&[&m.name, &m.id])
    }
}

impl Catalog {
    /// The machines a search box's text finds, in catalog order; every machine for blank text.
    pub fn search_machines(&self, text: &str) -> Vec<&Machine> {
        let q = Query::new(text);
        self.machines.iter().filter(|m| q.machine(m)).collect()
    }

    /// The models a search box's text finds (name, id or family), in [`Catalog::models_in_order`].
    pub fn search_models(&self, text: &str) -> Vec<&Model> {
        let q = Query::new(text);
        self.models_in_order()
            .into_iter()
            .filter(|m| q.tiers.is_none() && q.text_matches(&[&m.name, &m.id, &m.family]))
            .collect()
    }

    /// The machines whose name, without its parenthesised memory, is `device` ("NVIDIA GeForce
    /// RTX 4090" for "NVIDIA GeForce RTX 4090 (24 GiB)"), case, spacing and punctuation aside:
    /// what a runtime's device line or a browser's GPU name is matched against first.
    pub fn machines_named(&self, device: &str) -> Vec<&Machine> {
        let want = words(device);
        if want.is_empty() {
            return Vec::new();
        }
        self.machines
            .iter()
            .filter(|m| words(m.name.split(" (").next().unwrap_or(&m.name)) == want)
            .collect()
    }

    /// Every model, family by family (alphabetically), smallest first within a family.
    pub fn models_in_order(&self) -> Vec<&Model> {
        let mut models: Vec<&Model> = self.models.iter().collect();
        models.sort_by(|a, b| {
            a.family
                .cmp(&b.family)
                .then(a.params_b.total_cmp(&b.params_b))
                .then(a.name.cmp(&b.name))
        });
        models
    }
}

#[cfg(test)]
mod tests {
    use crate::catalog::catalog;

    fn ids(text: &str) -> Vec<String> {
        catalog().search_machines(text).iter().map(|m| m.id.clone()).collect()
    }

    #[test]
    fn spaces_hyphens_and_vendor_words_do_not_matter() {
        for q in ["rtx4090", "RTX 4090", "nvidia 4090", "geforce rtx-4090", "4090"] {
            assert!(ids(q).contains(&"rtx-4090".to_string()), "{q}: {:?}", ids(q));
        }
        assert!(ids("amd 7900").contains(&"rx-7900-xtx".to_string()), "{:?}", ids("amd 7900"));
        assert!(ids("nonesuch gpu 12345").is_empty());
        assert_eq!(ids("").len(), catalog().machines.len());
    }

    #[test]
    fn apple_products_stand_for_their_chips() {
        let macbook = ids("macbook");
        assert!(macbook.contains(&"m3-max-40c".to_string()) && macbook.contains(&"m4".to_string()));
        assert!(!macbook.iter().any(|id| id.contains("ultra")));
        let studio = ids("mac studio");
        assert!(studio.contains(&"m2-ultra-76c".to_string()) && studio.contains(&"m4-max-40c".to_string()));
        assert!(!studio.contains(&"m4".to_string()) && !studio.contains(&"m4-pro".to_string()));
        assert_eq!(ids("macbook air m2"), vec!["m2".to_string()]);
        assert!(ids("mac mini m4").contains(&"m4-pro".to_string()));
        assert!(ids("MacBook Pro M3 Max").iter().all(|id| id.starts_with("m3-max")));
    }

    #[test]
    fn models_are_found_and_ordered_family_then_size() {
        let cat = catalog();
        let found: Vec<&str> = cat.search_models("llama 3.1").iter().map(|m| m.id.as_str()).collect();
        assert!(found.contains(&"llama-3.1-8b") && found.contains(&"llama-3.1-70b"), "{found:?}");
        let ordered = cat.models_in_order();
        for w in ordered.windows(2) {
            assert!(w[0].family < w[1].family || (w[0].family == w[1].family && w[0].params_b <= w[1].params_b));
        }
        assert!(cat.search_models("gptoss").iter().all(|m| m.family == "gpt-oss"));
    }
}
