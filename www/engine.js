// Runs the applypatch package on the page state and describes the outcome for
// the view: resulting files, error locations, edit-block strategies. No DOM
// here. The package is passed in, and what it can do is found out by feature
// detection, so the page keeps working (with a clear message) on a build that
// lacks an engine. Everything about the formats comes from the package's
// public exports (detectFormat, applyPatch, applyBlocks): no parsing here.

export const MODE_NAMES = { strict: 'Strict', codex: 'Codex', blocks: 'Edit blocks', unified: 'Unified diff' };

/** What this build of the package can do. */
export function detect(ap) {
  const has = (name) => typeof ap[name] === 'function';
  // Codex mode: `apply` accepts { mode: 'codex' } (a build without it throws
  // a TypeError naming the allowed modes).
  let codexMode = false;
  if (has('apply')) {
    try {
      ap.apply('x\n', ' x\n', { mode: 'codex' });
      codexMode = true;
    } catch (e) {
      codexMode = !(e instanceof TypeError);
    }
  }
  return {
    strict: has('apply'),
    files: has('applyPatch'),
    detectFormat: has('detectFormat'),
    codex: codexMode && has('applyPatch'),
    blocks: has('parseBlocks') && has('applyBlocks'),
    unified: has('applyUnified') && has('parseUnified'),
  };
}

/** Whether the modes can run in this build (for the mode switch). */
export function modesAvailable(features) {
  return { strict: features.strict, codex: features.codex, blocks: features.blocks, unified: features.unified === true };
}

/**
 * 'files' for a `*** Begin Patch` patch, 'blocks' in Edit blocks mode,
 * 'unified' in Unified diff mode (and for a unified diff in Strict mode),
 * else 'diff' (one V4A diff): the package's detectFormat decides.
 */
export function patchKind(ap, mode, patch) {
  if (mode === 'blocks') return 'blocks';
  if (mode === 'unified') return 'unified';
  const format = typeof ap.detectFormat === 'function' ? ap.detectFormat(patch) : 'diff';
  if (format === 'unified' && mode === 'strict') return 'unified';
  return format === 'patch' ? 'files' : 'diff';
}

function unavailable(features, mode, kind) {
  if (mode === 'codex' && !features.codex) {
    return 'Codex mode is not available in this build of applypatch: it needs applyPatch and apply(…, { mode: "codex" }).';
  }
  if (mode === 'blocks' && !features.blocks) {
    return 'Edit blocks are not available in this build of applypatch: it needs parseBlocks and applyBlocks.';
  }
  if (mode === 'unified' && !features.unified) {
    return 'Unified diffs are not available in this build of applypatch: it needs applyUnified and parseUnified.';
  }
  if (kind === 'files' && !features.files) {
    return 'Patches over several files (*** Begin Patch) are not available in this build of applypatch: it needs applyPatch. A single V4A diff works: it applies to the selected input file.';
  }
  return null;
}

/**
 * @param ap the package's exports
 * @param features detect(ap)
 * @param state { mode, files: [{path, text}], selected, patch, preset, repair }
 * @returns {{ status: 'ok' | 'error' | 'unavailable', mode, kind, files?, summary?, blocks?, notes?, error?, message?, ms? }}
 *   files: [{ path, before, after, status: 'modified' | 'unchanged' | 'added' | 'deleted' | 'moved', from? }]
 *   error: { code, message, diffLine?, patchLines?: [first, last], inputLines?, path?, nearest? }
 */
export function run(ap, features, state) {
  const kind = patchKind(ap, state.mode, state.patch);
  const format = typeof ap.detectFormat === 'function' ? ap.detectFormat(state.patch) : undefined;
  const base = { mode: state.mode, kind, format };
  const why = unavailable(features, state.mode, kind);
  if (why) return { ...base, status: 'unavailable', message: why };
  const t0 = performance.now();
  try {
    const out =
      kind === 'diff'
        ? runDiff(ap, state)
        : kind === 'files'
          ? runFiles(ap, state)
          : kind === 'unified'
            ? runUnified(ap, state)
            : runBlocks(ap, state);
    return { ...base, ms: performance.now() - t0, ...out };
  } catch (e) {
    return { ...base, status: 'error', error: describeError(ap, e, state, kind) };
  }
}

