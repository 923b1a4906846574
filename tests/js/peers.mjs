// Runs one transcribed case of a peer's test suite (tests/fixtures/peers/)
// through the package, in the mode or preset that matches the peer, and says
// what applypatch gives: { output } (the new text), { files } (a file map),
// { edits } (parsed blocks), { valid: true } (blocks without a problem),
// { path } (the file a block went to) or { fails: code } (an error code or a
// failure reason). Edit blocks run with every repair allowed (the peers
// strip read-tool line numbers and map file names).
import { apply, applyBlocks, applyEdits, applyFiles, createFile, PatchError, parseBlocks } from 'applypatch';

function thrown(f) {
  try {
    return f();
  } catch (e) {
    if (e instanceof PatchError) return { fails: e.code };
    throw e;
  }
}

/** The edits of a model's message; a message with a problem, or no block, fails. */
function blocksOf(text) {
  const { edits, problems } = parseBlocks(text, { detailed: true });
  if (problems.length > 0) return { fails: 'invalid-blocks' };
  if (edits.length === 0) return { fails: 'no-blocks' };
  return { edits };
}

function edited(input, edits) {
  const r = applyEdits(input, edits, { repair: true });
  if (r.ok) return { output: r.text };
  return { fails: r.results.at(-1)?.reason ?? 'not-found' };
}

/** aider's block texts keep their last line's newline; applypatch's do not. */
const aiderText = (s) => (s === '' ? '' : `${s}\n`);

export function runPeerCase(c) {
  switch (c.kind) {
    case 'blocks': {
      const parsed = blocksOf(c.blocks);
      return parsed.fails ? parsed : edited(c.input, parsed.edits);
    }
    case 'edits':
      return edited(c.input, c.edits);
    case 'validate':
      return parseBlocks(c.blocks, { detailed: true }).problems.length > 0 ? { fails: 'invalid-blocks' } : { valid: true };
    case 'filename': {
      // The lines before one block, over a map of the peer's file names.
      const message = `${c.lines.join('\n')}\n<<<<<<< SEARCH\nold\n=======\nnew\n>>>>>>> REPLACE\n`;
      const r = applyBlocks(Object.fromEntries(c.files.map((f) => [f, 'old\n'])), message, { repair: true });
      return r.results.length > 0 ? { path: r.results[0].path } : { fails: 'no-blocks' };
    }
    case 'parse': {
      const parsed = blocksOf(c.blocks);
      if (parsed.fails) return parsed;
      if (parsed.edits.some((e) => e.path === undefined)) return { fails: 'no-path' };
      return { edits: parsed.edits.map((e) => ({ path: e.path, search: aiderText(e.search), replace: aiderText(e.replace) })) };
    }
    case 'v4a':
      return thrown(() => ({ output: apply(c.input, c.diff) }));
    case 'create':
      return thrown(() => ({ output: createFile(c.diff) }));
    case 'patch':
      return thrown(() => ({ files: applyFiles(c.input, c.patch, { mode: 'codex' }) }));
    default:
      throw new Error(`unknown case kind ${c.kind}`);
  }
}

/**
 * Whether applypatch's result is the peer's: the same text, files or edits,
 * or both fail; a peer that asserts only parts of the text (`contains`,
 * `excludes`) agrees with a text that has them (and the text, when given).
 */
export function agrees(peer, ours) {
  if (peer.fails) return ours.fails !== undefined;
  if (ours.fails !== undefined) return false;
  if (peer.contains !== undefined || peer.excludes !== undefined) {
    const text = ours.output;
    if (typeof text !== 'string') return false;
    if (peer.output !== undefined && text !== peer.output) return false;
    return (peer.contains ?? []).every((s) => text.includes(s)) && !(peer.excludes ?? []).some((s) => text.includes(s));
  }
  return JSON.stringify(ours) === JSON.stringify(peer);
}
