// The smaller things a new user trips on: disabled buttons that look pressable, a field that means
// nothing on this machine, notes that name keys the page does not show, a phone's table that
// hides its speeds.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, load } from './harness.mjs';

let server; let browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

test('a disabled button looks disabled', async () => {
  const { page } = await load(browser, server.base);
  const look = (id) => page.getByTestId(id).evaluate((b) => {
    const s = getComputedStyle(b);
    return { disabled: b.disabled, opacity: Number(s.opacity), cursor: s.cursor, border: s.borderStyle };
  });
  const start = await look('measure-start');
  assert.deepEqual([start.disabled, start.opacity, start.cursor], [false, 1, 'pointer']);
  for (const id of ['measure-cancel', 'measure-use']) {
    const b = await look(id);
    assert.equal(b.disabled, true, id);
    assert.ok(b.opacity < 0.6, `${id}: opacity ${b.opacity}`);
    assert.equal(b.cursor, 'not-allowed', id);
    assert.notEqual(b.border, start.border, id);
  }
});

test('"RAM bandwidth for the rest" shows only where a GPU reads the rest from system RAM', async () => {
  for (const [query, shown] of [['?hw=rtx-4090', 1], ['?hw=ddr5-5600-2ch', 0], ['?hw=m4-max-40c', 0], ['?bw=100&kind=cpu', 0],
    ['?hw=ddr5-5600-2ch&ram_bw=50', 1]]) {
    const { page } = await load(browser, server.base + query);
    await page.getByTestId('input-ram').waitFor();
    assert.equal(await page.getByTestId('input-ram-bw').isVisible(), shown === 1, query);
    await page.close();
  }
  // Switching the machine hides and shows it.
  const { page } = await load(browser, server.base + '?hw=rtx-4090');
  await page.getByTestId('input-machine').selectOption('ddr5-5600-2ch');
  await page.getByTestId('input-ram-bw').waitFor({ state: 'hidden' });
  await page.getByTestId('input-machine').selectOption('rtx-3090');
  await page.getByTestId('input-ram-bw').waitFor({ state: 'visible' });
});

test('notes name the page\'s fields, not the link\'s keys', async () => {
  const { page } = await load(browser, server.base + '?hw=rtx-4090&model=qwen3-30b-a3b&offload=experts');
  const notes = await page.getByTestId('notes').textContent();
  assert.match(notes, /set “CPU” and “Threads”/);
  assert.doesNotMatch(notes, /cpu=|threads=/);
  const custom = await load(browser, server.base + '?bw=500&mem=24&params=30&active=3');
  const moe = await custom.page.getByTestId('notes').textContent();
  assert.match(moe, /set “Experts” and “Experts per token”/);
  assert.doesNotMatch(moe, /experts=|top_k=/);
});

test('on a phone the formats table keeps its speeds on screen and says it scrolls', async () => {
  const { page } = await load(browser, server.base + '?hw=rtx-4090', { viewport: { width: 390, height: 844 } });
  const table = page.getByTestId('quant-table');
  await table.locator('tbody tr').first().waitFor();
  await table.scrollIntoViewIfNeeded();
  const heads = await table.locator('thead th').evaluateAll((ths) => ths.map((th) => [th.textContent, th.getBoundingClientRect().right]));
  for (const name of ['Ceiling (tok/s)', 'Expected (tok/s)', 'Fits?']) {
    const [, right] = heads.find(([text]) => text === name);
    assert.ok(right <= 390, `${name} ends at ${right} px: ${JSON.stringify(heads)}`);
  }
  const cue = page.locator('section.table-section', { has: table }).locator('.scroll-cue');
  assert.ok(await cue.isVisible(), 'the cue says the rest scrolls sideways');
});
