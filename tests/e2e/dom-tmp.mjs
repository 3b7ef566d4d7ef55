import { serve, launch, openView } from './harness.mjs';
const server = await serve('/');
const browser = await launch();
const page = await openView(browser, server.base, { width: 1280, height: 720 }, undefined);
console.log(await page.evaluate(() => {
  const f = document.querySelector('form.inputs');
  const out = [`form controls ${f.elements.length}, options ${f.querySelectorAll('option').length}, forms in doc ${document.forms.length}, controls outside forms ${[...document.querySelectorAll('input,select,textarea,button')].filter(e => !e.form).length}`];
  for (const fs of f.querySelectorAll(':scope > fieldset')) out.push(`${fs.querySelector('legend')?.textContent} controls ${fs.elements.length} options ${fs.querySelectorAll('option').length} selects ${[...fs.querySelectorAll('select')].map(s => s.dataset.testid + ':' + s.options.length).join(' ')}`);
  return out.join('\n');
}));
await browser.close(); await server.close();
