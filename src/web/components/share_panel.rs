//! Share the scenario: a link to copy, and an iframe snippet to paste into a blog.

use leptos::prelude::*;

use crate::scenario::Presentation;
use crate::web::browser;
use crate::web::state::scenario;

/// The share panel: the link (`share-url`), a copy button (`copy-link`) and the embed snippet
/// (`embed-snippet`) for the current scenario.
#[component]
pub fn SharePanel() -> impl IntoView {
    let scenario = scenario();
    let base = browser::location_base();
    let link = {
        let base = base.clone();
        move || format!("{base}?{}", scenario.with(|s| s.to_query()))
    };
    let estimate = expect_context::<Memo<Option<(crate::estimator::Inputs, crate::estimator::Estimate)>>>();
    let snippet = move || {
        let embed = Presentation {
            embed: true,
            views: vec![crate::scenario::View::Context.id().into()],
        };
        let (title, notes) = estimate.with(|e| {
            e.as_ref().map_or((String::new(), 0), |(inputs, e)| {
                let title = scenario.with(|s| crate::report::views::scenario_title(inputs, s, crate::catalog::catalog()));
                (title, e.notes.len())
            })
        });
        let height = crate::report::views::embed_height(&embed.views, notes);
        // The iframe has the height the views need at 700 px; the script sizes it to what the
        // embed reports, so it is never cut off nor left with a gap, at any column width.
        format!(
            "<iframe src=\"{base}?{}{}\" width=\"100%\" height=\"{height}\" loading=\"lazy\" title=\"tokbound: {}\" style=\"border:0;width:100%\"></iframe>\n<script>addEventListener(\"message\",function(e){{var d=e.data;if(!d||d.tokbound!==\"height\")return;document.querySelectorAll(\"iframe\").forEach(function(f){{if(f.contentWindow===e.source)f.style.height=Math.ceil(d.height)+\"px\"}})}})</script>",
            scenario.with(|s| s.to_query()),
            embed.to_query_suffix(),
            title.replace('"', "&quot;").replace('<', "&lt;")
        )
    };
    let (copied, set_copied) = signal(None::<bool>);
    let link_for_copy = link.clone();
    view! {
        <section class="share" aria-label="share">
            <h2>"Share this scenario"</h2>
            <div class="share-row">
                <input type="text" readonly=true data-testid="share-url" aria-label="link to this scenario" prop:value=link />
                <button
                    type="button"
                    data-testid="copy-link"
                    on:click={move |_| {
                        let text = link_for_copy();
                        wasm_bindgen_futures::spawn_local(async move {
                            set_copied.set(Some(browser::copy_to_clipboard(text).await));
                        });
                    }}
                >
                    {move || match copied.get() {
                        None => "Copy link",
                        Some(true) => "Copied",
                        Some(false) => "Copy failed: select the link",
                    }}
                </button>
            </div>
            <label class="field wide">
                <span class="field-label">"Embed in a page (iframe)"</span>
                <textarea readonly=true rows="4" data-testid="embed-snippet" prop:value=snippet></textarea>
            </label>
        </section>
    }
}
