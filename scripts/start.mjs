#!/usr/bin/env node
// npm start: builds the package if needed, then serves the playground (www/)
// and the web build (dist/) on localhost. PORT is honoured (default 8080).
//   node scripts/start.mjs [--no-build]
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serveStatic } from './serve.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
if (!process.argv.includes('--no-build')) {
  execFileSync('bash', [join(root, 'scripts', 'setup.sh'), '--no-browser'], { stdio: 'inherit' });
  execFileSync(process.execPath, [join(root, 'scripts', 'build.mjs'), '--if-needed'], { stdio: 'inherit' });
}
const port = Number(process.env.PORT ?? 8080);
const server = createServer(serveStatic({ '/dist/': join(root, 'dist'), '/': join(root, 'www') }));
server.on('error', (e) => {
  console.error(e.code === 'EADDRINUSE' ? `Port ${port} is in use: choose another with PORT, for example PORT=8081 npm start` : e.message);
  process.exit(1);
});
server.listen(port, '127.0.0.1', () => {
  console.log(`applypatch playground: http://localhost:${server.address().port}/`);
});
