// The house rules, checked: `node scripts/layers.mjs` (run by npm test).
//
// Engine (src/): builds the file-level graph of every `crate::…`, `super::…`
// and `self::…` path, in `use` lines and in code (test modules left out), and
// fails on
// - any cycle among the files (printed, one per strongly connected set);
// - a module that names something through lib.rs (`crate::Error` instead of
//   `crate::error::Error`): lib.rs is the facade, it stands above every module;
// - the binding (src/wasm/) reaching past the public API: it may name only
//   `crate::…` paths that a user of the crate can name too (lib.rs's
//   re-exports and its `pub mod`s, and the binding's own files).
// - a sort outside src/order.rs (`.sort…(`, `.sort_unstable…(`): every sort
//   goes through crate::order, so that the standard sort is instantiated
//   once for the whole engine (docs/size.md);
// A `mod.rs` that re-exports its children (`pub use child::…`) is a facade of
// its own: those lines are not edges, but a child's name used in its code is.
//
// Wrapper (js/): js/index.ts holds re-exports only.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(root, 'src');
const problems = [];

function rustFiles(dir) {
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...rustFiles(path));
    else if (name.endsWith('.rs')) out.push(path);
  }
  return out;
}

// The module path of a file: src/lib.rs -> [], src/a.rs and src/a/mod.rs -> [a], src/a/b.rs -> [a, b].
function modulePath(file) {
  const parts = relative(src, file).replace(/\.rs$/, '').split('/');
  if (parts.at(-1) === 'lib' && parts.length === 1) return [];
  if (parts.at(-1) === 'mod') parts.pop();
  return parts;
}

// The file of a module path, or undefined when no file holds it.
function moduleFile(path) {
  if (path.length === 0) return join(src, 'lib.rs');
  const base = join(src, ...path);
  if (existsSync(`${base}.rs`)) return `${base}.rs`;
  if (existsSync(join(base, 'mod.rs'))) return join(base, 'mod.rs');
  return undefined;
}

// Source without comments, string and char literals, and test modules.
function code(text) {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    const next = text[i + 1];
    if (c === '/' && next === '/') {
      while (i < text.length && text[i] !== '\n') i++;
    } else if (c === '/' && next === '*') {
      let depth = 0;
      do {
        if (text[i] === '/' && text[i + 1] === '*') {
          depth++;
          i += 2;
        } else if (text[i] === '*' && text[i + 1] === '/') {
          depth--;
          i += 2;
        } else i++;
      } while (depth > 0 && i < text.length);
    } else if (c === 'r' && /^r#*"/.test(text.slice(i, i + 40)) && !/\w/.test(text[i - 1] ?? '')) {
      const hashes = text.slice(i + 1).match(/^#*/)[0];
      const end = text.indexOf(`"${hashes}`, i + 2 + hashes.length);
      i = end < 0 ? text.length : end + 1 + hashes.length;
      out += '""';
    } else if (c === '"') {
      i++;
      while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
      i++;
      out += '""';
    } else if (c === "'" && /^'(\\.[^']*|[^\\'])'/.test(text.slice(i, i + 12))) {
      i = text.indexOf("'", i + 2) + 1;
      out += "' '";
    } else {
      out += c;
      i++;
    }
  }
  // Test modules may use anything: cut `#[cfg(test)] mod NAME { … }`.
  for (;;) {
    const m = /#\[cfg\((all\()?test\b[^\]]*\]\s*mod\s+\w+\s*\{/.exec(out);
    if (!m) break;
    let depth = 0;
    let j = m.index + m[0].length - 1;
    for (; j < out.length; j++) {
      if (out[j] === '{') depth++;
      else if (out[j] === '}' && --depth === 0) break;
    }
    out = out.slice(0, m.index) + out.slice(j + 1);
  }
  return out;
}

// Expands a use tree (`a::{b, c::{d, e}}`) into its paths.
// An alias is kept as `path@alias`.
function expand(tree) {
  tree = tree.replace(/(\w+)\s+as\s+(\w+)/g, '$1@$2').replace(/\s+/g, '');
  const brace = tree.indexOf('{');
  if (brace < 0) return [tree];
  const head = tree.slice(0, brace);
  const inner = tree.slice(brace + 1, tree.lastIndexOf('}'));
  const items = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i <= inner.length; i++) {
    const c = inner[i];
    if (c === '{') depth++;
    else if (c === '}') depth--;
    else if ((c === ',' || i === inner.length) && depth === 0) {
      if (i > start) items.push(inner.slice(start, i));
      start = i + 1;
    }
  }
  return items.flatMap((item) => expand(item).map((p) => (item === 'self' ? head.replace(/::$/, '') : head + p)));
}

