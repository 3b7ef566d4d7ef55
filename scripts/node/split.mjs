// The release page's module, split in parts (docs/performance.md, "The first view"): called by
// postbuild.mjs on Trunk's staging directory when the build was made with `--cfg tokbound_split`
// (scripts/webenv, TOKBOUND_SPLIT=1).
//
// Trunk builds the module with relocations (`--emit-relocs`) and runs wasm-bindgen on it whole;
// this step starts again from cargo's output:
//   1. wasm-split-cli cuts it at the `#[wasm_split]` functions (src/web/start.rs: `app`;
//      src/web/components/later_panels.rs: `more`; src/web/tools.rs: `tools`): a first part,
//      one file per split-off part, chunks of code two parts share, and `__wasm_split.js`,
//      which loads them;
//   2. wasm-bindgen writes the first part's glue (with the linker's exports the parts import);
//   3. wasm-opt optimises every part with the parameters on index.html's rust link;
//   4. the files replace Trunk's module in the staging directory, the loader and the parts named
//      by their content's hash, so a page of one release never loads parts of another.
// Returns the names of the files it added, and the loader's (which the page should preload: the
// glue imports it, so without a preload it is fetched only once the glue has arrived).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const run = (cmd, args) => {
  try {
    execFileSync(cmd, args, { stdio: ['ignore', 'ignore', 'inherit'] });
  } catch (e) {
    const why = e.code === 'ENOENT' ? 'not found on PATH: `make setup` installs it' : `failed (${e.status ?? e.message})`;
    throw new Error(`split.mjs: ${cmd} ${why}`);
  }
};
const short = (bytes) => createHash('sha256').update(bytes).digest('hex').slice(0, 16);

export function split(staging, sourceHtml) {
  const glue = readdirSync(staging).find((n) => /^tokbound-web-[0-9a-f]+\.js$/.test(n));
  if (!glue) throw new Error(`split.mjs: no tokbound-web-*.js in ${staging}`);
  const stem = glue.slice(0, -3);
  const raw = join(process.env.CARGO_TARGET_DIR || 'target', 'wasm32-unknown-unknown', 'release', 'tokbound-web.wasm');
  const params = /data-wasm-opt-params="([^"]*)"/.exec(sourceHtml)?.[1];
  if (!params) throw new Error('split.mjs: index.html has no data-wasm-opt-params');
  const work = mkdtempSync(join(tmpdir(), 'tokbound-split-'));
  try {
    const parts = join(work, 'parts');
    run('wasm-split-cli', [raw, parts, '--out-name', stem]);
    const bg = join(work, 'bg');
    run('wasm-bindgen', ['--target=web', '--no-typescript', '--keep-lld-exports', `--out-dir=${bg}`, `--out-name=${stem}`, join(parts, `${stem}.wasm`)]);
    const opt = (from, to, ...more) => run('wasm-opt', [`--output=${to}`, '-Oz', from, ...params.split(/\s+/).filter(Boolean), ...more]);
    opt(join(bg, `${stem}_bg.wasm`), join(staging, `${stem}_bg.wasm`));
    copyFileSync(join(bg, `${stem}.js`), join(staging, glue));
    // The parts and their loader, renamed by content; the loader names the parts, the glue the loader.
    let loader = readFileSync(join(parts, '__wasm_split.js'), 'utf8');
    const added = [];
    for (const part of readdirSync(parts).filter((n) => n.endsWith('.wasm') && n !== `${stem}.wasm`)) {
      const tmp = join(work, part);
      // A later part's functions come out of wasm-split-cli in no useful order; sorted by name,
      // the instances of one generic function sit together, where gzip finds their likeness
      // (the parts −5.5 KB gzipped in all; the first part, in the linker's order, compresses better unsorted).
      opt(join(parts, part), tmp, '--reorder-functions-by-name');
      const bytes = readFileSync(tmp);
      const name = `${part.slice(0, -5)}-${short(bytes)}.wasm`;
      writeFileSync(join(staging, name), bytes);
      if (!loader.includes(`"./${part}"`)) throw new Error(`split.mjs: the loader does not name ${part}`);
      loader = loader.replaceAll(`"./${part}"`, `"./${name}"`);
      added.push(name);
    }
    const loaderName = `__wasm_split-${short(loader)}.js`;
    writeFileSync(join(staging, loaderName), loader);
    const glueText = readFileSync(join(staging, glue), 'utf8');
    if (!glueText.includes('from "./__wasm_split.js"')) throw new Error('split.mjs: the glue does not import the loader');
    writeFileSync(join(staging, glue), glueText.replaceAll('from "./__wasm_split.js"', `from "./${loaderName}"`));
    added.push(loaderName);
    return { added, loader: loaderName };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
