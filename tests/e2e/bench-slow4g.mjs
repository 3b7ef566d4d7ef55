// The first view on a phone's connection (make bench): cold loads of the release page, gzip-served,
// under "slow 4G" (150 ms latency, 1,638.4 kbit/s down, 675 kbit/s up), for a plain visit, a shared
// link that is not the default scenario, and an embed. Per kind, over 10 loads, it prints:
//   first view: the bytes the browser fetched (its own resource timing, encoded sizes) up to the
//     frame that first paints the live ceiling
//   FCP: first contentful paint (the static frame paints before the WebAssembly arrives)
//   first ceiling: navigation start → the end of the frame that first shows the app's ceiling
//   below the fold: navigation start → the slowest of the parts after the first view (the charts,
//     the machine and model tables) painted
//   CLS: the layout shift score over the load
//   whether the long tail of GPUs (gpus-longtail.txt) or of CPUs (cpus-longtail.txt) was fetched
//   before that first ceiling: only a link naming one of their cards or CPUs should fetch it
import { serve, launch, openPage } from './harness.mjs';

const LOADS = Number(process.env.LOADS ?? 10);
const pct = (xs, q) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(q * (s.length - 1) + 0.5))]; };
const KINDS = [
  { kind: 'plain visit', query: '', below: ['chart-context', 'comparison-table', 'model-table'] },
  { kind: 'shared link', query: '?hw=m4-max-40c&model=llama-3.1-8b&quant=q8_0&ctx=8192', below: ['chart-context', 'comparison-table', 'model-table'] },
  { kind: 'embed', query: '?embed=1&view=headline,context&hw=m4-max-40c&model=llama-3.1-8b', below: ['chart-context'] },
  // A link to a card of the long tail of GPUs: the one first view that fetches that file.
  { kind: 'long-tail link', query: '?hw=radeon-rx-580-c2938&model=llama-3.1-8b', below: ['chart-context', 'comparison-table', 'model-table'] },
  // A link naming a CPU of the long tail of CPUs, which waits for that file likewise.
  { kind: 'long-tail CPU link', query: '?hw=ddr4-2666-6ch&cpu=xeon-gold-6138&model=llama-3.1-8b', below: ['chart-context', 'comparison-table', 'model-table'] },
];

const server = await serve('/', { gzip: true });
const browser = await launch();
for (const { kind, query, below } of KINDS) {
  const runs = [];
  for (let i = 0; i < LOADS; i++) {
    const { page } = await openPage(browser);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false, latency: 150, downloadThroughput: (1638.4 * 1000) / 8, uploadThroughput: (675 * 1000) / 8,
    });
    await page.addInitScript((ids) => {
      window.__cls = 0;
      new PerformanceObserver((l) => { for (const e of l.getEntries()) if (!e.hadRecentInput) window.__cls += e.value; })
        .observe({ type: 'layout-shift', buffered: true });
      const painted = (name) => requestAnimationFrame(() => {
        const c = new MessageChannel();
        c.port1.onmessage = () => { window.__t = window.__t || {}; window.__t[name] ??= performance.now(); };
        c.port2.postMessage(0);
      });
      new MutationObserver(() => {
        if (document.querySelector('[data-testid=ceiling]')?.textContent) painted('ceiling');
        for (const id of ids) {
          const el = document.querySelector(`[data-testid="${id}"]`);
          const ready = el && (el.tagName === 'CANVAS' ? Number(el.dataset.draws) >= 1 : el.querySelector('tbody tr'));
          if (ready) painted(id);
        }
      }).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
    }, below);
    await page.goto(server.base + query, { waitUntil: 'commit' });
    await page.waitForFunction((ids) => window.__t && window.__t.ceiling && ids.every((id) => window.__t[id]), below, { timeout: 60000, polling: 200 });
    runs.push(await page.evaluate(() => {
      const t = window.__t;
      const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN;
      const nav = performance.getEntriesByType('navigation')[0];
      const upTo = (when) => [nav, ...performance.getEntriesByType('resource')]
        .filter((e) => e.responseEnd <= when).reduce((n, e) => n + (e.encodedBodySize || 0), 0);
      const rest = Object.entries(t).filter(([k]) => k !== 'ceiling').map(([, v]) => v);
      const before = (file) => performance.getEntriesByType('resource').some((e) => e.name.includes(file) && e.responseEnd <= t.ceiling);
      const [tail, cpus] = [before('gpus-longtail'), before('cpus-longtail')];
      return { fcp, ceiling: t.ceiling, below: Math.max(...rest), firstView: upTo(t.ceiling), all: upTo(Infinity), cls: window.__cls, tail, cpus };
    }));
    await page.close();
  }
  const med = (f) => pct(runs.map(f), 0.5);
  console.log(`slow 4G, ${kind} (${LOADS} cold loads, median): first view ${(med((r) => r.firstView) / 1000).toFixed(1)} KB (budget 120), `
    + `FCP ${med((r) => r.fcp).toFixed(0)} ms (budget 700), first ceiling ${med((r) => r.ceiling).toFixed(0)} ms (budget 1000; p90 ${pct(runs.map((r) => r.ceiling), 0.9).toFixed(0)}), `
    + `slowest below-the-fold part ${med((r) => r.below).toFixed(0)} ms (budget 2500), fetched in all ${(med((r) => r.all) / 1000).toFixed(1)} KB, CLS ${med((r) => r.cls).toFixed(3)} (budget 0.05), `
    + `long tail of GPUs in the first view: ${runs.filter((r) => r.tail).length} of ${LOADS} loads, `
    + `of CPUs: ${runs.filter((r) => r.cpus).length} of ${LOADS}`);
}
await browser.close();
await server.close();
