// Measure my machine: the CPU probe in Web Workers (a plausible figure, the page responsive
// meanwhile), WebGPU where headless Chromium has a software adapter and its absence where it has
// none, Use as machine, Cancel, and the probe's kernel against its source.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import { serve, launch, load, ceiling } from './harness.mjs';

let server; let browser;
before(async () => { server = await serve('/'); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

const figure = (text) => Number(/^(\d+\.\d) GB\/s/.exec(text)?.[1]);

test('the CPU probe gives a plausible figure in time, and the page answers keystrokes meanwhile', async () => {
  const { page, errors } = await load(browser, `${server.base}?hw=rtx-4090&ctx=4096`);
  const t0 = Date.now();
  await page.getByTestId('measure-start').click();
  await page.getByTestId('measure-progress').waitFor({ state: 'visible' });
  assert.ok(await page.getByTestId('measure-start').isDisabled());
  // While the workers read, a keystroke still changes the headline at once.
  const before = await ceiling(page);
  const typed = Date.now();
  await page.getByTestId('input-ctx').fill('131072');
  await page.waitForFunction((b) => !document.querySelector('[data-testid=ceiling]').textContent.startsWith(String(b)), before);
  assert.ok(Date.now() - typed < 1000, `the headline took ${Date.now() - typed} ms during the probe`);
  await page.waitForFunction(() => /^CPU: \d/.test(document.querySelector('[data-testid=measure-cpu-result]').textContent), null, { timeout: 30000 });
  await page.waitForFunction(() => document.querySelector('[data-testid=measure-status]').textContent === 'Done.', null, { timeout: 30000 });
  assert.ok(Date.now() - t0 < 30000);
  const cpu = figure((await page.getByTestId('measure-cpu-result').textContent()).slice(5));
  // A figure, not a floor: a busy machine reads slowly (speeds belong to make bench).
  assert.ok(cpu > 0 && cpu < 2000, String(cpu));
  // No WebGPU adapter in plain headless Chromium: said plainly, and the CPU figure kept.
  assert.match(await page.getByTestId('measure-gpu-result').textContent(), /^GPU: not measured: /);
  const result = await page.getByTestId('measure-result').textContent();
  assert.equal(figure(result), cpu);
  assert.match(result, /read by the CPU cores; on this discrete-GPU machine that is system RAM's bandwidth/);
  // On a discrete GPU the CPU figure is system RAM's.
  await page.getByTestId('measure-use').click();
  await page.waitForFunction(() => location.search.includes('measured=cpu') && location.search.includes('ram_bw='));
  assert.equal(Number(new URL(page.url()).searchParams.get('ram_bw')), cpu);
  // The status says which pool was set, what stays, and what it changes here: at 131072 tokens
  // the KV cache pushes layers into system RAM, so the measured RAM moves the ceiling.
  assert.match(await page.getByTestId('measure-status').textContent(),
    /^System RAM: [\d.]+ GB\/s, measured by the CPU cores; the RTX 4090's VRAM stays 1008 GB\/s\. For this scenario the ceiling goes from [\d.]+ to [\d.]+ tok\/s\.$/);
  // At 4096 tokens the model is in VRAM alone: the measured RAM changes nothing, and it says so.
  const { page: small } = await load(browser, `${server.base}?hw=rtx-4090&ctx=4096`);
  await small.getByTestId('measure-start').click();
  await small.waitForFunction(() => document.querySelector('[data-testid=measure-status]').textContent === 'Done.', null, { timeout: 30000 });
  await small.getByTestId('measure-use').click();
  await small.waitForFunction(() => /^System RAM: [\d.]+ GB\/s, measured by the CPU cores; the RTX 4090's VRAM stays 1008 GB\/s\. No change for this scenario/
    .test(document.querySelector('[data-testid=measure-status]').textContent));
  assert.match(await page.getByTestId('notes').textContent(), /measured in a browser by the CPU cores/);
  assert.deepEqual(errors, []);
});

test('on a Mac, Use as machine makes the measured figure the bandwidth; Cancel stops the probe', async () => {
  const { page, errors } = await load(browser, `${server.base}?hw=m4-max-40c`);
  await page.getByTestId('measure-start').click();
  await page.getByTestId('measure-cancel').click();
  assert.equal(await page.getByTestId('measure-status').textContent(), 'Cancelled.');
  assert.equal(await page.getByTestId('measure-cpu-result').textContent(), '');
  assert.ok(await page.getByTestId('measure-use').isDisabled());
  await page.getByTestId('measure-start').click();
  await page.waitForFunction(() => document.querySelector('[data-testid=measure-status]').textContent === 'Done.', null, { timeout: 30000 });
  const cpu = figure((await page.getByTestId('measure-cpu-result').textContent()).slice(5));
  await page.getByTestId('measure-use').click();
  await page.waitForFunction(() => location.search.includes('measured=cpu') && location.search.includes('bw='));
  const q = new URL(page.url()).searchParams;
  assert.equal(Number(q.get('bw')), cpu);
  assert.equal(q.get('hw'), null);
  assert.equal(q.get('kind'), 'apple');
  assert.equal(q.get('mem'), '128');
  assert.match(await page.getByTestId('measure-status').textContent(), /^The machine's memory bandwidth is now [\d.]+ GB\/s, measured by the CPU cores\. For this scenario the ceiling goes from/);
  assert.deepEqual(errors, []);
});

test('a software WebGPU adapter is measured, labelled, and not used', async () => {
  const gpuBrowser = await launch(['--enable-unsafe-webgpu', '--enable-features=Vulkan', '--use-webgpu-adapter=swiftshader']);
  try {
    const { page, errors } = await load(gpuBrowser, `${server.base}?hw=rtx-4090`);
    await page.getByTestId('measure-start').click();
    await page.waitForFunction(() => document.querySelector('[data-testid=measure-status]').textContent === 'Done.', null, { timeout: 60000 });
    const gpu = await page.getByTestId('measure-gpu-result').textContent();
    // SwiftShader, with these flags: measured and shown, never taken.
    assert.match(gpu, /^GPU: \d+\.\d GB\/s on .*swiftshader.*: software, not your GPU, so not used$/i);
    assert.match(await page.getByTestId('measure-result').textContent(), /read by the CPU cores/);
    await page.getByTestId('measure-use').click();
    await page.waitForFunction(() => location.search.includes('measured=cpu'));
    assert.deepEqual(errors, []);
  } finally {
    await gpuBrowser.close();
  }
});

test('the probe\'s kernels are the assembly of their source', async () => {
  const worker = await readFile(new URL('../../public/measure-worker.js', import.meta.url), 'utf8');
  const wasmAs = new URL('../../scripts/node/node_modules/.bin/wasm-as', import.meta.url).pathname;
  for (const [name, file, flags] of [['KERNEL_SIMD', 'kernel.wat', ['--enable-simd']], ['KERNEL_SCALAR', 'kernel-scalar.wat', []]]) {
    const src = new URL(`../../scripts/measure/${file}`, import.meta.url).pathname;
    const built = execFileSync(wasmAs, [...flags, src, '-o', '-']).toString('base64');
    const embedded = new RegExp(`const ${name} = '([^']+)'`).exec(worker)[1];
    assert.equal(embedded, built, `${name} is not ${file} assembled`);
  }
});
