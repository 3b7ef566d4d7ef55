// What a new user hits at once: compute limits, placement that adds up, the new keys in the form.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, load, ceiling } from './harness.mjs';

let server; let browser;
before(async () => { server = await serve('/'); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

async function open(query) {
  const p = await load(browser, server.base + query);
  await p.page.getByTestId('input-ctx').waitFor();
  return p;
}

test('a Mac has a time to first token, and a batch is bounded by compute', async () => {
  const { page } = await open('?hw=m4-max-40c&model=llama-3.1-8b&ctx=0&batch=4096&prompt=4096');
  assert.match(await page.getByTestId('ttft').textContent(), /\d/);
  const batch = await page.getByTestId('batch-result').textContent();
  assert.match(batch, /compute-bound at peak from batch/);
  const total = Number(batch.match(/([\d.]+) tok\/s in all/)[1]);
  assert.ok(total < 10000, batch);
});

test('a custom machine without TFLOPS says no batched figure is known', async () => {
  const { page } = await open('?bw=500&mem=64&model=llama-3.1-8b&batch=64');
  assert.match(await page.getByTestId('batch-result').textContent(), /no compute limit known/);
});

test('a share above what VRAM holds is capped, and said so under its field', async () => {
  const { page } = await open('?hw=rtx-3060-12g&model=llama-3.1-70b&gpu_frac=0.5');
  const notice = page.getByTestId('input-gpu-frac-notice');
  await notice.waitFor();
  assert.match(await notice.textContent(), /0\.5 is more than VRAM holds/);
  // A share that fits clears it.
  await page.getByTestId('input-gpu-frac').fill('0.1');
  await page.waitForFunction(() => !document.querySelector('[data-testid=input-gpu-frac-notice]')?.textContent);
});

test('system RAM is an input with its own message, and expert offload fits when each pool does', async () => {
  const { page, errors } = await open('?hw=rtx-5090&model=gpt-oss-120b&quant=mxfp4&offload=experts');
  assert.match(await page.getByTestId('fit').textContent(), /^Fits/);
  await page.getByTestId('input-ram').fill('lots');
  assert.equal(await page.getByTestId('input-ram-error').textContent(), '"lots" is not a number');
  await page.getByTestId('input-ram').fill('32');
  await page.waitForFunction(() => document.querySelector('[data-testid=fit]').textContent.startsWith('Does not fit'));
  await page.getByTestId('input-ram').press('Enter');
  await page.waitForFunction(() => location.search.includes('ram=32'));
  // On a Mac, ram does not apply: the field says so.
  await page.goto(server.base + '?hw=m4-max-40c&ram=32');
  await page.getByTestId('input-ram-notice').waitFor();
  assert.match(await page.getByTestId('input-ram-notice').textContent(), /ignored/);
  assert.deepEqual(errors, []);
});

test('the first N layers keep their experts in RAM: faster than all of them, refused past the model, cleared with the box', async () => {
  const { page, errors } = await open('?hw=rtx-4090&model=qwen3-30b-a3b&ram_bw=100&offload=experts');
  const expected = async () => Number((await page.getByTestId('expected').textContent()).match(/^([\d.]+)/)[1]);
  const all = await expected();
  await page.getByTestId('input-cpu-moe').fill('36');
  await page.getByTestId('input-cpu-moe').press('Enter');
  await page.waitForFunction(() => location.search.includes('cpu_moe=36'));
  await page.waitForFunction((a) => Number(document.querySelector('[data-testid=expected]').textContent.match(/^([\d.]+)/)[1]) > a, all);
  // The commands follow the headline in a later turn: wait for the scenario to reach them.
  await page.waitForFunction(() => / --n-cpu-moe 36 /.test(document.querySelector('[data-testid=command-run]')?.textContent || ''), null, { timeout: 5000 }).catch(() => {});
  assert.match(await page.getByTestId('command-run').textContent(), / --n-cpu-moe 36 /);
  // Past the model's 48 layers: a message under the field, the estimate and the other inputs kept.
  const before = await ceiling(page);
  await page.getByTestId('input-cpu-moe').fill('60');
  await page.waitForFunction(() => /48 layers/.test(document.querySelector('[data-testid=input-cpu-moe-error]')?.textContent || ''));
  assert.equal(await ceiling(page), before);
  assert.equal(await page.getByTestId('input-ram-bw').inputValue(), '100');
  await page.getByTestId('input-cpu-moe').fill('36');
  // Clearing "experts in RAM" clears the layer count with it.
  await page.getByTestId('input-offload').uncheck();
  await page.waitForFunction(() => !location.search.includes('cpu_moe') && !location.search.includes('offload'));
  assert.equal(await page.getByTestId('input-cpu-moe').inputValue(), '');
  assert.deepEqual(errors, []);
});
