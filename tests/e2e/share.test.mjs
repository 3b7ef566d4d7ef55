// Share, embed, export: a scenario travels as a URL; history steps through committed choices.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { serve, launch, openPage, load, ceiling, canvasSignature, chartPixels } from './harness.mjs';

let server; let browser;
before(async () => { server = await serve('/blog/tools/tokbound/'); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

const fresh = (query = '', options = {}) => load(browser, server.base + query, options);

test('a scenario set with the inputs reopens from its link with the same numbers', async () => {
  const { page } = await fresh();
  await page.getByTestId('input-machine').selectOption('m4-max-40c');
  await page.getByTestId('input-model').selectOption('gpt-oss-120b');
  await page.getByTestId('input-quant').selectOption('mxfp4');
  await page.getByTestId('input-ctx').fill('32768');
  await page.getByTestId('input-kv').selectOption('q8_0');
  const want = { ceiling: await page.getByTestId('ceiling').textContent(), expected: await page.getByTestId('expected').textContent(),
    division: await page.getByTestId('division').textContent() };
  const link = await page.getByTestId('share-url').inputValue();
  assert.ok(link.startsWith(server.base + '?v=1&'), link);
  assert.equal(new URL(link).search, new URL(page.url()).search, 'the address bar carries the same scenario');
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(server.base).origin });
  await page.getByTestId('copy-link').click();
  await page.waitForFunction(() => document.querySelector('[data-testid=copy-link]').textContent !== 'Copy link');
  assert.equal(await page.getByTestId('copy-link').textContent(), 'Copied');
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), link);
  const other = await openPage(browser);
  await other.page.goto(link);
  await ceiling(other.page);
  for (const [id, text] of Object.entries(want)) assert.equal(await other.page.getByTestId(id).textContent(), text, id);
  assert.equal(await other.page.getByTestId('input-ctx').inputValue(), '32768');
  assert.equal(await other.page.getByTestId('input-machine').inputValue(), 'm4-max-40c');
  assert.deepEqual(other.errors, []);
});

test('custom keys in the URL work as in the CLI', async () => {
  const { page } = await fresh('?bw=1000&weights=19GB&ctx=0');
  assert.equal(await ceiling(page), 52.6);
  assert.equal(await page.getByTestId('input-machine').inputValue(), 'custom');
  assert.equal(await page.getByTestId('input-bw').inputValue(), '1000');
  // The custom machine's kind select (filled like the catalog selects) shows the default and
  // writes a new choice to the link.
  assert.equal(await page.getByTestId('input-kind').inputValue(), 'gpu');
  await page.getByTestId('input-kind').selectOption('cpu');
  await page.waitForFunction(() => location.search.includes('kind=cpu'));
  assert.equal(await page.getByTestId('input-kind').inputValue(), 'cpu');
});

test('a burst of keystrokes rewrites the address bar once, when it pauses', async () => {
  const { page } = await fresh();
  await ceiling(page);
  // Chromium fetches the page's icon again whenever the address changes: count those fetches.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  let icons = 0;
  cdp.on('Network.requestWillBeSent', (e) => { if (e.request.url.includes('favicon')) icons++; });
  const seen = await page.evaluate(async () => {
    const input = document.querySelector('[data-testid=input-ctx]');
    const searches = [];
    for (let i = 1; i <= 20; i++) {
      input.value = String(1000 * i);
      input.dispatchEvent(new Event('input', { bubbles: true }));
      await new Promise((r) => setTimeout(r, 30));
      searches.push(location.search);
    }
    return searches;
  });
  assert.deepEqual(new Set(seen).size, 1, 'the address stays put while the keystrokes keep coming');
  assert.doesNotMatch(seen[0], /ctx=/);
  await page.waitForFunction(() => location.search.includes('ctx=20000'));
  await page.waitForTimeout(200);
  assert.ok(icons <= 1, `the icon was fetched ${icons} times for one burst`);
  // A committed change (Enter, blur, a select) is written at once.
  const committed = await page.evaluate(() => {
    const select = document.querySelector('[data-testid=input-machine]');
    select.value = 'rtx-3090';
    select.dispatchEvent(new Event('input', { bubbles: true }));
    select.dispatchEvent(new Event('change', { bubbles: true }));
    return location.search;
  });
  assert.match(committed, /hw=rtx-3090/);
});

