// The page state, and its form in the URL hash: `#z=` then the state as JSON,
// UTF-8, compressed (deflate-raw, CompressionStream), base64url. A link
// therefore carries the files and the patch themselves and reproduces the
// page with no server. Links from before compression (`#s=`, the same JSON
// uncompressed) still open.
// No DOM here: tests/js/playground-state.test.mjs runs it in Node.

export const MODES = ['strict', 'codex', 'blocks', 'unified'];
export const VIEWS = ['diff', 'text'];
export const PRESETS = ['compatible', 'safe'];

/**
 * @typedef {{ path: string, text: string }} File
 * @typedef {{ mode: string, files: File[], selected: number, patch: string, view: string, preset: string, repair: boolean }} State
 */

/** A state with every field present and valid (defaults where not). */
export function normalize(s) {
  const files = Array.isArray(s?.files)
    ? s.files.filter((f) => f && typeof f.path === 'string' && typeof f.text === 'string').map((f) => ({ path: f.path, text: f.text }))
    : [];
  if (files.length === 0) files.push({ path: 'file.txt', text: '' });
  const selected = Number.isInteger(s?.selected) && s.selected >= 0 && s.selected < files.length ? s.selected : 0;
  return {
    mode: MODES.includes(s?.mode) ? s.mode : 'strict',
    files,
    selected,
    patch: typeof s?.patch === 'string' ? s.patch : '',
    view: VIEWS.includes(s?.view) ? s.view : 'diff',
    preset: PRESETS.includes(s?.preset) ? s.preset : 'safe',
    repair: s?.repair === true,
  };
}

function toBase64Url(bytes) {
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text) {
  const bin = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
}

async function through(bytes, stream) {
  const out = new Response(new Blob([bytes]).stream().pipeThrough(stream));
  return new Uint8Array(await out.arrayBuffer());
}

function toJson(state) {
  const s = normalize(state);
  const short = { m: s.mode, f: s.files.map((f) => [f.path, f.text]), i: s.selected, p: s.patch, v: s.view, o: s.preset };
  if (s.repair) short.r = 1;
  return JSON.stringify(short);
}

function fromJson(text) {
  const json = JSON.parse(text);
  const files = Array.isArray(json.f) ? json.f.map((f) => (Array.isArray(f) ? { path: f[0], text: f[1] } : null)) : [];
  return normalize({ mode: json.m, files, selected: json.i, patch: json.p, view: json.v, preset: json.o, repair: json.r === 1 });
}

/** The hash (with its '#') for a state: compressed. */
export async function encodeHash(state) {
  const bytes = await through(new TextEncoder().encode(toJson(state)), new CompressionStream('deflate-raw'));
  return `#z=${toBase64Url(bytes)}`;
}

/** The uncompressed hash of the first playground (still read by decodeHash). */
export function encodeHashPlain(state) {
  return `#s=${toBase64Url(new TextEncoder().encode(toJson(state)))}`;
}

/** The state a hash holds (either form), or null when it holds none (or a damaged one). */
export async function decodeHash(hash) {
  const m = /^#?([sz])=([A-Za-z0-9_-]*)$/.exec(hash);
  if (!m) return null;
  try {
    let bytes = fromBase64Url(m[2]);
    if (m[1] === 'z') bytes = await through(bytes, new DecompressionStream('deflate-raw'));
    return fromJson(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    return null;
  }
}
