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
