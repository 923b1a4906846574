// The playground's bundle: www/app.js with CodeMirror and the package
// (dist/browser.mjs, with the engine's bytes), by esbuild (a root
// devDependency). Used by `npm start` (scripts/start.mjs, rebuilt when a file
// in www/ changes) and `npm run site` (scripts/site.mjs, minified).
import { readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const www = join(root, 'www');

const options = (outfile, minify) => ({
  entryPoints: [join(www, 'app.js')],
  bundle: true,
  format: 'esm',
  target: 'es2022',
  minify,
  sourcemap: minify ? false : 'linked',
  outfile,
  logLevel: 'warning',
  metafile: true,
});

/** Writes the minified bundle to `outfile`; returns its size in bytes. */
export async function bundlePlayground(outfile) {
  await esbuild.build(options(outfile, true));
  return statSync(outfile).size;
}

/** The newest modification time among www/'s files and dist/browser.mjs. */
function newest() {
  let t = 0;
  for (const f of readdirSync(www)) t = Math.max(t, statSync(join(www, f)).mtimeMs);
  try {
    t = Math.max(t, statSync(join(root, 'dist', 'browser.mjs')).mtimeMs);
  } catch {}
  return t;
}

/**
 * A bundler for the development server: `fresh()` rebuilds `outfile` when
 * something in www/ (or the package build) changed since the last build.
 */
export async function devBundler(outfile) {
  const ctx = await esbuild.context(options(outfile, false));
  let built = -1;
  let pending = null;
  async function fresh() {
    const t = newest();
    if (t === built) return;
    pending ??= ctx.rebuild().finally(() => {
      pending = null;
    });
    await pending;
    built = t;
  }
  fresh().catch(() => {}); // started now; a request waits for it (and sees its error)
  return { fresh, dispose: () => ctx.dispose() };
}
