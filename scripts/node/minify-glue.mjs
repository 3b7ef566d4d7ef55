// Trunk post-build hook: minifies the JavaScript glue wasm-bindgen writes (Trunk's own minifier
// leaves it as written) and updates its integrity hashes in index.html, since the page loads it
// with Subresource Integrity. The glue is about a quarter smaller gzipped.
// Runs with TRUNK_STAGING_DIR set (Trunk.toml [[hooks]]); usable by hand: node minify-glue.mjs DIR
import { readFileSync, writeFileSync, readdirSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { minify } from 'terser';

const dir = process.argv[2] || process.env.TRUNK_STAGING_DIR;
if (!dir) { console.error('minify-glue.mjs: no staging directory'); process.exit(1); }
const glue = readdirSync(dir).filter((f) => f.endsWith('.js'));
if (glue.length === 0) { console.error('minify-glue.mjs: no JavaScript in the staging directory'); process.exit(1); }
const sri = (bytes) => `sha384-${createHash('sha384').update(bytes).digest('base64')}`;
const htmlFile = join(dir, 'index.html');
let html = readFileSync(htmlFile, 'utf8');
for (const f of glue) {
  const path = join(dir, f);
  const before = readFileSync(path);
  const { code } = await minify(before.toString('utf8'), { module: true, compress: true, mangle: true });
  writeFileSync(path, code);
  const old = sri(before);
  if (html.includes(old)) html = html.replaceAll(old, sri(Buffer.from(code, 'utf8')));
  console.log(`minify-glue.mjs: ${f} ${before.length} -> ${code.length} bytes`);
}
writeFileSync(htmlFile, html);
