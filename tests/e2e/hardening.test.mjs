// Never phone home, never break the policy, redraw only what changed, refuse hostile numbers.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readFile } from 'node:fs/promises';
import { serve, launch, openPage, ceiling, drawn } from './harness.mjs';
import { writeGguf } from './gguf.mjs';

const CHARTS = ['chart-machines', 'chart-context', 'chart-quants', 'chart-spill', 'chart-batch', 'chart-spec'];
let server; let browser;
before(async () => { server = await serve('/'); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

async function watched(query = '') {
  const p = await openPage(browser);
  await p.page.addInitScript(() => {
    window.__csp = [];
    document.addEventListener('securitypolicyviolation', (e) => window.__csp.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`));
  });
  await p.page.goto(server.base + query);
  await ceiling(p.page);
  return p;
}

test('using every view, importing, measuring, calibrating and exporting: no request leaves 127.0.0.1 and no CSP violation', async () => {
  const { page, errors, requests } = await watched();
  await page.getByTestId('input-machine-search').fill('m3');
  await page.getByTestId('input-machine').selectOption('m3-ultra-80c');
  await page.getByTestId('input-model').selectOption('qwen3-30b-a3b');
  await page.getByTestId('input-quant').selectOption('q8_0');
  await page.getByTestId('input-kv').selectOption('q4_0');
  await page.getByTestId('input-ctx').fill('100000');
  await page.getByTestId('input-ctx-slider').fill('15');
  await page.getByTestId('input-offload').check();
  await page.getByTestId('input-batch').fill('8');
  await page.getByTestId('input-draft').selectOption('qwen3-0.6b');
  for (const col of ['ceiling', 'machine', 'fits']) await page.getByTestId(`sort-${col}`).click();
  await page.getByTestId('filter-kind').selectOption('gpu');
  await page.getByTestId('input-machine').selectOption('custom');
  await page.getByTestId('input-bw').fill('500');
  await page.getByTestId('input-model').selectOption('custom');
  await page.getByTestId('input-params').fill('70');
  const dir = await mkdtemp(join(tmpdir(), 'tokbound-privacy-'));
  const gguf = join(dir, 'm.gguf');
  writeGguf(gguf, {});
  await page.getByTestId('import-file').setInputFiles(gguf);
  await page.waitForFunction(() => /GGUF v3/.test(document.querySelector('[data-testid=import-status]').textContent));
  await page.getByTestId('import-config').fill(await readFile(new URL('../fixtures/gpt-oss-20b.config.json', import.meta.url), 'utf8'));
  await page.getByTestId('import-config-apply').click();
  await page.getByTestId('calibrate-input').fill(await readFile(new URL('../fixtures/pastes/llama-bench-4090.md', import.meta.url), 'utf8'));
  await page.getByTestId('calibrate-apply').click();
  await page.getByTestId('input-target').fill('20');
  await page.getByTestId('input-min-tok-s').fill('5');
  await page.getByTestId('sort-model-memory').click();
  await page.getByTestId('measure-start').click();
  await page.waitForFunction(() => document.querySelector('[data-testid=measure-status]').textContent === 'Done.', null, { timeout: 30000 });
  await page.getByTestId('measure-use').click();
  await Promise.all([page.waitForEvent('download'), page.getByTestId('export-machines-csv').click()]);
  await Promise.all([page.waitForEvent('download'), page.getByTestId('export-models-csv').click()]);
  await Promise.all([page.waitForEvent('download'), page.getByTestId('export-chart-spec-png').click()]);
  const embed = await openPage(browser);
  await embed.page.goto(server.base + '?embed=1&view=machines,context,quants,spill,batch,spec,table,models&src=org/name');
  await ceiling(embed.page);
  await page.waitForTimeout(300);
  const outside = [...requests, ...embed.requests].filter((u) => !u.startsWith('http://127.0.0.1:') && !u.startsWith('blob:') && !u.startsWith('data:'));
  assert.deepEqual(outside, [], 'requests that left the machine');
  // Every part of the module ran under the policy: the app's, and the readers' (measuring reads
  // the probe's messages with them on the page's thread).
  for (const part of ['split_app-', 'split_tools-']) assert.ok(requests.some((u) => u.includes(part)), `${part} was loaded`);
  assert.deepEqual(await page.evaluate(() => window.__csp), []);
  assert.deepEqual([...errors, ...embed.errors], []);
  const csp = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
  assert.match(csp, /script-src 'self' 'wasm-unsafe-eval' 'sha256-[A-Za-z0-9+/=]+'/);
  assert.match(csp, /style-src 'sha256-[A-Za-z0-9+/=]+';/);
  assert.ok(!/unsafe-inline/.test(csp), 'no inline script or style beyond the hashed ones');
  // The only remote origins: the Hugging Face import's, for connections only.
  assert.match(csp, /connect-src 'self' https:\/\/huggingface\.co https:\/\/\*\.hf\.co;/);
  assert.match(csp, /worker-src 'self';/);
  assert.ok(!/https?:/.test(csp.replace(/connect-src [^;]*;/, '')), 'no remote origin elsewhere in the policy');
});

test('an injected inline script or style is refused by the policy', async () => {
  const { page } = await watched();
  await page.evaluate(() => { const s = document.createElement('script'); s.textContent = 'window.injected = 1'; document.body.append(s); });
  assert.equal(await page.evaluate(() => window.injected), undefined);
  assert.ok((await page.evaluate(() => window.__csp)).some((v) => v.startsWith('script-src')));
  const before = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  await page.evaluate(() => { const s = document.createElement('style'); s.textContent = 'body { background: rgb(1, 2, 3) !important }'; document.head.append(s); });
  assert.equal(await page.evaluate(() => getComputedStyle(document.body).backgroundColor), before);
  assert.ok((await page.evaluate(() => window.__csp)).some((v) => v.startsWith('style-src')));
});

test('charts redraw only when their inputs change', async () => {
  const { page } = await watched();
  const draws = async () => Object.fromEntries(await Promise.all(CHARTS.map(async (id) => [id, Number(await page.getByTestId(id).getAttribute('data-draws'))])));
  for (const id of CHARTS) await drawn(page, id); // each chart draws on load
  const start = await draws();
  await page.getByTestId('input-prompt').fill('4000'); // changes time to first token only
  await page.waitForTimeout(200);
  assert.deepEqual(await draws(), start, 'no chart depends on the prompt length');
  await page.getByTestId('input-ctx').fill('8192');
  await page.waitForTimeout(200);
  const after = await draws();
  assert.equal(after['chart-context'], start['chart-context'] + 1, 'one redraw of the context chart');
  assert.equal(after['chart-spec'], start['chart-spec'] + 1);
});

test('every numeric field refuses NaN, infinity, negatives, absurd and non-numeric text, keeping the rest', async () => {
  const { page, errors } = await watched('?batch=2&draft=llama-3.2-1b');
  const good = await ceiling(page);
  const fields = ['input-ctx', 'input-prompt', 'input-gpu-frac', 'input-ram-bw', 'input-cpu-moe', 'input-tp', 'input-split', 'input-batch', 'input-k', 'input-accept', 'input-usable'];
  for (const id of fields) {
    const before = await page.getByTestId(id).inputValue();
    for (const bad of ['NaN', 'Infinity', '-1', '1e308', 'abc', '12 tokens']) {
      await page.getByTestId(id).fill(bad);
      const message = await page.getByTestId(`${id}-error`).textContent();
      assert.ok(message.length > 5, `${id}: no message for "${bad}"`);
      assert.equal(await page.getByTestId(id).inputValue(), bad);
      assert.equal(await ceiling(page), good, `${id}="${bad}" changed the estimate`);
    }
    await page.getByTestId(id).fill(before);
    assert.equal(await page.getByTestId(`${id}-error`).textContent(), '', `${id} recovers`);
  }
  // Zero and empty: refused where meaningless, accepted where they mean something.
  await page.getByTestId('input-ctx').fill('0');
  assert.equal(await page.getByTestId('input-ctx-error').textContent(), '');
  for (const id of ['input-tp', 'input-batch', 'input-k', 'input-usable', 'input-ram-bw']) {
    await page.getByTestId(id).fill('0');
    assert.ok((await page.getByTestId(`${id}-error`).textContent()).length > 5, `${id}: 0 accepted`);
    await page.getByTestId(id).fill('');
  }
  await page.getByTestId('input-ctx').fill('');
  assert.ok((await page.getByTestId('input-ctx-error').textContent()).length > 3, 'an empty context is refused');
  assert.deepEqual(errors, []);
});
