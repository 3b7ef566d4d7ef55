//! Finding a machine, a CPU or a model as people type it: "rtx4090", "nvidia 4090", "amd 7900",
//! "macbook", "mac studio m2", "7950x", "epyc 9554", "llama 70b", "deepseek r1 671". Case, spaces,
//! hyphens and vendor words do not matter, and Apple's product names stand for the chips they ship
//! with. A model's words are looked for each on its own, in any order; a number is a size ("70b",
//! "671", "270m": the parameter count as names round it) or a version ("3.1"), and the model
//! itself ranks before its fine-tunes and distills: the fewer words of its name the query leaves
//! unexplained, the higher.

use super::cpus::Cpu;
use super::{Catalog, Kind, Machine, Model};
use crate::text::decimal;

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

/// Lowercase words split at anything that is not a letter or digit, a point between two digits
/// kept: "Qwen2.5 32B-Instruct" → "qwen2.5", "32b", "instruct".
fn words(text: &str) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let digit = |i: Option<usize>| i.and_then(|i| chars.get(i)).is_some_and(char::is_ascii_digit);
    let mut out = Vec::new();
    let mut word = String::new();
    for (i, c) in chars.iter().enumerate() {
        if c.is_ascii_alphanumeric() || (*c == '.' && digit(i.checked_sub(1)) && digit(Some(i + 1))) {
            word.push(c.to_ascii_lowercase());
        } else if !word.is_empty() {
            out.push(std::mem::take(&mut word));
        }
    }
    if !word.is_empty() {
        out.push(word);
    }
    out
}

/// A word as it is compared inside a longer text: letters and digits only ("qwen2.5" → "qwen25").
fn squashed(word: &str) -> String {
    word.chars().filter(char::is_ascii_alphanumeric).collect()
}

/// Letters and digits only, vendor words left out: "NVIDIA GeForce RTX 4090" → "rtx4090".
fn squash(text: &str) -> String {
    words(text)
        .iter()
        .filter(|w| !VENDOR_WORDS.contains(&w.as_str()))
        .map(|w| squashed(w))
        .collect()
}

/// The numbers inside a text's words, as versions are written: "Qwen3.5 9B" → "3.5", "9".
fn numbers(text: &str) -> Vec<String> {
    words(text)
        .iter()
        .flat_map(|w| {
            w.split(|c: char| !c.is_ascii_digit() && c != '.')
                .filter(|n| !n.is_empty())
                .map(str::to_string)
                .collect::<Vec<_>>()
        })
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

/// A laptop part's name as the curated catalog writes one: "Laptop GPU" where TechPowerUp says
/// "Mobile" or "Max-Q", or after the model number where it says neither ("GeForce GTX 980M Laptop GPU").
fn laptop_name(name: &str) -> String {
    let name = name.split(" (").next().unwrap_or(name);
    if name.contains(" Mobile") || name.contains(" Max-Q") {
        name.replace(" Mobile", " Laptop GPU").replace(" Max-Q", " Laptop GPU")
    } else {
        format!("{name} Laptop GPU")
    }
}

/// A parameter count as typed: "70b", "671", "1.5b", "270m".
#[derive(Clone, Copy)]
struct Size {
    /// The number typed.
    value: f64,
    /// Its unit in billions' parts: 1 for billions, 1000 for millions.
    scale: f64,
    /// The decimals typed.
    decimals: i32,
}

impl Size {
    fn parse(word: &str) -> Option<Size> {
        let (number, scale) = match (word.strip_suffix('b'), word.strip_suffix('m')) {
            (Some(n), _) => (n, 1.0),
            (_, Some(n)) => (n, 1000.0),
            _ => (word, 1.0),
        };
        if number.is_empty() || !number.chars().all(|c| c.is_ascii_digit() || c == '.') {
            return None;
        }
        Some(Size {
            // Not str::parse: the page keeps std's float tables out (text::decimal says why).
            value: decimal::parse(number)?,
            scale,
            decimals: number.split_once('.').map_or(0, |(_, d)| d.len() as i32),
        })
    }

    /// Whether a model of `params_b` billion parameters goes by this size: within 3%, or its count
    /// cut to the decimals typed, as names round down (Qwen2.5 7B has 7.62 billion).
    fn names(self, params_b: f64) -> bool {
        let count = params_b * self.scale;
        let unit = 10f64.powi(self.decimals);
        // The product's rounding error (0.27 × 1000 = 270.00000000000006) is not a digit.
        let cut = (count * unit + 1e-9).floor() / unit;
        (count - self.value).abs() <= 0.03 * self.value + 1e-9 || (cut - self.value).abs() < 1e-9
    }
}

/// One word of a query.
struct Word {
    text: String,
    squashed: String,
    /// The parameter count it names, where it is a number.
    size: Option<Size>,
}

impl Word {
    /// Whether this word accounts for `w`, a word of a model's name: one holds the other, or a
    /// number names the same size or the same version.
    fn explains(&self, w: &str) -> bool {
        match self.size {
            Some(size) => {
                numbers(w).contains(&self.text)
                    || Size::parse(w).is_some_and(|s| (s.value / s.scale - size.value / size.scale).abs() < 1e-9)
            }
            None => {
                let w = squashed(w);
                w.contains(&self.squashed) || self.squashed.contains(&w)
            }
        }
    }
}

/// A query read once: the Apple product it names (as chip tiers), and its other words, vendor
/// words left out.
struct Query {
    tiers: Option<&'static [Tier]>,
    words: Vec<Word>,
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
        let words = ws
            .into_iter()
            .filter(|w| !VENDOR_WORDS.contains(&w.as_str()))
            .map(|w| if w == "mobile" { "laptop".to_string() } else { w })
            .map(|text| Word {
                squashed: squashed(&text),
                size: Size::parse(&text),
                text,
            })
            .collect();
        Query { tiers, words }
    }

    /// Whether every word is somewhere in one of `texts`.
    /// Machines and CPUs: the words as typed, joined, in one of `texts`. Their names are long
    /// ("Apple M2 Ultra (76-core GPU, up to 192 GB)"), so words found apart would find too much:
    /// `core ultra 9` is an Intel part, not an Apple one.
    fn in_texts(&self, texts: &[&str]) -> bool {
        let typed: String = self.words.iter().map(|w| w.squashed.as_str()).collect();
        texts.iter().any(|t| squash(t).contains(&typed))
    }

    /// A machine by its name or id; a laptop part also by its name with "Laptop" in place of
    /// TechPowerUp's "Mobile" or "Max-Q" ([`laptop_name`]), as `mobile` in a query reads `laptop`.
    fn machine(&self, m: &Machine) -> bool {
        let product = match self.tiers {
            Some(tiers) => tier(m).is_some_and(|t| tiers.contains(&t)),
            None => true,
        };
        product && (self.in_texts(&[&m.name, &m.id]) || (m.laptop && self.in_texts(&[&laptop_name(&m.name)])))
    }

    /// A CPU by its name or id; never for blank text, nor for an Apple product (its chips are
    /// machines of their own).
    fn cpu(&self, c: &Cpu) -> bool {
        self.tiers.is_none() && !self.words.is_empty() && self.in_texts(&[&c.name, &c.id])
    }

    /// A model: every word somewhere in its name, id or family, in any order; a number by its
    /// size, a word of its name ("4B") or a version in them.
    fn model(&self, m: &Model) -> bool {
        let texts = [m.name.as_str(), m.id.as_str(), m.family.as_str()];
        let numbers: Vec<String> = texts.iter().flat_map(|t| numbers(t)).collect();
        let named = words(&m.name);
        self.tiers.is_none()
            && self.words.iter().all(|w| match w.size {
                Some(size) => size.names(m.params_b) || numbers.contains(&w.text) || named.contains(&w.text),
                None => texts.iter().any(|t| squash(t).contains(&w.squashed)),
            })
    }

    /// How many words of a model's name no word of the query accounts for: 0 for "DeepSeek R1"
    /// on `deepseek r1`, 3 for "DeepSeek R1 Distill Llama 8B".
    fn unexplained(&self, m: &Model) -> usize {
        words(&m.name)
            .iter()
            .filter(|w| !VENDOR_WORDS.contains(&w.as_str()) && !self.words.iter().any(|q| q.explains(w)))
            .count()
    }
}

