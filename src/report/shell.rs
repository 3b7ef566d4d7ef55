//! The page's frame as static HTML, written at build time (`tokbound shell`, run by Trunk's
//! pre-build hook into index.html): the title, the form's outline and the default scenario's
//! headline, computed here by the estimator itself, so the first paint of a plain visit shows real
//! figures before the WebAssembly arrives. A shared link or an embed shows "computing…" in their
//! place (index.html's inline script) until its own estimate replaces the frame.

use crate::catalog::Catalog;
use crate::estimator::estimate;
use crate::report::views;
use crate::scenario::Scenario;
use crate::text::units::{fmt_band_parts, fmt_tok_s};

/// Text safe inside HTML elements and attribute values.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Which headline [`headline`] writes: the frame's, of the default scenario at build time
/// (`shell-ceiling`), or the page's first view, of the link's scenario in the browser (`ceiling`,
/// the app's own hook, which the app's headline then takes over).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Figures {
    Frame,
    Live,
}

/// What the ceiling is, beside its figure: the expected figure above it is the one to read.
pub const CEILING_MEANS: &str = " ceiling: the most this memory can give, at 100% of its bandwidth";

/// The headline's lines for `scenario` (its title, expected band, ceiling, division, bound and
/// fit, and the place its levers take in the app's headline), the contents of `.shell-default`.
pub fn headline(cat: &Catalog, scenario: &Scenario, figures: Figures) -> Result<String, String> {
    let inputs = scenario
        .resolve(cat)
        .map_err(|issues| format!("the scenario does not resolve: {}", issues.len()))?;
    let e = estimate(&inputs);
    let title = views::scenario_title(&inputs, scenario, cat);
    let basis = views::expected_basis(scenario.backend(cat).id(), &scenario.calibration_group(cat), false);
    let ceiling_id = match figures {
        Figures::Frame => "shell-ceiling",
        Figures::Live => "ceiling",
    };
    let (expected, band) = fmt_band_parts(e.expected_tok_s, e.expected_low_tok_s, e.expected_high_tok_s);
    Ok(format!(
        concat!(
            r#"<p class="scenario-title">{title}</p>"#,
            r#"<p class="big">Expected <span class="fig">{expected} tok/s <span class="band">{band}</span></span><small>{basis}</small></p>"#,
            r#"<p class="ceiling"><span class="fig" data-testid="{ceiling_id}">{ceiling} tok/s</span><span class="label">{means}</span></p>"#,
            r#"<p class="division">{division}</p><p class="bound">{bound}</p><p class="fit">{fit}</p><div class="headline-levers"></div>"#,
        ),
        title = escape(&title),
        ceiling_id = ceiling_id,
        ceiling = escape(&fmt_tok_s(e.ceiling_tok_s)),
        means = CEILING_MEANS,
        expected = escape(&expected),
        band = escape(&band),
        basis = escape(&basis),
        division = escape(&views::division(&e)),
        bound = escape(&views::bound_text(&e)),
        fit = escape(&views::fit_text(&e)),
    ))
}

/// The frame: `#shell`, with the default scenario's headline in `.shell-default` and the
/// "computing…" line a shared link shows instead in `.shell-computing`.
pub fn html(cat: &Catalog) -> Result<String, String> {
    let headline = headline(cat, &Scenario::default(), Figures::Frame)?;
    let legends: String = ["Machine", "Model", "Context and memory"]
        .iter()
        .map(|l| format!(r#"<fieldset class="picker shell-fieldset"><legend>{l}</legend><p class="hint">loading…</p></fieldset>"#))
        .collect();
    Ok(format!(
        concat!(
            r#"<div id="shell" data-testid="shell"><header class="top"><h1>tokbound</h1>"#,
            r#"<p class="tagline">How fast will this model type on my machine? Memory bandwidth ÷ bytes per token.</p></header>"#,
            r#"<main><div class="layout"><div class="shell-form" aria-hidden="true">{legends}</div><div class="results">"#,
            r#"<section class="headline" aria-busy="true"><div class="shell-default" data-testid="shell-default">{headline}</div>"#,
            r#"<div class="shell-computing" data-testid="shell-computing" hidden><p class="scenario-title">Reading the link…</p>"#,
            r#"<p class="big"><span class="computing">computing…</span></p></div></section></div></div></main></div>"#
        ),
        legends = legends,
        headline = headline,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::catalog;

    #[test]
    fn the_frame_carries_the_default_scenarios_figures_from_the_estimator() {
        let html = html(catalog()).unwrap();
        let e = estimate(&Scenario::default().resolve(catalog()).unwrap());
        assert!(html.contains(&format!(
            r#"<span class="fig" data-testid="shell-ceiling">{} tok/s</span>"#,
            fmt_tok_s(e.ceiling_tok_s)
        )));
        assert!(html.contains(&escape(&views::division(&e))));
        // The expected figure is the big one, the ceiling after it with what it means, and the
        // levers' place is kept as the app's headline keeps it.
        let (expected, band) = fmt_band_parts(e.expected_tok_s, e.expected_low_tok_s, e.expected_high_tok_s);
        let big = format!(
            r#"<p class="big">Expected <span class="fig">{expected} tok/s <span class="band">{}</span></span>"#,
            escape(&band)
        );
        assert!(html.contains(&big), "{html}");
        assert!(html.find(&big) < html.find("shell-ceiling") && html.contains(CEILING_MEANS));
        assert!(html.contains(r#"<div class="headline-levers"></div>"#));
        assert!(html.contains("computing…") && html.contains(" hidden>"));
        assert!(!html.contains(r#"data-testid="ceiling""#), "the frame never carries the app's hook");
        assert_eq!(escape(r#"a<b & "c">"#), "a&lt;b &amp; &quot;c&quot;&gt;");
    }

    #[test]
    fn the_first_view_writes_the_links_own_figures_under_the_apps_hook() {
        let (scenario, _) = crate::scenario::link::read("?hw=m4-max-40c&model=llama-3.1-8b&quant=q8_0&ctx=8192", catalog());
        let live = headline(catalog(), &scenario, Figures::Live).unwrap();
        let e = estimate(&scenario.resolve(catalog()).unwrap());
        assert!(live.contains(&format!(
            r#"<span class="fig" data-testid="ceiling">{} tok/s</span>"#,
            fmt_tok_s(e.ceiling_tok_s)
        )));
        assert!(live.contains("Llama 3.1 8B"), "{live}");
        let frame = headline(catalog(), &Scenario::default(), Figures::Frame).unwrap();
        assert_ne!(live.replace(r#""ceiling""#, r#""shell-ceiling""#), frame);
    }
}
