// The built page loads cleanly and shows the ceiling.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, openPage, ceiling, canvasSignature } from './harness.mjs';

let server; let browser;
before(async () => { server = await serve('/some/sub/path/'); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

test('the page loads from a sub-path with no console error and no 404', async () => {
  const { page, errors, failures } = await openPage(browser);
  await page.goto(server.base);
  const value = await ceiling(page);
  assert.ok(value > 0);
  assert.equal(await page.title(), 'tokbound');
  await page.waitForTimeout(300);
  assert.deepEqual(errors, []);
  assert.deepEqual(failures, []);
});

test('the context chart is drawn', async () => {
  const { page } = await openPage(browser);
  await page.goto(server.base);
  await ceiling(page);
  const sig = await canvasSignature(page, 'chart-context');
  assert.ok(sig.width > 0 && sig.height > 0);
  assert.ok(sig.colours > 2, `canvas looks blank: ${JSON.stringify(sig)}`);
});

test('the headline paints first and nothing painted moves as the rest of the page arrives', async () => {
  for (const width of [1440, 900, 390]) {
    const { page } = await openPage(browser, { viewport: { width, height: 900 } });
    await page.addInitScript(() => {
      window.__shifts = [];
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) window.__shifts.push(`${e.value} ${e.sources.map((s) => s.node?.nodeName).join(',')}`);
      }).observe({ type: 'layout-shift', buffered: true });
      // Where the headline is, and whether the form is there yet, in the frame that first shows it.
      new MutationObserver((_, obs) => {
        const el = document.querySelector('[data-testid=ceiling]');
        if (!el || !el.textContent) return;
        obs.disconnect();
        requestAnimationFrame(() => {
          const r = document.querySelector('.headline').getBoundingClientRect();
          window.__first = { rect: [r.x, r.y, r.width], form: !!document.querySelector('[data-testid=input-ctx]') };
        });
      }).observe(document, { subtree: true, childList: true, characterData: true });
    });
    await page.goto(server.base);
    await ceiling(page);
    await page.getByTestId('chart-context').waitFor();
    await page.waitForTimeout(300);
    const { first, now, shifts } = await page.evaluate(() => {
      const r = document.querySelector('.headline').getBoundingClientRect();
      return { first: window.__first, now: [r.x, r.y, r.width], shifts: window.__shifts };
    });
    assert.equal(first.form, false, `${width}px: the form was in the headline's first frame`);
    assert.deepEqual(now, first.rect, `${width}px: the headline moved`);
    assert.deepEqual(shifts, [], `${width}px: layout shifts`);
    await page.close();
  }
});
