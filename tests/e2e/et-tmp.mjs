// scratch: Event Timing p90 with injected CSS/JS variants
import { serve, launch, openView, pressKey, focusEnd } from './harness.mjs';
const server = await serve('/');
const browser = await launch();
const pct = (xs, q) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(q * (s.length - 1) + 0.5))]; };
const css = process.env.CSS || '';
const vp = process.env.VP === 'big' ? { width: 1440, height: 1600 } : { width: 1280, height: 720 };
const runs = Number(process.env.RUNS || 2);
const all = [];
const settles = [];
for (let run = 0; run < runs; run++) {
const page = await openView(browser, server.base + (process.env.Q || ''), vp, process.env.SCROLL, () => {
  const rec = { entries: [], keys: [], lastChange: 0 };
  window.__keys = rec;
  new PerformanceObserver((list) => { for (const e of list.getEntries()) rec.entries.push({ name: e.name, start: e.startTime, duration: e.duration, delay: e.processingStart - e.startTime, proc: e.processingEnd - e.processingStart, pres: e.startTime + e.duration - e.processingEnd }); }).observe({ type: 'event', durationThreshold: 16, buffered: true });
  addEventListener('keydown', (ev) => rec.keys.push({ t: ev.timeStamp }), true);
  new MutationObserver(() => { rec.lastChange = performance.now(); }).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
});
if (css) await page.evaluate((c) => { const s = new CSSStyleSheet(); s.replaceSync(c); document.adoptedStyleSheets = [...document.adoptedStyleSheets, s]; }, css);
if (process.env.JS) await page.evaluate(process.env.JS);
await page.waitForTimeout(500);
await focusEnd(page, 'input-ctx');
const cdp = await page.context().newCDPSession(page);
let seed = 45 + run;
const random = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
for (let burst = 0; burst < 4; burst++) {
  for (let k = 0; k < 10; k++) {
    await pressKey(cdp, k % 2 === 0 ? 'Backspace' : String(Math.floor(random() * 10)));
    await new Promise((r) => setTimeout(r, random() * 100));
  }
  await page.waitForTimeout(1500);
  settles.push(await page.evaluate(() => window.__keys.lastChange - window.__keys.keys.at(-1).t));
}
const { entries, keys } = await page.evaluate(() => window.__keys);
await page.close();
for (const e of entries) if (process.env.DETAIL && e.name !== 'keyup') console.log(e.name, e.duration, 'delay', e.delay.toFixed(1), 'proc', e.proc.toFixed(1), 'pres', e.pres.toFixed(1));
keys.forEach((k, i) => { const next = keys[i + 1]?.t ?? Infinity; all.push(Math.max(8, ...entries.filter((e) => e.start >= k.t && e.start < next).map((e) => e.duration))); });
}
const hist = {}; for (const d of all) hist[d] = (hist[d] || 0) + 1;
console.log(`${process.env.NAME || css.slice(0, 60)}: p50 ${pct(all, 0.5)} p90 ${pct(all, 0.9)} n=${all.length} hist ${JSON.stringify(hist)} settle med ${pct(settles, 0.5).toFixed(0)} max ${Math.max(...settles).toFixed(0)}`);
await browser.close(); await server.close();
