// tokbound's parse worker: a user's GGUF file, config.json or calibration paste is parsed here,
// off the page's thread, by the page's own WebAssembly module (src/web/parse_worker.rs), so a
// hostile or huge input cannot freeze the page, and the page can stop it (it ends this worker).
//
// The page sends {glue, wasm} with {file}, {text} (a config.json), {paste, query} (a calibration)
// or {diagnose, query} (a run to diagnose); this worker
// answers {progress: bytes} while it reads a file, then {reply: [...]} (the module's answer) or
// {failed: message}.

onmessage = async ({ data }) => {
  try {
    const module = await import(data.glue);
    await module.default({ module_or_path: data.wasm });
    if (typeof data.diagnose === 'string') {
      postMessage({ reply: await module.worker_diagnose(data.diagnose, data.query) });
      return;
    }
    if (typeof data.paste === 'string') {
      postMessage({ reply: await module.worker_calibrate(data.paste, data.query) });
      return;
    }
    if (typeof data.text === 'string') {
      postMessage({ reply: await module.worker_import_config(data.text) });
      return;
    }
    // Only the header is read: the first MiB, then as much more as the parser asks for.
    const file = data.file;
    let len = Math.min(file.size, 1 << 20);
    for (;;) {
      postMessage({ progress: len });
      const prefix = new Uint8Array(await file.slice(0, len).arrayBuffer());
      const reply = await module.worker_import_gguf(prefix, file.size);
      if (reply[0] !== 'need') {
        postMessage({ reply });
        return;
      }
      len = Number(reply[1]);
    }
  } catch (e) {
    postMessage({ failed: String((e && e.message) || e) });
  }
};
