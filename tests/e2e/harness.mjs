// Shared set-up for the end-to-end tests: a static server for the built dist/ on 127.0.0.1 and
// headless Chromium (the installed one) driven by playwright-core.
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { execSync, execFileSync } from 'node:child_process';
import { join, extname, resolve, normalize } from 'node:path';
import { chromium } from 'playwright-core';

const DIST = resolve(process.env.TOKBOUND_DIST || new URL('../../dist', import.meta.url).pathname);
const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm', '.css': 'text/css',
  '.svg': 'image/svg+xml', '.png': 'image/png', '.ico': 'image/x-icon', '.json': 'application/json', '.csv': 'text/csv' };

/** Each file as `gzip -9` compresses it, once per path: the bytes a static host serving files
 * precompressed with `gzip -9` sends, and the measure of every size figure (bench.mjs). Node's
 * zlib at level 9 writes about 2% more for the page's modules. */
const GZIPPED = new Map();
function gzip9(file, body) {
  if (!GZIPPED.has(file)) GZIPPED.set(file, execFileSync('gzip', ['-9', '-c'], { input: body, maxBuffer: 1 << 28 }));
  return GZIPPED.get(file);
}

/**
 * Serves DIST under `prefix` (so tests can check that the page works from a sub-path); with
 * `gzip`, compressed as `gzip -9` compresses it for a client that accepts it, as a static host
 * serving precompressed files does.
 */