impl Catalog {
    /// The machines a search box's text finds, the curated catalog's first, then the long tail's
    /// where it is loaded; every curated machine for blank text.
    pub fn search_machines(&self, text: &str) -> Vec<&Machine> {
        if text.trim().is_empty() {
            return self.machines.iter().collect();
        }
        let q = Query::new(text);
        self.every_machine().filter(|m| q.machine(m)).collect()
    }

    /// The CPUs a search box's text names, each with the machines that carry it
    /// ([`Catalog::machines_with_cpu`], its platform's first), in CPU catalog order; none for
    /// blank text. A machine the text finds by its own name is left out with its own CPU.
    pub fn search_cpu_machines(&self, text: &str) -> Vec<(&Machine, &Cpu)> {
        let q = Query::new(text);
        self.every_cpu()
            .filter(|c| q.cpu(c))
            .flat_map(|c| {
                self.machines_with_cpu(c)
                    .into_iter()
                    .filter(|m| !(q.machine(m) && m.cpu.as_deref() == Some(c.id.as_str())))
                    .map(move |m| (m, c))
            })
            .collect()
    }

    /// The models a search box's text finds (every word in the name, id or family; a number as a
    /// size or a version), the model itself before its fine-tunes and distills, otherwise in
    /// [`Catalog::models_in_order`]; every model in that order for blank text.
    pub fn search_models(&self, text: &str) -> Vec<&Model> {
        let q = Query::new(text);
        let mut found: Vec<&Model> = self.models_in_order().into_iter().filter(|m| q.model(m)).collect();
        found.sort_by_key(|m| q.unexplained(m));
        found
    }

    /// The machines whose name, without its parenthesised memory, is `device` ("NVIDIA GeForce
    /// RTX 4090" for "NVIDIA GeForce RTX 4090 (24 GiB)"), case, spacing and punctuation aside:
    /// what a runtime's device line or a browser's GPU name is matched against first.
    pub fn machines_named(&self, device: &str) -> Vec<&Machine> {
        let want = words(device);
        if want.is_empty() {
            return Vec::new();
        }
        self.every_machine()
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
