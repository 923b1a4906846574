// The extra engine (edit blocks, unified diffs and their stream, format
// detection): its module, dist/esm/engines/extra.js and
// dist/cjs/engines/extra.js, is written by scripts/build.mjs. Only the
// wrappers of these formats import it, so a bundle without them carries none
// of its wasm.
import type { Engine, ExtraBinding } from '../binding.js';

export declare const extra: Engine<ExtraBinding>;
