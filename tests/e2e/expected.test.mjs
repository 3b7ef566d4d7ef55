// The expected figure: the backend as an input, the measured points behind it, and calibration
// from the user's own llama-bench output.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { serve, launch, load, ceiling } from './harness.mjs';

const PASTES = new URL('../fixtures/pastes/', import.meta.url);
let server; let browser;
before(async () => { server = await serve('/'); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

const open = (query) => load(browser, server.base + query);

const expected = async (page) => Number((await page.getByTestId('expected').textContent()).match(/^([\d.]+)/)[1]);

test('the backend defaults from the machine, is a choice, and changes the expected figure', async () => {
  const { page, errors } = await open('?hw=rx-7900-xtx&model=llama-3.1-8b');
  assert.equal(await page.getByTestId('input-backend').inputValue(), '');
  assert.match(await page.getByTestId('expected-basis').textContent(), /on rocm/);
  const rocm = await expected(page);
  await page.getByTestId('input-backend').selectOption('vulkan');
  await page.waitForFunction(() => location.search.includes('backend=vulkan'));
  await page.waitForFunction(() => document.querySelector('[data-testid=expected-basis]').textContent.includes('on vulkan'));
  const vulkan = await expected(page);
  assert.notEqual(vulkan, rocm);
  // A shared link restores it.
  await page.goto(server.base + '?hw=rx-7900-xtx&model=llama-3.1-8b&backend=vulkan');
  await ceiling(page);
  assert.equal(await page.getByTestId('input-backend').inputValue(), 'vulkan');
  assert.equal(await expected(page), vulkan);
  assert.deepEqual(errors, []);
});

test('the measured points behind the figure are linked, and exact measurements are marked', async () => {
  const { page } = await open('?hw=rtx-4090&model=llama-3-8b&quant=q4_k_m');
  const prov = page.getByTestId('provenance');
  const links = prov.locator('a');
  assert.ok(await links.count() >= 1);
  for (const href of await links.evaluateAll((as) => as.map((a) => a.href))) assert.match(href, /^https:\/\//);
  assert.match(await prov.textContent(), /measured/);
  assert.match(await prov.textContent(), /RTX 4090/);
  // The comparison table marks the rows with a measurement of this model and format.
  const measured = page.locator('[data-testid=comparison-table] tbody tr[data-measured="true"]');
  await measured.first().waitFor({ state: 'attached' });
  assert.ok(await page.locator('[data-testid=comparison-table] tbody tr[data-measured="true"][data-machine="rtx-4090"]').count() === 1);
  // A model no one measured says so instead.
  await page.goto(server.base + '?hw=rtx-4090&bw=&params=7&weights=4GB');
  await ceiling(page);
  assert.equal(await page.getByTestId('provenance').locator('a').count(), 0);
});

test('a pasted llama-bench table calibrates the machine, is carried by the link and can be cleared', async () => {
  const { page, errors } = await open('?hw=rtx-4090&model=llama-3.1-8b&quant=q4_0&ctx=4096');
  const before = await expected(page);
  const workers = [];
  page.on('worker', (w) => workers.push(w.url()));
  await page.getByTestId('calibrate-input').fill(await readFile(new URL('llama-bench-4090.md', PASTES), 'utf8'));
  await page.getByTestId('calibrate-apply').click();
  await page.waitForFunction(() => location.search.includes('cal='));
  // The paste was read in the parse worker, not on the page's thread.
  assert.ok(workers.some((u) => u.endsWith('/parse-worker.js')), workers.join(', '));
  assert.equal(await page.getByTestId('calibrate-cancel').count(), 0, 'no Cancel once the fit is in');
  assert.match(await page.getByTestId('calibrate-status').textContent(), /^3 rows of llama-bench table, fitted for RTX 4090, the machine chosen: cal=rtx-4090~/);
  const rows = page.getByTestId('calibrate-result').locator('tbody tr');
  assert.equal(await rows.count(), 3);
  assert.match(await page.getByTestId('calibrate-result').textContent(), /Weights stream at \d+% of peak/);
  assert.match(await page.getByTestId('expected-basis').textContent(), /fitted to your own runs/);
  const after = await expected(page);
  assert.notEqual(after, before);
  // Measured 170 tok/s at depth 0 and 139 at 8192 on this card: the calibrated figure at 4096 lies between.
  assert.ok(after > 135 && after < 175, String(after));
  // The link keeps the fit: opened afresh, the same figure.
  const url = page.url();
  const { page: again } = await open(url.slice(server.base.length));
  assert.equal(await expected(again), after);
  // On another machine the fit is ignored, with a notice.
  const other = new URL(url); other.searchParams.set('hw', 'rtx-3090');
  await again.goto(other.href);
  await ceiling(again);
  assert.match(await again.getByTestId('notes').textContent(), /cal was fitted for rtx-4090, not this machine/);
  // Clearing it restores the catalog's figure.
  await page.getByTestId('calibrate-clear').click();
  await page.waitForFunction(() => !location.search.includes('cal='));
  assert.equal(await expected(page), before);
  assert.deepEqual(errors, []);
});

test('ollama statistics calibrate too; junk gets a message and loses nothing', async () => {
  const { page, errors } = await open('?hw=m2-max-38c&model=llama-3.1-8b&quant=q4_k_m&ctx=2048');
  await page.getByTestId('calibrate-input').fill(await readFile(new URL('ollama.txt', PASTES), 'utf8'));
  await page.getByTestId('calibrate-apply').click();
  await page.waitForFunction(() => location.search.includes('cal=m2-max-38c~'));
  const query = new URL(page.url()).search;
  await page.getByTestId('calibrate-input').fill('hello, this is not a benchmark');
  await page.getByTestId('calibrate-apply').click();
  const status = page.getByTestId('calibrate-status');
  await page.waitForFunction(() => document.querySelector('[data-testid=calibrate-status]').classList.contains('error'));
  assert.match(await status.textContent(), /^not llama-bench output/);
  // The previous fit, the scenario and the pasted text all stay.
  assert.equal(new URL(page.url()).search, query);
  assert.equal(await page.getByTestId('calibrate-input').inputValue(), 'hello, this is not a benchmark');
  // A paste over 1 MB is refused with a message, not read.
  // (Set as one input event, as a paste is: typing 1 MB through the test driver takes minutes.)
  await page.getByTestId('calibrate-input').evaluate((t) => {
    t.value = '| model | t/s |\n'.repeat(70000);
    t.dispatchEvent(new Event('input', { bubbles: true }));
  });
  await page.getByTestId('calibrate-apply').click();
  await page.waitForFunction(() => /at most 1 MB/.test(document.querySelector('[data-testid=calibrate-status]').textContent));
  assert.deepEqual(errors, []);
});
