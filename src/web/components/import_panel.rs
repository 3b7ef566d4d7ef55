//! Import a model: paste or drop a Hugging Face config.json, or choose or drop a .gguf file
//! (only its header is read, in growing slices). A user's file or pasted text is parsed in the
//! parse worker ([`crate::web::parse_worker`]); a Hub download is parsed here, its size bounded
//! by the Range requests that fetch it.

use leptos::prelude::*;

use crate::web::state::scenario;
use wasm_bindgen::JsCast;

use crate::import::{gguf, hub};
use crate::report::imported::{self, Imported};
use crate::scenario::{Key, Value};
use crate::web::parse_worker;
use crate::web::tools;

/// One request to the Hub: a plain GET, with a `Range` header when `range` is given (a
/// CORS-safelisted header, so no preflight). Errors name what was asked for.
async fn fetch(url: &str, range: Option<u64>, what: &str) -> Result<web_sys::Response, String> {
    let init = web_sys::RequestInit::new();
    if let Some(len) = range {
        let headers = web_sys::Headers::new().map_err(|_| "could not build the request".to_string())?;
        headers
            .set("Range", &hub::range(len))
            .map_err(|_| "could not build the request".to_string())?;
        init.set_headers(&headers);
    }
    let window = web_sys::window().ok_or("no window")?;
    let response = wasm_bindgen_futures::JsFuture::from(window.fetch_with_str_and_init(url, &init))
        .await
        .map_err(|_| format!("could not reach Hugging Face for {what}: offline, or the network refused it"))?;
    let response: web_sys::Response = response.dyn_into().map_err(|_| "not a response".to_string())?;
    match hub::status_error(response.status(), what) {
        Some(e) => Err(e),
        None => Ok(response),
    }
}

async fn body_bytes(response: &web_sys::Response) -> Result<Vec<u8>, String> {
    let buffer = response.array_buffer().map_err(|_| "could not read the answer".to_string())?;
    let buffer = wasm_bindgen_futures::JsFuture::from(buffer)
        .await
        .map_err(|_| "the download stopped".to_string())?;
    Ok(js_sys::Uint8Array::new(&buffer).to_vec())
}

async fn body_text(response: &web_sys::Response) -> Result<String, String> {
    let text = response.text().map_err(|_| "could not read the answer".to_string())?;
    let text = wasm_bindgen_futures::JsFuture::from(text)
        .await
        .map_err(|_| "the download stopped".to_string())?;
    text.as_string().ok_or_else(|| "the answer is not text".into())
}

/// One GGUF file's header from the Hub, by Range requests that grow as the parser asks.
async fn remote_gguf(url: &str, name: &str, status: WriteSignal<Option<Result<Vec<String>, String>>>) -> Result<gguf::Gguf, String> {
    let mut len = gguf::FIRST_READ;
    loop {
        status.set(Some(Ok(vec![format!("Reading the first {:.1} MB of {name}…", len as f64 / 1e6)])));
        let response = fetch(url, Some(len), name).await?;
        let size = response
            .headers()
            .get("content-range")
            .ok()
            .flatten()
            .and_then(|h| hub::content_range_total(&h));
        let mut prefix = body_bytes(&response).await?;
        // A whole (small) file answers 200; a part 206 with its total length.
        let size = match (response.status(), size) {
            (206, Some(total)) => total,
            (206, None) => return Err(format!("{name}: the server did not say how long the file is")),
            _ => prefix.len() as u64,
        };
        prefix.truncate(len as usize);
        let have = prefix.len() as u64;
        match crate::in_part!(tools::gguf_header(prefix, size)).map_err(|e| format!("{name}: {e}"))? {
            Ok(g) => return Ok(g),
            Err(gguf::GgufError::NeedMore { at_least }) if at_least > len && have < size => len = at_least,
            Err(e) => return Err(format!("{name}: {e}")),
        }
    }
}

/// A GGUF on the Hub, every shard of a split one.
async fn hub_gguf(src: &hub::Source, file: &str, status: WriteSignal<Option<Result<Vec<String>, String>>>) -> Result<Imported, String> {
    let mut parts = Vec::new();
    for shard in hub::shards(file) {
        parts.push(remote_gguf(&src.file_url(&shard), &shard, status).await?);
    }
    let first = parts.remove(0);
    crate::in_part!(tools::gguf_model(first, parts))
        .map_err(|e| e.to_string())
        .and_then(|r| r)
        .map_err(|e| format!("{file}: {e}"))
}

