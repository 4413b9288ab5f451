#!/usr/bin/env node
// A tiny static server for the page (node's http, no dependencies): `make serve` and the browser tests use it.
//
//   node web/dev-server.mjs --root build/site [--port 8080]     (--port 0: a free port chosen by the system)
//
// --root is the deployable folder the build writes (build/site, never the CMake tree build/web).
// Binds 127.0.0.1 only, serves files under --root with correct MIME types (application/wasm so that
// WebAssembly.instantiateStreaming works) and the page's Content-Security-Policy as a header, refuses paths that
// leave the root, no directory listings, no dot-files (such as build/site/.attnlab-site, the build's marker).
// Prints "AttnLab: http://localhost:PORT/" once listening.
import { createServer } from 'node:http';
import { createReadStream, statSync } from 'node:fs';
import { extname, join, normalize, resolve, sep } from 'node:path';

const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json; charset=utf-8',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
  '.ttf': 'font/ttf',
  '.ttc': 'font/collection',
  '.otf': 'font/otf',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

// Same policy as the <meta> in web/shell.html, plus what only a header can say (frame-ancestors).
const CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:; " +
  "connect-src 'self' https://huggingface.co https://*.hf.co; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'self'";

function parseArgs(argv) {
  const opts = { root: 'build/site', port: 8080, host: '127.0.0.1', quiet: false };
  for (let i = 2; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--root' && i + 1 < argv.length) opts.root = argv[++i];
    else if (a === '--port' && i + 1 < argv.length) opts.port = Number(argv[++i]);
    else if (a === '--quiet') opts.quiet = true;
    else {
      console.error('usage: node web/dev-server.mjs --root DIR [--port N] [--quiet]');
      process.exit(2);
    }
  }
  if (!Number.isInteger(opts.port) || opts.port < 0 || opts.port > 65535) {
    console.error(`dev-server: bad --port ${opts.port}`);
    process.exit(2);
  }
  return opts;
}

// Tests only: `mock(prefix, handler)` on the returned object answers requests whose path starts with `prefix` by
// handler(req, res) (e.g. a stand-in for Hugging Face that serves a generated checkpoint, slowly or failing);
// the command line never registers one.
export function startServer({ root, port = 0, host = '127.0.0.1', quiet = true } = {}) {
  const base = resolve(root);
  const mocks = new Map();  // path prefix -> handler(req, res)
  const server = createServer((req, res) => {
    const mockPath = (() => { try { return new URL(req.url, 'http://localhost').pathname; } catch { return ''; } })();
    for (const [prefix, handler] of mocks) if (mockPath.startsWith(prefix)) return handler(req, res);
    const send = (status, text) => {
      res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Security-Policy': CSP });
      res.end(text);
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(405, 'method not allowed\n');
    let path;
    try {
      path = decodeURIComponent(new URL(req.url, 'http://localhost').pathname);
    } catch {
      return send(400, 'bad request\n');
    }
    if (path.endsWith('/')) path += 'index.html';
    if (path.split('/').some((part) => part.startsWith('.') && part !== '..')) {  // '..': refused just below
      if (!quiet) console.log(`404 ${req.url}`);
      return send(404, 'not found\n');
    }
    const file = normalize(join(base, path));
    if (file !== base && !file.startsWith(base + sep)) return send(403, 'forbidden\n');
    let stat;
    try {
      stat = statSync(file);
    } catch {
      if (!quiet) console.log(`404 ${req.url}`);
      return send(404, 'not found\n');
    }
    if (!stat.isFile()) return send(404, 'not found\n');
    res.writeHead(200, {
      'Content-Type': MIME[extname(file).toLowerCase()] || 'application/octet-stream',
      'Content-Length': stat.size,
      'Content-Security-Policy': CSP,
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': 'no-cache',
    });
    if (req.method === 'HEAD') return res.end();
    createReadStream(file).pipe(res);
  });
  return new Promise((resolvePromise, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const url = `http://localhost:${server.address().port}/`;
      resolvePromise({ server, url, port: server.address().port, mock: (prefix, handler) => mocks.set(prefix, handler) });
    });
  });
}

const isMain = process.argv[1] && resolve(process.argv[1]) === resolve(new URL(import.meta.url).pathname);
if (isMain) {
  const opts = parseArgs(process.argv);
  try {
    statSync(join(opts.root, 'index.html'));
  } catch {
    console.error(`dev-server: ${join(opts.root, 'index.html')} not found: build the page first (make web)`);
    process.exit(1);
  }
  startServer(opts).then(({ url }) => console.log(`AttnLab: ${url}`), (err) => {
    console.error(`dev-server: ${err.message}`);
    process.exit(1);
  });
}
