#!/usr/bin/env node
// npm start: builds the package if needed, bundles the playground (www/app.js
// with CodeMirror and the package, by esbuild: rebuilt when www/ changes) and
// serves it, with the web build (dist/), on localhost. PORT is honoured
// (default 8080).
//   node scripts/start.mjs [--no-build]
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serveStatic } from './serve.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
if (!process.argv.includes('--no-build')) {
  execFileSync('bash', [join(root, 'scripts', 'setup.sh'), '--no-browser'], { stdio: 'inherit' });
  execFileSync(process.execPath, [join(root, 'scripts', 'build.mjs'), '--if-needed'], { stdio: 'inherit' });
}
const { devBundler } = await import('./playground.mjs');
const cache = join(root, '.cache', 'playground');
mkdirSync(cache, { recursive: true });
const bundler = await devBundler(join(cache, 'app.js'));
const bundle = serveStatic({ '/': cache });
const files = serveStatic({ '/dist/': join(root, 'dist'), '/': join(root, 'www') });

const port = Number(process.env.PORT ?? 8080);
const server = createServer(async (req, res) => {
  const path = new URL(req.url, 'http://localhost').pathname;
  if (path === '/app.js' || path === '/app.js.map') {
    try {
      await bundler.fresh();
    } catch (e) {
      res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' }).end(`The playground does not bundle: ${e.message}`);
      return;
    }
    bundle(req, res);
  } else files(req, res);
});
server.on('error', (e) => {
  console.error(e.code === 'EADDRINUSE' ? `Port ${port} is in use: choose another with PORT, for example PORT=8081 npm start` : e.message);
  process.exit(1);
});
server.listen(port, '127.0.0.1', () => {
  console.log(`applypatch playground: http://localhost:${server.address().port}/`);
});
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, async () => {
    server.close();
    await bundler.dispose();
    process.exit(0);
  });
}
