// Memory read bandwidth on this machine, three ways side by side (make bench): the page's probe
// (WebAssembly in Web Workers, headless Chromium), `tokbound measure` (the same method natively),
// and sysbench's memory read test (an independent tool, Debian's package), each with every core.
// Three runs of each: the spread says how much the machine's load moves them.
import { execFileSync } from 'node:child_process';
import { cpus } from 'node:os';
import { serve, launch, load } from './harness.mjs';

const cli = new URL('../../target/release/tokbound', import.meta.url).pathname;
const threads = cpus().length;
const runs = 3;
const show = (xs) => xs.map((x) => x.toFixed(1)).join(', ');

const server = await serve('/');
const browser = await launch();
const page = [];
for (let i = 0; i < runs; i++) {
  const { page: p } = await load(browser, `${server.base}?hw=ddr5-5600-2ch`);
  await p.getByTestId('measure-start').click();
  await p.waitForFunction(() => document.querySelector('[data-testid=measure-status]').textContent === 'Done.', null, { timeout: 60000 });
  page.push(Number(/CPU: ([\d.]+) GB\/s/.exec(await p.getByTestId('measure-cpu-result').textContent())[1]));
  await p.close();
}
await browser.close();
await server.close();

const native = [];
for (let i = 0; i < runs; i++) native.push(JSON.parse(execFileSync(cli, ['measure'])).bandwidth_gbs);

const sysbench = [];
try {
  for (let i = 0; i < runs; i++) {
    // Each thread reads its own 128 MiB block (beyond any cache) over and over, 8 bytes a load.
    const out = execFileSync('sysbench', ['memory', `--threads=${threads}`, '--memory-block-size=128M', '--memory-total-size=64G',
      '--memory-oper=read', '--memory-access-mode=seq', '--time=2', 'run']).toString();
    const mib = Number(/\(([\d.]+) MiB\/sec\)/.exec(out)[1]);
    sysbench.push((mib * 1024 * 1024) / 1e9);
  }
} catch (e) {
  console.log(`sysbench memory: not run (${String(e.message).split('\n')[0]}); apt-get install sysbench`);
}
console.log(`memory read bandwidth, ${threads} threads, GB/s (1e9 B/s), ${runs} runs each:`);
console.log(`  page probe (WebAssembly, Web Workers): ${show(page)}`);
console.log(`  tokbound measure (native, same method): ${show(native)}`);
if (sysbench.length) console.log(`  sysbench memory --memory-oper=read:      ${show(sysbench)}`);
