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
//   input → next paint (Event Timing): the same three views typed into as a person types, each key
//   a trusted press at a random moment (so at any point of a frame, and often while the last key's
//   panels are still being written): the duration the browser's Event Timing API gives the key's
//   interaction (what Interaction to Next Paint is made of), the key's own processing, and how long
//   after the last key of a burst the page's last panel is written
import { readdir, readFile } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { serve, launch, openPage, openView, ceiling, pressKey, focusEnd } from './harness.mjs';

const dist = new URL('../../dist/', import.meta.url).pathname;
const pct = (xs, q) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(q * (s.length - 1) + 0.5))]; };
const fmt = (v) => v.toFixed(1);

// Each file as `gzip -9` compresses it (KB = 1000 bytes). The parts fetched only when a user asks
// for what they hold (the readers' part and the workers behind Import, Calibrate and Measure, the
// long tails of GPUs and CPUs) have a budget of their own, apart from the whole page's (docs/performance.md).
const ON_DEMAND = [
  [/^split_tools-.*\.wasm$/, 'the readers\' part (import, calibrate, measure)', 45],
  [/^(parse|measure)-worker\.js$/, 'the workers', 5],
  // Fetched when a search or the GPU guess misses the curated catalog, or a link names its cards.
  [/^(gpus-longtail\.txt|split_tail-.*\.wasm)$/, 'the long tail of GPUs (its file and the part that reads it)', 40],
  // Fetched when a link names one of its CPUs, a machine search is typed or the CPU select is used.
  [/^cpus-longtail\.txt$/, 'the long tail of CPUs (the CPUs no machine names)', 5],
];
// BENCH=keys runs the keystroke measures alone.
const all = process.env.BENCH !== 'keys';
let total = 0;
const onDemand = ON_DEMAND.map(() => 0);
for (const f of all ? await readdir(dist) : []) {
  const bytes = await readFile(join(dist, f));
  const gz = execFileSync('gzip', ['-9', '-c'], { input: bytes, maxBuffer: 1 << 28 }).length;
  const which = ON_DEMAND.findIndex(([re]) => re.test(f));
  if (which >= 0) onDemand[which] += gz; else total += gz;
  console.log(`  ${f}: ${(bytes.length / 1000).toFixed(1)} KB, ${(gz / 1000).toFixed(1)} KB gzipped${which >= 0 ? ' (on demand)' : ''}`);
}
if (all) console.log(`transfer: ${(total / 1000).toFixed(1)} KB gzipped, every file of dist/ a visit can fetch without importing, calibrating or measuring (budget: the whole page 400 KB)`);
if (all) ON_DEMAND.forEach(([, what, budget], i) => console.log(`transfer on demand: ${what} ${(onDemand[i] / 1000).toFixed(1)} KB gzipped (budget ${budget} KB)`));
if (all) console.log(`transfer: ${((total + onDemand.reduce((a, b) => a + b, 0)) / 1000).toFixed(1)} KB gzipped in all, every file of dist/`);

