// Development aid, not a test: screenshots of the built page.
// node screenshot.mjs '?hw=m3-max-40c' /tmp/shot dark 390   →  /tmp/shot-top.png, /tmp/shot-charts.png
import { serve, launch, openPage } from './harness.mjs';
const [,, query = '', prefix = '/tmp/s', scheme = 'light', width = '1440'] = process.argv;
const s = await serve('/'); const b = await launch();
const { page, errors, failures } = await openPage(b, { viewport: { width: Number(width), height: 1000 }, colorScheme: scheme });
await page.goto(s.base + query);
await page.getByTestId('ceiling').waitFor();
await page.waitForTimeout(500);
await page.screenshot({ path: prefix + '-top.png' });
await page.locator('.charts').screenshot({ path: prefix + '-charts.png' });
console.log('errors', errors, 'failures', failures);
await b.close(); await s.close();
