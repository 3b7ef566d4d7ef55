// A keystroke answers in the headline in the frame after it; the tables, charts, levers, measured
// runs and commands follow after that paint, each marked data-stale="true" until it shows the new
// scenario, and none is left stale once typing stops. Counted in frames and compared by content:
// no test here asserts a time (the times are make bench's).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, load, pressKey, focusEnd, canvasSignature } from './harness.mjs';

let server; let browser;
before(async () => { server = await serve('/'); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

const VIEWPORT = { width: 1440, height: 1600 };
const CHARTS = ['chart-machines', 'chart-context', 'chart-quants', 'chart-spill', 'chart-batch', 'chart-spec'];
// Every panel below the headline's figures, by what it holds (a selector each).
const PANELS = {
  'machine table': '[data-testid=comparison-table]',
  'model table': '[data-testid=model-table]',
  'formats table': '[data-testid=quant-table]',
  'headline levers': '[data-testid=headline-levers]',
  levers: '[data-testid=levers]',
  'measured runs': '[data-testid=provenance]',
  commands: '[data-testid=commands]',
};

/** The page with every panel mounted and drawn, and nothing stale. */
async function ready(query = '') {
  const p = await load(browser, server.base + query, { viewport: VIEWPORT });
  for (const sel of Object.values(PANELS)) await p.page.locator(sel).first().waitFor({ state: 'attached', timeout: 20000 });
  await p.page.getByTestId('headline-lever').first().waitFor({ state: 'attached' });
  await p.page.waitForFunction((ids) => ids.every((id) => Number(document.querySelector(`[data-testid=${id}]`)?.dataset.draws) >= 1), CHARTS);
  await settled(p.page);
  return p;
}

/** Waits (frame by frame) until no panel is marked stale. */
async function settled(page) {
  await page.waitForFunction(() => !document.querySelector('[data-stale]'), null, { polling: 'raf', timeout: 10000 });
}

/** What every panel shows once two reads a few frames apart agree (a long option list fills in
 * after its first paint, with no panel marked stale). */
async function steady(page) {
  let last = await panels(page);
  for (let i = 0; i < 20; i++) {
    await page.waitForTimeout(100);
    const now = await panels(page);
    if (JSON.stringify(now) === JSON.stringify(last)) return now;
    last = now;
  }
  return last;
}

/** What every panel shows: its text, and each chart's pixels. */
async function panels(page) {
  const text = await page.evaluate((sels) => Object.fromEntries(Object.entries(sels).map(([name, sel]) => [name, document.querySelector(sel).textContent])), PANELS);
  for (const id of CHARTS) {
    const { width, height, hash } = await canvasSignature(page, id);
    text[id] = { width, height, hash };
  }
  return text;
}

test('after a burst of 10 keystrokes every panel shows the final scenario and none is marked stale', async () => {
  const { page, errors } = await ready();
  await focusEnd(page, 'input-ctx');
  const cdp = await page.context().newCDPSession(page);
  // 4096 → (4 Backspaces, the empty box among them) → 131072, with no pause between keys.
  for (const key of ['Backspace', 'Backspace', 'Backspace', 'Backspace', '1', '3', '1', '0', '7', '2']) await pressKey(cdp, key);
  assert.equal(await page.getByTestId('input-ctx').inputValue(), '131072');
  await settled(page);
  const typed = await steady(page);
  const { page: direct } = await ready('?ctx=131072');
  await settled(direct);
  const expected = await steady(direct);
  for (const name of [...Object.keys(PANELS), ...CHARTS]) assert.deepEqual(typed[name], expected[name], `${name} does not show the final scenario`);
  assert.equal(await page.locator('[data-stale]').count(), 0);
  assert.deepEqual(errors, []);
});

test('the headline changes in the first frame after a keystroke; every panel is marked stale in it', async () => {
  const { page } = await ready();
  const waiting = [...Object.values(PANELS), ...CHARTS.map((id) => `[data-testid=${id}]`)];
  await page.evaluate((sels) => {
    const headline = () => ['ceiling', 'expected', 'division', 'fit'].map((id) => document.querySelector(`[data-testid=${id}]`).textContent).join(' | ');
    window.__frames = [];
    // The key's own task (keydown, then its input event) runs before the next frame's animation
    // callbacks, which see what that frame paints.
    addEventListener('keydown', () => {
      const before = headline();
      requestAnimationFrame(() => window.__frames.push({
        before,
        first: headline(),
        // Each panel (or chart) whose own box, or the section holding it, says it waits.
        stale: sels.filter((sel) => document.querySelector(sel).closest('[data-stale="true"]')),
      }));
    }, true);
  }, waiting);
  await focusEnd(page, 'input-ctx');
  const cdp = await page.context().newCDPSession(page);
  // 4096 → 40960 → 409600 → 40960 → 4096 → 409: each a tenfold change of the KV cache.
  const keys = ['0', '0', 'Backspace', 'Backspace', 'Backspace'];
  const settledHeadlines = [];
  for (const key of keys) {
    await pressKey(cdp, key);
    await settled(page);
    settledHeadlines.push(await page.evaluate(() => ['ceiling', 'expected', 'division', 'fit'].map((id) => document.querySelector(`[data-testid=${id}]`).textContent).join(' | ')));
  }
  const frames = await page.evaluate(() => window.__frames);
  assert.equal(frames.length, keys.length);
  frames.forEach((f, i) => {
    assert.notEqual(f.first, f.before, `key ${i + 1} (${keys[i]}): the headline had not changed in the frame after it`);
    assert.equal(f.first, settledHeadlines[i], `key ${i + 1} (${keys[i]}): the frame after it showed a headline other than the scenario's`);
    for (const sel of waiting) assert.ok(f.stale.includes(sel), `key ${i + 1}: ${sel} was not marked stale in that frame (stale: ${f.stale})`);
  });
});
