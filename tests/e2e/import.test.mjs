// Importing a model: a config.json pasted or chosen, a GGUF chosen (header only), hostile files.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve, launch, openPage, load, ceiling } from './harness.mjs';
import { writeGguf } from './gguf.mjs';

let server; let browser; let dir;
before(async () => { server = await serve('/'); browser = await launch(); dir = await mkdtemp(join(tmpdir(), 'tokbound-import-')); });
after(async () => { await browser?.close(); await server?.close(); });

const fresh = (query = '') => load(browser, server.base + query);

// The parse worker has answered: no progress line, and a status.
// The import's outcome: no progress left, and a status that names `name` when it is given (so a
// status left by an earlier import is not taken for this one's before its change event lands).
async function settled(page, name = '') {
  await page.waitForFunction((name) => !document.querySelector('[data-testid=import-progress]')
    && document.querySelector('[data-testid=import-status]').textContent.includes(name)
    && document.querySelector('[data-testid=import-status]').textContent.length > 0, name);
  return page.getByTestId('import-status').textContent();
}

test('a pasted config.json becomes the model, MLA and all', async () => {
  const { page, errors } = await fresh('?hw=h200-sxm&tp=8&ctx=32768&quant=q4_k_m');
  const workers = [];
  page.on('worker', (w) => workers.push(w.url()));
  // The readers are a part of the module of their own, fetched by the worker when first used.
  const parts = () => page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name).filter((n) => n.includes('split_tools-')));
  assert.deepEqual(await parts(), [], 'the readers were fetched before anything was imported');
  const fetched = [];
  page.context().on('request', (r) => fetched.push(r.url()));
  const text = await readFile(new URL('../fixtures/deepseek-v3.config.json', import.meta.url), 'utf8');
  await page.getByTestId('import-config').fill(text);
  await page.getByTestId('import-config-apply').click();
  const status = await settled(page);
  assert.ok(workers.some((u) => u.endsWith('/parse-worker.js')), 'parsed in the parse worker');
  assert.ok(fetched.some((u) => /split_tools-[0-9a-f]+\.wasm$/.test(u)), `the readers' part was fetched: ${fetched.join(' ')}`);
  assert.match(status, /671\.\d\dB parameters/);
  assert.equal(await page.getByTestId('input-model').inputValue(), 'custom');
  // MLA: 61 × 576 × 2 bytes ≈ 70 KB per token, so 32K of context is ~2.3 GB, not hundreds.
  assert.match(await page.getByTestId('division').textContent(), /\+ 2\.3 GB KV cache/);
  assert.match(page.url(), /layers=61.*hidden=7168.*kv_lora=512/);
  // The link alone reproduces the import exactly.
  const division = await page.getByTestId('division').textContent();
  await page.goto(page.url());
  await page.getByTestId('division').waitFor();
  assert.equal(await page.getByTestId('division').textContent(), division);
  assert.deepEqual(errors, []);
});

test('a config.json dropped on the import panel becomes the model', async () => {
  const { page, errors } = await fresh('?hw=h200-sxm&tp=8');
  const text = await readFile(new URL('../fixtures/deepseek-v3.config.json', import.meta.url), 'utf8');
  await page.waitForSelector('section.import');
  const accepted = await page.evaluate((t) => {
    const files = new DataTransfer();
    files.items.add(new File([t], 'config.json', { type: 'application/json' }));
    const panel = document.querySelector('section.import');
    // A drop target must cancel dragover, or the browser opens the file instead.
    const over = new DragEvent('dragover', { dataTransfer: files, bubbles: true, cancelable: true });
    panel.dispatchEvent(over);
    const drop = new DragEvent('drop', { dataTransfer: files, bubbles: true, cancelable: true });
    panel.dispatchEvent(drop);
    return over.defaultPrevented && drop.defaultPrevented;
  }, text);
  assert.ok(accepted, 'dragover and drop are both cancelled');
  await page.waitForFunction(() => /671\.\d\dB parameters/.test(document.querySelector('[data-testid=import-status]').textContent));
  // The select's long option list fills in after a paint: wait for it to show the choice.
  await page.waitForFunction(() => document.querySelector('[data-testid=input-model]').value === 'custom', null, { timeout: 5000 }).catch(() => {});
  assert.equal(await page.getByTestId('input-model').inputValue(), 'custom');
  assert.deepEqual(errors, []);
});

