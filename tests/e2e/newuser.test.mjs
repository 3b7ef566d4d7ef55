// What a new user trips on, tried as one would: the embed in a blog post's column, the headline's
// scenario line, calibration on the default page, context typed as 32k, search, the target's
// marks, formats that follow the model, the phone layout, keyboard and screen-reader use (with
// axe-core), notices that go when fixed, and the GPU the browser names.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { serve, launch, load, ceiling, drawn } from './harness.mjs';

const require = createRequire(import.meta.url);
const AXE = await readFile(require.resolve('axe-core/axe.min.js'), 'utf8');

let server; let browser;
before(async () => { server = await serve('/'); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

const SCENARIO = '?hw=m3-max-40c&model=qwen3-30b-a3b&quant=q8_0&ctx=32768';

/** A blog post with the share panel's snippet in a column `width` pixels wide. */
const blog = (snippet, width) => `<!doctype html><html><head><meta charset="utf-8"><title>post</title>
<style>body{margin:0;font:16px serif} article{width:${width}px;margin:0 auto}</style></head>
<body><article><h1>My new laptop</h1><p>Here is what tokbound says:</p>${snippet}<p>The end.</p></article></body></html>`;

/** The embed's frame inside the blog page, once it has its ceiling. */
async function embedFrame(page) {
  const handle = await page.waitForSelector('iframe');
  const frame = await handle.contentFrame();
  await frame.getByTestId('ceiling').waitFor({ timeout: 20000 });
  return { handle, frame };
}

/** Serious and critical axe-core violations on the page (or frame) as "id: target" lines. */
async function axeViolations(target) {
  await target.evaluate(AXE);
  const result = await target.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')}`));
}

test('the share panel\'s embed stands alone in a blog post at 700 and 360 px: named, sized, nothing cut off', async () => {
  const { page } = await load(browser, server.base + SCENARIO);
  const snippet = await page.getByTestId('embed-snippet').inputValue();
  assert.match(snippet, /<iframe src="[^"]+embed=1[^"]*" width="100%" height="\d+"/);
  assert.match(snippet, /<script>addEventListener\("message"/);
  const plainHeight = Number(/height="(\d+)"/.exec(snippet)[1]);
  for (const width of [700, 360]) {
    const ctx = await browser.newContext({ viewport: { width: width + 40, height: 900 } });
    const post = await ctx.newPage();
    await post.setContent(blog(snippet, width));
    const { handle, frame } = await embedFrame(post);
    const named = await frame.getByTestId('headline-scenario').textContent();
    for (const part of ['M3 Max', 'Qwen3 30B-A3B', 'Q8_0', '32K context']) assert.ok(named.includes(part), `${width}: "${named}" lacks ${part}`);
    assert.equal(await frame.getByTestId('headline-scenario').locator('a').count(), 1, 'the scenario line links to the full page');
    await frame.getByTestId('chart-context').waitFor();
    // The snippet's script sizes the iframe to the content the embed reports (the frame is
    // another origin: its content's height is read inside it).
    const content = async () => frame.evaluate(() => Math.ceil(document.querySelector('main.embed').getBoundingClientRect().bottom));
    await frame.evaluate(() => new Promise((r) => setTimeout(r, 300)));
    await post.waitForFunction((h) => Math.abs(document.querySelector('iframe').getBoundingClientRect().height - h - 2) <= 3, await content(), { timeout: 10000 });
    const inFrame = await frame.evaluate(() => ({
      bottom: document.querySelector('main.embed').getBoundingClientRect().bottom,
      link: document.querySelector('[data-testid=open-full]').getBoundingClientRect().bottom,
      chart: document.querySelector('[data-testid=chart-context]').getBoundingClientRect().bottom,
      view: window.innerHeight,
      overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
    }));
    assert.ok(inFrame.link <= inFrame.view && inFrame.chart <= inFrame.view && inFrame.bottom <= inFrame.view, `${width}: ${JSON.stringify(inFrame)}`);
    assert.ok(inFrame.overflow <= 0, `${width}: the embed is ${inFrame.overflow} px wider than its column`);
    const box = await handle.boundingBox();
    assert.ok(box.width <= width + 1, `${width}: the iframe is ${box.width} px wide`);
    if (width === 700) {
      // Without the script, the iframe's own height still holds the content at 700 px.
      assert.ok(plainHeight >= inFrame.bottom, `plain height ${plainHeight} < content ${inFrame.bottom}`);
      assert.deepEqual(await axeViolations(frame), []);
    }
    await ctx.close();
  }
});

test('chart legends sit under the plot at phone width and in the embed', async () => {
  const ctx = await browser.newContext({ viewport: { width: 360, height: 800 } });
  const page = await ctx.newPage();
  await page.goto(`${server.base}${SCENARIO}&embed=1&view=machines,context`);
  await ceiling(page);
  for (const id of ['chart-context', 'chart-machines']) {
    await page.waitForFunction((t) => Number(document.querySelector(`[data-testid="${t}"]`)?.dataset.draws) >= 1, id);
  }
  const texts = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(texts <= 0, `the embed overflows by ${texts} px at 360`);
  await ctx.close();
});

test('the headline names its scenario on the full page, in GiB', async () => {
  const { page } = await load(browser, server.base + SCENARIO);
  assert.equal(await page.getByTestId('headline-scenario').textContent(),
    'Apple M3 Max (40-core GPU, up to 128 GB) · Qwen3 30B-A3B · Q8_0 · 32K context');
  assert.match(await page.getByTestId('fit').textContent(), /^Fits: needs [\d.]+ GiB of 96\.0 GiB usable\.$/);
  assert.match(await page.getByTestId('bound').textContent(), /^Memory-bound: most of each token's time is reading unified memory; compute allows [\d.]+ tok\/s\.$/);
  // The scenario line sits above the figure.
  const [title, figure] = await Promise.all(['headline-scenario', 'ceiling'].map((t) => page.getByTestId(t).boundingBox()));
  assert.ok(title.y < figure.y);
  await page.goto(server.base);
  await ceiling(page);
  assert.match(await page.getByTestId('headline-scenario').textContent(), /^NVIDIA GeForce RTX 4090 \(24 GiB\) · Qwen2\.5 32B/);
  assert.match(await page.getByTestId('fit').textContent(), /of 24\.0 GiB usable/);
});

test('calibration on the default page uses the machine on screen and says so', async () => {
  const { page, errors } = await load(browser, server.base);
  const paste = '| model | size | params | backend | ngl | test | t/s |\n| --- | ---: | ---: | --- | --: | ---: | ---: |\n| llama 8B Q4_K_M | 4.58 GiB | 8.03 B | CUDA | 99 | tg128 | 127.3 ± 0.2 |\n';
  await page.getByTestId('calibrate-input').fill(paste);
  await page.getByTestId('calibrate-apply').click();
  await page.waitForFunction(() => location.search.includes('cal=rtx-4090~'));
  assert.match(await page.getByTestId('calibrate-status').textContent(), /fitted for RTX 4090, the machine chosen: cal=rtx-4090~/);
  assert.deepEqual(errors, []);
});

test('context as people write it: 32k in the box is 32768 in the link', async () => {
  const { page } = await load(browser, server.base + '?hw=rtx-4090&model=llama-3.1-8b');
  await page.getByTestId('input-ctx').fill('32k');
  await page.waitForFunction(() => /32K context/.test(document.querySelector('[data-testid=headline-scenario]').textContent));
  await page.getByTestId('input-ctx').press('Tab');
  await page.waitForFunction(() => new URLSearchParams(location.search).get('ctx') === '32768');
  assert.equal(await page.getByTestId('input-ctx-error').textContent(), '');
  assert.equal(await page.getByTestId('input-ctx-slider').getAttribute('aria-valuetext'), '32K tokens');
});

test('machine and model search find what people type; Enter chooses; no match is said', async () => {
  const { page } = await load(browser, server.base);
  const search = page.getByTestId('input-machine-search');
  await search.fill('nvidia 3090');
  await page.waitForFunction(() => /found; Enter chooses/.test(document.querySelector('[data-testid=machine-search-status]').textContent));
  await search.press('Enter');
  await page.waitForFunction(() => new URLSearchParams(location.search).get('hw') === 'rtx-3090');
  await search.fill('mac studio');
  // The select's options are rewritten after the search's paint: wait for the narrowed list.
  await page.waitForFunction(() => {
    const values = [...document.querySelectorAll('[data-testid=input-machine] option')].map((o) => o.value);
    return values.includes('m2-ultra-76c') && !values.includes('m4');
  });
  assert.equal(await page.locator('[data-testid=input-machine] option[value="m2-ultra-76c"]').count(), 1);
  assert.equal(await page.locator('[data-testid=input-machine] option[value="m4"]').count(), 0);
  await search.fill('zzzz nothing');
  await page.waitForFunction(() => /^No machine matches/.test(document.querySelector('[data-testid=machine-search-status]').textContent));
  const models = page.getByTestId('input-model-search');
  await models.fill('gpt-oss');
  await models.press('Enter');
  await page.waitForFunction(() => new URLSearchParams(location.search).get('model') === 'gpt-oss-20b');
  // The model's own format comes with it, and the page says so.
  assert.equal(new URL(page.url()).searchParams.get('quant'), 'mxfp4');
  assert.match(await page.getByTestId('model-format-note').textContent(), /gpt-oss 20B does not come in Q4_K_M, so the format is now MXFP4/);
  await models.fill('qqqqq');
  await page.waitForFunction(() => /^No model matches/.test(document.querySelector('[data-testid=model-search-status]').textContent));
});

test('a format chosen for one model does not stick to the next', async () => {
  const { page } = await load(browser, server.base + '?hw=m3-max-40c&model=gemma-3-270m&quant=f16');
  await page.getByTestId('input-model').selectOption('llama-3.3-70b');
  await page.waitForFunction(() => new URLSearchParams(location.search).get('model') === 'llama-3.3-70b');
  assert.equal(new URL(page.url()).searchParams.get('quant'), null, 'back to Q4_K_M');
  assert.match(await page.getByTestId('model-format-note').textContent(), /^F16 does not fit Llama 3\.3 70B Instruct here, so the format is now Q4_K_M/);
});

test('"What can I run?" and "What do I need?": the target marks its machines and lists them first', async () => {
  const { page } = await load(browser, server.base + '?target=20');
  await page.getByRole('heading', { name: /^What do I need\?/ }).waitFor();
  await page.getByRole('heading', { name: /^What can I run\?/ }).waitFor();
  // Sorted by launch price, the first rows are those that meet the target.
  await page.getByTestId('sort-price').click();
  await page.waitForFunction(() => document.querySelector('[data-testid=comparison-table] tbody tr')?.dataset.meets === 'true');
  const first = page.locator('[data-testid=comparison-table] tbody tr[data-meets="true"] th').first();
  const mark = await first.evaluate((th) => getComputedStyle(th, '::before').content);
  assert.match(mark, /✓/);
});

test('on a phone the key figures stay on screen and the tables say they scroll', async () => {
  const ctx = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await ctx.newPage();
  await page.goto(server.base);
  await ceiling(page);
  const table = page.getByTestId('comparison-table');
  await table.locator('tbody tr').first().waitFor();
  await table.scrollIntoViewIfNeeded();
  for (const id of ['sort-ceiling', 'sort-expected', 'sort-fits']) {
    const box = await page.getByTestId(id).boundingBox();
    assert.ok(box && box.x + box.width <= 390, `${id} is off screen: ${JSON.stringify(box)}`);
  }
  assert.ok(await page.locator('.scroll-cue').first().isVisible());
  await ctx.close();
});

test('on a phone the machines chart keeps room for each machine\'s label', async () => {
  const ctx = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2 });
  const page = await ctx.newPage();
  await page.goto(server.base + '?hw=rtx-4090&model=qwen3-30b-a3b');
  await ceiling(page);
  const chart = page.getByTestId('chart-machines');
  await chart.scrollIntoViewIfNeeded();
  await drawn(page, 'chart-machines');
  const { rows, width, height, bitmap } = await chart.evaluate((c) => ({
    rows: Number(c.dataset.rows), width: c.clientWidth, height: c.clientHeight, bitmap: c.height,
  }));
  assert.ok(rows >= 14, `rows ${rows}`);
  // Left to the page's aspect (0.55 of a 390 px column, at least 260 px) the rows would get about 7 px each.
  assert.ok(height >= 170 + 16 * rows, `${rows} rows in ${height} px at ${width} px wide`);
  assert.ok(Math.abs(bitmap - height * 2) <= 2, `bitmap ${bitmap} px high for ${height} CSS px: drawn at the device pixel ratio, not stretched`);
  await ctx.close();
});

test('keyboard and screen readers: rows by keyboard, labelled inputs, no serious axe violation', async () => {
  const { page } = await load(browser, server.base + '?hw=rtx-4090');
  const row = page.locator('[data-testid=model-table] tbody tr[data-model="llama-3.1-8b"]');
  await row.waitFor();
  assert.equal(await row.getAttribute('tabindex'), '0');
  await row.focus();
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => new URLSearchParams(location.search).get('model') === 'llama-3.1-8b');
  await page.getByTestId('chart-context').waitFor();
  assert.deepEqual(await axeViolations(page), []);
  for (const scheme of ['dark']) {
    const ctx = await browser.newContext({ colorScheme: scheme });
    const dark = await ctx.newPage();
    await dark.goto(server.base);
    await ceiling(dark);
    await dark.getByTestId('chart-context').waitFor();
    assert.deepEqual(await axeViolations(dark), [], scheme);
    await ctx.close();
  }
});

test('a link notice goes once its key is fixed, and can be dismissed', async () => {
  const { page } = await load(browser, server.base + '?hw=rtx-4090&tflops=abc&zzz=1');
  const notices = page.getByTestId('url-notices');
  assert.match(await notices.textContent(), /tflops: "abc" is not a number; ignored/);
  await page.getByTestId('input-backend').selectOption('vulkan');
  assert.match(await notices.textContent(), /tflops/, 'another key changed: the notice stays');
  await page.getByTestId('url-notices-dismiss').click();
  assert.equal(await notices.count(), 0);
});

test('the GPU the browser names is offered, never applied without a click', async () => {
  const ctx = await browser.newContext();
  await ctx.addInitScript(() => {
    const real = WebGLRenderingContext.prototype.getParameter;
    WebGLRenderingContext.prototype.getParameter = function (p) {
      if (p === 0x9246 || p === 0x1F01) return 'ANGLE (NVIDIA, NVIDIA GeForce RTX 3090 (0x00002204) Direct3D11 vs_5_0 ps_5_0, D3D11)';
      return real.call(this, p);
    };
  });
  const page = await ctx.newPage();
  const requests = [];
  page.on('request', (r) => requests.push(r.url()));
  await page.goto(server.base);
  await ceiling(page);
  const offer = page.getByTestId('gpu-guess');
  await offer.waitFor({ timeout: 10000 });
  assert.match(await offer.textContent(), /^Looks like an NVIDIA GeForce RTX 3090 \(24 GiB\) — use it\?/);
  assert.equal(new URL(page.url()).searchParams.get('hw'), null, 'not applied by itself');
  await page.getByTestId('gpu-guess-use').click();
  await page.waitForFunction(() => new URLSearchParams(location.search).get('hw') === 'rtx-3090');
  assert.equal(await offer.count(), 0);
  assert.ok(requests.every((u) => u.startsWith(server.base)), requests.join('\n'));
  await ctx.close();
});

test('a backend the machine cannot run is refused beside the field, every other input kept; a link with one opens on the machine\'s own', async () => {
  const { page } = await load(browser, server.base + '?hw=rtx-4090&model=llama-3.1-8b&ctx=8192');
  const before = await ceiling(page);
  await page.getByTestId('input-backend').selectOption('rocm');
  await page.waitForFunction(() => /rocm does not run on NVIDIA GeForce RTX 4090 \(24 GiB\): it runs cuda, vulkan or cpu/
    .test(document.querySelector('[data-testid=input-backend-error]').textContent));
  assert.equal(await ceiling(page), before, 'the last valid estimate stays');
  assert.equal(await page.getByTestId('input-ctx').inputValue(), '8192');
  await page.getByTestId('input-backend').selectOption('vulkan');
  await page.waitForFunction(() => document.querySelector('[data-testid=input-backend-error]').textContent === '');
  assert.match(await page.getByTestId('expected-basis').textContent(), /on vulkan, calibrated on measured runs \(GPU NVIDIA/);
  // A shared link with the impossible pair: the error shown, the machine's own backend used.
  await page.goto(server.base + '?hw=rtx-4090&backend=rocm&ctx=8192');
  await ceiling(page);
  assert.match(await page.getByTestId('url-notices').textContent(), /backend: rocm does not run on NVIDIA GeForce RTX 4090/);
  assert.match(await page.getByTestId('input-backend-error').textContent(), /rocm does not run on/);
  assert.match(await page.getByTestId('expected-basis').textContent(), /^ on cuda, /);
  assert.equal(await page.getByTestId('input-ctx').inputValue(), '8192');
});

test('the batching chart ends at the most streams that fit, and the batch line says so', async () => {
  const { page } = await load(browser, server.base + '?hw=rtx-4090&model=qwen2.5-32b&batch=8');
  assert.match(await page.getByTestId('batch-result').textContent(), /^Batch of 8 does not fit: .* at most 4 streams fit/);
  const chart = page.getByTestId('chart-batch');
  await page.waitForFunction(() => Number(document.querySelector('[data-testid=chart-batch]')?.dataset.draws) >= 1);
  assert.equal(await chart.getAttribute('data-max-streams'), '4');
  await page.getByTestId('input-batch').fill('4');
  await page.waitForFunction(() => /^Batch of 4: [\d.]+ tok\/s in all/.test(document.querySelector('[data-testid=batch-result]').textContent));
  assert.match(await page.getByTestId('batch-result').textContent(), /at most 4 streams\.$/);
});

test('measured runs beside the estimate are about this machine, and the charts show them', async () => {
  const { page } = await load(browser, server.base + '?hw=rtx-4090&model=qwen2.5-32b');
  const rows = page.getByTestId('provenance').locator('li');
  await rows.first().waitFor();
  assert.equal(await rows.count(), 5);
  for (const text of await rows.allTextContents()) assert.match(text, /NVIDIA GeForce RTX 4090/);
  await page.goto(server.base + '?hw=rtx-4090&model=llama-3-8b&quant=q4_k_m');
  await ceiling(page);
  assert.equal(await page.getByTestId('provenance').locator('li').first().getAttribute('data-relation'), 'same-machine-same-model');
  await page.waitForFunction(() => Number(document.querySelector('[data-testid=chart-context]')?.dataset.measuredPoints) > 0);
  await page.waitForFunction(() => Number(document.querySelector('[data-testid=chart-machines]')?.dataset.measuredMachines) > 0);
});

test('a custom mixture of experts takes its routing on the page', async () => {
  const { page } = await load(browser, server.base + '?hw=rtx-4090&params=30.5&active=3.3');
  assert.match(await page.getByTestId('notes').textContent(), /8 experts per token are assumed/);
  await page.getByTestId('input-experts').fill('64');
  await page.getByTestId('input-top-k').fill('4');
  await page.waitForFunction(() => /64 experts of 0\.45B each with 4 per token/.test(document.querySelector('[data-testid=notes]').textContent));
  await page.getByTestId('input-top-k').press('Tab');
  await page.waitForFunction(() => new URLSearchParams(location.search).get('top_k') === '4');
});

test('an engine that cannot run the backend is refused beside its field', async () => {
  const { page } = await load(browser, server.base + '?hw=rtx-4090&backend=vulkan');
  await page.getByTestId('input-engine').selectOption('ktransformers');
  await page.waitForFunction(() => /ktransformers runs cuda or cpu, not vulkan/.test(document.querySelector('[data-testid=input-engine-error]').textContent));
  await page.getByTestId('input-backend').selectOption('cuda');
  await page.waitForFunction(() => document.querySelector('[data-testid=input-engine-error]').textContent === '');
  await page.waitForFunction(() => new URLSearchParams(location.search).get('engine') === 'ktransformers');
});

test('a machine whose compute cannot keep up with its memory says it is compute-bound', async () => {
  const { page } = await load(browser, server.base + '?bw=200&kind=cpu&tflops=0.5&model=llama-3.1-8b');
  assert.match(await page.getByTestId('bound').textContent(), /^Compute-bound: the arithmetic on system RAM's weights/);
});

test('the CPU that reads system RAM: its threads set the compute side, an impossible socket count is refused beside its field', async () => {
  const { page } = await load(browser, server.base + '?hw=ddr5-4800-12ch&model=llama-3.1-8b');
  assert.match(await page.getByTestId('bound').textContent(), /^Memory-bound/);
  const before = await page.getByTestId('expected').textContent();
  await page.getByTestId('input-threads').fill('2');
  await page.waitForFunction(() => /^Compute-bound/.test(document.querySelector('[data-testid=bound]').textContent));
  assert.notEqual(await page.getByTestId('expected').textContent(), before);
  await page.waitForFunction(() => new URLSearchParams(location.search).get('threads') === '2');
  // The quantization chart shows which formats the two threads cannot keep up with.
  await page.waitForFunction(() => /Q4_K_M/.test(document.querySelector('[data-testid=chart-quants]')?.getAttribute('data-compute-bound') ?? ''));
  // Another CPU, then a socket count it cannot take: said beside the field, the threads kept.
  await page.getByTestId('input-cpu').selectOption('ryzen-9-7950x');
  await page.waitForFunction(() => new URLSearchParams(location.search).get('cpu') === 'ryzen-9-7950x');
  await page.getByTestId('input-sockets').fill('2');
  await page.waitForFunction(() => /runs in at most 1 socket/.test(document.querySelector('[data-testid=input-sockets-error]').textContent));
  assert.equal(await page.getByTestId('input-threads').inputValue(), '2');
  await page.getByTestId('input-sockets').fill('1');
  await page.waitForFunction(() => document.querySelector('[data-testid=input-sockets-error]').textContent === '');
  // A value out of range is refused as typed; a CPU id from a link that is not a CPU is named.
  await page.getByTestId('input-threads').fill('2000');
  await page.waitForFunction(() => document.querySelector('[data-testid=input-threads-error]').textContent !== '');
  const { page: linked } = await load(browser, server.base + '?hw=ddr5-4800-12ch&cpu=rtx-4090');
  await linked.waitForFunction(() => /unknown CPU "rtx-4090"/.test(document.querySelector('[data-testid=input-cpu-error]').textContent));
});

test('energy: the cost of a million tokens follows the price typed; a bad price is refused beside its field, every other input kept', async () => {
  const { page } = await load(browser, server.base + '?hw=rtx-4090&model=llama-3.1-8b&ctx=8192');
  const energy = () => page.getByTestId('energy').textContent();
  await page.waitForFunction(() => /J a token at TDP \(450 W/.test(document.querySelector('[data-testid=energy]')?.textContent ?? ''));
  const cost = (t) => Number(/a million tokens cost ([0-9.]+) at/.exec(t)[1]);
  const at30 = cost(await energy());
  assert.match(await energy(), /at 0\.3 a kWh/);
  await page.getByTestId('input-kwh-price').fill('0.6');
  await page.waitForFunction(() => /at 0\.6 a kWh/.test(document.querySelector('[data-testid=energy]').textContent));
  const at60 = cost(await energy());
  assert.ok(Math.abs(at60 / at30 - 2) < 0.1, `${at30} -> ${at60}`);
  await page.waitForFunction(() => new URLSearchParams(location.search).get('kwh_price') === '0.6');
  // A bad price: refused beside the field, the link and the context untouched.
  await page.getByTestId('input-kwh-price').fill('-2');
  await page.waitForFunction(() => document.querySelector('[data-testid=input-kwh-price-error]').textContent !== '');
  assert.equal(new URL(page.url()).searchParams.get('kwh_price'), '0.6');
  assert.equal(new URL(page.url()).searchParams.get('ctx'), '8192');
  assert.match(await energy(), /at 0\.6 a kWh/);
  // The power you measured replaces the rating; a Mac has none until you give one.
  await page.getByTestId('input-power').fill('300');
  await page.waitForFunction(() => /at the 300 W you gave/.test(document.querySelector('[data-testid=energy]').textContent));
  const { page: mac } = await load(browser, server.base + '?hw=m4-max-40c&model=llama-3.1-8b');
  await mac.waitForFunction(() => /Apple publishes no package power/.test(document.querySelector('[data-testid=energy]')?.textContent ?? ''));
  assert.match(await mac.getByTestId('energy').textContent(), /Measured power/);
  // The machine table's tokens per joule: sortable.
  await page.getByTestId('sort-tokens-per-joule').waitFor();
  // The levers ranked by the cost of a million tokens: cheapest first, those without a figure last.
  await page.getByTestId('input-power').fill('');
  await page.getByTestId('input-rank').selectOption('cost');
  await page.waitForFunction(() => new URLSearchParams(location.search).get('rank') === 'cost');
  await page.getByTestId('lever-row').first().waitFor({ timeout: 20000 });
  const costs = await page.$$eval('[data-testid=levers] [data-testid=lever-row][data-alternative=false]', (rows) => rows.map((r) => r.getAttribute('data-cost-per-mtok')));
  const known = costs.filter((c) => c !== null).map(Number);
  assert.ok(known.length >= 2, JSON.stringify(costs));
  assert.deepEqual(known, [...known].sort((a, b) => a - b));
  assert.ok(costs.slice(known.length).every((c) => c === null), JSON.stringify(costs));
});

test('a CPU that is not listed: described by its cores, clock and SIMD, on two sockets', async () => {
  const { page } = await load(browser, server.base + '?hw=ddr4-2666-6ch&model=llama-3.1-8b&cpu_cores=20&cpu_ghz=2.0&cpu_simd=avx512&threads=2');
  await page.waitForFunction(() => /^Compute-bound/.test(document.querySelector('[data-testid=bound]')?.textContent ?? ''));
  const before = await page.getByTestId('expected').textContent();
  await page.getByTestId('input-cpu-ghz').fill('4');
  await page.waitForFunction((b) => document.querySelector('[data-testid=expected]').textContent !== b, before);
  await page.getByTestId('input-sockets').fill('2');
  await page.waitForFunction(() => new URLSearchParams(location.search).get('sockets') === '2');
  assert.equal(await page.getByTestId('input-sockets-error').textContent(), '');
  assert.equal(await page.getByTestId('input-cpu-simd').inputValue(), 'avx512');
});

test('what would make it faster: clicking a lever changes the headline to its figure', async () => {
  const { page } = await load(browser, server.base + '?hw=ddr5-5600-2ch&model=qwen2.5-32b');
  const rows = page.getByTestId('lever-row');
  await rows.first().waitFor({ timeout: 20000 });
  assert.ok(await rows.count() >= 5);
  // The channels lever: its figure becomes the headline's expected figure.
  const row = page.locator('[data-testid=lever-row][data-change="hw=ddr5-5600-4ch"]');
  const figure = Number(await row.getAttribute('data-expected-tok-s'));
  assert.ok(figure > 0);
  await row.getByTestId('lever-apply').click();
  await page.waitForFunction(() => new URLSearchParams(location.search).get('hw') === 'ddr5-5600-4ch');
  const expected = await page.getByTestId('expected').textContent();
  const shown = Number(/^[\d.]+/.exec(expected)[0]);
  assert.ok(Math.abs(shown - figure) <= 0.051, `${expected} vs ${figure}`);
  // Embeds can name the levers.
  const { page: embed } = await load(browser, server.base + '?hw=rtx-4090&model=kimi-k2&offload=experts&ram_bw=80&ram=768&embed=1&view=levers');
  await embed.getByTestId('lever-row').first().waitFor({ timeout: 20000 });
  assert.match(await embed.getByTestId('levers').textContent(), /a faster GPU: no gain/);
});

test('the commands that run and measure the scenario, each with a copy button', async () => {
  const { page } = await load(browser, server.base + '?hw=rtx-4090&model=deepseek-r1&offload=experts&ram=768&ram_bw=614.4&cpu=epyc-9355&kv=q8_0');
  const run = page.getByTestId('command-run');
  await run.waitFor({ timeout: 20000 });
  assert.equal(await run.textContent(), 'llama-server -m deepseek-r1-Q4_K_M.gguf -c 4224 -ngl 62 -ot exps=CPU -ctk q8_0 -ctv q8_0 -t 32 -fa on');
  assert.match(await page.getByTestId('command-bench').textContent(), /^llama-bench -m deepseek-r1-Q4_K_M\.gguf -p 0 -n 128 -d 4096 -fa 1 .* -o md$/);
  assert.match(await page.getByTestId('command-note').textContent(), /Calibrate/);
  assert.equal(await page.getByTestId('command-run-copy').count(), 1);
  assert.equal(await page.getByTestId('command-bench-copy').count(), 1);
  // The commands follow the scenario.
  await page.getByTestId('input-ctx').fill('8192');
  await page.waitForFunction(() => / -c 8320 /.test(document.querySelector('[data-testid=command-run]').textContent));
});

test('two different GPUs: the division has a term per card, each its own pool', async () => {
  const { page } = await load(browser, server.base + '?hw=rtx-3090&with=rtx-4060-ti-16g&model=qwen2.5-32b');
  const division = await page.getByTestId('division').textContent();
  assert.match(division, /GB\/s \(VRAM \(RTX 3090\)\) \+ .* GB\/s \(VRAM \(RTX 4060 Ti 16GB\)\)\) = /);
  assert.match(await page.getByTestId('fit').textContent(), /VRAM \(RTX 3090\) .* of 24\.0 GiB, VRAM \(RTX 4060 Ti 16GB\) .* of 16\.0 GiB/);
  assert.match(await page.getByTestId('command-run').textContent(), /--tensor-split 24,16$/);
});
