// scratch profiler (not committed)
import { writeFile } from 'node:fs/promises';
import { serve, launch, openView, pressKey, focusEnd } from './harness.mjs';
const server = await serve('/');
const browser = await launch();
const vp = process.env.VP === 'big' ? { width: 1440, height: 1600 } : { width: 1280, height: 720 };
const page = await openView(browser, server.base, vp, undefined);
if (process.env.JS) await page.evaluate(process.env.JS);
await focusEnd(page, 'input-ctx');
await page.waitForTimeout(1500);
const cdp = await page.context().newCDPSession(page);
await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink.user_timing', 'disabled-by-default-devtools.timeline.invalidationTracking', 'cc', 'viz', 'gpu'] });
let seed = 45;
const random = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
for (let k = 0; k < 10; k++) {
  await pressKey(cdp, k % 2 === 0 ? 'Backspace' : String(Math.floor(random() * 10)));
  await new Promise((r) => setTimeout(r, process.env.GAP ? Number(process.env.GAP) : random() * 100));
}
await page.waitForTimeout(1000);
const buf = await browser.stopTracing();
await writeFile('/tmp/prof/trace.json', buf);
await browser.close(); await server.close();
