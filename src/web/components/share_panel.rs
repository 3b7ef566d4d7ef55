//! Share the scenario: a link to copy, and an iframe snippet to paste into a blog, with the
//! views it shows chosen here.

use leptos::prelude::*;

use super::copy_button::CopyButton;
use crate::report::views;
use crate::scenario::{Presentation, View};
use crate::web::browser;
use crate::web::state::scenario;

/// The share panel: the link (`share-url`) and its copy button (`copy-link`), the views the
/// embed shows (`embed-views`), and the embed snippet (`embed-snippet`) with its copy button
/// (`embed-snippet-copy`).
#[component]
pub fn SharePanel() -> impl IntoView {
    let scenario = scenario();
    let base = browser::location_base();
    let link = {
        let base = base.clone();
        move || format!("{base}?{}", scenario.with(|s| s.to_query()))
    };
    let estimate = expect_context::<Memo<Option<(crate::estimator::Inputs, crate::estimator::Estimate)>>>();
    // The embed's views beside its headline: the context chart until others are chosen.
    let chosen = RwSignal::new(vec![View::Context]);
    let snippet = move || {
        let embed = Presentation {
            embed: true,
            views: chosen.with(|c| {
                View::ALL
                    .into_iter()
                    .filter(|v| c.contains(v))
                    .map(|v| v.id().to_string())
                    .collect()
            }),
            theme: None,
        };
        let (title, notes) = estimate.with(|e| {
            e.as_ref().map_or((String::new(), 0), |(inputs, e)| {
                let title = scenario.with(|s| views::scenario_title(inputs, s, crate::catalog::catalog()));
                (title, e.notes.len())
            })
        });
        let height = views::embed_height(&embed.views, notes);
        // The iframe has the height the views need at 700 px; the script sizes it to what the
        // embed reports, so it is never cut off nor left with a gap, at any column width.
        format!(
            "<iframe src=\"{base}?{}{}\" width=\"100%\" height=\"{height}\" loading=\"lazy\" title=\"tokbound: {}\" style=\"border:0;width:100%\"></iframe>\n<script>addEventListener(\"message\",function(e){{var d=e.data;if(!d||d.tokbound!==\"height\")return;document.querySelectorAll(\"iframe\").forEach(function(f){{if(f.contentWindow===e.source)f.style.height=Math.ceil(d.height)+\"px\"}})}})</script>",
            scenario.with(|s| s.to_query()),
            embed.to_query_suffix(),
            title.replace('"', "&quot;").replace('<', "&lt;")
        )
    };
    view! {
        <section class="share" aria-label="share">
            <h2>"Share this scenario"</h2>
            <div class="share-row">
                <input type="text" readonly=true data-testid="share-url" aria-label="link to this scenario" prop:value=link.clone() />
                <CopyButton testid="copy-link".to_string() text=Signal::derive(link) label="Copy link" failed="Copy failed: select the link" />
            </div>
            <fieldset class="embed-views" data-testid="embed-views">
                <legend>"The embed shows its headline and"</legend>
                {View::ALL.into_iter().filter(|v| *v != View::Headline).map(|v| view_choice(v, chosen)).collect_view()}
            </fieldset>
            <label class="field wide">
                <span class="field-label">"Embed in a page (iframe)"</span>
                <textarea readonly=true rows="4" data-testid="embed-snippet" prop:value=snippet.clone()></textarea>
            </label>
            <CopyButton testid="embed-snippet-copy".to_string() text=Signal::derive(snippet) label="Copy embed" failed="Copy failed: select the snippet" />
        </section>
    }
}

/// One view's checkbox (its `value` the view's name in links).
fn view_choice(v: View, chosen: RwSignal<Vec<View>>) -> impl IntoView {
    view! {
        <label class="field check">
            <input
                type="checkbox"
                value=v.id()
                prop:checked=move || chosen.with(|c| c.contains(&v))
                on:change=move |ev| {
                    let on = event_target_checked(&ev);
                    chosen.update(|c| {
                        c.retain(|x| *x != v);
                        if on {
                            c.push(v);
                        }
                    });
                }
            />
            <span>{views::view_label(v)}</span>
        </label>
    }
}
