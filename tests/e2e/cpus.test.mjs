// The long tail of CPUs on the built page (docs/performance.md): the first part carries the CPUs the
// catalog's machines name; the others (`cpus-longtail.txt`) are fetched when a link names one, a
// machine search is typed or the CPU select is used. A link naming one shows "computing…", never a
// figure for another CPU, until they have arrived, then the figures the CLI gives for it; a plain
// visit never fetches them.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { serve, launch, openPage, ceiling } from './harness.mjs';

let server; let browser;
before(async () => { server = await serve('/'); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

const cli = new URL('../../target/release/tokbound', import.meta.url).pathname;
/** The CLI's estimate of `query` (`tokbound estimate`), as JSON. */
const estimate = (query) => JSON.parse(execFileSync(cli, ['estimate', query], { encoding: 'utf8' }));
const cpuTailFetched = (requests) => requests.some((u) => u.endsWith('/cpus-longtail.txt'));

/**
 * Opens `query` cold and records every text the ceiling and the expected figure show on the way
 * (the frame's, the first part's, the app's): returns the page, its requests and errors, and those
 * texts (`shown.ceiling`, `shown.expected`).
 */
async function openRecording(query) {
  const p = await openPage(browser);
  await p.page.addInitScript(() => {
    window.__shown = { ceiling: [], expected: [] };
    new MutationObserver(() => {
      for (const [id, seen] of Object.entries(window.__shown)) {
        for (const el of document.querySelectorAll(`[data-testid=${id}]`)) {
          const t = el.textContent.trim();
          if (t && seen.at(-1) !== t) seen.push(t);
        }
      }
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });
  await p.page.goto(server.base + query);
  await ceiling(p.page);
  return { ...p, shown: await p.page.evaluate(() => window.__shown) };
}

/** Every figure (tok/s) among `texts`, whatever painted it. */
const figures = (texts) => texts.map((t) => /^(\d+(?:\.\d)?) tok\/s/.exec(t)).filter(Boolean).map((m) => Number(m[1]));
/** The figures among `texts` other than `want` (tok/s, shown to one decimal). */
const others = (texts, want) => figures(texts).filter((f) => f !== Number(want.toFixed(1)));

test('a CPU machine with a CPU of the long tail: fetched first, then the CLI\'s figures, never another CPU\'s', async () => {
  const query = '?hw=ddr4-2666-6ch&cpu=xeon-gold-6138&sockets=2&model=llama-3.1-8b';
  const want = estimate(query.slice(1));
  // The CPU matters here: its two sockets and its package power, against the machine's own CPU's.
  const own = estimate('hw=ddr4-2666-6ch&model=llama-3.1-8b');
  assert.notEqual(want.expected_tok_s.toFixed(1), own.expected_tok_s.toFixed(1));
  const { page, requests, errors, failures, shown } = await openRecording(query);
  assert.ok(cpuTailFetched(requests), requests.join('\n'));
  assert.equal(await ceiling(page), Number(want.ceiling_tok_s.toFixed(1)));
  // Never a figure for another CPU on the way ("computing…" until the CPU has arrived).
  assert.deepEqual(others(shown.ceiling, want.ceiling_tok_s), [], shown.ceiling.join(' | '));
  assert.deepEqual(others(shown.expected, want.expected_tok_s), [], shown.expected.join(' | '));
  assert.ok(figures(shown.expected).length > 0, shown.expected.join(' | '));
  assert.match(await page.getByTestId('energy').textContent(), new RegExp(`at TDP \\(${want.power_w} W`));
  assert.equal(await page.getByTestId('input-cpu').inputValue(), 'xeon-gold-6138');
  assert.equal(new URL(page.url()).searchParams.get('cpu'), 'xeon-gold-6138');
  // The link's CPU was used, not dropped with a notice.
  assert.doesNotMatch((await page.getByTestId('url-notices').allTextContents()).join(), /cpu|CPU/);
  assert.deepEqual(errors, []);
  assert.deepEqual(failures, []);
});

test('a GPU with weights in system RAM and a host CPU of the long tail: the CLI\'s ceiling and the CPU\'s power', async () => {
  const query = '?hw=rtx-4090&model=llama-3.1-70b&quant=q4_k_m&cpu=ryzen-7-9800x3d';
  const want = estimate(query.slice(1));
  assert.equal(want.spill?.into, 'system RAM');
  const typical = estimate('hw=rtx-4090&model=llama-3.1-70b&quant=q4_k_m');
  assert.notEqual(want.power_w, typical.power_w);
  const { page, requests, errors, shown } = await openRecording(query);
  assert.ok(cpuTailFetched(requests));
  assert.equal(await ceiling(page), Number(want.ceiling_tok_s.toFixed(1)));
  assert.deepEqual(others(shown.ceiling, want.ceiling_tok_s), [], shown.ceiling.join(' | '));
  assert.deepEqual(others(shown.expected, want.expected_tok_s), [], shown.expected.join(' | '));
  await page.waitForFunction((w) => document.querySelector('[data-testid=energy]')?.textContent.includes(`at TDP (${w} W`), want.power_w);
  assert.match(await page.getByTestId('energy').textContent(), /Ryzen 7 9800X3D/);
  assert.deepEqual(errors, []);
});

test('a CPU machine with its own CPU, and a plain visit, never fetch the long tail of CPUs', async () => {
  const query = '?hw=ddr5-4800-12ch&model=llama-3.1-8b';
  const want = estimate(query.slice(1));
  const { page, requests } = await openRecording(query);
  assert.equal(await ceiling(page), Number(want.ceiling_tok_s.toFixed(1)));
  assert.match(await page.getByTestId('energy').textContent(), new RegExp(`at TDP \\(${want.power_w} W`));
  const plain = await openRecording('');
  await page.waitForTimeout(800);
  await plain.page.waitForTimeout(800);
  assert.ok(!cpuTailFetched(requests), requests.filter((u) => u.includes('longtail')).join());
  assert.ok(!cpuTailFetched(plain.requests), plain.requests.filter((u) => u.includes('longtail')).join());
});

test('the CPU select lists the long tail of CPUs once used; choosing one gives the CLI\'s figures', async () => {
  const { page, requests } = await openRecording('?hw=ddr4-2666-6ch&model=llama-3.1-8b');
  const select = page.getByTestId('input-cpu');
  assert.equal(await select.locator('option[value="xeon-gold-6138"]').count(), 0);
  await select.focus();
  await page.waitForFunction(() => document.querySelector('[data-testid=input-cpu] option[value="xeon-gold-6138"]'));
  assert.ok(cpuTailFetched(requests));
  await select.selectOption('xeon-gold-6138');
  const want = estimate('hw=ddr4-2666-6ch&cpu=xeon-gold-6138&model=llama-3.1-8b');
  await page.waitForFunction((w) => document.querySelector('[data-testid=energy]')?.textContent.includes(`at TDP (${w} W`), want.power_w);
  assert.equal(new URL(page.url()).searchParams.get('cpu'), 'xeon-gold-6138');
});

test('a machine search for a CPU of the long tail fetches it and finds its machines', async () => {
  const { page, requests } = await openRecording('');
  await page.getByTestId('input-machine-search').fill('gold 6138');
  await page.waitForFunction(() => [...document.querySelectorAll('[data-testid=input-machine] option')].some((o) => o.value.endsWith('@xeon-gold-6138')));
  assert.ok(cpuTailFetched(requests));
});

// -ngl 16 of 33 layers with an f16 cache at depth: a run that reads system RAM beside the GPU.
const SPILLED = `| model | size | params | backend | ngl | fa | type_k | type_v | test | t/s |
| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |
| llama 8B Q4_K - Medium | 4.58 GiB | 8.03 B | CUDA | 16 | 0 | f16 | f16 | tg128 @ d16384 | 5.00 ± 0.10 |
`;

test('the parse worker fetches the long tails its scenario names: a diagnosis with a long-tail CPU host or a long-tail GPU', async () => {
  for (const query of ['?hw=rtx-4090&model=qwen2.5-32b&cpu=ryzen-7-9800x3d', '?hw=radeon-rx-580-c2938&model=llama-3.1-8b']) {
    const { page, errors } = await openRecording(query);
    await page.getByTestId('diagnose-input').fill(SPILLED);
    await page.getByTestId('diagnose-run').click();
    await page.getByTestId('diagnose-verdict').waitFor();
    assert.doesNotMatch(await page.getByTestId('diagnose').textContent(), /unknown (CPU|machine)/);
    assert.deepEqual(errors, []);
  }
});