test('a chosen GGUF is read from its header: exact bytes, name and size, in moments', async () => {
  const path = join(dir, 'llama-8b-q4_k.gguf');
  const want = writeGguf(path, { name: 'Llama <img src=x onerror=window.pwned=1> 8B' });
  const { page, errors } = await fresh('?hw=rtx-4090&ctx=0');
  const t0 = Date.now();
  await page.getByTestId('import-file').setInputFiles(path);
  await page.waitForFunction(() => /GGUF v3/.test(document.querySelector('[data-testid=import-status]').textContent));
  const ms = Date.now() - t0;
  const status = await page.getByTestId('import-status').textContent();
  assert.match(status, /Llama <img src=x onerror=window\.pwned=1> 8B: GGUF v3, 8\.03B parameters in 291 tensors/);
  assert.ok(status.includes(`${(want.weightBytes / 1e9).toFixed(2)} GB of weights`), status);
  assert.equal(await page.evaluate(() => window.pwned), undefined, 'the name is text, not markup');
  assert.equal(await page.locator('.import-status img').count(), 0);
  // Bytes per token: everything but the input embedding.
  const division = await page.getByTestId('division').textContent();
  assert.match(division, /^1008 GB\/s ÷ \(4\.\d GB weights \+ 0\.0 B KV cache\)/);
  assert.ok(ms < 5000, `${ms} ms`);
  assert.deepEqual(errors, []);
});

test('a 400 GB GGUF imports as quickly as a small one', async () => {
  const path = join(dir, 'huge.gguf');
  const want = writeGguf(path, { name: 'Huge', layers: 126, hidden: 16384, heads: 128, kvHeads: 8, ffn: 53248, type: 'Q8_0' });
  assert.ok(want.fileSize > 400e9, `${want.fileSize}`);
  const { page } = await fresh('?hw=mi300x');
  const t0 = Date.now();
  await page.getByTestId('import-file').setInputFiles(path);
  await page.waitForFunction(() => /GGUF v3/.test(document.querySelector('[data-testid=import-status]').textContent));
  assert.ok(Date.now() - t0 < 5000);
  assert.match(await page.getByTestId('fit').textContent(), /^Does not fit/);
});

test('hostile or broken files give a clear message and keep the page', async () => {
  const { page, errors } = await fresh();
  const before = await ceiling(page);
  const cases = [
    ['bad-magic.gguf', () => writeGguf(join(dir, 'bad-magic.gguf'), { magic: 'GGML' }), /magic|not a GGUF/i],
    ['absurd.gguf', () => writeGguf(join(dir, 'absurd.gguf'), { tensorCountOverride: 2 ** 40 }), /tensor/i],
    ['broken.json', async () => writeFile(join(dir, 'broken.json'), '{"num_hidden_layers": 32,'), /JSON|json/],
    ['nolayers.json', async () => writeFile(join(dir, 'nolayers.json'), '{"hidden_size": 4096}'), /num_hidden_layers/],
  ];
  for (const [file, make, pattern] of cases) {
    await make();
    await page.getByTestId('import-file').setInputFiles(join(dir, file));
    const status = await settled(page, file);
    assert.ok(status.includes(file), status);
    assert.match(status, pattern, `${file}: ${status}`);
    assert.equal(await ceiling(page), before, `${file} changed the estimate`);
  }
  assert.deepEqual(errors, []);
});

