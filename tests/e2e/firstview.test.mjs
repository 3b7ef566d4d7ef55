// The first view: the frame index.html paints before the WebAssembly arrives (the default
// scenario's headline, computed at build time), "computing…" for a shared link or an embed; then
// the module's first part paints the link's own ceiling in the frame, before the app's part
// arrives; and the app's own headline takes its place once it mounts, all under the same
// Content-Security-Policy. The readers' part is fetched only when something is imported.
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

/** The page with the app's part held back (`answer` decides what its request gets). */
async function withoutApp(query, answer = () => {}) {
  const p = await openPage(browser);
  await p.page.route('**/split_app-*.wasm', answer);
  await p.page.goto(server.base + query, { waitUntil: 'domcontentloaded' });
  return p;
}

test('the first part paints a shared link\'s own ceiling before the app\'s part arrives, the same figure the app then shows', async () => {
  for (const query of ['?hw=m4-max-40c&model=llama-3.1-8b&quant=q8_0&ctx=8192', '?embed=1&view=headline,context&hw=m4-max-40c&model=llama-3.1-8b', '']) {
    const { page, requests } = await withoutApp(query);
    const early = page.getByTestId('ceiling');
    await early.waitFor();
    const figure = await early.textContent();
    assert.match(figure, /^\d+(\.\d)? tok\/s$/, query);
    assert.equal(await page.locator('#shell').count(), 1, 'the app has not mounted');
    assert.equal(await page.getByTestId('input-ctx').count(), 0, 'no form yet');
    assert.equal(await page.getByTestId('shell-computing').isVisible(), false, query);
    assert.ok(requests.some((u) => /split_app-[0-9a-f]+\.wasm$/.test(u)), 'the app\'s part is asked for at once');
    assert.ok(!requests.some((u) => /split_tools-/.test(u)), 'the readers are not fetched for a visit');
    const live = await openPage(browser);
    await live.page.goto(server.base + query);
    assert.equal(await ceiling(live.page), Number(figure.split(' ')[0]), query);
    assert.deepEqual(live.errors, []);
    await page.close();
    await live.page.close();
  }
});

test('when the app\'s part cannot be fetched, the first view keeps the link\'s ceiling and says so', async () => {
  const { page } = await withoutApp('?hw=m4-max-40c&model=llama-3.1-8b', (route) => route.fulfill({ status: 404, body: 'gone' }));
  await page.getByTestId('part-error').waitFor();
  assert.match(await page.getByTestId('part-error').textContent(), /could not be loaded: offline.*Load this link again/);
  assert.match(await page.getByTestId('ceiling').textContent(), /^\d+(\.\d)? tok\/s$/);
  assert.equal(await page.getByTestId('panic').count(), 0);
  assert.equal(await page.locator('.part-error a').getAttribute('href'), '?hw=m4-max-40c&model=llama-3.1-8b');
});

test('the panels at the bottom arrive in a part of their own; if it cannot be fetched, their place says so and the rest works', async () => {
  const { page, requests } = await openPage(browser);
  await page.goto(server.base + '?hw=rtx-4090&model=qwen3-8b');
  await ceiling(page);
  await page.getByTestId('levers').waitFor();
  await page.getByTestId('import-config').waitFor();
  assert.ok(requests.some((u) => /split_more-[0-9a-f]+\.wasm$/.test(u)));
  const broken = await openPage(browser);
  await broken.page.route('**/split_more-*.wasm', (route) => route.fulfill({ status: 404, body: 'gone' }));
  await broken.page.goto(server.base + '?hw=rtx-4090&model=qwen3-8b');
  await ceiling(broken.page);
  await broken.page.getByTestId('part-error').first().waitFor();
  // The levers and commands come with the app's part: only the bottom panels' place says so.
  await broken.page.getByTestId('levers').waitFor();
  assert.equal(await broken.page.getByTestId('part-error').count(), 1, 'the panels at the bottom');
  assert.match(await broken.page.getByTestId('part-error').first().textContent(), /could not be loaded: offline/);
  assert.equal(await broken.page.getByTestId('import-config').count(), 0);
  const table = broken.page.getByTestId('comparison-table');
  await table.locator('tbody tr').first().waitFor();
  await broken.page.getByTestId('input-ctx').fill('65536');
  await broken.page.waitForFunction(() => /64K context/.test(document.querySelector('[data-testid=headline-scenario]').textContent));
  assert.equal(await broken.page.getByTestId('panic').count(), 0);
});