const server = await serve('/');
const browser = await launch();
const firsts = [];
for (let i = 0; i < (all ? 20 : 0); i++) {
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
if (all) console.log(`first ceiling painted: median ${fmt(pct(firsts, 0.5))} ms, p90 ${fmt(pct(firsts, 0.9))} ms over ${firsts.length} loads (budget: unthrottled 150 ms)`);

// The keystroke at the top of the page, and with the model table (91 rows, each a format search)
// scrolled into view.
for (const { viewport, scroll } of [
  { viewport: { width: 1280, height: 720 } },
  { viewport: { width: 1440, height: 1600 } },
  { viewport: { width: 1440, height: 1600 }, scroll: 'model-table' },
]) {
  const page = await openView(browser, server.base, viewport, scroll);
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
  await eventTiming(viewport, scroll, at, pct(p, 0.9));
}
await browser.close();
await server.close();

/**
 * Input → next paint as the browser reports it: 4 bursts of 10 key presses on input-ctx (a
 * Backspace, then a digit: each changes the context), trusted presses through CDP at random gaps
 * of 0–100 ms (20 a second on average, faster than a person types), so each lands at a random
 * point of a frame and often behind the last key's later work. Each key's duration is the
 * longest Event Timing entry of its events (keydown, input, keyup: the interaction, as INP takes
 * it). Event Timing reports only entries of 16 ms or more (its durationThreshold) and rounds them
 * to 8 ms: a key without an entry is counted as 8 ms. The processing time is the key's own task,
 * from its keydown's first listener to its input's last (the page's reactive work included), and
 * Event Timing's processingEnd − processingStart of the input events it reported. A burst has
 * settled when the page last changes its DOM (the last panel written, the last chart shown).
 */
async function eventTiming(viewport, scroll, at, earlier) {
  const page = await openView(browser, server.base, viewport, scroll, () => {
    const rec = { entries: [], keys: [], lastChange: 0 };
    window.__keys = rec;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) rec.entries.push({ name: e.name, start: e.startTime, duration: e.duration, processing: e.processingEnd - e.processingStart });
    }).observe({ type: 'event', durationThreshold: 16, buffered: true });
    addEventListener('keydown', (ev) => rec.keys.push({ t: ev.timeStamp, start: performance.now(), end: null }), true);
    addEventListener('input', () => { const k = rec.keys.at(-1); if (k) k.end = performance.now(); });
    new MutationObserver(() => { rec.lastChange = performance.now(); })
      .observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
  });
  await focusEnd(page, 'input-ctx');
  const cdp = await page.context().newCDPSession(page);
  // A fixed seed: the same gaps and digits every run.
  let seed = 45;
  const random = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
  const settles = [];
  let staleLeft = 0;
  for (let burst = 0; burst < 4; burst++) {
    for (let k = 0; k < 10; k++) {
      await pressKey(cdp, k % 2 === 0 ? 'Backspace' : String(Math.floor(random() * 10)));
      await new Promise((r) => setTimeout(r, random() * 100));
    }
    await page.waitForTimeout(1500);
    const { settled, stale } = await page.evaluate(() => ({
      settled: window.__keys.lastChange - window.__keys.keys.at(-1).t,
      stale: document.querySelectorAll('[data-stale="true"]').length,
    }));
    settles.push(settled);
    staleLeft += stale;
  }
  const { entries, keys } = await page.evaluate(() => window.__keys);
  await page.close();
  const durations = keys.map((k, i) => {
    const next = keys[i + 1]?.t ?? Infinity;
    const own = entries.filter((e) => e.start >= k.t && e.start < next);
    return Math.max(8, ...own.map((e) => e.duration));
  });
  const reported = durations.filter((d) => d >= 16).length;
  const own = keys.filter((k) => k.end !== null).map((k) => k.end - k.start);
  const processing = entries.filter((e) => e.name === 'input').map((e) => e.processing);
  const line = `input → next paint (Event Timing) ${at}`;
  console.log(`${line}: median ${fmt(pct(durations, 0.5))} ms, p90 ${fmt(pct(durations, 0.9))} ms over ${durations.length} key presses (${reported} reported at 16 ms or more, the rest counted as 8; the frame-aligned measure above: p90 ${fmt(earlier)} ms) (budget p90 16 ms)`);
  console.log(`${line}: the key's own processing p90 ${fmt(pct(own, 0.9))} ms, median ${fmt(pct(own, 0.5))} ms over ${own.length} keys${processing.length ? `; Event Timing's processing of the ${processing.length} input events it reported p90 ${fmt(pct(processing, 0.9))} ms` : ''} (target p90 6 ms)`);
  console.log(`${line}: the slowest panel settled ${fmt(pct(settles, 0.5))} ms after a burst's last key (median of ${settles.length} bursts; slowest ${fmt(Math.max(...settles))} ms)${staleLeft ? `, ${staleLeft} panels left stale` : ''} (target 100 ms)`);
}
