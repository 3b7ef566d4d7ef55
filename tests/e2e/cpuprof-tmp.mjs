import { writeFile } from 'node:fs/promises';
import { serve, launch, openView, pressKey, focusEnd } from './harness.mjs';
const server = await serve('/');
const browser = await launch();
const page = await openView(browser, server.base, { width: 1280, height: 720 }, undefined);
await focusEnd(page, 'input-ctx');
await page.waitForTimeout(1500);
const cdp = await page.context().newCDPSession(page);
await cdp.send('Profiler.enable');
await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
await cdp.send('Profiler.start');
let seed = 45;
const random = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
for (let k = 0; k < 40; k++) {
  await pressKey(cdp, k % 2 === 0 ? 'Backspace' : String(Math.floor(random() * 10)));
  await new Promise((r) => setTimeout(r, random() * 100));
}
await page.waitForTimeout(1000);
const { profile } = await cdp.send('Profiler.stop');
await writeFile('/tmp/prof/cpu.json', JSON.stringify(profile));
await browser.close(); await server.close();