test('a huge header is parsed off the page: typing still answers, progress shows, and Cancel stops it keeping every input', async () => {
  // 24 million vocabulary strings: a header of about 420 MB that the worker reads in growing slices
  // (about 2 s to parse; the cancel comes well before).
  const path = join(dir, 'vast-vocab.gguf');
  writeGguf(path, { name: 'Vast', layers: 2, hidden: 512, heads: 8, kvHeads: 8, ffn: 1024, vocab: 24_000_000 });
  const { page, errors } = await fresh('?hw=rtx-4090&model=qwen3-8b&ctx=4096');
  const before = page.url();
  await page.getByTestId('import-file').setInputFiles(path);
  await page.getByTestId('import-progress').waitFor();
  assert.match(await page.getByTestId('import-progress').textContent(), /Reading (the header of )?vast-vocab\.gguf/);
  // The page's own thread is free: a keystroke repaints the headline while the worker parses.
  const headline = await ceiling(page);
  const t0 = Date.now();
  await page.getByTestId('input-ctx').fill('65536');
  await page.waitForFunction((h) => document.querySelector('[data-testid=ceiling]').textContent !== h, headline);
  const ms = Date.now() - t0;
  assert.ok(await page.getByTestId('import-progress').isVisible(), 'still parsing when the keystroke was answered');
  await page.waitForFunction(() => /of the file's/.test(document.querySelector('[data-testid=import-progress]').textContent));
  await page.getByTestId('import-cancel').click();
  const status = await settled(page);
  assert.match(status, /vast-vocab\.gguf: import cancelled; nothing changed/);
  assert.equal(await page.getByTestId('input-model').inputValue(), 'qwen3-8b');
  assert.equal(await page.getByTestId('input-ctx').inputValue(), '65536');
  assert.ok(!/layers=/.test(page.url()), page.url());
  assert.ok(ms < 2000, `the keystroke took ${ms} ms to show`);
  assert.notEqual(page.url(), before);
  assert.deepEqual(errors, []);
  // Left to finish, the same file lands.
  await page.getByTestId('import-file').setInputFiles([]);
  await page.getByTestId('import-file').setInputFiles(path);
  const done = await settled(page, 'Vast: GGUF');
  assert.match(done, /Vast: GGUF v3/);
  assert.equal(await page.getByTestId('input-model').inputValue(), 'custom');
});

test('a parse worker that cannot load says so and keeps every input', async () => {
  const { page } = await fresh('?hw=rtx-4090&model=qwen3-8b&ctx=4096');
  await page.route('**/parse-worker.js', (route) => route.fulfill({ status: 404, body: 'gone' }));
  const before = await ceiling(page);
  await page.getByTestId('import-config').fill('{"num_hidden_layers": 32}');
  await page.getByTestId('import-config-apply').click();
  const status = await settled(page);
  assert.match(status, /the config\.json: .*(parse worker|could not)/, status);
  assert.equal(await page.getByTestId('import-config').inputValue(), '{"num_hidden_layers": 32}');
  assert.equal(await page.getByTestId('input-model').inputValue(), 'qwen3-8b');
  assert.equal(await ceiling(page), before);
});

test('readers that cannot be fetched say so and keep every input, for a paste and for measuring', async () => {
  const { page } = await fresh('?hw=rtx-4090&model=qwen3-8b&ctx=4096');
  // The readers' part, asked for by the parse worker (a paste) and by the page (measuring).
  await page.context().route('**/split_tools-*.wasm', (route) => route.fulfill({ status: 404, body: 'gone' }));
  const before = await ceiling(page);
  const text = '{"num_hidden_layers": 32, "hidden_size": 4096}';
  await page.getByTestId('import-config').fill(text);
  await page.getByTestId('import-config-apply').click();
  const status = await settled(page, 'could not be loaded');
  assert.match(status, /the config\.json: .*could not be loaded: offline/, status);
  assert.equal(await page.getByTestId('import-config').inputValue(), text);
  assert.equal(await page.getByTestId('input-model').inputValue(), 'qwen3-8b');
  assert.equal(await ceiling(page), before);
  await page.getByTestId('measure-start').click();
  await page.waitForFunction(() => /could not be loaded/.test(document.querySelector('[data-testid=measure-status]').textContent));
  assert.equal(await page.getByTestId('measure-start').isEnabled(), true, 'measuring can be tried again');
  assert.equal(await page.getByTestId('input-machine').inputValue(), 'rtx-4090');
});
