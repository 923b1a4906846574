// The core engine (V4A diffs, Codex patches and their streams, repairs, the
// three-way merge): its module, dist/esm/engines/core.js and
// dist/cjs/engines/core.js, is written by scripts/build.mjs. Only the
// wrappers of these formats import it, so a bundle without them carries none
// of its wasm.
import type { CoreBinding, Engine } from '../binding.js';

export declare const core: Engine<CoreBinding>;
