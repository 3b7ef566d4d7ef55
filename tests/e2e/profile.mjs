// Development aid, not a test: a CPU profile of 40 changes of input-ctx, self time by function.
// TOKBOUND_DIST=/path/to/a/build/with/names node profile.mjs [input|load] [table filter kind]
import { serve, launch, openPage, ceiling } from './harness.mjs';
const server = await serve('/');
const browser = await launch();
const { page } = await openPage(browser);
const cdp = await page.context().newCDPSession(page);
const mode = process.argv[2] || 'input';
await cdp.send('Profiler.enable');
await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
if (mode === 'load') await cdp.send('Profiler.start');
await page.goto(server.base);
await ceiling(page);
await page.waitForTimeout(300);
if (process.argv[3]) { await page.getByTestId('filter-kind').selectOption(process.argv[3]); await page.waitForTimeout(300); }
if (mode === 'input') {
  await cdp.send('Profiler.start');
  await page.evaluate(async () => {
    const input = document.querySelector('[data-testid=input-ctx]');
    const frame = () => new Promise((r) => requestAnimationFrame(r));
    for (let i = 0; i < 40; i++) {
      await frame();
      input.value = String(2048 + i * 1531);
      input.dispatchEvent(new Event('input', { bubbles: true }));
      await frame();
    }
  });
}
const { profile } = await cdp.send('Profiler.stop');
const self = new Map();
const dt = profile.timeDeltas; const byId = new Map(profile.nodes.map((n) => [n.id, n]));
profile.samples.forEach((id, i) => {
  const n = byId.get(id); const name = `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').pop()}`;
  self.set(name, (self.get(name) || 0) + (dt[i] || 0) / 1000);
});
const total = [...self.values()].reduce((a, b) => a + b, 0);
console.log(`total ${total.toFixed(1)} ms`);
for (const [k, v] of [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, 40)) console.log(v.toFixed(1).padStart(8), k.slice(0, 150));
await browser.close(); await server.close();
