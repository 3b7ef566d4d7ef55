// Trunk post-build hook: pins the page's Content-Security-Policy to the inline loader script
// Trunk writes, by its SHA-256, so no other inline script can run.
// Runs with TRUNK_STAGING_DIR set (Trunk.toml [[hooks]]); usable by hand: node scripts/csp.mjs DIR
import { readFileSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';

const dir = process.argv[2] || process.env.TRUNK_STAGING_DIR;
if (!dir) { console.error('csp.mjs: no staging directory'); process.exit(1); }
const file = join(dir, 'index.html');
const html = readFileSync(file, 'utf8');
const hashes = [...html.matchAll(/<script(?:\s[^>]*)?>([\s\S]*?)<\/script>/g)]
  .filter((m) => !/\ssrc=/.test(m[0].slice(0, m[0].indexOf('>'))))
  .map((m) => `'sha256-${createHash('sha256').update(m[1], 'utf8').digest('base64')}'`);
if (!html.includes('CSP_SCRIPT_HASHES')) { console.error('csp.mjs: no CSP_SCRIPT_HASHES placeholder in index.html'); process.exit(1); }
writeFileSync(file, html.replace('CSP_SCRIPT_HASHES', hashes.join(' ')));
console.log(`csp.mjs: ${hashes.length} inline script hash(es) pinned`);
