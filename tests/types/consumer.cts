// Type-checked against the built package as a CommonJS consumer (.d.cts).
import ap = require('applypatch');

const out: string = ap.apply('a\n', '-a\n+b');
const files: Record<string, string> = ap.applyFiles({}, '', { mode: 'codex' });
const err: ap.PatchError | undefined = undefined;
const code: ap.ErrorCode = 'context_not_found';
// @ts-expect-error: not a string
ap.apply(1, '');
void [out, files, err, code];
