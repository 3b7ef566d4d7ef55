// Two different GPUs on the page: cards added beside the machine, each with its picker and share,
// make with= and tensor_split=; the headline names every card; a problem lands beside its field.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, load } from './harness.mjs';

let server; let browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

const param = (page, key) => page.evaluate((k) => new URLSearchParams(location.search).get(k), key);
const waitParam = (page, key, value) => page.waitForFunction(([k, v]) => new URLSearchParams(location.search).get(k) === v, [key, value]);

test('a second, different GPU: added, chosen and shared on the page, carried by the link, named in the headline', async () => {
  const { page, errors } = await load(browser, server.base + '?hw=rtx-3090&model=qwen2.5-32b');
  const alone = await page.getByTestId('ceiling').textContent();
  assert.equal(await page.getByTestId('input-with').count(), 0);
  assert.ok(await page.getByTestId('input-share').isHidden(), 'no shares without a second card');
  await page.getByTestId('with-add').click();
  // A new card starts as a second one of the machine.
  await waitParam(page, 'with', 'rtx-3090');
  assert.equal(await page.getByTestId('input-with').inputValue(), 'rtx-3090');
  await page.getByTestId('input-with').selectOption('rtx-3060-12g');
  await waitParam(page, 'with', 'rtx-3060-12g');
  const title = page.getByTestId('headline-scenario');
  await page.waitForFunction(() => document.querySelector('[data-testid=headline-scenario]').textContent.startsWith('RTX 3090 + RTX 3060 12GB · '));
  assert.match(await title.textContent(), /^RTX 3090 \+ RTX 3060 12GB · Qwen2\.5 32B/);
  assert.match(await page.getByTestId('division').textContent(), /VRAM \(RTX 3060 12GB\)/);
  assert.notEqual(await page.getByTestId('ceiling').textContent(), alone);
  // Empty shares are each card's memory, said in their placeholders.
  assert.ok(await page.getByTestId('input-share').isVisible());
  assert.equal(await page.getByTestId('input-with-share').getAttribute('placeholder'), 'by memory');
  assert.equal(await param(page, 'tensor_split'), null);
  const byMemory = await page.getByTestId('ceiling').textContent();
  // One share typed: the other card keeps its memory; both make tensor_split.
  await page.getByTestId('input-share').fill('3');
  await waitParam(page, 'tensor_split', '3,12');
  await page.getByTestId('input-with-share').fill('1');
  await waitParam(page, 'tensor_split', '3,1');
  const shared = await page.getByTestId('ceiling').textContent();
  assert.notEqual(shared, byMemory, 'more of the layers on the faster card reads faster');
  assert.ok(parseFloat(shared) > parseFloat(byMemory), `${shared} vs ${byMemory}`);
  // The link reopens the same split, fields and all.
  const link = await page.getByTestId('share-url').inputValue();
  const again = await load(browser, link);
  assert.equal(await again.page.getByTestId('input-with').inputValue(), 'rtx-3060-12g');
  assert.equal(await again.page.getByTestId('input-share').inputValue(), '3');
  assert.equal(await again.page.getByTestId('input-with-share').inputValue(), '1');
  assert.equal(await again.page.getByTestId('ceiling').textContent(), shared);
  // The embed names every card too.
  const embed = await load(browser, `${link}&embed=1`);
  assert.match(await embed.page.getByTestId('headline-scenario').textContent(), /^RTX 3090 \+ RTX 3060 12GB · /);
  // Removing the card takes its share along; with the last card the shares go.
  await page.getByTestId('input-with-remove').click();
  await page.waitForFunction(() => !new URLSearchParams(location.search).has('with'));
  assert.equal(await param(page, 'tensor_split'), null);
  assert.ok(await page.getByTestId('input-share').isHidden());
  assert.equal(await page.getByTestId('ceiling').textContent(), alone);
  assert.deepEqual(errors, []);
});

test('a problem with the split lands beside the field that caused it, every other input kept', async () => {
  const { page } = await load(browser, server.base + '?hw=rtx-3090&model=qwen2.5-32b&ctx=8192&kv=q8_0');
  await page.getByTestId('with-add').click();
  await page.getByTestId('with-add').click();
  assert.equal(await page.getByTestId('input-with').count(), 2);
  // An AMD card beside an NVIDIA one on CUDA: said beside that card's picker, naming the backend
  // both run, and no word about with=.
  await page.getByTestId('input-with').nth(1).selectOption('rx-7900-xtx');
  const error = page.getByTestId('input-with-error').nth(1);
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=input-with-error]')[1].textContent.length > 0);
  const said = await error.textContent();
  assert.match(said, /RX 7900 XTX \(24 GiB\) cannot run cuda: .* \(vulkan\)$/);
  assert.equal(await page.getByTestId('input-with-error').nth(0).textContent(), '', 'the other card is fine');
  const top = await page.getByTestId('scenario-error').textContent();
  assert.doesNotMatch(`${said} ${top}`, /with[=:]/);
  for (const [id, value] of [['input-machine', 'rtx-3090'], ['input-ctx', '8192'], ['input-kv', 'q8_0']]) {
    assert.equal(await page.getByTestId(id).inputValue(), value, id);
  }
  assert.equal(await page.getByTestId('input-with').nth(0).inputValue(), 'rtx-3090');
  // The backend both run clears it.
  await page.getByTestId('input-backend').selectOption('vulkan');
  await page.waitForFunction(() => [...document.querySelectorAll('[data-testid=input-with-error]')].every((e) => e.textContent === ''));
  assert.equal(await page.getByTestId('scenario-error').count(), 0);
  // A share that is not a number stays in its box with its message; the link keeps the last good one.
  const share = page.getByTestId('input-with-share').nth(0);
  await share.fill('abc');
  assert.match(await page.getByTestId('input-with-share-error').nth(0).textContent(), /"abc" is not a number/);
  assert.equal(await share.inputValue(), 'abc');
  await page.waitForTimeout(400);
  assert.equal(await param(page, 'tensor_split'), null);
  // Beside a count of identical layer-split devices: said beside the first card.
  await page.getByTestId('input-split').fill('2');
  await page.waitForFunction(() => document.querySelector('[data-testid=input-with-error]').textContent.includes('layer-split'));
  assert.equal(await page.getByTestId('input-split').inputValue(), '2');
});

test('a CPU machine offers no second GPU', async () => {
  const { page } = await load(browser, server.base + '?hw=ddr5-5600-2ch&model=llama-3.1-8b');
  assert.ok(await page.getByTestId('with-add').isHidden());
});
