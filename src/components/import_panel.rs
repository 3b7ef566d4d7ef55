//! Import a model: paste or drop a Hugging Face config.json, or choose or drop a .gguf file
//! (only its header is read, in growing slices).

use leptos::prelude::*;

use super::scenario;
use crate::import::{config, gguf};
use crate::imported::Imported;

/// Reads bytes `0..len` of `file`.
async fn read_prefix(file: &web_sys::File, len: u64) -> Result<Vec<u8>, String> {
    let blob = file
        .slice_with_f64_and_f64(0.0, len as f64)
        .map_err(|_| "could not slice the file".to_string())?;
    let buffer = wasm_bindgen_futures::JsFuture::from(blob.array_buffer())
        .await
        .map_err(|_| "could not read the file".to_string())?;
    Ok(js_sys::Uint8Array::new(&buffer).to_vec())
}

/// Reads a GGUF header from `file`, growing the slice until the header parses.
async fn read_gguf(file: &web_sys::File) -> Result<gguf::Gguf, String> {
    let size = file.size() as u64;
    let mut len = size.min(1 << 20);
    loop {
        let prefix = read_prefix(file, len).await?;
        match gguf::parse(&prefix, size) {
            Ok(g) => return Ok(g),
            Err(gguf::GgufError::NeedMore { at_least }) if at_least > len && len < size => {
                len = at_least.max(len.saturating_mul(2)).min(size)
            }
            Err(e) => return Err(e.to_string()),
        }
    }
}

async fn read_text(file: &web_sys::File) -> Result<String, String> {
    if file.size() > 16.0 * 1024.0 * 1024.0 {
        return Err("a config.json larger than 16 MB is not a config.json".into());
    }
    let text = wasm_bindgen_futures::JsFuture::from(file.text())
        .await
        .map_err(|_| "could not read the file".to_string())?;
    text.as_string().ok_or_else(|| "the file is not text".into())
}

/// The import panel: `import-config` (textarea), `import-config-apply`, `import-file`, and the
/// result or error in `import-status`.
#[component]
pub fn ImportPanel() -> impl IntoView {
    let scenario = scenario();
    let imported = expect_context::<RwSignal<Option<Imported>>>();
    let commit = expect_context::<super::app::UrlCommit>();
    let (config_text, set_config_text) = signal(String::new());
    let (status, set_status) = signal(None::<Result<Vec<String>, String>>);
    let (busy, set_busy) = signal(false);

    let accept = move |result: Result<Imported, String>| match result {
        Ok(i) => {
            let mut lines = i.summary.clone();
            lines.extend(i.unread.iter().map(|u| format!("not read: {u}")));
            lines.push(
                "The link carries this model's whole architecture (and file size): opening it gives this estimate without the file.".into(),
            );
            scenario.update(|s| i.apply_to(s));
            imported.set(Some(i));
            commit.0.run(());
            set_status.set(Some(Ok(lines)));
        }
        Err(e) => set_status.set(Some(Err(e))),
    };
    let apply_config = move || accept(config::from_config_json(&config_text.get_untracked()).map(Imported::from_config));
    let take_file = move |file: web_sys::File| {
        set_busy.set(true);
        wasm_bindgen_futures::spawn_local(async move {
            let name = file.name();
            let result = if name.to_ascii_lowercase().ends_with(".json") {
                match read_text(&file).await {
                    Ok(text) => {
                        set_config_text.set(text.clone());
                        config::from_config_json(&text).map(Imported::from_config)
                    }
                    Err(e) => Err(e),
                }
            } else {
                read_gguf(&file).await.and_then(|g| {
                    Imported::from_gguf(&g).ok_or_else(|| format!("{name}: the header has no model shape ({})", g.unread.join("; ")))
                })
            };
            accept(result.map_err(|e| format!("{name}: {e}")));
            set_busy.set(false);
        });
    };
    let on_file = move |ev: leptos::ev::Event| {
        let input: web_sys::HtmlInputElement = event_target(&ev);
        if let Some(file) = input.files().and_then(|f| f.get(0)) {
            take_file(file);
        }
    };
    let on_drop = move |ev: leptos::ev::DragEvent| {
        ev.prevent_default();
        if let Some(file) = ev.data_transfer().and_then(|d| d.files()).and_then(|f| f.get(0)) {
            take_file(file);
        }
    };
    view! {
        <section class="import" aria-label="import a model" on:dragover=|ev| ev.prevent_default() on:drop=on_drop>
            <h2>"Your own model"</h2>
            <p class="hint">"Paste a Hugging Face config.json, or choose or drop a .gguf file: only its header is read, never the weights, and nothing leaves this page."</p>
            <label class="field wide">
                <span class="field-label">"config.json"</span>
                <textarea rows="4" data-testid="import-config" placeholder="{\"num_hidden_layers\": 32, …}" prop:value={config_text} on:input={move |ev| set_config_text.set(event_target_value(&ev))}></textarea>
            </label>
            <div class="share-row">
                <button type="button" data-testid="import-config-apply" on:click={move |_| apply_config()}>"Use this config"</button>
                <label class="file">
                    <span>"GGUF or config.json file: "</span>
                    <input type="file" accept=".gguf,.json" data-testid="import-file" on:change={on_file} />
                </label>
            </div>
            <div data-testid="import-status" class="import-status" role="status">
                {move || busy.get().then(|| view! { <p>"Reading the header…"</p> })}
                {move || match status.get() {
                    Some(Ok(lines)) => view! { <ul class="ok">{lines.into_iter().map(|l| view! { <li>{l}</li> }).collect_view()}</ul> }.into_any(),
                    Some(Err(e)) => view! { <p class="error">{e}</p> }.into_any(),
                    None => ().into_any(),
                }}
            </div>
        </section>
    }
}
