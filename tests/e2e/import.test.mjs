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

test('a pasted config.json becomes the model, MLA and all', async () => {
  const { page, errors } = await fresh('?hw=h200-sxm&tp=8&ctx=32768&quant=q4_k_m');
  const text = await readFile(new URL('../fixtures/deepseek-v3.config.json', import.meta.url), 'utf8');
  await page.getByTestId('import-config').fill(text);
  await page.getByTestId('import-config-apply').click();
  const status = await page.getByTestId('import-status').textContent();
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
    await page.waitForFunction((f) => document.querySelector('[data-testid=import-status]').textContent.includes(f), file);
    const status = await page.getByTestId('import-status').textContent();
    assert.match(status, pattern, `${file}: ${status}`);
    assert.equal(await ceiling(page), before, `${file} changed the estimate`);
  }
  assert.deepEqual(errors, []);
});
