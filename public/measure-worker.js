// tokbound's memory-bandwidth probe, loaded only when "Measure my machine" is pressed.
//
// Started by the page, it coordinates: it starts one reader (this same file) per logical core,
// each reading its own WebAssembly memory (no SharedArrayBuffer, so no cross-origin isolation),
// times rounds in which all of them read at once and reports the best round; then it streams a
// storage buffer through a WebGPU compute shader, where the browser has WebGPU. Messages to the
// page are JSON text: {type: "progress"|"cpu"|"gpu"|"gpu-missing"|"done"|"error", …}.

// scripts/measure/kernel.wat and kernel-scalar.wat, assembled (wasm-as; a test checks them).
const KERNEL_SIMD = 'AGFzbQEAAAABBwFgAn9/AX4DAgEABQMBAAEHDgIDbWVtAgAEcmVhZAAACowBAYkBAgF/BHsCQANAIAFFDQFBACECAkADQCACIABPDQEgAyAC/QAEAP3OASEDIAQgAv0ABBD9zgEhBCAFIAL9AAQg/c4BIQUgBiAC/QAEMP3OASEGIAJBwABqIQIMAAsACyABQQFrIQEMAAsACyADIAT9zgEgBSAG/c4B/c4BIQMgA/0dACAD/R0BfAs=';
const KERNEL_SCALAR = 'AGFzbQEAAAABBwFgAn9/AX4DAgEABQMBAAEHDgIDbWVtAgAEcmVhZAAACmsBaQIBfwR+AkADQCABRQ0BQQAhAgJAA0AgAiAATw0BIAMgAikDAHwhAyAEIAIpAwh8IQQgBSACKQMQfCEFIAYgAikDGHwhBiACQSBqIQIMAAsACyABQQFrIQEMAAsACyADIAR8IAUgBnx8Cw==';

const MIB = 1 << 20;
const TOTAL_BYTES = 256 * MIB; // at least this much in all, far beyond any cache
const ROUNDS = 5;
const ROUND_MS = 250;
const GPU_BYTES = 256 * MIB; // at most
const GPU_TARGET_MS = 200; // per timed round

const bytes = (b64) => Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
const send = (msg) => postMessage(JSON.stringify(msg));

// ---- A reader: its own memory, read on command.
async function reader() {
  const simd = WebAssembly.validate(bytes(KERNEL_SIMD));
  const { instance } = await WebAssembly.instantiate(bytes(simd ? KERNEL_SIMD : KERNEL_SCALAR));
  const { mem, read } = instance.exports;
  let len = 0;
  onmessage = (e) => {
    const m = e.data;
    if (m.cmd === 'alloc') {
      // Grow to the share asked for, or as far as the browser allows.
      let want = Math.ceil(m.bytes / 65536);
      while (want > 16) {
        try { mem.grow(want - mem.buffer.byteLength / 65536); break; } catch { want = Math.floor(want / 2); }
      }
      len = Math.floor(mem.buffer.byteLength / 64) * 64;
      new Uint8Array(mem.buffer).fill(1); // touch every page
      postMessage({ ready: len, simd });
    } else if (m.cmd === 'go') {
      let n = 0; const t0 = performance.now(); let t = t0;
      while (t - t0 < m.ms) { read(len, 1); n++; t = performance.now(); }
      postMessage({ bytes: n * len, ms: t - t0 });
    }
  };
  postMessage({ loaded: true });
}

// ---- The coordinator.
const once = (w) => new Promise((ok, fail) => { w.onmessage = (e) => ok(e.data); w.onerror = (e) => fail(new Error(e.message || 'a reader failed')); });

async function cpu() {
  const n = Math.max(1, Math.min(navigator.hardwareConcurrency || 4, 32));
  const readers = [];
  for (let i = 0; i < n; i++) { const w = new Worker('./measure-worker.js', { name: 'reader' }); readers.push(w); }
  await Promise.all(readers.map(once));
  const ready = await Promise.all(readers.map((w) => { const p = once(w); w.postMessage({ cmd: 'alloc', bytes: TOTAL_BYTES / n }); return p; }));
  const total = ready.reduce((s, r) => s + r.ready, 0);
  let best = null;
  for (let round = 0; round < ROUNDS; round++) {
    send({ type: 'progress', value: (round + 1) / (ROUNDS + 4), text: `Reading ${(total / MIB).toFixed(0)} MB with ${n} workers: round ${round + 1} of ${ROUNDS}` });
    const done = await Promise.all(readers.map((w) => { const p = once(w); w.postMessage({ cmd: 'go', ms: ROUND_MS }); return p; }));
    const read = done.reduce((s, d) => s + d.bytes, 0);
    const ms = Math.max(...done.map((d) => d.ms));
    const gbs = read / (ms / 1000) / 1e9;
    if (!best || gbs > best.bandwidth_gbs) best = { bandwidth_gbs: gbs, bytes: read, seconds: ms / 1000 };
  }
  readers.forEach((w) => w.terminate());
  const notice = total < TOTAL_BYTES * 0.99 ? `only ${(total / MIB).toFixed(0)} MB could be allocated; a smaller test reads more from caches` : null;
  send({ type: 'cpu', ...best, threads: n, total_bytes: total, simd: ready[0].simd, notice });
}

