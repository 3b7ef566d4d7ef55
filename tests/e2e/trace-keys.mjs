// Development aid, not a test: the main thread's tasks while input-ctx is typed into (a trace),
// each task over 2 ms with what ran it. node trace-keys.mjs [width height [scroll-testid]]
import { serve, launch, openView, pressKey, focusEnd } from './harness.mjs';
const [w = 1440, h = 1600, scroll] = process.argv.slice(2);
const server = await serve('/');
const browser = await launch();
const page = await openView(browser, server.base, { width: Number(w), height: Number(h) }, scroll);
await page.waitForTimeout(700);
await focusEnd(page, 'input-ctx');
const cdp = await page.context().newCDPSession(page);
await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline'] });
for (let i = 0; i < 10; i++) {
  await pressKey(cdp, i % 2 ? '5' : 'Backspace');
  await page.waitForTimeout(400);
}
const trace = JSON.parse((await browser.stopTracing()).toString());
const events = trace.traceEvents;
const main = events.find((e) => e.name === 'thread_name' && e.args.name === 'CrRendererMain');
const mine = events.filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === 'X').sort((a, b) => a.ts - b.ts);
const tasks = mine.filter((e) => e.name === 'RunTask' && e.dur > 2000);
const t0 = tasks[0]?.ts ?? 0;
for (const t of tasks) {
  const inside = mine.filter((e) => e.ts >= t.ts && e.ts + e.dur <= t.ts + t.dur && e !== t && e.dur > 300 && ['EventDispatch', 'TimerFire', 'FireAnimationFrame', 'FunctionCall', 'UpdateLayoutTree', 'Layout', 'Paint', 'PrePaint', 'Layerize', 'Commit', 'MajorGC', 'MinorGC', 'V8.GC_SCAVENGER', 'ParseHTML', 'RunMicrotasks', 'v8.run', 'HitTest', 'UpdateLayer', 'ScheduleStyleRecalculation'].includes(e.name));
  console.log(`${((t.ts - t0) / 1000).toFixed(1).padStart(8)} ms  ${(t.dur / 1000).toFixed(1).padStart(6)} ms  ${inside.map((e) => `${e.name}${e.args?.data?.type ? `(${e.args.data.type})` : ''} ${(e.dur / 1000).toFixed(1)}`).join(', ')}`);
}
await browser.close(); await server.close();
