// Trunk post-build hook (Trunk.toml [[hooks]]), run with TRUNK_STAGING_DIR set; usable by hand:
// node scripts/node/postbuild.mjs DIR [release]
//
// 1. Release builds made with `--cfg tokbound_split` (TOKBOUND_SPLIT=1, scripts/webenv): the
//    module is split in parts (split.mjs), which replace Trunk's single module.
// 2. Release builds: minifies the JavaScript files (the wasm-bindgen glue and the measuring
//    worker) with terser. Trunk 0.21's own minifier cannot parse the glue's
//    `export { … as default }` and leaves it as written. The subresource-integrity hashes Trunk
//    wrote for the preloaded files are recomputed for the minified bytes.
// 3. Pins the page's Content-Security-Policy to the inline loader script and the inline style
//    sheet, by their SHA-256, so no other inline script or style can apply.
import { readFileSync, writeFileSync, readdirSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { minify } from 'terser';
import { split } from './split.mjs';

const dir = process.argv[2] || process.env.TRUNK_STAGING_DIR;
if (!dir) { console.error('postbuild.mjs: no staging directory'); process.exit(1); }
const release = (process.argv[3] || process.env.TRUNK_PROFILE) === 'release';
const file = join(dir, 'index.html');
let html = readFileSync(file, 'utf8');

const sri = (bytes) => `sha384-${createHash('sha384').update(bytes).digest('base64')}`;
// Every tag that names the file (Trunk's preload links) gets the file's integrity as it now is.
const pin = (name, bytes) => {
  html = html.replace(/<[^>]+>/g, (tag) => (tag.includes(`./${name}`) ? tag.replace(/sha384-[A-Za-z0-9+/=]+/, sri(bytes)) : tag));
};

if (release && process.env.TOKBOUND_SPLIT === '1') {
  let parts;
  try {
    parts = split(dir, readFileSync('index.html', 'utf8'));
  } catch (e) {
    console.error(e.message);
    process.exit(1);
  }
  const { added, loader } = parts;
  const wasm = readdirSync(dir).find((n) => /^tokbound-web-[0-9a-f]+_bg\.wasm$/.test(n));
  pin(wasm, readFileSync(join(dir, wasm)));
  // The parts' loader is a static import of the glue: preloaded beside it, not after it.
  const glueLink = /<link[^>]*rel="?modulepreload"?[^>]*>/.exec(html)?.[0];
  if (!glueLink) { console.error('postbuild.mjs: no modulepreload link for the glue'); process.exit(1); }
  const loaderLink = `<link crossorigin href=./${loader} integrity=${sri(readFileSync(join(dir, loader)))} rel=modulepreload>`;
  html = html.replace(glueLink, glueLink + loaderLink);
  console.log(`postbuild.mjs: split the module; added ${added.join(', ')}`);
}

if (release) {
  for (const name of readdirSync(dir).filter((n) => n.endsWith('.js'))) {
    const path = join(dir, name);
    const source = readFileSync(path, 'utf8');
    // The glue is an ES module; the worker a classic script.
    const module = /^\s*(import|export)\s|\bexport\s*\{/m.test(source);
    const out = await minify(source, { module, compress: { passes: 2 }, mangle: true, format: { comments: false } });
    if (typeof out.code !== 'string' || !out.code.length) { console.error(`postbuild.mjs: terser gave nothing for ${name}`); process.exit(1); }
    writeFileSync(path, out.code);
    pin(name, Buffer.from(out.code, 'utf8'));
    console.log(`postbuild.mjs: ${name} ${source.length} → ${out.code.length} bytes`);
  }
}

const hashes = (tag) => [...html.matchAll(new RegExp(`<${tag}(?:\\s[^>]*)?>([\\s\\S]*?)<\\/${tag}>`, 'g'))]
  .filter((m) => !/\ssrc=/.test(m[0].slice(0, m[0].indexOf('>'))))
  .map((m) => `'sha256-${createHash('sha256').update(m[1], 'utf8').digest('base64')}'`);
const scripts = hashes('script');
const styles = hashes('style');
for (const key of ['CSP_SCRIPT_HASHES', 'CSP_STYLE_HASHES']) {
  if (!html.includes(key)) { console.error(`postbuild.mjs: no ${key} placeholder in index.html`); process.exit(1); }
}
if (!scripts.length || !styles.length) { console.error('postbuild.mjs: expected an inline loader script and an inline style sheet'); process.exit(1); }
writeFileSync(file, html.replace('CSP_SCRIPT_HASHES', scripts.join(' ')).replace('CSP_STYLE_HASHES', styles.join(' ')));
console.log(`postbuild.mjs: ${scripts.length} inline script hash(es), ${styles.length} style hash(es) pinned`);
