// detectFormat: which of the formats a text is, by the engine's own rules.
import { checkString } from './args.js';
import { extra } from './engines/extra.js';
import type { formats } from './generated.js';

/**
 * `'patch'` (a `*** Begin Patch` patch), `'diff'` (a V4A diff of one file),
 * `'blocks'` (search/replace edit blocks) or `'unified'` (a unified diff,
 * plain or git-style).
 */
export type Format = (typeof formats)[number];

/**
 * The format of `text`: `'patch'` when it starts as the patch parser accepts
 * (`*** Begin Patch` as its first non-blank line, whitespace around it
 * allowed, or right after a `<<'EOF'` heredoc line); `'unified'` when the
 * unified-diff parser finds a file diff (a `diff --git` line, or `--- PATH`
 * followed by `+++ PATH`) before any `*** Begin Patch` line; `'blocks'` when
 * the edit-block parser finds a block (`<<<<<<< SEARCH` or `------- SEARCH`,
 * closed or not); `'diff'` otherwise.
 */
export function detectFormat(text: string): Format {
  checkString('text', text);
  return extra.wasm().detectFormat(text) as Format;
}
