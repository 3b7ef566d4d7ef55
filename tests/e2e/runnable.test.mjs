// What can I run, and what do I need: the model table, its filter and rows, a target speed across
// machines, and the models embed.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, load } from './harness.mjs';

let server; let browser;
before(async () => { server = await serve('/'); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

const open = (query, options) => load(browser, server.base + query, options);
const rowCount = (page, sel) => page.locator(sel).count();

test('every model on this machine, with the best format that fits, filtered and chosen by click', async () => {
  const { page, errors } = await open('?hw=rtx-4090&ctx=8192');
  const table = page.getByTestId('model-table');
  await table.locator('tbody tr[data-model="llama-3.1-8b"]').waitFor({ state: 'attached' });
  const all = await rowCount(page, '[data-testid=model-table] tbody tr');
  assert.ok(all >= 80, String(all));
  const llama = table.locator('tbody tr[data-model="llama-3.1-8b"]');
  assert.equal(await llama.getAttribute('data-quant'), 'f16');
  assert.match(await llama.textContent(), /F16.*fits/);
  assert.match(await table.locator('tbody tr[data-model="llama-3.1-405b"]').textContent(), /does not fit/);
  // The chosen model's row is marked (the default model here), and only it.
  assert.deepEqual(await table.locator('tbody tr.current').evaluateAll((trs) => trs.map((tr) => tr.dataset.model)), ['qwen2.5-32b']);
  // Sorting by a column orders the rows.
  await page.getByTestId('sort-model-params').click();
  const params = await table.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => Number(tr.children[1].textContent)));
  assert.deepEqual(params, [...params].sort((a, b) => b - a));
  // The filter hides slower models and goes into the link.
  await page.getByTestId('input-min-tok-s').fill('100');
  await page.getByTestId('input-min-tok-s').press('Enter');
  await page.waitForFunction(() => location.search.includes('min_tok_s=100'));
  await page.waitForFunction((n) => document.querySelectorAll('[data-testid=model-table] tbody tr').length < n, all);
  const shown = await table.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => Number(tr.children[4].textContent)));
  assert.ok(shown.length > 0 && shown.every((v) => v >= 100), JSON.stringify(shown));
  assert.match(await page.getByTestId('model-count').textContent(), new RegExp(`^${shown.length} of ${all} models`));
  // A bad filter value keeps the rest and says why.
  await page.getByTestId('input-min-tok-s').fill('fast');
  assert.equal(await page.getByTestId('input-min-tok-s-error').textContent(), '"fast" is not a number');
  await page.getByTestId('input-min-tok-s').fill('');
  await page.getByTestId('input-min-tok-s').press('Enter');
  await page.waitForFunction((n) => document.querySelectorAll('[data-testid=model-table] tbody tr').length === n, all);
  // Clicking a row chooses that model at that row's format.
  const row = table.locator('tbody tr[data-model="qwen3-14b"]');
  const quant = await row.getAttribute('data-quant');
  await row.locator('td').first().click();
  await page.waitForFunction((q) => location.search.includes('model=qwen3-14b') && (q === 'q4_k_m' || location.search.includes(`quant=${q}`)), quant);
  assert.equal(await page.getByTestId('input-model').inputValue(), 'qwen3-14b');
  assert.equal(await page.getByTestId('input-quant').inputValue(), quant);
  await page.waitForFunction(() => document.querySelector('[data-testid=model-table] tr[data-model="qwen3-14b"]').classList.contains('current'));
  assert.deepEqual(errors, []);
});

test('a mixture of experts that only fits with its experts in RAM says so', async () => {
  const { page } = await open('?hw=rtx-5090&model=gpt-oss-120b');
  const row = page.locator('[data-testid=model-table] tbody tr[data-model="gpt-oss-120b"]');
  await row.waitFor({ state: 'attached' });
  assert.match(await row.textContent(), /experts in RAM/);
});

test('a target speed marks the machines that reach it, counts them, and a link restores it', async () => {
  const { page, errors } = await open('?model=qwen3-32b&quant=q4_k_m&ctx=4096');
  const rows = '[data-testid=comparison-table] tbody tr';
  await page.locator(rows).first().waitFor({ state: 'attached' });
  assert.equal(await page.locator(`${rows}[data-meets]`).count(), 0, 'no marks without a target');
  await page.getByTestId('input-target').fill('30');
  await page.getByTestId('input-target').press('Enter');
  await page.waitForFunction(() => location.search.includes('target=30'));
  await page.waitForFunction((sel) => document.querySelectorAll(`${sel}[data-meets]`).length > 100, rows);
  const meets = await page.locator(`${rows}[data-meets="true"]`).count();
  const total = await page.locator(rows).count();
  assert.ok(meets > 0 && meets < total, `${meets} of ${total}`);
  assert.match(await page.getByTestId('meets-count').textContent(), new RegExp(`^${meets} of ${total} machines`));
  // Every marked machine fits and its expected figure reaches 30.
  const marked = await page.locator(`${rows}[data-meets="true"]`).evaluateAll((trs) => trs.map((tr) => [tr.children[6].textContent, Number(tr.children[5].textContent.split(' ')[0])]));
  assert.ok(marked.every(([fits, expected]) => /^yes/.test(fits) && expected >= 30), JSON.stringify(marked.slice(0, 5)));
  // The headline says how far the target reaches on this machine.
  assert.match(await page.getByTestId('target-result').textContent(), /reaches 30(\.0)? tok\/s here at 4096 tokens of context; Q4_K_M reaches it up to \d+ tokens/);
  // The cheapest that meets it is a sort away: price ascending puts priced machines first.
  await page.getByTestId('sort-price').click();
  const first = await page.locator(rows).first().evaluate((tr) => tr.children[8].textContent);
  assert.match(first, /^\$\d+/);
  // A shared link restores the target and its marks.
  const { page: again } = await open(new URL(page.url()).search);
  await again.waitForFunction((sel) => document.querySelectorAll(`${sel}[data-meets="true"]`).length > 0, rows);
  assert.equal(await again.locator(`${rows}[data-meets="true"]`).count(), meets);
  assert.equal(await again.getByTestId('input-target').inputValue(), '30');
  assert.deepEqual(errors, []);
});

test('view=models embeds the model table', async () => {
  const { page, errors } = await open('?hw=m4-max-40c&embed=1&view=models');
  await page.getByTestId('embed').waitFor();
  await page.locator('[data-testid=model-table] tbody tr[data-model]').first().waitFor({ state: 'attached' });
  assert.ok(await rowCount(page, '[data-testid=model-table] tbody tr') >= 80);
  assert.equal(await page.getByTestId('comparison-table').count(), 0);
  assert.deepEqual(errors, []);
});
