import { serve, launch, openView } from './harness.mjs';
const server = await serve('/');
const browser = await launch();
const page = await openView(browser, server.base, { width: 1280, height: 720 }, undefined);
await page.waitForTimeout(1500);
if (process.env.CSS) await page.evaluate((c) => { const s = new CSSStyleSheet(); s.replaceSync(c); document.adoptedStyleSheets = [...document.adoptedStyleSheets, s]; }, process.env.CSS);
const cdp = await page.context().newCDPSession(page);
let layers = [];
cdp.on('LayerTree.layerTreeDidChange', (e) => { if (e.layers) layers = e.layers; });
await cdp.send('DOM.enable');
await cdp.send('LayerTree.enable');
await page.evaluate(() => window.scrollBy(0, 1));
await page.waitForTimeout(1000);
console.log('layers', layers.length);
for (const l of layers) {
  let name = '';
  if (l.backendNodeId) { try { const d = await cdp.send('DOM.describeNode', { backendNodeId: l.backendNodeId }); name = d.node.nodeName + ' ' + (d.node.attributes || []).join(' ').slice(0, 80); } catch {} }
  let reasons = [];
  try { reasons = (await cdp.send('LayerTree.compositingReasons', { layerId: l.layerId })).compositingReasonIds; } catch {}
  console.log(l.layerId, 'parent', l.parentLayerId, 'off', l.offsetX, l.offsetY, l.width + 'x' + l.height, l.drawsContent ? 'draws' : '', name, reasons.join(','));
}
console.log('dom nodes', await page.evaluate(() => document.querySelectorAll('*').length));
await browser.close(); await server.close();
