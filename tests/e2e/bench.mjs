// Performance budgets on the built release page, in headless Chromium: prints figures (make bench).
//   transfer: every file in dist/ as gzip -9 compresses it, in KB of 1000 bytes
//   first ceiling: navigation start → the end of the first frame that shows the ceiling's text
//   (its style, layout and paint included)
//   input → paint: 40 changes of input-ctx; time until the headline has changed in the DOM (the
//   page's own work), until the next animation frame (which starts once the frame showing the
//   headline and the table rows on screen has been laid out and painted: the input-to-next-paint
//   figure the budget is about; rows off screen and charts follow after that paint), and until the
//   context chart has redrawn; at 1280×720 (the tables start below the fold) and 1440×1600 (the
//   first table is on screen too)
import { readdir, readFile } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { serve, launch, openPage, ceiling } from './harness.mjs';

const dist = new URL('../../dist/', import.meta.url).pathname;
const pct = (xs, q) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(q * (s.length - 1) + 0.5))]; };
const fmt = (v) => v.toFixed(1);

// Each file as `gzip -9` compresses it (KB = 1000 bytes). The parts fetched only when a user asks
// for what they hold (the readers' part and the workers behind Import, Calibrate and Measure, the
// long tail of GPUs) have a budget of their own, apart from the whole page's (docs/performance.md).
const ON_DEMAND = [
  [/^split_tools-.*\.wasm$/, 'the readers\' part (import, calibrate, measure)', 45],
  [/^(parse|measure)-worker\.js$/, 'the workers', 5],
  // Fetched when a search or the GPU guess misses the curated catalog, or a link names its cards.
  [/^(gpus-longtail\.txt|split_tail-.*\.wasm)$/, 'the long tail of GPUs (its file and the part that reads it)', 40],
];
let total = 0;
const onDemand = ON_DEMAND.map(() => 0);
for (const f of await readdir(dist)) {
  const bytes = await readFile(join(dist, f));
  const gz = execFileSync('gzip', ['-9', '-c'], { input: bytes, maxBuffer: 1 << 28 }).length;
  const which = ON_DEMAND.findIndex(([re]) => re.test(f));
  if (which >= 0) onDemand[which] += gz; else total += gz;
  console.log(`  ${f}: ${(bytes.length / 1000).toFixed(1)} KB, ${(gz / 1000).toFixed(1)} KB gzipped${which >= 0 ? ' (on demand)' : ''}`);
}
console.log(`transfer: ${(total / 1000).toFixed(1)} KB gzipped, every file of dist/ a visit can fetch without importing, calibrating or measuring (budget: the whole page 400 KB)`);
ON_DEMAND.forEach(([, what, budget], i) => console.log(`transfer on demand: ${what} ${(onDemand[i] / 1000).toFixed(1)} KB gzipped (budget ${budget} KB)`));
console.log(`transfer: ${((total + onDemand.reduce((a, b) => a + b, 0)) / 1000).toFixed(1)} KB gzipped in all, every file of dist/`);

const server = await serve('/');
const browser = await launch();
const firsts = [];
for (let i = 0; i < 20; i++) {
  const { page } = await openPage(browser);
  await page.addInitScript(() => {
    new MutationObserver((_, obs) => {
      const el = document.querySelector('[data-testid=ceiling]');
      if (!el || !el.textContent) return;
      obs.disconnect();
      // The frame's animation callbacks run before its style, layout and paint; a message posted
      // from one arrives once that frame is painted (as for keystrokes below).
      requestAnimationFrame(() => {
        const c = new MessageChannel();
        c.port1.onmessage = () => console.debug(`first-ceiling ${performance.now()}`);
        c.port2.postMessage(0);
      });
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });
  // The time comes back as a console message: until it has, the bench runs nothing in the page
  // (a playwright wait evaluates its own script there, and that task would be timed too).
  const reported = page.waitForEvent('console', { predicate: (m) => m.text().startsWith('first-ceiling '), timeout: 20000 });
  await page.goto(server.base, { waitUntil: 'commit' });
  firsts.push(Number((await reported).text().split(' ')[1]));
  await ceiling(page);
  await page.close();
}
console.log(`first ceiling painted: median ${fmt(pct(firsts, 0.5))} ms, p90 ${fmt(pct(firsts, 0.9))} ms over ${firsts.length} loads (budget: unthrottled 150 ms)`);

// The keystroke at the top of the page, and with the model table (91 rows, each a format search)
// scrolled into view.
for (const { viewport, scroll } of [
  { viewport: { width: 1280, height: 720 } },
  { viewport: { width: 1440, height: 1600 } },
  { viewport: { width: 1440, height: 1600 }, scroll: 'model-table' },
]) {
  const { page } = await openPage(browser, { viewport });
  await page.goto(server.base);
  await ceiling(page);
  if (scroll) {
    await page.getByTestId(scroll).locator('tbody tr').first().waitFor({ state: 'attached' });
    await page.getByTestId(scroll).evaluate((el) => el.scrollIntoView({ block: 'start' }));
  }
  await page.waitForTimeout(300);
  const samples = await page.evaluate(async () => {
    const input = document.querySelector('[data-testid=input-ctx]');
    const ceil = document.querySelector('[data-testid=ceiling]');
    const out = [];
    const frame = () => new Promise((r) => requestAnimationFrame(() => r(performance.now())));
    // A message posted during a frame's animation callbacks is delivered once that frame's style,
    // layout and paint are done: the end of the frame that shows the change.
    const afterPaint = () => new Promise((r) => {
      const c = new MessageChannel();
      c.port1.onmessage = () => r(performance.now());
      c.port2.postMessage(0);
    });
    for (let i = 0; i < 40; i++) {
      await frame();
      const value = String(2048 + i * 1531);
      let headline = null;
      const t0 = performance.now();
      const o = new MutationObserver(() => { if (headline === null) headline = performance.now(); });
      o.observe(ceil, { subtree: true, childList: true, characterData: true });
      input.value = value;
      input.dispatchEvent(new Event('input', { bubbles: true }));
      const shown = afterPaint();
      const painted = await frame();
      o.disconnect();
      const chart = document.querySelector('[data-testid=chart-context]');
      const before = chart.dataset.draws;
      while (chart.dataset.draws === before && performance.now() - t0 < 2000) await frame();
      out.push({ headline: (headline ?? painted) - t0, paint: (await shown) - t0, frame: painted - t0, chart: performance.now() - t0 });
    }
    return out;
  });
  const h = samples.map((s) => s.headline);
  const p = samples.map((s) => s.paint);
  const f = samples.map((s) => s.frame);
  const c = samples.map((s) => s.chart);
  const at = `${viewport.width}×${viewport.height}${scroll ? `, scrolled to ${scroll}` : ''}`;
  console.log(`${at} input-ctx → headline updated in the DOM: median ${fmt(pct(h, 0.5))} ms, p90 ${fmt(pct(h, 0.9))} ms over ${samples.length} changes`);
  console.log(`${at} input-ctx → frame with the update painted: median ${fmt(pct(p, 0.5))} ms, p90 ${fmt(pct(p, 0.9))} ms (budget p90 16 ms)`);
  console.log(`${at} input-ctx → next animation frame (never under one frame interval): median ${fmt(pct(f, 0.5))} ms, p90 ${fmt(pct(f, 0.9))} ms`);
  console.log(`${at} input-ctx → context chart redrawn (frames later): median ${fmt(pct(c, 0.5))} ms, p90 ${fmt(pct(c, 0.9))} ms`);
  await page.close();
}
await browser.close();
await server.close();
