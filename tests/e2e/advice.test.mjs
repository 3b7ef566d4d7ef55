// Advice a user can trust: changes that cost speed stand apart from the levers, formats that
// cannot run are refused where they are chosen, commands follow the model and the format, and a
// context past the model's training is said beside the field.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, load, openPage } from './harness.mjs';

let server; let browser;
before(async () => { server = await serve('/'); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

const open = (query) => load(browser, server.base + query);

test('a change that costs speed is an alternative, shown after the levers and never among them', async () => {
  const { page, errors } = await open('?hw=ddr5-5600-2ch&model=llama-3.1-8b');
  const rows = page.getByTestId('lever-row');
  await rows.first().waitFor({ timeout: 20000 });
  const all = await rows.evaluateAll((rs) => rs.map((r) => ({
    alternative: r.dataset.alternative,
    change: r.dataset.change,
    ratio: Number(r.querySelector('td:nth-child(3)').textContent.replace('×', '')),
  })));
  const pi = all.find((r) => r.change === 'hw=raspberry-pi-5');
  assert.equal(pi?.alternative, 'true', JSON.stringify(all));
  // Every lever gains, every alternative loses, and the alternatives come last, in a table apart.
  for (const r of all) assert.equal(r.alternative === 'true', r.ratio < 1, JSON.stringify(r));
  const first = all.findIndex((r) => r.alternative === 'true');
  assert.ok(first > 0 && all.slice(first).every((r) => r.alternative === 'true'));
  const tables = await page.locator('[data-testid=levers] table').count();
  assert.equal(tables, 2);
  assert.deepEqual(errors, []);
});

test('a format the machine or engine cannot run is refused beside the format, every other input kept', async () => {
  const { page } = await open('?hw=rtx-4090&model=qwen3-30b-a3b&quant=mlx-4bit&ctx=8192');
  const error = page.getByTestId('input-quant-error');
  await page.waitForFunction(() => document.querySelector('[data-testid=input-quant-error]').textContent.includes('mlx'));
  assert.match(await error.textContent(), /MLX 4-bit/);
  assert.equal(await page.getByTestId('input-model').inputValue(), 'qwen3-30b-a3b');
  assert.equal(await page.getByTestId('input-ctx').inputValue(), '8192');
  // A GGUF engine named with it: refused the same way.
  await page.goto(server.base + '?hw=m4-max-40c&model=qwen3-30b-a3b&quant=mlx-4bit&engine=ollama');
  await page.waitForFunction(() => document.querySelector('[data-testid=input-quant-error]')?.textContent.includes('ollama'));
});

test('a format no listed engine loads has no llama.cpp command, only the runtimes that run it', async () => {
  const { page } = await open('?hw=rtx-4090&model=qwen2.5-32b&quant=awq-4bit');
  const note = page.getByTestId('command-note');
  await note.waitFor({ timeout: 20000 });
  await page.waitForFunction(() => document.querySelector('[data-testid=command-note]').textContent.includes('vLLM'));
  assert.equal(await page.getByTestId('command-run').count(), 0);
});

test("a custom model's command names a placeholder, with a context that holds what it generates", async () => {
  const { page } = await open('?bw=1000&weights=19GB&ctx=0');
  const run = page.getByTestId('command-run');
  await run.waitFor({ timeout: 20000 });
  assert.match(await run.textContent(), /^llama-server -m YOUR_MODEL\.gguf -c 128 /);
  assert.match(await page.getByTestId('command-note').textContent(), /Replace YOUR_MODEL\.gguf/);
});

test('a context past what the model was trained for is said beside the field', async () => {
  // 2M tokens: a ceiling under 0.1 tok/s, so this waits for the warning rather than the ceiling.
  const { page } = await openPage(browser);
  await page.goto(server.base + '?hw=rtx-4090&model=qwen2.5-32b&ctx=2M');
  await page.waitForFunction(() => /trained for/.test(document.querySelector('[data-testid=input-ctx-warning]')?.textContent), null, { timeout: 20000 });
  await page.getByTestId('input-ctx').fill('32768');
  await page.waitForFunction(() => document.querySelector('[data-testid=input-ctx-warning]').textContent === '');
});
