// Writes GGUF files for the import tests: a real header (v3, little-endian) and, past it, a sparse
// hole as long as the tensors claim, so a multi-GB model costs a few KB of disk.
import { openSync, writeSync, ftruncateSync, closeSync } from 'node:fs';

const TYPES = { F32: [0, 1, 4], F16: [1, 1, 2], Q4_0: [2, 32, 18], Q8_0: [8, 32, 34], Q4_K: [12, 256, 144], Q6_K: [14, 256, 210] };

class Writer {
  constructor() { this.parts = []; }
  u32(v) { const b = Buffer.alloc(4); b.writeUInt32LE(v); this.parts.push(b); }
  u64(v) { const b = Buffer.alloc(8); b.writeBigUInt64LE(BigInt(v)); this.parts.push(b); }
  raw(b) { this.parts.push(b); }
  str(s) { const b = Buffer.from(s, 'utf8'); this.u64(b.length); this.raw(b); }
  bytes() { return Buffer.concat(this.parts); }
}

/** The vocabulary `t0`, `t1`, … as GGUF strings (length, then bytes), in one buffer. */
function tokenStrings(vocab) {
  let total = 0;
  for (let i = 0; i < vocab; i++) total += 8 + 1 + String(i).length;
  const b = Buffer.alloc(total);
  let at = 0;
  for (let i = 0; i < vocab; i++) {
    const text = `t${i}`;
    b.writeBigUInt64LE(BigInt(text.length), at);
    at += 8 + b.write(text, at + 8, 'latin1');
  }
  return b;
}

/**
 * A llama-like model: `layers` blocks of width `hidden`, `vocab` tokens; returns the expected sizes.
 * `split: [index, count]` writes part `index` (1-based) of a gguf-split file: the first part has the
 * metadata, each part about 1/count of the tensors.
 */
export function writeGguf(path, { name = 'Test Llama', layers = 32, hidden = 4096, kvHeads = 8, heads = 32, ffn = 14336, vocab = 128256,
  type = 'Q4_K', magic = 'GGUF', tensorCountOverride, split } = {}) {
  const headDim = hidden / heads;
  const tensors = [['token_embd.weight', [hidden, vocab], type], ['output.weight', [hidden, vocab], 'Q6_K'], ['output_norm.weight', [hidden], 'F32']];
  for (let i = 0; i < layers; i++) {
    tensors.push([`blk.${i}.attn_q.weight`, [hidden, hidden], type], [`blk.${i}.attn_k.weight`, [hidden, kvHeads * headDim], type],
      [`blk.${i}.attn_v.weight`, [hidden, kvHeads * headDim], type], [`blk.${i}.attn_output.weight`, [hidden, hidden], type],
      [`blk.${i}.ffn_gate.weight`, [hidden, ffn], type], [`blk.${i}.ffn_up.weight`, [hidden, ffn], type],
      [`blk.${i}.ffn_down.weight`, [ffn, hidden], type], [`blk.${i}.attn_norm.weight`, [hidden], 'F32'], [`blk.${i}.ffn_norm.weight`, [hidden], 'F32']);
  }
  const [part, parts] = split ?? [1, 1];
  const share = Math.ceil(tensors.length / parts);
  const all = tensors.length;
  tensors.splice(0, tensors.length, ...tensors.slice((part - 1) * share, part * share));
  const w = new Writer();
  w.raw(Buffer.from(magic, 'latin1'));
  w.u32(3);
  w.u64(tensorCountOverride ?? tensors.length);
  const splitKv = split ? [['split.no', 2, (x) => { const b = Buffer.alloc(2); b.writeUInt16LE(part - 1); x.raw(b); }],
    ['split.count', 2, (x) => { const b = Buffer.alloc(2); b.writeUInt16LE(parts); x.raw(b); }],
    ['split.tensors.count', 5, (x) => { const b = Buffer.alloc(4); b.writeInt32LE(all); x.raw(b); }]] : [];
  const kv = part > 1 ? splitKv : [...splitKv,
    ['general.architecture', 8, (x) => x.str('llama')], ['general.name', 8, (x) => x.str(name)],
    ['llama.block_count', 4, (x) => x.u32(layers)], ['llama.embedding_length', 4, (x) => x.u32(hidden)],
    ['llama.feed_forward_length', 4, (x) => x.u32(ffn)], ['llama.attention.head_count', 4, (x) => x.u32(heads)],
    ['llama.attention.head_count_kv', 4, (x) => x.u32(kvHeads)], ['llama.context_length', 4, (x) => x.u32(131072)],
    ['tokenizer.ggml.tokens', 9, (x) => { x.u32(8); x.u64(vocab); x.raw(tokenStrings(vocab)); }],
  ];
  w.u64(kv.length);
  for (const [key, t, write] of kv) { w.str(key); w.u32(t); write(w); }
  let offset = 0n; let total = 0n; let params = 0n;
  for (const [tname, dims, ttype] of tensors) {
    const [id, block, bytes] = TYPES[ttype];
    const elements = dims.reduce((a, d) => a * BigInt(d), 1n);
    const size = elements / BigInt(block) * BigInt(bytes);
    w.str(tname); w.u32(dims.length); for (const d of dims) w.u64(d); w.u32(id); w.u64(offset);
    offset += (size + 31n) / 32n * 32n; total += size; params += elements;
  }
  const header = w.bytes();
  const dataStart = BigInt(Math.ceil(header.length / 32) * 32);
  const fd = openSync(path, 'w');
  writeSync(fd, header);
  ftruncateSync(fd, Number(dataStart + offset));
  closeSync(fd);
  return { fileSize: Number(dataStart + offset), weightBytes: Number(total), params: Number(params), headerBytes: header.length };
}