export function describeError(ap, e, state, kind) {
  if (e === null || typeof e !== 'object') return { code: 'error', message: String(e) };
  const err = {
    code: typeof e.code === 'string' ? e.code : (e.name ?? 'error'),
    message: String(e.message ?? e),
  };
  if (Number.isInteger(e.diffLine)) err.diffLine = e.diffLine;
  if (Array.isArray(e.patchLines)) {
    err.patchLines = e.patchLines;
    err.diffLine ??= e.patchLines[0];
  }
  if (Array.isArray(e.inputLines)) err.inputLines = e.inputLines;
  if (e.nearest && Number.isInteger(e.nearest.line)) err.nearest = e.nearest;
  // Which input file the input lines are in: the error names it for a
  // multi-file patch; a single diff applies to the selected file.
  if (typeof e.path === 'string') err.path = e.path;
  else if (kind === 'diff') err.path = state.files[state.selected]?.path;
  const format = kind === 'diff' && typeof ap.detectFormat === 'function' ? ap.detectFormat(state.patch) : undefined;
  if (format === 'blocks') err.hint = 'This looks like SEARCH/REPLACE edit blocks: choose the Edit blocks mode.';
  if (format === 'unified') err.hint = 'This is a unified diff: choose the Strict or Unified diff mode.';
  return err;
}

/**
 * The repair options for a call: Strict mode with the Repair box ticked
 * forgives the engine's reported slips; each repair becomes a note.
 */
function repairing(state, notes) {
  if (state.mode !== 'strict' || !state.repair) return {};
  return {
    repair: true,
    onRepair: (r) => {
      const where = [r.path, r.diffLine ? `patch line ${r.diffLine}` : '', r.inputLine ? `input line ${r.inputLine}` : '']
        .filter(Boolean)
        .join(', ');
      notes.push(`Repaired (${r.kind}${where ? `, ${where}` : ''}): ${r.message}`);
    },
  };
}

function runDiff(ap, state) {
  const { mode, files, selected, patch } = state;
  const file = files[selected];
  const notes = [];
  const after = ap.apply(file.text, patch, { mode, ...repairing(state, notes) });
  return {
    status: 'ok',
    notes,
    files: [{ path: file.path, before: file.text, after, status: after === file.text ? 'unchanged' : 'modified' }],
  };
}

function runFiles(ap, state) {
  const { mode, files, patch } = state;
  const input = new Map(files.map((f) => [f.path, f.text]));
  const notes = [];
  // One call: the new files, what changed (with moves) and Codex's summary.
  const { files: out, changes, summary } = ap.applyPatch(input, patch, { mode, ...repairing(state, notes) });
  if (input.size < files.length) notes.push('Two input files have the same path: the last one is used.');

  // Moves, as the engine reports them: shown as one entry at the new path.
  const status = new Map(changes.map((c) => [c.path, c.status]));
  const moves = new Map(); // from -> to
  for (const c of changes) {
    if (c.movedFrom !== undefined && c.status !== 'deleted' && status.get(c.movedFrom) === 'deleted') moves.set(c.movedFrom, c.path);
  }
  const moveTargets = new Set(moves.values());

  const list = [];
  for (const [path, before] of input) {
    if (moveTargets.has(path)) continue; // replaced by a moved file: listed with the move
    if (moves.has(path)) {
      const to = moves.get(path);
      list.push({ path: to, from: path, before, after: out.get(to), status: 'moved' });
    } else if (out.has(path)) {
      const after = out.get(path);
      list.push({ path, before, after, status: after === before ? 'unchanged' : 'modified' });
    } else {
      list.push({ path, before, after: null, status: 'deleted' });
    }
  }
  for (const [path, after] of out) {
    if (!input.has(path) && !moveTargets.has(path)) list.push({ path, before: null, after, status: 'added' });
  }
  return { status: 'ok', files: list, summary, notes };
}

/**
 * A unified diff over the input files, in Strict mode, from one call (one
 * parse): the resulting files, renames shown as moves, and each hunk that
 * applied away from its stated line.
 */
function runUnified(ap, { files, patch }) {
  const input = new Map(files.map((f) => [f.path, f.text]));
  return unifiedView(input, ap.applyUnified(input, patch, { report: true }));
}

