// Compares applyFiles in Codex mode with what the Codex CLI did for one case.
// Used by scripts/parity.mjs (live binary) and by tests/js/codex-parity.test.mjs
// (recorded results).
//
// The rules:
// - success or failure must agree;
// - on success, every resulting file byte for byte, and summary() against the
//   binary's stdout;
// - on failure, the first line of our message must start with the first line
//   of the binary's stderr (paths made relative to the working directory).
//   The binary leaves earlier operations on disk and applyFiles returns
//   nothing, so files are not compared on failure.
// Known, deliberate differences are returned as `explained`.

/** Runs applyFiles and summary of the package `ap` on a case. */
export function ours(ap, c) {
  try {
    const files = ap.applyFiles(c.files, c.patch, { mode: 'codex' });
    return { ok: true, files, stdout: ap.summary(c.patch) };
  } catch (e) {
    if (!(e instanceof ap.PatchError)) throw e;
    return { ok: false, error: e.message.split('\n')[0], code: e.code };
  }
}

/** The reason a difference is deliberate, or null. */
function explanation(ap, c, codex) {
  if (!codex.ok) return null;
  try {
    const same = ap.parse(c.patch).operations.some((o) => o.kind === 'update' && o.moveTo === o.path);
    if (same) return 'Move to the same path keeps the file (the Codex CLI writes it, then deletes it)';
  } catch {
    return null;
  }
  return null;
}

function sameFiles(a, b) {
  const ka = Object.keys(a).sort();
  const kb = Object.keys(b).sort();
  if (ka.join('\0') !== kb.join('\0')) return `files differ: ours [${ka.join(', ')}], codex [${kb.join(', ')}]`;
  for (const k of ka) {
    if (!Buffer.from(a[k], 'utf8').equals(Buffer.from(b[k], 'utf8')))
      return `${k} differs: ours ${JSON.stringify(a[k])}, codex ${JSON.stringify(b[k])}`;
  }
  return null;
}

/** null when they agree; otherwise { explained?, reason }. */
export function compare(ap, c, codex) {
  const got = ours(ap, c);
  let reason = null;
  if (got.ok !== codex.ok) {
    reason = got.ok ? `we succeed, codex fails: ${codex.error}` : `we fail (${got.error}), codex succeeds`;
  } else if (got.ok) {
    reason =
      sameFiles(got.files, codex.files) ??
      (got.stdout !== codex.stdout ? `summary ${JSON.stringify(got.stdout)} vs ${JSON.stringify(codex.stdout)}` : null);
  } else if (!got.error.startsWith(codex.error)) {
    reason = `messages differ: ours ${JSON.stringify(got.error)}, codex ${JSON.stringify(codex.error)}`;
  }
  if (reason === null) return null;
  const why = explanation(ap, c, codex);
  return why ? { explained: why, reason } : { reason };
}