// The code of each file, read once.
const texts = new Map();
function textOf(file) {
  if (!texts.has(file)) texts.set(file, code(readFileSync(file, 'utf8')));
  return texts.get(file);
}

// The names a file re-exports (`pub use path::{a, b as c}`): name -> path.
function reexports(file) {
  const out = new Map();
  for (const m of textOf(file).matchAll(/\bpub(\([\w:]+\))?\s+use\s+([^;]+);/g)) {
    for (const p of expand(m[2])) {
      const [path, alias] = p.split('@');
      const name = alias ?? path.split('::').at(-1);
      if (!out.has(name) || !m[1]) out.set(name, { path, pub: !m[1] });
    }
  }
  return out;
}

// Resolves a path (segments) from module `from` to [file, rest, module]: the
// deepest file the path names (following a facade's re-exports to the file
// that defines the name), and the segments left after it.
function resolve(from, segments, depth = 0) {
  let mod = from;
  let i = 0;
  if (segments[0] === 'crate') {
    mod = [];
    i = 1;
  } else if (segments[0] === 'self') i = 1;
  while (segments[i] === 'super') {
    mod = mod.slice(0, -1);
    i++;
  }
  while (i < segments.length && moduleFile([...mod, segments[i]])) mod = [...mod, segments[i++]];
  const file = moduleFile(mod);
  const via = i < segments.length && depth < 8 ? reexports(file).get(segments[i])?.path : undefined;
  if (via) {
    const target = via.split('::');
    const start = ['crate', 'super', 'self'].includes(target[0]) ? target : ['self', ...target];
    const [f, rest, m] = resolve(mod, [...start, ...segments.slice(i + 1)], depth + 1);
    if (f) return [f, rest, m, file];
  }
  return [file, segments.slice(i), mod, file];
}

// `segments` as a path from the crate root.
function resolveCrate(from, segments) {
  let mod = from;
  let i = 0;
  if (segments[0] === 'crate') return segments;
  if (segments[0] === 'self') i = 1;
  while (segments[i] === 'super') {
    mod = mod.slice(0, -1);
    i++;
  }
  return ['crate', ...mod, ...segments.slice(i)];
}

// Whether a user of the crate can name `segments` (a `crate::…` path): every
// module on the way is a `pub mod`, and the item is `pub` (or `pub use`d).
function isPublic(segments) {
  let mod = [];
  let i = 1;
  while (i < segments.length && moduleFile([...mod, segments[i]])) {
    if (i === segments.length - 1 && reexports(moduleFile(mod)).get(segments[i])?.pub) break;
    const declared = new RegExp(`(^|\\n)\\s*pub mod ${segments[i]}\\s*;`).test(textOf(moduleFile(mod)));
    if (!declared) return false;
    mod = [...mod, segments[i++]];
  }
  if (i >= segments.length) return true;
  const name = segments[i];
  const file = moduleFile(mod);
  if (reexports(file).has(name)) return reexports(file).get(name).pub;
  return new RegExp(`(^|\\n)\\s*pub (const |async |unsafe )*(fn|struct|enum|const|static|type|trait|mod) ${name}\\b`).test(textOf(file));
}

const files = rustFiles(src);
const graph = new Map(files.map((f) => [f, new Set()]));
const lib = join(src, 'lib.rs');