/** What the page shows of applyUnified's report over the input files. */
function unifiedView(input, report) {
  const out = report.files;
  const notes = [];
  for (const h of report.hunks) {
    if (h.offset !== 0)
      notes.push(
        `${h.path}: hunk ${h.hunk} applied at line ${h.line}, ${Math.abs(h.offset)} line${Math.abs(h.offset) === 1 ? '' : 's'} ${h.offset > 0 ? 'below' : 'above'} where its header says (${h.statedLine}).`,
      );
  }
  for (const m of report.modes) notes.push(`${m.path}: mode ${m.mode}.`);
  // Renames, as the engine reports them from the same parse: shown as one entry at the new path.
  const moves = new Map();
  for (const c of report.changes ?? []) {
    if (c.movedFrom !== undefined && input.has(c.movedFrom) && !out.has(c.movedFrom)) moves.set(c.movedFrom, c.path);
  }
  const moveTargets = new Set(moves.values());
  const list = [];
  for (const [path, before] of input) {
    if (moveTargets.has(path)) continue;
    if (moves.has(path)) list.push({ path: moves.get(path), from: path, before, after: out.get(moves.get(path)), status: 'moved' });
    else if (out.has(path)) {
      const after = out.get(path);
      list.push({ path, before, after, status: after === before ? 'unchanged' : 'modified' });
    } else list.push({ path, before, after: null, status: 'deleted' });
  }
  for (const [path, after] of out) {
    if (!input.has(path) && !moveTargets.has(path)) list.push({ path, before: null, after, status: 'added' });
  }
  return { status: 'ok', files: list, summary: null, notes };
}

function runBlocks(ap, state) {
  const parsed = ap.parseBlocks(state.patch, { detailed: true });
  if (parsed.edits.length === 0 || parsed.problems.length > 0) return noBlocks(parsed.problems);
  // Each block goes to the file it names, or to the selected file: the package routes them, all or nothing.
  const input = new Map(state.files.map((f) => [f.path, f.text]));
  return blocksView(state, parsed, ap.applyBlocks(input, state.patch, blockOptions(state)));
}

/** applyBlocks' options for the page's state: the preset, and the selected file for blocks that name none. */
function blockOptions({ files, selected, preset }) {
  return { preset: preset === 'compatible' ? 'compatible' : 'safe', path: files[selected].path };
}

/** A message with no block, or a malformed one: applyBlocks applies nothing, and the problems say why. */
function noBlocks(problems = []) {
  const first = problems[0];
  return {
    status: 'error',
    problems,
    error: {
      code: 'no_blocks',
      message: first
        ? problems.map((p) => `Patch line ${p.line}: ${p.message}`).join('\n')
        : 'No SEARCH/REPLACE blocks found. A block is:\n<<<<<<< SEARCH\nlines to find\n=======\nlines to put there\n>>>>>>> REPLACE',
      ...(first ? { diffLine: first.line } : {}),
    },
  };
}

/**
 * What the page shows of applyBlocks' result `r` for the message `parsed`
 * (parseBlocks' edits, for the blocks not tried): each block, and the
 * first that failed as the error, or the files.
 */
function blocksView({ files, selected }, parsed, r) {
  const { edits = [], problems = [] } = parsed;
  const notes = problems.map((p) => `Patch line ${p.line}: ${p.message}`);
  const input = new Map(files.map((f) => [f.path, f.text]));
  const path = files[selected].path;
  const blocks = edits.map((edit, i) => {
    const res = r.results[i];
    if (res === undefined) return { n: i + 1, path: edit.path ?? path, lines: [edit.line, edit.line], ok: null }; // not tried
    return {
      n: i + 1,
      path: res.path,
      lines: [res.line, res.endMarkerLine],
      ok: res.ok,
      strategy: res.strategy,
      similarity: res.similarity,
      matches: res.matches,
      detail: res,
    };
  });
  const failed = blocks.find((b) => b.ok === false);
  if (failed) {
    const d = failed.detail;
    const closest = d.similarity > 0 ? ` The closest text is ${Math.round(d.similarity * 100)}% similar.` : '';
    return {
      status: 'error',
      blocks,
      notes,
      error: {
        code: 'no_match',
        message:
          d.message ??
          `Block ${failed.n} (patch lines ${failed.lines[0]}-${failed.lines[1]}) does not match ${failed.path}: its SEARCH text was not found${d.matches > 1 ? ' exactly once' : ''}.${closest}`,
        diffLine: failed.lines[0],
        patchLines: failed.lines,
        path: failed.path,
        ...(Number.isInteger(d.nearest?.line) ? { nearest: d.nearest } : {}),
        // applyEdit's closest place: lines startLine..endLine, the differing file lines marked as errors.
        ...(Number.isInteger(d.nearest?.startLine)
          ? {
              nearest: { line: d.nearest.startLine, text: d.nearest.text, similarity: d.nearest.similarity },
              inputLines: (d.nearest.differences ?? []).map((x) => x.fileLine).filter(Number.isInteger),
            }
          : {}),
      },
    };
  }
  const list = files.map((f) => {
    const after = r.files.get(f.path);
    return { path: f.path, before: f.text, after, status: after === f.text ? 'unchanged' : 'modified' };
  });
  for (const [p, after] of r.files) if (!input.has(p)) list.push({ path: p, before: null, after, status: 'added' });
  return { status: 'ok', files: list, blocks, notes };
}

