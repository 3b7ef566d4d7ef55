// The page a person uses: every view renders, inputs drive the headline, tables and charts,
// bad values keep the last estimate, and the layout holds at phone and desktop widths.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, openPage, load, ceiling, canvasSignature, chartPixels } from './harness.mjs';

const CHARTS = ['chart-machines', 'chart-context', 'chart-quants', 'chart-spill', 'chart-batch', 'chart-spec'];
let server; let browser;
before(async () => { server = await serve('/'); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

const fresh = (query = '', options = {}) => load(browser, server.base + query, options);

async function signatures(page) {
  const out = {};
  for (const id of CHARTS) out[id] = await canvasSignature(page, id);
  return out;
}

async function tableSnapshot(page) {
  return page.getByTestId('comparison-table').locator('tbody tr').allTextContents();
}

test('the default scenario is the seed headline, beside the seed machines', async () => {
  const { page, errors, failures } = await fresh();
  const value = await ceiling(page);
  assert.ok(value > 45 && value < 55, `default ceiling ${value}`);
  assert.match(await page.getByTestId('expected').textContent(), /^\d+\.\d tok\/s \(\d+\.\d–\d+\.\d\)$/);
  assert.match(await page.getByTestId('division').textContent(), /^1008 GB\/s ÷ \(.* weights \+ .* KV cache\) = \d+\.\d tok\/s$/);
  assert.match(await page.getByTestId('fit').textContent(), /^Fits/);
  assert.match(await page.getByTestId('ttft').textContent(), /Time to first token: \d/);
  const rows = page.getByTestId('comparison-table').locator('tbody tr');
  assert.ok(await rows.count() >= 100, 'a row per catalog machine');
  for (const id of ['rtx-4090', 'm1-max-32c', 'm2-ultra-76c', 'ddr5-5600-2ch']) {
    assert.equal(await page.locator(`tbody tr[data-machine="${id}"]`).count(), 1, id);
  }
  assert.equal(await page.locator('tbody tr.current').first().getAttribute('data-machine'), 'rtx-4090');
  // The machine's figures come with where they were read.
  assert.match(await page.getByTestId('machine-source').textContent(), /^1008 GB\/s = 384-bit × 21000 MT\/s ÷ 8, 24 GiB GDDR6X \(source: NVIDIA/);
  assert.ok(await page.getByTestId('quant-table').locator('tbody tr').count() >= 20);
  // Rows laid out as grids keep their table semantics (roles in the markup).
  const table = page.getByRole('table').filter({ has: page.getByRole('columnheader', { name: /Ceiling/ }) }).first();
  assert.ok(await table.getByRole('row').count() >= 100);
  assert.equal(await table.getByRole('rowheader', { name: 'NVIDIA GeForce RTX 4090 (24 GiB)' }).count(), 1);
  assert.ok(await table.getByRole('cell').count() >= 800);
  for (const [id, sig] of Object.entries(await signatures(page))) {
    assert.ok(sig.colours > 3, `${id} looks blank: ${JSON.stringify(sig)}`);
  }
  assert.ok(await page.getByTestId('how-it-works').isVisible());
  assert.deepEqual(errors, []);
  assert.deepEqual(failures, []);
});

test('changing context, quant and machine changes the headline, the table and the charts', async () => {
  const { page, errors } = await fresh();
  let before = { value: await ceiling(page), table: await tableSnapshot(page), charts: await signatures(page) };
  const steps = [
    ['context', async () => page.getByTestId('input-ctx').fill('65536'), ['chart-context', 'chart-machines', 'chart-spill']],
    ['quant', async () => page.getByTestId('input-quant').selectOption('q8_0'), ['chart-machines', 'chart-quants', 'chart-spill']],
    ['machine', async () => page.getByTestId('input-machine').selectOption('m2-ultra-76c'), ['chart-machines', 'chart-quants', 'chart-context']],
  ];
  for (const [what, act, charts] of steps) {
    await act();
    await page.waitForTimeout(250);
    const after = { value: await ceiling(page), table: await tableSnapshot(page), charts: await signatures(page) };
    assert.notEqual(after.value, before.value, `${what}: headline unchanged`);
    if (what !== 'machine') assert.notDeepEqual(after.table, before.table, `${what}: table unchanged`);
    for (const id of charts) assert.notEqual(after.charts[id].hash, before.charts[id].hash, `${what}: ${id} unchanged`);
    before = after;
  }
  assert.equal(await page.locator('tbody tr.current').first().getAttribute('data-machine'), 'm2-ultra-76c');
  assert.match(await page.getByTestId('machine-source').textContent(), /^800 GB\/s.*, 192 GiB LPDDR5 \(source: .*Apple/);
  assert.deepEqual(errors, []);
});

test('a bad value shows its message beside the field and keeps the last estimate and the text', async () => {
  const { page, errors } = await fresh();
  await page.getByTestId('input-ctx').fill('8192');
  const good = await ceiling(page);
  for (const bad of ['abc', '-5', '1e308', '', '1.5', 'NaN', 'Infinity']) {
    await page.getByTestId('input-ctx').fill(bad);
    const message = await page.getByTestId('input-ctx-error').textContent();
    assert.ok(message.length > 3, `no message for "${bad}"`);
    assert.equal(await ceiling(page), good, `estimate changed on "${bad}"`);
    assert.equal(await page.getByTestId('input-ctx').inputValue(), bad, 'the typed text is kept');
  }
  await page.getByTestId('input-ctx').fill('1024');
  assert.equal(await page.getByTestId('input-ctx-error').textContent(), '');
  assert.notEqual(await ceiling(page), good);
  assert.deepEqual(errors, [], 'validation messages are not console errors');
});

test('the comparison table sorts by each column and filters by kind', async () => {
  const { page } = await fresh();
  const column = (n) => page.getByTestId('comparison-table').locator(`tbody tr > :nth-child(${n})`).allTextContents();
  const leadingNumber = (t) => Number.parseFloat(t.replace(/[^0-9.].*$/, ''));
  const monotonic = (xs, cmp) => xs.every((x, i) => i === 0 || cmp(xs[i - 1], x) <= 0) || xs.every((x, i) => i === 0 || cmp(xs[i - 1], x) >= 0);
  const numeric = { 'sort-bandwidth': 3, 'sort-memory': 4, 'sort-ceiling': 5, 'sort-expected': 6 };
  for (const [button, col] of Object.entries(numeric)) {
    for (const click of [1, 2]) {
      await page.getByTestId(button).click();
      // A new estimate arriving meanwhile (the probe, a part loading) repaints the numbers in
      // place and re-sorts the rows after that paint: read again until the frame after it.
      let values = [];
      for (let tries = 0; tries < 20; tries++) {
        values = (await column(col)).map(leadingNumber);
        if (monotonic(values, (a, b) => a - b)) break;
        await page.waitForTimeout(100);
      }
      assert.ok(values.length >= 100);
      assert.ok(monotonic(values, (a, b) => a - b), `${button} click ${click} not sorted: ${values.join(',')}`);
    }
    const first = (await column(col)).map(leadingNumber);
    await page.getByTestId(button).click();
    assert.notDeepEqual((await column(col)).map(leadingNumber), first, `${button} does not reverse`);
  }
  await page.getByTestId('sort-machine').click();
  const names = await column(1);
  assert.ok(monotonic(names, (a, b) => a.toLowerCase().localeCompare(b.toLowerCase())));
  for (const button of ['sort-kind', 'sort-fits', 'sort-bytes']) {
    const before = await column(1);
    await page.getByTestId(button).click();
    assert.notDeepEqual(await column(1), before, `${button} changes the order`);
  }
  await page.getByTestId('filter-kind').selectOption('apple');
  const kinds = await column(2);
  assert.ok(kinds.length >= 10 && kinds.every((k) => k === 'apple'), kinds.join(','));
});

for (const width of [360, 1440]) {
  test(`the layout holds at ${width} px`, async () => {
    const { page } = await fresh('', { viewport: { width, height: 900 } });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `page scrolls sideways by ${overflow}px`);
    const canvas = await canvasSignature(page, 'chart-context');
    assert.ok(canvas.width >= 300 && canvas.width <= width * 3);
  });
}

test('the keyboard reaches every control', async () => {
  const { page } = await fresh();
  const controls = await page.locator('main input, main select, main button').count();
  const seen = new Set();
  for (let i = 0; i < controls + 20; i++) {
    await page.keyboard.press('Tab');
    const id = await page.evaluate(() => {
      const el = document.activeElement;
      return el && el !== document.body ? (el.dataset.testid || el.textContent || el.outerHTML.slice(0, 60)) : null;
    });
    if (id) seen.add(id);
  }
  for (const id of ['input-machine', 'input-machine-search', 'input-model', 'input-quant', 'input-kv', 'input-ctx', 'input-ctx-slider', 'input-prompt',
    'input-gpu-frac', 'input-ram-bw', 'input-offload', 'input-batch', 'input-draft', 'input-k', 'input-accept', 'filter-kind', 'sort-ceiling']) {
    assert.ok(seen.has(id), `Tab never reaches ${id}`);
  }
});

test('charts are as large on a high-density screen as on any other, with more pixels', async () => {
  const title = async (deviceScaleFactor) => {
    const { page } = await fresh('', { viewport: { width: 900, height: 900 }, deviceScaleFactor, colorScheme: 'light' });
    const found = await chartPixels(page, 'chart-context', (c, data) => {
      // The title is the first ink from the top in the middle third: the rows it spans.
      const inked = (y) => {
        for (let x = Math.floor(c.width / 3); x < (2 * c.width) / 3; x++) {
          const i = (y * c.width + x) * 4;
          if (data[i] + data[i + 1] + data[i + 2] < 300) return true;
        }
        return false;
      };
      let top = -1; let bottom = -1;
      for (let y = 0; y < c.height / 4; y++) {
        if (inked(y)) { if (top < 0) top = y; bottom = y; } else if (top >= 0) break;
      }
      return { pixelsPerCss: c.width / c.clientWidth, top, rows: bottom - top + 1 };
    });
    await page.close();
    return found;
  };
  const [one, two] = [await title(1), await title(2)];
  assert.equal(one.pixelsPerCss, 1);
  assert.equal(two.pixelsPerCss, 2);
  assert.ok(one.top > 0 && one.rows >= 8, `a title at 1x: ${JSON.stringify(one)}`);
  // Twice the pixels for the same title in CSS pixels (a pixel either way for anti-aliasing).
  assert.ok(Math.abs(two.rows - 2 * one.rows) <= 3 && Math.abs(two.top - 2 * one.top) <= 3,
    `title rows at 1x ${JSON.stringify(one)}, at 2x ${JSON.stringify(two)}`);
});

test('dark mode is honoured', async () => {
  const light = await fresh('', { colorScheme: 'light' });
  const dark = await fresh('', { colorScheme: 'dark' });
  const bg = (p) => p.page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  assert.notEqual(await bg(light), await bg(dark));
  // The pixel at (2, 2), inside the chart's background.
  const px = (p) => chartPixels(p.page, 'chart-spill', (c, data) => Array.from(data.slice((2 * c.width + 2) * 4, (2 * c.width + 2) * 4 + 3)));
  const [l, d] = [await px(light), await px(dark)];
  assert.ok(l[0] + l[1] + l[2] > 600 && d[0] + d[1] + d[2] < 200, `chart background light ${l} dark ${d}`);
});