/// A repository: its config.json if it has one, and its GGUF files to choose from.
async fn hub_repo(
    src: &hub::Source,
    status: WriteSignal<Option<Result<Vec<String>, String>>>,
) -> Result<(Option<Imported>, Vec<String>), String> {
    status.set(Some(Ok(vec![format!("Reading the list of files of {}…", src.repo)])));
    let listing = body_text(&fetch(&src.api_url(), None, &src.repo).await?).await?;
    let files = crate::in_part!(tools::hub_files(listing)).map_err(|e| e.to_string())??;
    let ggufs = hub::gguf_files(&files);
    if !files.iter().any(|f| f == "config.json") {
        return Ok((None, ggufs));
    }
    status.set(Some(Ok(vec![format!("Reading {}'s config.json…", src.repo)])));
    let text = body_text(&fetch(&src.file_url("config.json"), None, "its config.json").await?).await?;
    let imported = crate::in_part!(tools::config_model(text)).map_err(|e| e.to_string())??;
    Ok((Some(imported), ggufs))
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

/// Lands an imported model (with the Hub source's key where it came from there) and gives the
/// status lines that say so.
type Land = Callback<(Imported, Option<String>), Vec<String>>;

/// Starts reading a Hub source ([`run_hub_import`]). Where the page is split this is in the
/// readers' part (`tools`, [`crate::web::tools`]), which the import fetches for its readers anyway:
/// the download code is fetched with them, on the click that imports.
#[cfg_attr(tokbound_split, wasm_split_helpers::wasm_split(tools, fallible))]
fn start_hub_import(
    src: hub::Source,
    land: Land,
    set_url_status: WriteSignal<Option<Result<Vec<String>, String>>>,
    set_hub_files: WriteSignal<(Option<hub::Source>, Vec<String>)>,
) -> Result<(), crate::web::parts::Unloaded> {
    wasm_bindgen_futures::spawn_local(run_hub_import(src, land, set_url_status, set_hub_files));
    Ok(())
}

/// Reads a Hub source — a GGUF file, or a repository's config.json and GGUF list — and lands
/// the model it gives (`land`), saying what happened in `status` and offering the GGUF files.
async fn run_hub_import(
    src: hub::Source,
    land: Land,
    set_url_status: WriteSignal<Option<Result<Vec<String>, String>>>,
    set_hub_files: WriteSignal<(Option<hub::Source>, Vec<String>)>,
) {
    let result = match &src.file {
        Some(f) if f.ends_with(".gguf") => hub_gguf(&src, f, set_url_status).await.map(|i| (Some(i), Vec::new())),
        Some(f) => Err(format!(
            "{f} is neither a .gguf file nor a repository: give the repository, or one of its .gguf files"
        )),
        None => hub_repo(&src, set_url_status).await,
    };
    match result {
        Ok((Some(i), ggufs)) => {
            let mut lines = land.run((i, Some(src.key())));
            if !ggufs.is_empty() {
                lines.push(format!("{} GGUF files: choose one below for its exact size.", ggufs.len()));
            }
            set_hub_files.set((Some(src), ggufs));
            set_url_status.set(Some(Ok(lines)));
        }
        Ok((None, ggufs)) if ggufs.len() == 1 => {
            let file = src.with_file(&ggufs[0]);
            match hub_gguf(&file, &ggufs[0], set_url_status).await {
                Ok(i) => set_url_status.set(Some(Ok(land.run((i, Some(file.key())))))),
                Err(e) => set_url_status.set(Some(Err(e))),
            }
        }
        Ok((None, ggufs)) if !ggufs.is_empty() => {
            set_url_status.set(Some(Ok(vec![format!(
                "{} has no config.json but {} GGUF files: choose one.",
                src.repo,
                ggufs.len()
            )])));
            set_hub_files.set((Some(src), ggufs));
        }
        Ok((None, _)) => set_url_status.set(Some(Err(format!("{} has neither a config.json nor a GGUF file", src.repo)))),
        Err(e) => set_url_status.set(Some(Err(e))),
    }
}

/// The last line of every import's status.
const LINK_CARRIES: &str =
    "The link carries this model's whole architecture (and file size): opening it gives this estimate without the file.";

/// What an import says: its summary, what it did not read, and that the link carries it.
fn summary_lines(i: &Imported) -> Vec<String> {
    let mut lines = i.lines();
    lines.push(LINK_CARRIES.into());
    lines
}

/// A status: the lines of what happened, or the error.
fn status_view(status: Option<Result<Vec<String>, String>>) -> AnyView {
    match status {
        Some(Ok(lines)) => view! { <ul class="ok">{lines.into_iter().map(|l| view! { <li>{l}</li> }).collect_view()}</ul> }.into_any(),
        Some(Err(e)) => view! { <p class="error">{e}</p> }.into_any(),
        None => ().into_any(),
    }
}

/// A running import: what is read, and how far it has got.
struct Running {
    name: String,
    size: Option<f64>,
    read: f64,
}

/// The line that says how far a running import has got.
fn progress_line(r: &Running) -> String {
    match r.size {
        Some(size) if r.read > 0.0 => format!(
            "Reading the header of {}: {:.1} MB of the file's {:.1} MB read…",
            r.name,
            r.read / 1e6,
            size / 1e6
        ),
        _ => format!("Reading {}…", r.name),
    }
}

/// The import of a user's file or pasted config.json, parsed in the parse worker: what runs,
/// and where its result goes.
#[derive(Clone, Copy)]
struct LocalImport {
    running: RwSignal<Option<Running>>,
    job: StoredValue<Option<parse_worker::Job>, LocalStorage>,
    status: WriteSignal<Option<Result<Vec<String>, String>>>,
    scenario: RwSignal<crate::scenario::Scenario>,
    commit: Callback<()>,
}

impl LocalImport {
    /// Ends the running import (its worker stops) with `result` as the status.
    fn finish(self, result: Result<Vec<String>, String>) {
        self.job.set_value(None);
        self.running.set(None);
        self.status.set(Some(result));
    }

    fn name(self) -> String {
        self.running
            .with_untracked(|r| r.as_ref().map(|r| r.name.clone()))
            .unwrap_or_default()
    }

    fn on_reply(self, reply: parse_worker::Reply) {
        match reply {
            parse_worker::Reply::Progress(read) => self.running.update(|r| {
                if let Some(r) = r {
                    r.read = read;
                }
            }),
            parse_worker::Reply::Done(Ok(mut parts)) => {
                let query = parts.remove(0);
                self.scenario.update(|s| imported::land_query(&query, s));
                self.commit.run(());
                parts.push(LINK_CARRIES.into());
                self.finish(Ok(parts));
            }
            parse_worker::Reply::Done(Err(e)) => self.finish(Err(format!("{}: {e}", self.name()))),
        }
    }

    /// Parses `request` in the worker; an import still running is stopped first.
    fn parse(self, name: String, size: Option<f64>, request: parse_worker::Request) {
        self.job.set_value(None);
        self.status.set(None);
        self.running.set(Some(Running {
            name: name.clone(),
            size,
            read: 0.0,
        }));
        match parse_worker::start(request, move |r| self.on_reply(r)) {
            Ok(j) => self.job.set_value(Some(j)),
            Err(e) => self.finish(Err(format!("{name}: {e}"))),
        }
    }

    fn cancel(self) {
        self.finish(Err(format!("{}: import cancelled; nothing changed", self.name())));
    }

    /// A chosen or dropped file: a config.json (shown in the box too) or a GGUF's header.
    fn take_file(self, file: web_sys::File, set_config_text: WriteSignal<String>) {
        let name = file.name();
        if !name.to_ascii_lowercase().ends_with(".json") {
            return self.parse(name, Some(file.size()), parse_worker::Request::Gguf(file));
        }
        wasm_bindgen_futures::spawn_local(async move {
            match read_text(&file).await {
                Ok(text) => {
                    set_config_text.set(text.clone());
                    self.parse(name, None, parse_worker::Request::Config(text));
                }
                Err(e) => self.finish(Err(format!("{name}: {e}"))),
            }
        });
    }
}

/// The import panel: `import-config` (textarea), `import-config-apply`, `import-file`, the
/// result or error in `import-status`, and while a file or config.json is parsed (in the import
/// worker) its progress in `import-progress` and `import-cancel`, which stops it.
#[component]
pub fn ImportPanel() -> impl IntoView {
    let scenario = scenario();
    let commit = expect_context::<crate::web::state::UrlCommit>();
    let (config_text, set_config_text) = signal(String::new());
    let (status, set_status) = signal(None::<Result<Vec<String>, String>>);
    let local = LocalImport {
        running: RwSignal::new(None),
        job: StoredValue::new_local(None),
        status: set_status,
        scenario,
        commit: commit.0,
    };
    // A Hub import lands in the scenario with `src=`, and in the link.
    let land = move |i: Imported, src: Option<String>| {
        let lines = summary_lines(&i);
        scenario.update(|s| {
            i.apply_to(s);
            if let Some(src) = src {
                s.put(Key::Src, Value::Text(src));
            }
        });
        commit.0.run(());
        lines
    };
    let apply_config = move |_| {
        local.parse(
            "the config.json".into(),
            None,
            parse_worker::Request::Config(config_text.get_untracked()),
        )
    };
    let on_file = move |ev: leptos::ev::Event| {
        let input: web_sys::HtmlInputElement = event_target(&ev);
        if let Some(file) = input.files().and_then(|f| f.get(0)) {
            local.take_file(file, set_config_text);
        }
    };
    let on_drop = move |ev: leptos::ev::DragEvent| {
        ev.prevent_default();
        if let Some(file) = ev.data_transfer().and_then(|d| d.files()).and_then(|f| f.get(0)) {
            local.take_file(file, set_config_text);
        }
    };
    view! {
        <section class="import" aria-label="import a model" on:dragover=|ev| ev.prevent_default() on:drop=on_drop>
            <h2>"Your own model"</h2>
            <p class="hint">"Paste a Hugging Face config.json, or choose or drop a .gguf file: only its header is read, never the weights, and nothing leaves this page. Or give a Hugging Face link."</p>
            <label class="field wide">
                <span class="field-label">"config.json"</span>
                <textarea rows="4" data-testid="import-config" placeholder="{\"num_hidden_layers\": 32, …}" prop:value={config_text} on:input={move |ev| set_config_text.set(event_target_value(&ev))}></textarea>
            </label>
            <div class="share-row">
                <button type="button" data-testid="import-config-apply" on:click=apply_config>"Use this config"</button>
                <label class="file">
                    <span>"GGUF or config.json file: "</span>
                    <input type="file" accept=".gguf,.json" data-testid="import-file" on:change={on_file} />
                </label>
            </div>
            {hub_section(land)}
            <div data-testid="import-status" class="import-status" role="status">
                {move || local.running.with(|r| r.as_ref().map(progress_line)).map(|line| view! {
                    <p class="share-row">
                        <span data-testid="import-progress">{line}</span>
                        <button type="button" data-testid="import-cancel" on:click=move |_| local.cancel()>"Cancel"</button>
                    </p>
                })}
                {move || status_view(status.get())}
            </div>
        </section>
    }
}

/// The Hugging Face part: a link or repository id, its GGUF files to choose from, and its status.
/// The only requests the page ever makes, and only on this click.
fn hub_section(land: impl Fn(Imported, Option<String>) -> Vec<String> + Copy + Send + Sync + 'static) -> impl IntoView {
    let (url_text, set_url_text) = signal(String::new());
    let (url_status, set_url_status) = signal(None::<Result<Vec<String>, String>>);
    let (hub_files, set_hub_files) = signal((None::<hub::Source>, Vec::<String>::new()));
    let land: Land = Callback::new(move |(i, key)| land(i, key));
    let import_hub = move |src: hub::Source| {
        wasm_bindgen_futures::spawn_local(async move {
            if let Err(e) = crate::in_part!(start_hub_import(src, land, set_url_status, set_hub_files)) {
                set_url_status.set(Some(Err(e.to_string())));
            }
        });
    };
    let apply_url = move |_| match hub::Source::parse_input(&url_text.get_untracked()) {
        Ok(src) => {
            set_hub_files.set((None, Vec::new()));
            import_hub(src);
        }
        Err(e) => set_url_status.set(Some(Err(e))),
    };
    let choose_file = move |ev: leptos::ev::Event| {
        let file = event_target_value(&ev);
        if let (Some(src), false) = (hub_files.get_untracked().0, file.is_empty()) {
            import_hub(src.with_file(&file));
        }
    };
    view! {
        <label class="field wide">
            <span class="field-label">"Hugging Face model"</span>
            <input
                type="text"
                data-testid="import-url"
                placeholder="org/name, or a huggingface.co link to a repository or a .gguf file"
                prop:value=url_text
                on:input=move |ev| set_url_text.set(event_target_value(&ev))
            />
        </label>
        <div class="share-row">
            <button type="button" data-testid="import-url-apply" on:click=apply_url>"Read from Hugging Face"</button>
            {move || (!hub_files.with(|f| f.1.is_empty())).then(|| view! {
                <select data-testid="import-url-file" on:change=choose_file>
                    <option value="">"choose a GGUF file…"</option>
                    {move || hub_files.get().1.into_iter().map(|f| { let label = f.clone(); view! { <option value=f>{label}</option> } }).collect_view()}
                </select>
            })}
        </div>
        <p class="hint">
            "This reads only the repository's file list, its config.json, or a GGUF file's header (by Range requests), from huggingface.co: the one request this page ever makes, and only when you press the button."
        </p>
        <div data-testid="import-url-status" class="import-status" role="status">
            {move || status_view(url_status.get())}
        </div>
    }
}