// ---- replay as a stream (createPatchStream) ----------------------------------------

/** Why the patch cannot be replayed as a stream here, or null when it can. */
export function replayBlocked(ap, features, state) {
  if (typeof ap.createPatchStream !== 'function') return 'This build of applypatch has no createPatchStream: replay is not available';
  const kind = patchKind(ap, state.mode, state.patch);
  const why = unavailable(features, state.mode, kind);
  if (why) return why;
  // (A unified diff is applied without repairs in every mode.)
  if (state.mode === 'strict' && state.repair && kind !== 'unified') return 'The stream does not take Repair yet: untick Repair to replay';
  return null;
}

/**
 * A stream over the page's input, as the one-shot call of run() would apply
 * the patch: a V4A diff over the selected file; a patch, a unified diff or
 * edit blocks over the file map.
 * @returns {{ kind: 'diff' | 'files' | 'unified' | 'blocks', input: Map<string, string>, path?: string, stream }}
 */
export function openStream(ap, state) {
  const kind = patchKind(ap, state.mode, state.patch);
  const { mode, files, selected } = state;
  if (kind === 'diff') {
    const file = files[selected];
    return { kind, input: new Map([[file.path, file.text]]), path: file.path, stream: ap.createPatchStream(file.text, { mode }) };
  }
  const input = new Map(files.map((f) => [f.path, f.text]));
  const options =
    kind === 'files'
      ? { mode, format: 'patch' }
      : kind === 'unified'
        ? { format: 'unified', report: true } // end(): the report run() shows
        : { ...blockOptions(state), format: 'blocks' };
  return { kind, input, stream: ap.createPatchStream(input, options) };
}

/**
 * The result the page shows at the end of a replay, from the stream's end()
 * (`out`), as run() shows the one-shot call's: the files, and for edit
 * blocks each block (or the one that failed), for a unified diff its moves.
 */
export function replayResult(ap, state, opened, out) {
  const base = { mode: state.mode, kind: opened.kind, ms: 0 };
  if (opened.kind === 'blocks') {
    const parsed = ap.parseBlocks(state.patch, { detailed: true });
    return {
      ...base,
      ...(out.problems?.length > 0 || parsed.edits.length === 0 ? noBlocks(out.problems) : blocksView(state, parsed, out)),
    };
  }
  if (opened.kind === 'unified') return { ...base, ...unifiedView(opened.input, out) };
  return { ...base, status: 'ok', files: streamFiles(opened, out), notes: [] };
}

/**
 * The result the page shows when a replay stops at an error: a PatchError
 * (an error event, or thrown) as a failed apply shows it, or an edit-block
 * error event's result (applyBlocks on the message `pushed` so far).
 */
export function replayFailure(ap, state, opened, failure, pushed) {
  const base = { mode: state.mode, kind: opened.kind };
  if (opened.kind === 'blocks' && failure !== null && typeof failure === 'object' && Array.isArray(failure.results)) {
    if (failure.problems?.length > 0) return { ...base, ...noBlocks(failure.problems) };
    return { ...base, ...blocksView(state, { edits: ap.parseBlocks(pushed, { detailed: true }).edits }, failure) };
  }
  return { ...base, status: 'error', error: describeError(ap, failure, state, opened.kind) };
}

/**
 * The output files of a stream's preview() or end(): a text (a diff, over
 * the selected file) or a file map (a patch), against the input.
 */
export function streamFiles(opened, out) {
  if (typeof out === 'string') {
    const before = opened.input.get(opened.path);
    return [{ path: opened.path, before, after: out, status: out === before ? 'unchanged' : 'modified' }];
  }
  const list = [];
  for (const [path, before] of opened.input) {
    if (!out.has(path)) list.push({ path, before, after: null, status: 'deleted' });
    else list.push({ path, before, after: out.get(path), status: out.get(path) === before ? 'unchanged' : 'modified' });
  }
  for (const [path, after] of out) if (!opened.input.has(path)) list.push({ path, before: null, after, status: 'added' });
  return list;
}