const SHADER = `
@group(0) @binding(0) var<storage, read> src: array<vec4<u32>>;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) id: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
  let stride = groups.x * 256u;
  var acc = vec4<u32>(0u);
  for (var i = id.x; i < arrayLength(&src); i += stride) { acc += src[i]; }
  let s = acc.x + acc.y + acc.z + acc.w;
  if (s == 0xffffffffu) { out[id.x] = s; }
}`;

async function gpu() {
  if (!('gpu' in navigator)) return send({ type: 'gpu-missing', reason: 'this browser has no WebGPU' });
  const adapter = await navigator.gpu.requestAdapter({ powerPreference: 'high-performance' });
  if (!adapter) return send({ type: 'gpu-missing', reason: 'the browser offers no WebGPU adapter (it may be turned off or blocked)' });
  const info = adapter.info || {};
  // A software rasteriser is not the user's GPU, whatever the browser calls it.
  const fallback = Boolean(info.isFallbackAdapter ?? adapter.isFallbackAdapter)
    || /swiftshader|llvmpipe|lavapipe|software|microsoft basic/i.test(`${info.vendor} ${info.architecture} ${info.description} ${info.device}`);
  const size = Math.floor(Math.min(GPU_BYTES, adapter.limits.maxStorageBufferBindingSize, adapter.limits.maxBufferSize) / 1024) * 1024;
  const device = await adapter.requestDevice({ requiredLimits: { maxStorageBufferBindingSize: size, maxBufferSize: size } });
  const src = device.createBuffer({ size, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST });
  device.queue.writeBuffer(src, 0, new Uint32Array(size / 4).fill(1));
  const out = device.createBuffer({ size: 4 * 256 * 1024, usage: GPUBufferUsage.STORAGE });
  const pipeline = device.createComputePipeline({ layout: 'auto', compute: { module: device.createShaderModule({ code: SHADER }), entryPoint: 'main' } });
  const group = device.createBindGroup({ layout: pipeline.getBindGroupLayout(0), entries: [{ binding: 0, resource: { buffer: src } }, { binding: 1, resource: { buffer: out } }] });
  const groups = Math.min(1024, Math.ceil(size / 16 / 256));
  const run = async (dispatches) => {
    const enc = device.createCommandEncoder();
    const pass = enc.beginComputePass();
    pass.setPipeline(pipeline); pass.setBindGroup(0, group);
    for (let i = 0; i < dispatches; i++) pass.dispatchWorkgroups(groups);
    pass.end();
    const t0 = performance.now();
    device.queue.submit([enc.finish()]);
    await device.queue.onSubmittedWorkDone();
    return performance.now() - t0;
  };
  await run(1); // warm up
  const one = Math.max(await run(1), 0.05);
  const dispatches = Math.max(1, Math.min(200, Math.round(GPU_TARGET_MS / one)));
  let best = 0;
  for (let round = 0; round < 3; round++) {
    send({ type: 'progress', value: (ROUNDS + 1 + round) / (ROUNDS + 4), text: `Streaming ${(size / MIB).toFixed(0)} MB through the GPU: round ${round + 1} of 3` });
    const ms = await run(dispatches);
    best = Math.max(best, (size * dispatches) / (ms / 1000) / 1e9);
  }
  device.destroy();
  send({ type: 'gpu', bandwidth_gbs: best, bytes: size, vendor: info.vendor || '', architecture: info.architecture || '', description: info.description || '', fallback });
}

if (self.name === 'reader') {
  reader();
} else {
  onmessage = async (e) => {
    if (e.data !== 'measure') return;
    try {
      await cpu();
    } catch (err) {
      send({ type: 'cpu-failed', reason: String(err.message || err) });
    }
    try {
      await gpu();
    } catch (err) {
      send({ type: 'gpu-missing', reason: `WebGPU refused: ${err.message || err}` });
    }
    send({ type: 'done' });
  };
}
