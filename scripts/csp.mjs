// Trunk post-build hook: pins the page's Content-Security-Policy to the inline loader script and
// the inline style sheet, by their SHA-256, so no other inline script or style can apply.
// Runs with TRUNK_STAGING_DIR set (Trunk.toml [[hooks]]); usable by hand: node scripts/csp.mjs DIR
import { readFileSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';

const dir = process.argv[2] || process.env.TRUNK_STAGING_DIR;
if (!dir) { console.error('csp.mjs: no staging directory'); process.exit(1); }
const file = join(dir, 'index.html');
const html = readFileSync(file, 'utf8');
const hashes = (tag) => [...html.matchAll(new RegExp(`<${tag}(?:\\s[^>]*)?>([\\s\\S]*?)<\\/${tag}>`, 'g'))]
  .filter((m) => !/\ssrc=/.test(m[0].slice(0, m[0].indexOf('>'))))
  .map((m) => `'sha256-${createHash('sha256').update(m[1], 'utf8').digest('base64')}'`);
const scripts = hashes('script');
const styles = hashes('style');
for (const key of ['CSP_SCRIPT_HASHES', 'CSP_STYLE_HASHES']) {
  if (!html.includes(key)) { console.error(`csp.mjs: no ${key} placeholder in index.html`); process.exit(1); }
}
if (!scripts.length || !styles.length) { console.error('csp.mjs: expected an inline loader script and an inline style sheet'); process.exit(1); }
writeFileSync(file, html.replace('CSP_SCRIPT_HASHES', scripts.join(' ')).replace('CSP_STYLE_HASHES', styles.join(' ')));
console.log(`csp.mjs: ${scripts.length} inline script hash(es), ${styles.length} style hash(es) pinned`);