test('back and forward step through committed choices, not keystrokes', async () => {
  const { page } = await fresh();
  const first = await ceiling(page);
  await page.getByTestId('input-machine').selectOption('rtx-3090');
  const second = await ceiling(page);
  await page.getByTestId('input-ctx').click();
  await page.getByTestId('input-ctx').pressSequentially('0', { delay: 20 }); // 40960
  await page.getByTestId('input-ctx').press('Tab');
  const third = await ceiling(page);
  assert.notEqual(second, third);
  assert.match(page.url(), /ctx=40960/);
  // The fields follow the scenario in place: the same elements, not a rebuilt form.
  await page.getByTestId('input-ctx').evaluate((e) => { e.tokboundMark = 'kept'; });
  await page.goBack();
  await page.waitForFunction(() => !location.search.includes('ctx=40960'));
  assert.equal(await ceiling(page), second);
  assert.equal(await page.getByTestId('input-ctx').inputValue(), '4096');
  assert.equal(await page.getByTestId('input-ctx').evaluate((e) => e.tokboundMark), 'kept', 'back does not remount the form');
  // The slider moves the context field the same way.
  await page.getByTestId('input-ctx-slider').fill('15');
  await page.waitForFunction(() => document.querySelector('[data-testid=input-ctx]').value === '32768');
  assert.equal(await page.getByTestId('input-ctx').evaluate((e) => e.tokboundMark), 'kept', 'the slider does not remount the field');
  await page.goBack();
  await page.waitForFunction(() => !location.search.includes('ctx=32768'));
  await page.goBack();
  await page.waitForFunction(() => !location.search.includes('hw=rtx-3090'));
  assert.equal(await ceiling(page), first);
  await page.goForward();
  await page.waitForFunction(() => location.search.includes('hw=rtx-3090'));
  assert.equal(await ceiling(page), second);
  assert.equal(await page.getByTestId('input-machine').inputValue(), 'rtx-3090');
});

test('garbage in the URL shows a notice naming each key, falls back to defaults and injects nothing', async () => {
  const q = '?bw=abc&hw=%3Cimg%20src%3Dx%20onerror%3Dwindow.pwned%3D1%3E&ctx=-7&model=%22%3E%3Cscript%3Ewindow.pwned%3D2%3C%2Fscript%3E&quant=zz&zzz=1';
  const { page, errors } = await fresh(q);
  const notice = await page.getByTestId('url-notices').textContent();
  assert.match(notice, /bw: "abc" is not a number; using 1008/);
  assert.match(notice, /ctx: "-7" is outside 0–100000000 tokens; using 4096/);
  assert.match(notice, /hw: "<img src=x onerror=window\.pwned=1>" is not a catalog id/);
  assert.match(notice, /model: "">\s?<script>/);
  assert.match(notice, /quant: unknown quant "zz"; nearest:/);
  assert.match(notice, /zzz: unknown key \(ignored\)/, 'unknown keys are ignored, and named');
  assert.ok(await ceiling(page) > 45, 'the default scenario stands');
  assert.equal(await page.evaluate(() => window.pwned), undefined);
  assert.equal(await page.locator('main img').count(), 0);
  assert.deepEqual(errors, []);
});

test('the embed view renders inside an iframe on another page, with a link to the full page', async () => {
  const { page } = await fresh('?hw=rtx-3090&model=llama-3.1-8b');
  const snippet = await page.getByTestId('embed-snippet').inputValue();
  assert.match(snippet, /^<iframe src="http:\/\/127\.0\.0\.1:\d+\/blog\/tools\/tokbound\/\?v=1&hw=rtx-3090&model=llama-3\.1-8b&embed=1&view=context"/);
  const host = await openPage(browser);
  await host.page.goto(server.base + 'favicon-missing-on-purpose');
  await host.page.setContent(`<h1>My post</h1>${snippet.replace('view=context', 'view=context%2Cmachines')}`);
  const frame = host.page.frameLocator('iframe');
  await frame.getByTestId('embed').waitFor();
  const text = await frame.getByTestId('ceiling').textContent();
  assert.match(text, /^\d+\.\d tok\/s$/);
  assert.equal(await frame.locator('canvas').count(), 2);
  assert.equal(await frame.getByTestId('input-machine').count(), 0, 'no form in an embed');
  const href = await frame.getByTestId('open-full').getAttribute('href');
  assert.equal(href, './?v=1&hw=rtx-3090&model=llama-3.1-8b');
  const sig = await frame.getByTestId('chart-context').evaluate((c) => c.width);
  assert.ok(sig > 100);
});

