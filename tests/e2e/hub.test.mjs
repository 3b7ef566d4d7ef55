// A model from a Hugging Face link, against a local stand-in for the Hub reached under its real
// host names (hub.mjs): config.json from a repository, a split GGUF's headers by Range requests,
// the errors, and a shared link that fetches nothing.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve, load, ceiling } from './harness.mjs';
import { writeGguf } from './gguf.mjs';
import { fakeHub, launchWithHub } from './hub.mjs';

let server; let hub; let browser; let want;
before(async () => {
  const dir = await mkdtemp(join(tmpdir(), 'tokbound-hub-files-'));
  const part = (i) => join(dir, `tiny-Q4_K-0000${i}-of-00002.gguf`);
  const one = writeGguf(part(1), { name: 'Hub Llama', layers: 8, vocab: 32000, split: [1, 2] });
  const two = writeGguf(part(2), { name: 'Hub Llama', layers: 8, vocab: 32000, split: [2, 2] });
  want = { weightBytes: one.weightBytes + two.weightBytes, params: one.params + two.params };
  const single = join(dir, 'single.gguf');
  writeGguf(single, { name: 'Single Llama', layers: 4, vocab: 32000 });
  const notGguf = join(dir, 'not.gguf');
  writeGguf(notGguf, { magic: 'GGML', layers: 2, vocab: 1000 });
  const config = await readFile(new URL('../fixtures/llama-3.1-8b.config.json', import.meta.url), 'utf8');
  hub = await fakeHub({
    'meta-llama/Llama-3.1-8B': { files: { 'config.json': config, 'README.md': '# hi' } },
    'someone/Tiny-GGUF': {
      files: {
        'tiny-Q4_K-00001-of-00002.gguf': { path: part(1) },
        'tiny-Q4_K-00002-of-00002.gguf': { path: part(2) },
        'single.gguf': { path: single },
        'not.gguf': { path: notGguf },
      },
    },
    'gated/Model': { gated: true, files: { 'config.json': config } },
  });
  server = await serve('/');
  browser = await launchWithHub(hub.port);
});
after(async () => { await browser?.close(); await server?.close(); await hub?.close(); });

const open = (query = '') => load(browser, server.base + query);
const hubRequests = () => hub.requests.filter((r) => r.method !== 'OPTIONS');

async function importUrl(page, text) {
  await page.getByTestId('import-url').fill(text);
  await page.getByTestId('import-url-apply').click();
}
const waitStatus = (page, re) => page.waitForFunction((src) => new RegExp(src).test(document.querySelector('[data-testid=import-url-status]').textContent), re.source);

test('a repository id brings its config.json, and the link says where it came from', async () => {
  const { page, errors } = await open('?hw=rtx-4090&ctx=8192');
  const before = hub.requests.length;
  await importUrl(page, 'meta-llama/Llama-3.1-8B');
  await waitStatus(page, /8\.0\dB parameters/);
  await page.waitForFunction(() => location.search.includes('src=meta-llama%2FLlama-3.1-8B') || location.search.includes('src=meta-llama/Llama-3.1-8B'));
  assert.equal(await page.getByTestId('input-model').inputValue(), 'custom');
  const made = hub.requests.slice(before).map((r) => `${r.method} ${r.host.split(':')[0]}${r.path}`);
  assert.deepEqual(made, ['GET huggingface.co/api/models/meta-llama/Llama-3.1-8B/revision/main', 'GET huggingface.co/meta-llama/Llama-3.1-8B/resolve/main/config.json']);
  // The link alone reproduces the model and fetches nothing.
  const count = hub.requests.length;
  const { page: again } = await open(new URL(page.url()).search);
  assert.equal(await again.getByTestId('ceiling').textContent(), await page.getByTestId('ceiling').textContent());
  assert.equal(hub.requests.length, count, 'opening a link with src= makes no request');
  assert.deepEqual(errors, []);
});