for (const file of files) {
  const from = modulePath(file);
  const text = textOf(file);
  if (file !== join(src, 'order.rs')) {
    for (const m of text.matchAll(/\.(sort(?:_unstable)?(?:_by(?:_key|_cached_key)?)?)\s*\(/g)) {
      problems.push(
        `${relative(root, file)}: \`.${m[1]}(\` sorts outside src/order.rs; use crate::order (one sort instantiation for the engine)`,
      );
    }
  }
  const isFacade = file === lib || file.endsWith('/mod.rs');
  const children = new Set(
    [...text.matchAll(/^\s*(?:pub(?:\([\w:]+\))?\s+)?mod\s+(\w+)\s*;/gm)].map((m) => m[1]).filter((c) => moduleFile([...from, c])),
  );
  const paths = [];
  let rest = text;
  for (const m of text.matchAll(/\b(pub(?:\([\w:]+\))?\s+)?use\s+([^;]+);/g)) {
    const reexport = Boolean(m[1]);
    for (const p of expand(m[2]).map((x) => x.replace(/@\w+$/, ''))) {
      const first = p.split('::')[0];
      if (['crate', 'super', 'self'].includes(first)) paths.push(p);
      else if (isFacade && children.has(first) && !reexport) paths.push(`self::${p}`);
    }
    rest = rest.replace(m[0], '');
  }
  for (const m of rest.matchAll(/(?<![\w:])((?:crate|super|self)(?:::\w+)+)/g)) paths.push(m[1]);
  if (isFacade) {
    for (const m of rest.matchAll(/(?<![\w:.])(\w+)::\w/g)) if (children.has(m[1])) paths.push(`self::${m[1]}::x`);
  }
  const isBinding = from[0] === 'wasm';
  for (const p of paths) {
    const segments = p.split('::').filter((s) => s !== '*');
    const [target, , mod, named] = resolve(from, segments);
    if (!target) continue;
    if (named === lib && file !== lib && !isBinding && segments.length > 1) {
      problems.push(`${relative(root, file)}: \`${p}\` names \`${segments[1]}\` through lib.rs; use its own module's path`);
    }
    if (isBinding && mod[0] !== 'wasm' && !isPublic(resolveCrate(from, segments))) {
      problems.push(`${relative(root, file)}: \`${p}\` is not the crate's public API (the binding uses only what users can name)`);
    }
    if (target !== file) graph.get(file).add(target);
  }
}

// Strongly connected sets (Tarjan).
let counter = 0;
const index = new Map();
const low = new Map();
const stack = [];
const onStack = new Set();
function connect(v) {
  index.set(v, counter);
  low.set(v, counter++);
  stack.push(v);
  onStack.add(v);
  for (const w of graph.get(v)) {
    if (!index.has(w)) {
      connect(w);
      low.set(v, Math.min(low.get(v), low.get(w)));
    } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
  }
  if (low.get(v) === index.get(v)) {
    const set = [];
    let w;
    do {
      w = stack.pop();
      onStack.delete(w);
      set.push(w);
    } while (w !== v);
    if (set.length > 1) {
      // One cycle through the set, for the message.
      const inSet = new Set(set);
      const path = [set.at(-1)];
      const seen = new Set(path);
      for (;;) {
        const next = [...graph.get(path.at(-1))].find((x) => inSet.has(x));
        if (seen.has(next)) {
          path.push(next);
          path.splice(0, path.indexOf(next));
          break;
        }
        path.push(next);
        seen.add(next);
      }
      problems.push(
        `cycle among ${set.length} files: ${path.map((f) => relative(src, f)).join(' -> ')} (set: ${set
          .map((f) => relative(src, f))
          .sort()
          .join(', ')})`,
      );
    }
  }
}
for (const v of graph.keys()) if (!index.has(v)) connect(v);

// js/index.ts: re-exports only.
const indexTs = readFileSync(join(root, 'js/index.ts'), 'utf8')
  .replace(/\/\/[^\n]*/g, '')
  .replace(/\/\*[\s\S]*?\*\//g, '');
for (const statement of indexTs.split(/;\s*/).map((s) => s.trim())) {
  if (statement && !/^export\s+(type\s+)?(\{[\s\S]*\}|\*(\s+as\s+\w+)?)\s+from\s+'[^']+'$/.test(statement)) {
    problems.push(`js/index.ts holds only re-exports, not: ${statement.slice(0, 80)}`);
  }
}

if (process.argv.includes('--graph')) {
  for (const [f, to] of graph) console.log(`${relative(src, f)} -> ${[...to].map((t) => relative(src, t)).join(', ')}`);
}
if (problems.length > 0) {
  console.error(`layers: ${problems.length} problem(s)\n${problems.map((p) => `  ${p}`).join('\n')}`);
  process.exit(1);
}
console.log(`layers: ${files.length} files, ${[...graph.values()].reduce((n, s) => n + s.size, 0)} edges, no cycle`);
