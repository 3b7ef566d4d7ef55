// Diagnose: a pasted run set beside what tokbound expects of its own settings, the causes with
// their one-click changes, and the run given back as a data row. The paste is read in the parse
// worker; junk gets a message that names the forms accepted and loses nothing.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { serve, launch, load } from './harness.mjs';

const PASTES = new URL('../fixtures/pastes/', import.meta.url);
let server; let browser;
before(async () => { server = await serve('/'); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

const open = (query) => load(browser, server.base + query);
const expected = async (page) => Number((await page.getByTestId('expected').textContent()).match(/^([\d.]+)/)[1]);

// -ngl 16 of 33 layers on a 24 GB card, an f16 cache and flash attention off at depth, and a slow figure.
const SPILLED = `| model | size | params | backend | ngl | fa | type_k | type_v | test | t/s |
| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |
| llama 8B Q4_K - Medium | 4.58 GiB | 8.03 B | CUDA | 16 | 0 | f16 | f16 | tg128 @ d16384 | 5.00 ± 0.10 |
`;

test('a spilled run is diagnosed, each cause opens the run\'s own scenario with its change', async () => {
  const { page, errors } = await open('?hw=rtx-4090&model=qwen2.5-32b');
  const workers = [];
  page.on('worker', (w) => workers.push(w.url()));
  await page.getByTestId('diagnose-input').fill(SPILLED);
  await page.getByTestId('diagnose-run').click();
  await page.getByTestId('diagnose-verdict').waitFor();
  assert.ok(workers.some((u) => u.endsWith('/parse-worker.js')), `read in the parse worker: ${workers.join(', ')}`);
  assert.equal(await page.getByTestId('diagnose-cancel').count(), 0, 'no Cancel once the diagnosis is in');
  assert.equal(await page.getByTestId('diagnose-verdict').getAttribute('data-verdict'), 'slower');
  const causes = page.getByTestId('diagnose-cause');
  const changes = await causes.evaluateAll((cs) => cs.map((c) => c.dataset.change));
  assert.ok(changes.includes('gpu_frac='), changes.join(' '));
  assert.ok(changes.includes('kv=q8_0'), changes.join(' '));
  assert.equal(await page.getByTestId('diagnose-apply').count(), changes.length);
  // The row goes to measured-ram.csv, as the run kept layers in system RAM.
  assert.match(await page.getByTestId('diagnose-row').textContent(), /^layers-in-ram,/);
  assert.equal(await page.getByTestId('diagnose-row-copy').count(), 1);
  assert.equal(await page.getByTestId('diagnose-contribute').count(), 0, 'this build names no repository');
  // The spill cause's button: the run's model, depth and the rest of its placement, all layers on the GPU.
  const spill = page.locator('[data-testid=diagnose-cause][data-change="gpu_frac="]');
  const figure = Number(await spill.getAttribute('data-expected-tok-s'));
  await spill.getByTestId('diagnose-apply').click();
  await page.waitForFunction(() => location.search.includes('model=llama-3.1-8b'));
  const search = new URL(page.url()).searchParams;
  assert.equal(search.get('ctx'), '16448');
  assert.equal(search.get('fa'), 'off');
  assert.equal(search.get('gpu_frac'), null);
  await page.waitForFunction((f) => {
    const t = document.querySelector('[data-testid=expected]')?.textContent || '';
    const v = Number((t.match(/^([\d.]+)/) || [])[1]);
    return Math.abs(v - f) / f < 0.01;
  }, figure);
  assert.ok(Math.abs(await expected(page) - figure) / figure < 0.01);
  assert.deepEqual(errors, []);
});

// A slow run on a part whose package power is configurable, naming a build older than the
// machine's measured runs: two causes the measured runs point to, which change nothing.
const OLD_BUILD = `| model | size | params | backend | ngl | test | t/s |
| --- | --- | --- | --- | --- | --- | --- |
| llama 8B Q4_K - Medium | 4.58 GiB | 8.03 B | ROCm | 99 | tg128 | 12.00 ± 0.10 |

build: 1234abcd (6000)
`;

test('an old build and a power-limited part come from the machine\'s own measured runs, and open the run\'s own scenario', async () => {
  const { page, errors } = await open('?hw=strix-halo-395&model=qwen3-8b');
  await page.getByTestId('diagnose-input').fill(OLD_BUILD);
  await page.getByTestId('diagnose-run').click();
  await page.getByTestId('diagnose-verdict').waitFor();
  assert.equal(await page.getByTestId('diagnose-verdict').getAttribute('data-verdict'), 'slower');
  for (const id of ['old-build', 'power-limited']) {
    const c = page.locator(`[data-testid=diagnose-cause][data-cause=${id}]`);
    assert.equal(await c.count(), 1, id);
    assert.equal(await c.getAttribute('data-change'), '', id);
    assert.equal(await c.getByTestId('diagnose-apply').textContent(), 'Open the run\'s scenario');
  }
  assert.match(await page.locator('[data-cause=old-build]').textContent(), /build 6000.*update llama\.cpp/);
  const c = page.locator('[data-testid=diagnose-cause][data-cause=old-build]');
  const figure = Number(await c.getAttribute('data-expected-tok-s'));
  await c.getByTestId('diagnose-apply').click();
  await page.waitForFunction(() => location.search.includes('model=llama-3.1-8b'));
  await page.waitForFunction((f) => {
    const v = Number(((document.querySelector('[data-testid=expected]')?.textContent || '').match(/^([\d.]+)/) || [])[1]);
    return Math.abs(v - f) / f < 0.01;
  }, figure);
  // The same paste named a build newer than any measured: no old-build cause.
  await page.getByTestId('diagnose-input').fill(OLD_BUILD.replace('(6000)', '(99999)'));
  await page.getByTestId('diagnose-run').click();
  await page.waitForFunction(() => !/build 6000/.test(document.querySelector('.diagnosis')?.textContent || ''));
  assert.equal(await page.locator('[data-cause=old-build]').count(), 0);
  assert.equal(await page.locator('[data-cause=power-limited]').count(), 1);
  assert.deepEqual(errors, []);
});

test('real llama-server lines in the current layout, and junk that names the forms accepted', async () => {
  const { page, errors } = await open('?hw=rtx-3090&model=qwen3-32b');
  await page.getByTestId('diagnose-input').fill(await readFile(new URL('llama-server-current.txt', PASTES), 'utf8'));
  await page.getByTestId('diagnose-run').click();
  await page.getByTestId('diagnose-verdict').waitFor();
  assert.match(await page.getByTestId('diagnose-status').textContent(), /1 run of llama-server timings diagnosed/);
  assert.match(await page.locator('.diagnosis').textContent(), /ctx=110352/);
  // 32B at 110k tokens does not fit 24 GB: the estimate spills, and so does the row.
  assert.match(await page.getByTestId('diagnose-row').textContent(), /^layers-in-ram,.*hw=rtx-3090&model=qwen3-32b&ctx=110352,32.3,/);
  // Junk: a message of its own, the paste and the scenario kept.
  const query = new URL(page.url()).search;
  await page.getByTestId('diagnose-input').fill('hello, this is not a benchmark');
  await page.getByTestId('diagnose-run').click();
  await page.waitForFunction(() => document.querySelector('[data-testid=diagnose-status]').classList.contains('error'));
  const message = await page.getByTestId('diagnose-status').textContent();
  for (const name of ['llama-bench', 'llama-server', 'llama-cli', 'ollama']) assert.ok(message.includes(name), message);
  assert.equal(new URL(page.url()).search, query);
  assert.equal(await page.getByTestId('diagnose-input').inputValue(), 'hello, this is not a benchmark');
  assert.deepEqual(errors, []);
});
