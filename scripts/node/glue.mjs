// Trunk post-build hook: trims the wasm-bindgen output before it ships, puts the glue inside
// Trunk's loader script, and updates the wasm's integrity hash in index.html.
//  1. Runs wasm-opt again, knowing more about the page's memory, and orders the wasm's functions
//     so that gzip finds more repeats.
//  2. Renames the wasm's imports, and the exports the glue reaches only as `wasm.NAME`, to short
//     names in both files. wasm-bindgen names each import after its function plus a 16-digit hash,
//     and each closure trampoline after its full Rust type: text that gzip cannot shrink, and that
//     both files carry. Drops the custom sections the browser never reads (producers, target
//     features).
//  3. Puts the glue inside the loader (Trunk's inline module script, which imported it from its
//     own file) and minifies the two together with terser.
// Each step checks the shape of wasm-bindgen's output it relies on and stops the build if that
// shape has changed, rather than ship a page that cannot start.
// Runs with TRUNK_STAGING_DIR set (Trunk.toml [[hooks]]); usable by hand: node glue.mjs DIR
import { readFileSync, writeFileSync, readdirSync, unlinkSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { minify } from 'terser';
import binaryen from 'binaryen';

const fail = (msg) => { console.error(`glue.mjs: ${msg}`); process.exit(1); };
const dir = process.argv[2] || process.env.TRUNK_STAGING_DIR;
if (!dir) fail('no staging directory');
if (process.env.TRUNK_PROFILE === 'debug') process.exit(0); // development builds stay as written
const files = readdirSync(dir);
const jsName = files.find((f) => f.endsWith('.js'));
const wasmName = files.find((f) => f.endsWith('_bg.wasm'));
if (!jsName || !wasmName) fail('no wasm-bindgen output in the staging directory');
const jsPath = join(dir, jsName);
const wasmPath = join(dir, wasmName);
const jsBefore = readFileSync(jsPath);
const wasmBefore = readFileSync(wasmPath);
let js = jsBefore.toString('utf8');
let wasm = wasmBefore;

// ---- the wasm binary: sections, and the import and export sections' entries ----
function leb(buf, at) {
  let value = 0, shift = 0, byte;
  do { byte = buf[at++]; value += (byte & 0x7f) * 2 ** shift; shift += 7; } while (byte & 0x80);
  return [value, at];
}
function uleb(n) {
  const out = [];
  do { let b = n & 0x7f; n = Math.floor(n / 128); if (n) b |= 0x80; out.push(b); } while (n);
  return Buffer.from(out);
}
const name = (s) => { const b = Buffer.from(s, 'utf8'); return Buffer.concat([uleb(b.length), b]); };
function sections(buf) {
  if (buf.readUInt32LE(0) !== 0x6d736100) fail(`${wasmName} is not a wasm module`);
  const out = [];
  for (let at = 8; at < buf.length;) {
    const id = buf[at];
    const [size, body] = leb(buf, at + 1);
    out.push({ id, body: buf.subarray(body, body + size) });
    at = body + size;
  }
  return out;
}
const assemble = (secs) => Buffer.concat([wasm.subarray(0, 8),
  ...secs.flatMap((s) => [Buffer.from([s.id]), uleb(s.body.length), s.body])]);
function readString(buf, at) { const [n, start] = leb(buf, at); return [buf.toString('utf8', start, start + n), start + n]; }
// Imports: module, field, and the bytes of the description that follows (kind and index or type).
function imports(body) {
  const [count, first] = leb(body, 0);
  const out = [];
  let at = first;
  for (let i = 0; i < count; i++) {
    let module, field;
    [module, at] = readString(body, at);
    [field, at] = readString(body, at);
    const start = at;
    const kind = body[at++];
    if (kind === 0) [, at] = leb(body, at); // function: type index
    else if (kind === 1) { at++; const [flags, a] = leb(body, at); at = a; [, at] = leb(body, at); if (flags & 1) [, at] = leb(body, at); } // table
    else if (kind === 2) { const [flags, a] = leb(body, at); at = a; [, at] = leb(body, at); if (flags & 1) [, at] = leb(body, at); } // memory
    else if (kind === 3) at += 2; // global: value type, mutability
    else fail(`import kind ${kind} not understood`);
    out.push({ module, field, desc: body.subarray(start, at) });
  }
  return out;
}
function exportsOf(body) {
  const [count, first] = leb(body, 0);
  const out = [];
  let at = first;
  for (let i = 0; i < count; i++) {
    let field;
    [field, at] = readString(body, at);
    const start = at;
    at++;
    [, at] = leb(body, at);
    out.push({ field, desc: body.subarray(start, at) });
  }
  return out;
}
const encodeImports = (list) => Buffer.concat([uleb(list.length), ...list.flatMap((i) => [name(i.module), name(i.field), i.desc])]);
const encodeExports = (list) => Buffer.concat([uleb(list.length), ...list.flatMap((e) => [name(e.field), e.desc])]);
const section = (secs, id) => secs.find((s) => s.id === id) || fail(`no section ${id} in ${wasmName}`);
// Text as a regular expression that matches exactly it.
const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const word = (s) => new RegExp(`(?<![\\w$])${escape(s)}(?![\\w$])`, 'g');
const count = (text, s) => (text.match(word(s)) || []).length;

// ---- 1. a second wasm-opt, and the function order ----
// Two facts about the page's memory let wasm-opt fold more address arithmetic (about 1 KB
// gzipped): the module defines its memory, so it starts zeroed; and Rust puts the 1 MiB stack at
// the bottom of memory, growing down, so the lowest kilobyte is touched only by a stack within a
// kilobyte of overflowing. Twice over, the control flow is flattened and rebuilt by binaryen's
// relooper before -Oz: LLVM's block structure is not the smallest, and the rebuilt one, optimized
// again, is 1.2 KB smaller gzipped (one round gained 0.5 KB, a third none; A/B runs of the
// keystroke and first-ceiling figures showed no difference).
// A build that keeps its function names (Trunk's data-keep-debug, for profiling) keeps them here too.
const named = sections(wasm).some((s) => s.id === 0 && readString(s.body, 0)[0] === 'name');
const wasmOpt = (args) => {
  const run = spawnSync(join(import.meta.dirname, 'node_modules', '.bin', 'wasm-opt'),
    [...args, ...(named ? ['-g'] : []), wasmPath, '-o', wasmPath], { encoding: 'utf8' });
  const errors = run.stderr.split('\n').filter((l) => l && !l.includes('no passes specified')).join('\n');
  if (errors) console.error(errors);
  if (run.status !== 0) fail(`wasm-opt ${args.join(' ')} failed`);
  wasm = readFileSync(wasmPath);
};
wasmOpt(['--zero-filled-memory', '--low-memory-unused', '--flatten', '--rereloop', '-Oz', '--flatten', '--rereloop', '-Oz', '-Oz']);
// gzip finds repeats only within its 32 KB window, and rustc emits functions in the order of the
// source: the monomorphized copies of one generic, or the many small closures of one shape, end
// up far apart. Grouped by size (in steps of half a power of two), then by signature, then sorted
// by their encoded bodies, functions with the same locals and the same opening instructions sit
// side by side (about 5 KB gzipped on this page). Calls and tables name functions, so binaryen
// renumbers them; the order changes nothing the page does. Binaryen's writer leaves out the
// stack-level optimizations that wasm-opt's writer makes, so wasm-opt writes the result.
writeFileSync(wasmPath, orderFunctions(wasm, named));
wasmOpt(['--optimize-level=2', '--shrink-level=2', '--generate-stack-ir', '--optimize-stack-ir']);

function orderFunctions(buf, keepNames) {
  const secs = sections(buf);
  // The code section's bodies, in the order of the module's defined functions.
  const code = section(secs, 10).body;
  let [entries, at] = leb(code, 0);
  const bodies = [];
  for (let i = 0; i < entries; i++) {
    const [size, start] = leb(code, at);
    bodies.push(code.subarray(start, start + size));
    at = start + size;
  }
  // binaryen reads with the features the module declares, and writes them back the same.
  const declared = secs.find((s) => s.id === 0 && readString(s.body, 0)[0] === 'target_features');
  if (!declared) fail(`${wasmName} declares no target features`);
  const flags = { 'mutable-globals': 'MutableGlobals', 'nontrapping-fptoint': 'NontrappingFPToInt', 'bulk-memory': 'BulkMemory',
    'bulk-memory-opt': 'BulkMemoryOpt', 'sign-ext': 'SignExt', 'reference-types': 'ReferenceTypes', multivalue: 'Multivalue',
    'call-indirect-overlong': 'CallIndirectOverlong', simd128: 'SIMD128', 'tail-call': 'TailCall', 'extended-const': 'ExtendedConst' };
  let features = binaryen.Features.MVP;
  let [, p] = readString(declared.body, 0);
  let n;
  [n, p] = leb(declared.body, p);
  for (let i = 0; i < n; i++) {
    const used = declared.body[p++] === 0x2b; // '+': used; '-': disallowed
    let feature;
    [feature, p] = readString(declared.body, p);
    if (!used) continue;
    if (!(feature in flags)) fail(`target feature ${feature} not understood`);
    features |= binaryen.Features[flags[feature]];
  }
  const module = binaryen.readBinary(buf, features);
  binaryen.setDebugInfo(keepNames);
  const defined = [];
  for (let i = 0; i < module.getNumFunctions(); i++) {
    const info = binaryen.getFunctionInfo(module.getFunctionByIndex(i));
    if (!info.module) defined.push(info);
  }
  if (defined.length !== bodies.length) fail(`binaryen read ${defined.length} functions, the code section has ${bodies.length}`);
  // The function section: each defined function's type index.
  const fsec = section(secs, 3).body;
  const types = [];
  [entries, at] = leb(fsec, 0);
  for (let i = 0; i < entries; i++) {
    let t;
    [t, at] = leb(fsec, at);
    types.push(t);
  }
  if (types.length !== bodies.length) fail(`${types.length} function types for ${bodies.length} bodies`);
  const order = defined.map((f, i) => ({ f, size: Math.floor(2 * Math.log2(bodies[i].length)), type: types[i], bytes: bodies[i] }));
  order.sort((a, b) => a.size - b.size || a.type - b.type || Buffer.compare(a.bytes, b.bytes));
  for (const f of defined) module.removeFunction(f.name);
  for (const { f } of order) module.addFunction(f.name, f.params, f.results, f.vars, f.body);
  if (!module.validate()) fail('the module with its functions reordered does not validate');
  const out = Buffer.from(module.emitBinary());
  module.dispose();
  return out;
}

// ---- 2. short import and export names ----
let next = 0;
const short = () => {
  let n = next++, s = '';
  do { s = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'[n % 52] + s; n = Math.floor(n / 52); } while (n);
  return `$${s}`;
};
const secs = sections(wasm);
const imp = section(secs, 2);
const list = imports(imp.body);
const modules = new Set(list.map((i) => i.module));
if (modules.size !== 1) fail(`expected one import module, found ${[...modules].join(', ')}`);
const [module] = modules;
const moduleKey = `${JSON.stringify(module)}: import0,`;
if (js.split(moduleKey).length !== 2) fail(`the glue's import object for ${module} was not found`);
js = js.replace(moduleKey, '"w": import0,');
// Entries of the import object the wasm no longer imports (wasm-opt removed their only callers).
const imported = new Set(list.map((i) => i.field));
js = js.replace(/^ {8}(\w+): function\(.*\n[\s\S]*?^ {8}\}.*\n/gm, (entry, key) => (imported.has(key) ? entry : ''));
for (const i of list) {
  if (count(js, i.field) !== 1 || !js.includes(`        ${i.field}: function(`)) fail(`import ${i.field} is not a single entry of the glue's import object`);
  const s = short();
  js = js.replace(word(i.field), s);
  i.module = 'w';
  i.field = s;
}
imp.body = encodeImports(list);
const ex = section(secs, 7);
const exported = exportsOf(ex.body);
for (const e of exported) {
  const uses = count(js, e.field);
  const asMember = (js.match(new RegExp(`\\bwasm\\.${escape(e.field)}(?![\\w$])`, 'g')) || []).length;
  const asFunction = (js.match(new RegExp(`^function ${escape(e.field)}\\(`, 'gm')) || []).length;
  // Renamed where every mention is `wasm.NAME` (or the glue's same-named wrapper function), or
  // where the name carries wasm-bindgen's 16-digit hash (a closure trampoline, whose wrapper the
  // glue also passes around by name): such a name cannot mean anything else.
  if (uses === 0 || (uses !== asMember + asFunction && !/[0-9a-f]{16}/.test(e.field))) continue;
  const s = short();
  js = js.replace(word(e.field), s);
  e.field = s;
}
ex.body = encodeExports(exported);
// Custom sections other than the function names are for tools, and the browser skips them:
// producers, target features, wasm-bindgen's code-splitting marker.
wasm = assemble(secs.filter((s) => s.id !== 0 || readString(s.body, 0)[0] === 'name'));
writeFileSync(wasmPath, wasm);

// ---- 3. the glue inside the loader, minified ----
// The loader imported the glue from its own file, so the page waited for that file before it could
// even ask for the wasm; on this machine each file the page loads costs 20-35 ms before it arrives
// (the style sheet is inline too: index.html's `rel="inline"`). The glue becomes the start of
// the loader's module, and the loader's own lines run in a block of their own, since both name a
// `wasm`. The integrity of the inline script is the Content-Security-Policy's hash (csp.mjs).
const htmlPath = join(dir, 'index.html');
let html = readFileSync(htmlPath, 'utf8');
const exportLine = 'export { initSync, __wbg_init as default };';
if (js.split(exportLine).length !== 2 || /^\s*(import|export)\b/m.test(js.replace(exportLine, ''))) {
  fail(`the glue no longer ends with "${exportLine}" as its only import or export`);
}
const importLine = `import init, * as bindings from './${jsName}';`;
const loaders = [...html.matchAll(/<script type="?module"?>([\s\S]*?)<\/script>/g)].filter((m) => m[1].includes(importLine));
if (loaders.length !== 1) fail(`expected one loader script importing ${jsName}, found ${loaders.length}`);
const [loaderTag, loader] = loaders[0];
const { code } = await minify(`${js.replace(exportLine, '')}\n{\n`
  + `const init = __wbg_init, bindings = { initSync, default: __wbg_init };\n${loader.replace(importLine, '')}\n}`,
{ module: true, compress: true, mangle: true });
if (/<\/script|<!--/i.test(code)) fail('the minified glue contains text that would end its script element');
const preload = new RegExp(`<link[^>]*href="?\\./${escape(jsName)}"?[^>]*>`, 'g');
if ((html.match(preload) || []).length !== 1) fail(`expected one preload link for ${jsName}`);
html = html.replace(loaderTag, () => `<script type=module>${code}</script>`).replace(preload, '');
unlinkSync(jsPath);

// ---- the wasm's integrity hash ----
const sri = (bytes) => `sha384-${createHash('sha384').update(bytes).digest('base64')}`;
const old = sri(wasmBefore);
if (!html.includes(old)) fail(`no integrity hash for ${wasmName} in index.html`);
html = html.replaceAll(old, sri(wasm));
writeFileSync(htmlPath, html);
console.log(`glue.mjs: renamed ${list.length} imports, ${next - list.length} exports;`
  + ` ${jsName} ${jsBefore.length} bytes -> ${code.length} in the loader, ${wasmName} ${wasmBefore.length} -> ${wasm.length} bytes`);