test('tables export as CSV and charts as PNG', async () => {
  const { page } = await fresh();
  const [csv] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-machines-csv').click()]);
  assert.equal(csv.suggestedFilename(), 'tokbound-machines.csv');
  const text = await readFile(await csv.path(), 'utf8');
  assert.ok(text.startsWith('id,machine,kind,bandwidth_gbs'));
  assert.ok(text.trim().split('\n').length > 100);
  const [quants] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-quants-csv').click()]);
  assert.ok((await readFile(await quants.path(), 'utf8')).includes('q4_k_m,Q4_K_M,4.9'));
  const [png] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-chart-context-png').click()]);
  const bytes = await readFile(await png.path());
  assert.deepEqual([...bytes.subarray(1, 4)], [0x50, 0x4e, 0x47]);
  const sig = await canvasSignature(page, 'chart-context');
  assert.ok(bytes.length > 5000, `${bytes.length} bytes for a ${sig.width}px canvas`);
});

test('the embed snippet includes the views chosen beside it, and copies', async () => {
  const { page } = await fresh('?hw=rtx-3090&model=llama-3.1-8b');
  const views = page.getByTestId('embed-views');
  const snippet = () => page.getByTestId('embed-snippet').inputValue();
  assert.ok(await views.locator('input[value=context]').isChecked(), 'the context chart at first');
  assert.equal(await views.locator('input[value=headline]').count(), 0, 'the headline is always there');
  const height = async () => Number(/height="(\d+)"/.exec(await snippet())[1]);
  const one = await height();
  await views.locator('input[value=levers]').check();
  await views.locator('input[value=machines]').check();
  await views.locator('input[value=context]').uncheck();
  // In the views' own order, whatever order they were ticked in.
  assert.match(await snippet(), /&embed=1&view=machines%2Clevers"/);
  assert.ok(await height() > one, 'the iframe height holds the views chosen');
  await views.locator('input[value=machines]').uncheck();
  await views.locator('input[value=levers]').uncheck();
  assert.match(await snippet(), /&embed=1" width=/, 'the headline alone');
  await views.locator('input[value=table]').check();
  const want = await snippet();
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(server.base).origin });
  const copy = page.getByTestId('embed-snippet-copy');
  await copy.click();
  await page.waitForFunction(() => document.querySelector('[data-testid=embed-snippet-copy]').textContent === 'Copied');
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), want);
  assert.match(want, /view=table"/);
});

test('theme=: an embed is light on a dark-preferring reader\'s page, dark when the link says so', async () => {
  const dark = { colorScheme: 'dark' };
  const look = async (query) => {
    const { page } = await fresh(query, dark);
    const chart = await chartPixels(page, 'chart-context', (c, data) => Array.from(data.slice((2 * c.width + 2) * 4, (2 * c.width + 2) * 4 + 3)));
    const out = await page.evaluate(() => ({
      theme: document.documentElement.getAttribute('data-theme'),
      bg: getComputedStyle(document.body).backgroundColor,
    }));
    await page.close();
    return { ...out, chart: chart.reduce((a, b) => a + b, 0) };
  };
  const white = 'rgb(255, 255, 255)';
  const embed = await look('?hw=rtx-3090&embed=1&view=context');
  assert.deepEqual([embed.theme, embed.bg], ['light', white]);
  assert.ok(embed.chart > 600, `the chart's background is light: ${embed.chart}`);
  const darkEmbed = await look('?hw=rtx-3090&embed=1&view=context&theme=dark');
  assert.equal(darkEmbed.theme, 'dark');
  assert.notEqual(darkEmbed.bg, white);
  assert.ok(darkEmbed.chart < 200, `the chart's background is dark: ${darkEmbed.chart}`);
  // The full page follows the reader, unless the link names a theme; the link keeps it.
  const full = await look('?hw=rtx-3090');
  assert.deepEqual([full.theme, full.chart < 200], ['auto', true]);
  assert.notEqual(full.bg, white);
  const light = await look('?hw=rtx-3090&theme=light');
  assert.deepEqual([light.bg, light.chart > 600], [white, true]);
  const { page } = await fresh('?hw=rtx-3090&theme=light', dark);
  await page.getByTestId('input-ctx').fill('8192');
  await page.waitForFunction(() => location.search.includes('ctx=8192'));
  assert.match(page.url(), /&theme=light$/);
});

test('theme= applies to the frame painted before the page\'s module arrives', async () => {
  const { page } = await openPage(browser, { colorScheme: 'dark' });
  // The module never arrives: only the frame index.html paints.
  await page.route('**/*.wasm', (route) => route.abort());
  await page.goto(server.base + '?hw=rtx-3090&embed=1');
  await page.getByTestId('shell').waitFor();
  assert.equal(await page.evaluate(() => getComputedStyle(document.body).backgroundColor), 'rgb(255, 255, 255)');
});
