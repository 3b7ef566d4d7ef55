//! Share the scenario: a link to copy, and an iframe snippet to paste into a blog, with the
//! views it shows chosen here.

use leptos::prelude::*;

use super::copy_button::copy_button;
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
    // The embed's views beside its headline, as `view=` writes them: the context chart until
    // others are chosen.
    let chosen = RwSignal::new(View::Context.id().to_string());
    let snippet = move || {
        let embed = Presentation {
            embed: true,
            views: chosen.with(|c| c.split(',').filter(|v| !v.is_empty()).map(str::to_string).collect()),
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
                {copy_button("copy-link".into(), Signal::derive(link), "Copy link", "Copy failed: select the link")}
            </div>
            <fieldset class="embed-views" data-testid="embed-views">
                <legend>"The embed shows its headline and"</legend>
                {View::ALL.into_iter().filter(|v| *v != View::Headline).map(|v| view_choice(v, chosen)).collect_view()}
            </fieldset>
            <label class="field wide">
                <span class="field-label">"Embed in a page (iframe)"</span>
                <textarea readonly=true rows="4" data-testid="embed-snippet" prop:value=snippet.clone()></textarea>
            </label>
            {copy_button("embed-snippet-copy".into(), Signal::derive(snippet), "Copy embed", "Copy failed: select the snippet")}
        </section>
    }
}

/// One view's checkbox (its `value` the view's name in links); `chosen` holds the views ticked
/// as `view=` writes them, in the views' own order.
fn view_choice(v: View, chosen: RwSignal<String>) -> impl IntoView {
    let has = move |c: &str, w: View| c.split(',').any(|x| x == w.id());
    view! {
        <label class="field check">
            <input
                type="checkbox"
                value=v.id()
                prop:checked=move || chosen.with(|c| has(c, v))
                on:change=move |ev| {
                    let on = event_target_checked(&ev);
                    chosen.update(|c| {
                        let mut now = String::new();
                        for w in View::ALL {
                            if (w == v && on) || (w != v && has(c, w)) {
                                if !now.is_empty() {
                                    now.push(',');
                                }
                                now.push_str(w.id());
                            }
                        }
                        *c = now;
                    });
                }
            />
            <span>{views::view_label(v)}</span>
        </label>
    }
}