export async function serve(prefix = '/', { gzip = false } = {}) {
  const server = createServer(async (req, res) => {
    const url = new URL(req.url, 'http://x');
    let path = decodeURIComponent(url.pathname);
    if (!path.startsWith(prefix)) { res.writeHead(404); res.end('not found'); return; }
    path = path.slice(prefix.length);
    if (path === '' || path.endsWith('/')) path += 'index.html';
    const file = normalize(join(DIST, path));
    if (!file.startsWith(DIST)) { res.writeHead(403); res.end(); return; }
    try {
      if (!(await stat(file)).isFile()) throw new Error('not a file');
      const type = TYPES[extname(file)] || 'application/octet-stream';
      const body = await readFile(file);
      if (gzip && /\bgzip\b/.test(req.headers['accept-encoding'] || '')) {
        res.writeHead(200, { 'content-type': type, 'content-encoding': 'gzip' });
        res.end(gzip9(file, body));
      } else {
        res.writeHead(200, { 'content-type': type });
        res.end(body);
      }
    } catch {
      res.writeHead(404); res.end('not found');
    }
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  const base = `http://127.0.0.1:${server.address().port}${prefix}`;
  return { base, close: () => new Promise((ok) => server.close(ok)) };
}

function chromePath() {
  if (process.env.CHROME) return process.env.CHROME;
  for (const p of ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome',
    '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome']) if (existsSync(p)) return p;
  return execSync('command -v chromium || command -v google-chrome', { shell: '/bin/sh' }).toString().trim();
}

/**
 * Launches headless Chromium (playwright gives it a fresh temporary profile) with no background
 * networking; `extra` adds flags (a WebGPU adapter, host mappings).
 */
export async function launch(extra = []) {
  return chromium.launch({
    executablePath: chromePath(),
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync', ...extra],
  });
}

/**
 * Opens a page that records console errors, failed or 404 responses, and every request URL.
 * Returns { page, errors, failures, requests }.
 */
export async function openPage(browser, options = {}) {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  const errors = [];
  const failures = [];
  const requests = [];
  page.on('console', (msg) => { if (msg.type() === 'error') errors.push(msg.text()); });
  page.on('pageerror', (err) => errors.push(String(err)));
  page.on('request', (req) => requests.push(req.url()));
  page.on('requestfailed', (req) => failures.push(`${req.url()} ${req.failure()?.errorText}`));
  page.on('response', (res) => { if (res.status() >= 400) failures.push(`${res.url()} ${res.status()}`); });
  return { page, errors, failures, requests };
}

/** Opens `url` in a fresh page and waits for the ceiling; returns what openPage returns. */
export async function load(browser, url, options = {}) {
  const p = await openPage(browser, options);
  await p.page.goto(url);
  await ceiling(p.page);
  return p;
}

/**
 * Reads the headline ceiling (tok/s) once the app has rendered it: the first view paints the
 * link's ceiling under the same hook before the app's part arrives, so this waits for the app,
 * which removes the frame (`#shell`) when it mounts.
 */
export async function ceiling(page) {
  const el = page.getByTestId('ceiling');
  await el.waitFor({ timeout: 20000 });
  await page.waitForFunction(() => !document.getElementById('shell'), null, { timeout: 20000 });
  const text = await el.textContent();
  const m = /^(\d+(?:\.\d)?) tok\/s/.exec(text);
  if (!m) throw new Error(`ceiling text "${text}" does not start with a number to one decimal`);
  return Number(m[1]);
}

/**
 * Opens `url` at `viewport` (running `init` before the page's own scripts), waits for the app,
 * scrolls the table `scroll` names (a data-testid) to the top where given, and lets the page
 * settle; returns the page.
 */
export async function openView(browser, url, viewport, scroll, init) {
  const { page } = await openPage(browser, { viewport });
  if (init) await page.addInitScript(init);
  await page.goto(url);
  await ceiling(page);
  if (scroll) {
    await page.getByTestId(scroll).locator('tbody tr').first().waitFor({ state: 'attached' });
    await page.getByTestId(scroll).evaluate((el) => el.scrollIntoView({ block: 'start' }));
  }
  await page.waitForTimeout(300);
  return page;
}

/** Waits until the chart has drawn at least once: charts draw a few frames after the headline. */
export async function drawn(page, testid) {
  await page.waitForFunction((id) => Number(document.querySelector(`[data-testid="${id}"]`)?.dataset.draws) >= 1, testid);
}

/**
 * Runs `reader(canvas, data)` in the page on the chart's pixels once it has drawn: `data` is the
 * RGBA bytes, row by row. The chart's canvas shows a bitmap (its context is a bitmaprenderer, with
 * no pixels to read), so they are read from a 2D copy. `reader` must be self-contained.
 */
export async function chartPixels(page, testid, reader) {
  await drawn(page, testid);
  return page.evaluate(`((c) => {
    const copy = document.createElement('canvas');
    copy.width = c.width; copy.height = c.height;
    const ctx = copy.getContext('2d');
    ctx.drawImage(c, 0, 0);
    return (${reader})(c, ctx.getImageData(0, 0, c.width, c.height).data);
  })(document.querySelector('[data-testid="${testid}"]'))`);
}

/** The chart's pixels once it has drawn: size, number of distinct colours (something was drawn when more than two) and a hash. */
export async function canvasSignature(page, testid) {
  return chartPixels(page, testid, (c, data) => {
    let hash = 0; const colours = new Set();
    for (let i = 0; i < data.length; i += 4 * 7) {
      const v = (data[i] << 16) | (data[i + 1] << 8) | data[i + 2];
      colours.add(v); hash = (hash * 31 + v) >>> 0;
    }
    return { width: c.width, height: c.height, colours: colours.size, hash };
  });
}

/**
 * Presses `key` (a digit or `Backspace`) as a person does: a trusted key press through the
 * browser's input pipeline (CDP `Input.dispatchKeyEvent`, key down then up), into whatever field
 * has focus. `cdp` is `page.context().newCDPSession(page)`.
 */
export async function pressKey(cdp, key) {
  const digit = /^\d$/.test(key);
  const code = digit ? `Digit${key}` : key;
  const windowsVirtualKeyCode = digit ? key.charCodeAt(0) : { Backspace: 8, End: 35 }[key];
  const down = digit ? { type: 'keyDown', text: key, unmodifiedText: key } : { type: 'rawKeyDown' };
  await cdp.send('Input.dispatchKeyEvent', { ...down, key, code, windowsVirtualKeyCode });
  await cdp.send('Input.dispatchKeyEvent', { type: 'keyUp', key, code, windowsVirtualKeyCode });
}

/** Focuses the `data-testid=testid` field without scrolling, its caret after its last character. */
export async function focusEnd(page, testid) {
  await page.getByTestId(testid).evaluate((el) => {
    el.focus({ preventScroll: true });
    el.setSelectionRange(el.value.length, el.value.length);
  });
}
