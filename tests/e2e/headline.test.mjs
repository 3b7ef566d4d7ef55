// The headline reads in order of weight: the expected figure larger than the ceiling, the ceiling
// said in words, the compute side at the share of peak the estimate applies, and the next step
// (one or two levers, each with its Apply) where the eye already is, on a phone and a desktop.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, load } from './harness.mjs';

let server; let browser;
before(async () => { server = await serve('/'); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

const SIZES = [{ width: 390, height: 844 }, { width: 1440, height: 900 }];

/** The headline's levers once they are worked out (they come after the first paint). */
async function headlineLevers(page) {
  const levers = page.getByTestId('headline-lever');
  await levers.first().waitFor({ timeout: 20000 });
  return levers;
}

/** The figure an `expected` text starts with. */
const figureOf = (text) => Number(/^[\d.]+/.exec(text)[0]);

test('the expected figure is the big one, the ceiling says what it means, compute is at the estimate\'s share of peak', async () => {
  const { page } = await load(browser, server.base + '?hw=ddr5-5600-2ch&model=llama-3.1-8b&threads=2');
  const size = (id) => page.evaluate((t) => parseFloat(getComputedStyle(document.querySelector(`[data-testid=${t}]`)).fontSize), id);
  const [expected, ceiling] = [await size('expected'), await size('ceiling')];
  assert.ok(expected > ceiling * 1.5, `expected ${expected}px, ceiling ${ceiling}px`);
  assert.match(await page.locator('.headline .ceiling').textContent(), /^[\d.]+ tok\/s ceiling: the most this memory can give, at 100% of its bandwidth$/);
  assert.match(await page.getByTestId('expected').textContent(), /^[\d.]+ tok\/s \([\d.]+–[\d.]+\)$/);
  // Two threads of a desktop CPU: the compute side at its share of peak, with the peak beside it.
  const bound = await page.getByTestId('bound').textContent();
  const m = /compute allows ([\d.]+) tok\/s at the (\d+)% of peak the estimate applies \(([\d.]+) at peak\)\.$/.exec(bound);
  assert.ok(m, bound);
  assert.ok(Number(m[1]) < Number(m[3]) / 2 && Number(m[1]) >= figureOf(await page.getByTestId('expected').textContent()), bound);
});

test('the best one or two levers stand with the headline, on the first screen, each with its own Apply', async () => {
  for (const viewport of SIZES) {
    const { page } = await load(browser, server.base + '?hw=ddr5-5600-2ch&model=llama-3.1-8b', { viewport });
    const levers = await headlineLevers(page);
    const n = await levers.count();
    assert.ok(n >= 1 && n <= 2, `${viewport.width}px: ${n} levers`);
    const box = await page.evaluate(() => {
      const r = (el) => el.getBoundingClientRect();
      const h = r(document.querySelector('.headline'));
      return {
        levers: r(document.querySelector('[data-testid=headline-levers]')).top,
        first: r(document.querySelector('[data-testid=headline-lever]')).top,
        headline: [h.top, h.bottom],
        inside: !!document.querySelector('.headline [data-testid=headline-levers]'),
        rows: document.querySelectorAll('.headline [data-testid=lever-row]').length,
      };
    });
    assert.ok(box.inside && box.rows === 0, `${viewport.width}px: in the headline, and not the section's rows`);
    assert.ok(box.levers >= 0 && box.first < viewport.height, `${viewport.width}px: the levers start at ${box.first}px of ${viewport.height}`);
    for (let i = 0; i < n; i += 1) {
      const lever = levers.nth(i);
      assert.match(await lever.getAttribute('data-expected-tok-s'), /^\d+\.\d$/);
      assert.equal(await lever.getByTestId('headline-lever-apply').count(), 1);
    }
    // Serving a batch gains most in all here, but is no faster for the one reading: never here.
    assert.equal(await page.locator('[data-testid=headline-lever][data-figure=aggregate]').count(), 0);
    const section = await page.locator('[data-testid=lever-row][data-figure=aggregate]').count();
    assert.ok(section >= 1, 'the levers section still has it');
    await page.close();
  }
});

test('Apply changes the headline to the lever\'s figure and keeps the headline in view', async () => {
  for (const viewport of SIZES) {
    const { page } = await load(browser, server.base + '?hw=ddr5-5600-2ch&model=llama-3.1-8b', { viewport });
    await headlineLevers(page);
    const lever = page.locator('[data-testid=headline-lever][data-figure=expected]').first();
    const [figure, change] = [Number(await lever.getAttribute('data-expected-tok-s')), await lever.getAttribute('data-change')];
    const before = figureOf(await page.getByTestId('expected').textContent());
    assert.ok(figure > before, `${figure} over ${before}`);
    // Scrolled so the lever is at the top of the window and the figure above it, out of view.
    await page.evaluate(() => {
      document.querySelector('[data-testid=headline-lever]').scrollIntoView({ block: 'start' });
    });
    await lever.getByTestId('headline-lever-apply').click();
    const [key, value] = change.split('&')[0].split('=');
    await page.waitForFunction(([k, v]) => new URLSearchParams(location.search).get(k) === v, [key, value]);
    await page.waitForFunction((f) => Math.abs(Number(/^[\d.]+/.exec(document.querySelector('[data-testid=expected]').textContent)[0]) - f) <= 0.051, figure);
    await page.waitForTimeout(200);
    const seen = await page.evaluate(() => {
      const r = document.querySelector('[data-testid=expected]').getBoundingClientRect();
      return [r.top, r.bottom, innerHeight];
    });
    assert.ok(seen[0] >= 0 && seen[1] <= seen[2], `${viewport.width}px: the expected figure at ${seen[0]}–${seen[1]} of ${seen[2]}`);
    await page.close();
  }
});

test('where the model does not fit, the headline shows a change after which it runs, in the embed too', async () => {
  const query = '?hw=rtx-3060-12g&model=gpt-oss-20b&ctx=16384';
  for (const url of [query, `${query}&embed=1`]) {
    const { page } = await load(browser, server.base + url, { viewport: { width: 390, height: 844 } });
    assert.match(await page.getByTestId('fit').textContent(), /^Does not fit/);
    const levers = await headlineLevers(page);
    const first = levers.first();
    assert.equal(await first.locator('td').nth(3).textContent(), 'fits', await first.textContent());
    const top = await first.evaluate((el) => el.getBoundingClientRect().top);
    assert.ok(top >= 0 && top < 844, `${url}: the first lever at ${top}px`);
    const figure = Number(await first.getAttribute('data-expected-tok-s'));
    await first.getByTestId('headline-lever-apply').click();
    await page.waitForFunction(() => /^Fits/.test(document.querySelector('[data-testid=fit]').textContent));
    const shown = figureOf(await page.getByTestId('expected').textContent());
    assert.ok(Math.abs(shown - figure) <= 0.051, `${url}: ${shown} vs ${figure}`);
    await page.close();
  }
});
