// A local stand-in for the Hugging Face Hub, over HTTPS with a self-signed certificate: the API's
// repository description, `resolve` downloads (a 302 to a `*.hf.co` CDN host for GGUF files),
// Range requests, CORS, 401 for a gated repository and 404. Chromium reaches it under the real
// host names through --host-resolver-rules (see launchWithHub), so the page's real URLs and its
// shipped Content-Security-Policy are what the tests exercise.
import { createServer } from 'node:https';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, openSync, readSync, closeSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launch } from './harness.mjs';

/** A self-signed certificate for huggingface.co and *.hf.co (openssl). */
function certificate() {
  const dir = mkdtempSync(join(tmpdir(), 'tokbound-hub-'));
  const key = join(dir, 'key.pem'); const cert = join(dir, 'cert.pem');
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', '/CN=huggingface.co',
    '-addext', 'subjectAltName=DNS:huggingface.co,DNS:*.hf.co,DNS:hf.co', '-keyout', key, '-out', cert], { stdio: 'ignore' });
  return { key: readFileSync(key), cert: readFileSync(cert) };
}

/**
 * Serves `repos`: { 'org/name': { files: { path: localFile or text }, gated?: true } }.
 * Returns { port, requests: [{ method, host, path, range }], close }.
 */
export async function fakeHub(repos) {
  const requests = [];
  const cors = { 'access-control-allow-origin': '*', 'access-control-expose-headers': 'Content-Range, Accept-Ranges, X-Linked-Size' };
  const server = createServer(certificate(), (req, res) => {
    const url = new URL(req.url, `https://${req.headers.host}`);
    requests.push({ method: req.method, host: req.headers.host, path: url.pathname, range: req.headers.range ?? null });
    if (req.method === 'OPTIONS') { res.writeHead(204, { ...cors, 'access-control-allow-headers': '*' }); res.end(); return; }
    const send = (status, body, headers = {}) => { res.writeHead(status, { ...cors, ...headers }); res.end(body); };
    const api = url.pathname.match(/^\/api\/models\/([^/]+\/[^/]+)\/revision\/([^/]+)$/);
    if (api) {
      const repo = repos[api[1]];
      if (!repo) return send(404, '{"error":"Repository not found"}');
      if (repo.gated) return send(401, '{"error":"Access to this model is restricted"}');
      return send(200, JSON.stringify({ id: api[1], siblings: Object.keys(repo.files).map((rfilename) => ({ rfilename })) }), { 'content-type': 'application/json' });
    }
    const resolve = url.pathname.match(/^\/([^/]+\/[^/]+)\/resolve\/([^/]+)\/(.+)$/);
    if (resolve && req.headers.host.startsWith('huggingface.co')) {
      const repo = repos[resolve[1]];
      if (!repo) return send(404, 'Repository not found');
      if (repo.gated) return send(401, 'Access to this model is restricted');
      const file = repo.files[resolve[3]];
      if (file === undefined) return send(404, 'Entry not found');
      if (resolve[3].endsWith('.gguf')) {
        // Large files: a redirect to the CDN, as the Hub does.
        return send(302, '', { location: `https://cdn-lfs.hf.co/${resolve[1]}/${resolve[3]}` });
      }
      return send(200, typeof file === 'string' ? file : readFileSync(file.path));
    }
    if (req.headers.host.startsWith('cdn-lfs.hf.co')) {
      const [org, name, ...rest] = url.pathname.slice(1).split('/');
      const file = repos[`${org}/${name}`]?.files[rest.join('/')];
      if (!file?.path) return send(404, 'not found');
      const size = statSync(file.path).size;
      const m = /^bytes=(\d+)-(\d+)$/.exec(req.headers.range ?? '');
      if (!m) return send(200, readFileSync(file.path)); // never asked for by the page
      const start = Number(m[1]); const end = Math.min(Number(m[2]), size - 1);
      const buf = Buffer.alloc(end - start + 1);
      const fd = openSync(file.path, 'r'); readSync(fd, buf, 0, buf.length, start); closeSync(fd);
      return send(206, buf, { 'content-range': `bytes ${start}-${end}/${size}`, 'accept-ranges': 'bytes' });
    }
    send(404, 'not found');
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  return { port: server.address().port, requests, close: () => new Promise((ok) => server.close(ok)) };
}

/** Headless Chromium resolving huggingface.co and *.hf.co to the fake Hub. */
export function launchWithHub(port) {
  return launch([
    `--host-resolver-rules=MAP huggingface.co 127.0.0.1:${port}, MAP *.hf.co 127.0.0.1:${port}`,
    '--ignore-certificate-errors',
  ]);
}
