import { serve, launch, openPage, ceiling } from '/work/main/tests/e2e/harness.mjs';
const server = await serve('/'); const browser = await launch();
const { page } = await openPage(browser, { viewport: { width: 1440, height: 1600 } });
await page.goto(server.base); await ceiling(page);
const scroll = process.argv[2];
if (scroll) { await page.getByTestId(scroll).locator('tbody tr').first().waitFor({ state: 'attached' }); await page.getByTestId(scroll).evaluate((el) => el.scrollIntoView({ block: 'start' })); }
await page.waitForTimeout(500);
await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink.user_timing'] });
await page.evaluate(async () => {
  const input = document.querySelector('[data-testid=input-ctx]');
  const frame = () => new Promise((r) => requestAnimationFrame(r));
  for (let i = 0; i < 30; i++) { await frame(); await new Promise(r=>setTimeout(r,50)); performance.mark('k'+i); input.value = String(2048 + i * 1531); input.dispatchEvent(new Event('input', { bubbles: true })); performance.mark('e'+i); await frame(); await frame(); }
});
const buf = await browser.stopTracing();
const ev = JSON.parse(buf.toString()).traceEvents;
const main = ev.filter(e => e.ph === 'X' && e.dur);
const marks = ev.filter(e => e.cat && e.cat.includes('user_timing') && /^[ke]\d+$/.test(e.name));
const tid = marks[0].tid;
const sums = new Map(); let n = 0; let js = 0;
for (let i = 0; i < 30; i++) {
  const k = marks.find(m => m.name === 'k'+i), e = marks.find(m => m.name === 'e'+i);
  if (!k || !e) continue; n++;
  js += (e.ts - k.ts);
  // the first Commit after the input on the main thread
  const commit = main.filter(x => x.tid === tid && x.name === 'Commit' && x.ts > e.ts).sort((a,b)=>a.ts-b.ts)[0];
  const end = commit ? commit.ts + commit.dur : e.ts + 50000;
  for (const x of main) if (x.tid === tid && x.ts >= e.ts && x.ts + x.dur <= end && ['Layout','Paint','PrePaint','UpdateLayoutTree','Layerize','Commit','IntersectionObserverController::computeIntersections','FunctionCall','FireAnimationFrame','RunTask','TimerFire','EventDispatch','ParseHTML'].includes(x.name)) sums.set(x.name, (sums.get(x.name)||0) + x.dur);
  sums.set('total to commit', (sums.get('total to commit')||0) + (end - k.ts));
}
console.log('input handler JS (sync):', (js/n/1000).toFixed(2), 'ms');
for (const [k,v] of [...sums].sort((a,b)=>b[1]-a[1])) console.log((v/n/1000).toFixed(2), 'ms', k);
await browser.close(); await server.close();
