// The search boxes find what people type (issue 41, item 4), on the built page in Chromium: the
// model search's own placeholder example, a size and a family in any order, the model itself
// before its distills with Enter picking it, and a CPU's name finding the CPU machines that carry
// it, which sets `hw=` and `cpu=` and names the CPU in the headline.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, load } from './harness.mjs';

let server; let browser;
before(async () => { server = await serve('/'); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

const param = (page, key) => new URL(page.url()).searchParams.get(key);

/**
 * Types `text` into the search box of the select `select` and waits until the select's first
 * option is one of `first` (what Enter would choose); returns the options' values in order.
 */
async function search(page, select, text, first) {
  await page.getByTestId(`${select}-search`).fill(text);
  await page.waitForFunction(
    ([t, want]) => want.includes(document.querySelector(`[data-testid=${t}] option`)?.value),
    [select, first],
  );
  return page.locator(`[data-testid=${select}] option`).evaluateAll((os) => os.map((o) => o.value));
}

test('model search: the placeholder example, a size, the model before its distills, Enter', async () => {
  const { page } = await load(browser, server.base);
  assert.match(await page.getByTestId('input-model-search').getAttribute('placeholder'), /^llama 70b/);

  await search(page, 'input-model', 'llama 70b', ['llama-3.1-70b', 'llama-3.3-70b']);
  await page.getByTestId('input-model-search').press('Enter');
  await page.waitForFunction(() => /^llama-3\.[13]-70b$/.test(new URLSearchParams(location.search).get('model')));

  const qwen = await search(page, 'input-model', 'qwen 32b', ['qwen2.5-32b', 'qwen3-32b']);
  assert.ok(qwen.indexOf('qwen2.5-32b') < qwen.indexOf('deepseek-r1-distill-qwen-32b'), qwen.join());

  await search(page, 'input-model', 'deepseek r1 671', ['deepseek-r1']);
  await page.waitForFunction(() => /^1 model found/.test(document.querySelector('[data-testid=model-search-status]').textContent));

  const r1 = await search(page, 'input-model', 'deepseek r1', ['deepseek-r1']);
  assert.ok(r1.includes('deepseek-r1-distill-qwen-14b'), r1.join());
  await page.getByTestId('input-model-search').press('Enter');
  await page.waitForFunction(() => new URLSearchParams(location.search).get('model') === 'deepseek-r1');
  await page.waitForFunction(() => / · DeepSeek R1 · /.test(document.querySelector('[data-testid=headline-scenario]').textContent));
});

test('machine search: a CPU name finds its CPU machine; choosing it sets hw= and cpu=', async () => {
  const { page } = await load(browser, server.base);
  const box = page.getByTestId('input-machine-search');

  await search(page, 'input-machine', 'ryzen 9 7950x', ['ddr5-5200-2ch@ryzen-9-7950x']);
  // Enter takes the first: the CPU's platform at its top speed (then its DDR5-6000 EXPO row).
  const found = await search(page, 'input-machine', '7950X', ['ddr5-5200-2ch@ryzen-9-7950x']);
  assert.ok(found.includes('ddr5-6000-2ch@ryzen-9-7950x'), found.join());
  await page.waitForFunction(() => /^\d+ machines? found/.test(document.querySelector('[data-testid=machine-search-status]').textContent));
  await box.press('Enter');
  await page.waitForFunction(() => new URLSearchParams(location.search).get('cpu') === 'ryzen-9-7950x');
  assert.equal(param(page, 'hw'), 'ddr5-5200-2ch');
  await page.waitForFunction(() => document.querySelector('[data-testid=headline-scenario]').textContent
    .startsWith('Desktop DDR5-5200, dual channel (CPU) with AMD Ryzen 9 7950X · '));
  // The select shows the pair as the search listed it, and the CPU field follows.
  assert.equal(await page.getByTestId('input-machine').inputValue(), 'ddr5-5200-2ch@ryzen-9-7950x');
  assert.equal(await page.getByTestId('input-cpu').inputValue(), 'ryzen-9-7950x');

  // Chosen from the list, as a mouse user would.
  await search(page, 'input-machine', 'epyc 9554', ['ddr5-4800-12ch@epyc-9554']);
  const epyc = page.locator('[data-testid=input-machine] option[value="ddr5-4800-12ch@epyc-9554"]');
  assert.match(await epyc.textContent(), /^Server DDR5-4800, 12 channel .*\(CPU\) with AMD EPYC 9554 — 460\.8 GB\/s$/);
  await page.getByTestId('input-machine').selectOption('ddr5-4800-12ch@epyc-9554');
  await page.waitForFunction(() => new URLSearchParams(location.search).get('cpu') === 'epyc-9554');
  assert.equal(param(page, 'hw'), 'ddr5-4800-12ch');
  await page.waitForFunction(() => / with AMD EPYC 9554 · /.test(document.querySelector('[data-testid=headline-scenario]').textContent));

  // A GPU machine after the pair: the select shows it; the CPU stays, as the GPU's host.
  await box.fill('');
  await page.getByTestId('input-machine').selectOption('rtx-3090');
  await page.waitForFunction(() => new URLSearchParams(location.search).get('hw') === 'rtx-3090');
  assert.equal(await page.getByTestId('input-machine').inputValue(), 'rtx-3090');
  assert.equal(param(page, 'cpu'), 'epyc-9554');
});