test('a split GGUF link reads every shard\'s header by Range requests, through the CDN redirect', async () => {
  const { page, errors } = await open('?hw=rtx-4090&ctx=0');
  const before = hub.requests.length;
  await importUrl(page, 'https://huggingface.co/someone/Tiny-GGUF/blob/main/tiny-Q4_K-00001-of-00002.gguf');
  await waitStatus(page, /GB of weights/);
  const status = await page.getByTestId('import-url-status').textContent();
  assert.match(status, new RegExp(`${(want.params / 1e9).toFixed(2)}B parameters`));
  assert.match(status, new RegExp(`${(want.weightBytes / 1e9).toFixed(2)} GB of weights`));
  assert.match(status, /all 2 parts of a split GGUF/);
  assert.match(page.url(), /src=someone(%2F|\/)Tiny-GGUF(%2F|\/)tiny-Q4_K-00001-of-00002\.gguf/);
  const made = hubRequests().slice(before);
  const cdn = made.filter((r) => r.host.startsWith('cdn-lfs.hf.co'));
  assert.ok(cdn.length >= 2 && cdn.every((r) => /^bytes=0-\d+$/.test(r.range)), JSON.stringify(made));
  assert.ok(cdn.some((r) => r.path.endsWith('00002-of-00002.gguf')));
  assert.equal(hub.requests.slice(before).filter((r) => r.method === 'OPTIONS').length, 0, 'no preflight');
  assert.deepEqual(errors, []);
});

test('a repository of GGUF files offers them to choose from', async () => {
  const { page } = await open('?hw=rtx-4090');
  await importUrl(page, 'https://hf.co/someone/Tiny-GGUF');
  await waitStatus(page, /no config\.json but 3 GGUF files: choose one/);
  await page.getByTestId('import-url-file').selectOption('single.gguf');
  await waitStatus(page, /Single Llama/);
  assert.match(page.url(), /src=someone(%2F|\/)Tiny-GGUF(%2F|\/)single\.gguf/);
});

test('gated, missing and broken models say what is wrong and keep the scenario', async () => {
  const { page, errors } = await open('?hw=m4-max-40c&model=qwen3-8b&ctx=4096');
  const query = new URL(page.url()).search;
  const cases = [
    ['gated/Model', /gated or private.*paste it above/],
    ['nobody/Nothing', /not found on Hugging Face/],
    ['https://huggingface.co/someone/Tiny-GGUF/resolve/main/not.gguf', /not\.gguf: .*GGUF/],
    ['https://example.com/a/b', /is not a Hugging Face repository/],
    ['someone/Tiny-GGUF/blob/main/README.md', /not a repository id|neither a \.gguf file/],
  ];
  for (const [text, re] of cases) {
    await importUrl(page, text);
    await page.waitForFunction((src) => {
      const el = document.querySelector('[data-testid=import-url-status] .error');
      return el && new RegExp(src).test(el.textContent);
    }, re.source);
    assert.equal(new URL(page.url()).search, query, text);
  }
  assert.equal(await page.getByTestId('input-model').inputValue(), 'qwen3-8b');
  assert.deepEqual(errors.filter((e) => !/Failed to load resource/.test(e)), []);
});

test('a Hub import whose readers\' part cannot be fetched says so, asks the Hub nothing and keeps the model', async () => {
  const { page } = await open('?hw=rtx-4090&model=qwen3-8b');
  // The download code comes with the readers' part (docs/performance.md).
  await page.context().route('**/split_tools-*.wasm', (route) => route.fulfill({ status: 404, body: 'gone' }));
  const count = hubRequests().length;
  await importUrl(page, 'meta-llama/Llama-3.1-8B');
  await waitStatus(page, /could not be loaded: offline/);
  assert.equal(hubRequests().length, count);
  assert.equal(await page.getByTestId('input-model').inputValue(), 'qwen3-8b');
  assert.equal(await page.getByTestId('import-url').inputValue(), 'meta-llama/Llama-3.1-8B');
});

test('an unreachable Hub is a plain message', async () => {
  const { page } = await open('?hw=rtx-4090');
  const count = hub.requests.length;
  await hub.close();
  try {
    await importUrl(page, 'meta-llama/Llama-3.1-8B');
    await waitStatus(page, /could not reach Hugging Face/);
  } finally {
    hub = await fakeHub({});
    assert.ok(hub.requests.length === 0 && count > 0);
  }
});
