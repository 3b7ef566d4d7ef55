// The first view: the frame index.html paints before the WebAssembly arrives (the default
// scenario's headline, computed at build time), "computing…" for a shared link or an embed, and
// the app's own headline in its place once it mounts, under the same Content-Security-Policy.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, openPage, ceiling } from './harness.mjs';

let server; let browser;
before(async () => { server = await serve('/'); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

/** The page with its WebAssembly held back: what shows before the module arrives. */
async function withoutWasm(query) {
  const p = await openPage(browser);
  await p.page.addInitScript(() => {
    window.__csp = [];
    document.addEventListener('securitypolicyviolation', (e) => window.__csp.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  await p.page.route('**/*.wasm', () => {}); // never answered
  await p.page.goto(server.base + query, { waitUntil: 'domcontentloaded' });
  return p;
}

test('a plain visit paints the default headline before the WebAssembly, and the app shows the same figure', async () => {
  const { page } = await withoutWasm('');
  const shell = page.getByTestId('shell-ceiling');
  await shell.waitFor();
  assert.ok(await shell.isVisible());
  const figure = await shell.textContent();
  assert.match(figure, /^\d+(\.\d)? tok\/s$/);
  assert.equal(await page.getByTestId('shell-computing').isVisible(), false);
  assert.deepEqual(await page.evaluate(() => window.__csp), []);
  // With the module: the frame is gone and the live headline says what the frame said.
  const live = await openPage(browser);
  await live.page.goto(server.base);
  await ceiling(live.page);
  assert.equal(await live.page.getByTestId('ceiling').textContent(), figure);
  assert.equal(await live.page.locator('#shell').count(), 0);
  assert.deepEqual(live.errors, []);
});

test('a shared link or an embed shows "computing…", never the default figures, until its own estimate', async () => {
  for (const query of ['?hw=m4-max-40c&model=llama-3.1-8b', '?embed=1&view=headline&hw=m4-max-40c']) {
    const { page } = await withoutWasm(query);
    await page.getByTestId('shell-computing').waitFor();
    assert.ok(await page.getByTestId('shell-computing').isVisible(), query);
    assert.equal(await page.getByTestId('shell-default').isVisible(), false, query);
    assert.deepEqual(await page.evaluate(() => window.__csp), [], query);
    if (query.includes('embed=1')) assert.equal(await page.locator('header.top').isVisible(), false);
  }
  const { page } = await openPage(browser);
  await page.goto(server.base + '?hw=m4-max-40c&model=llama-3.1-8b');
  await ceiling(page);
  assert.equal(await page.locator('#shell').count(), 0);
});
