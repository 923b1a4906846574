// The `repair` option (Strict mode): which slips the engine may forgive, and
// how each repair it made reaches the caller (`onRepair`). The engine finds
// and describes the repairs; this module only checks the option and passes
// them on.
import { describe, STRICT } from './args.js';
import { core } from './engines/core.js';
import { repairKinds as engineRepairKinds, repairShift } from './generated.js';

/**
 * Every repair kind, in a fixed order (generated from the engine's
 * `RepairKind`). `trailing-ws` and `indent` mean what the edit-block
 * strategies of the same names forgive.
 */
export const repairKinds = Object.freeze(engineRepairKinds);

export type RepairKind = (typeof repairKinds)[number];

/** One repair the engine made: what it forgave, and where. */
export interface Repair {
  kind: RepairKind;
  /** What the model got wrong and what was done instead, for the model or a log. */
  message: string;
  /** 1-based line in the diff (or in the patch as given). */
  diffLine?: number;
  /** 1-based line of the input (of the file, in a patch). */
  inputLine?: number;
  /** The file, in a patch or an operation. */
  path?: string;
  /** 0-based operation of the patch. */
  operation?: number;
  /** 0-based diff of a batch. */
  diff?: number;
}

/** The options every applying function takes besides `mode`. */
export interface RepairOptions {
  /**
   * Strict mode only. `true`: forgive every kind of slip in {@link repairKinds}
   * when the place is still certain; a list: only those kinds. Off by default.
   */
  repair?: boolean | readonly RepairKind[];
  /**
   * Called once for each repair, after the call succeeded and before it
   * returns. Throwing from it refuses the result: the call throws and returns
   * nothing.
   */
  onRepair?: (repair: Repair) => void;
}

/** The allowed repairs as the engine's bit set (bit k for `repairKinds[k]`). */
export function repairBits(options: Record<string, unknown>, mode: number): number {
  const value = options.repair;
  if (value === undefined || value === false) return 0;
  if (mode !== STRICT) throw new TypeError("applypatch: options.repair is a Strict mode option; mode 'codex' does exactly what Codex does");
  if (value === true) return (1 << repairKinds.length) - 1;
  if (!Array.isArray(value)) {
    throw new TypeError(`applypatch: options.repair must be true, false or an array of repair kinds, got ${describe(value)}`);
  }
  let bits = 0;
  for (const kind of value) {
    const k = repairKinds.indexOf(kind as RepairKind);
    if (k < 0) {
      throw new TypeError(
        `applypatch: options.repair has an unknown kind ${typeof kind === 'string' ? `'${kind}'` : describe(kind)}; the kinds are ${repairKinds.join(', ')}`,
      );
    }
    bits |= 1 << k;
  }
  return bits;
}

/** The binding's mode code: the mode's position in `modes`, with the allowed repairs above it. */
export function modeCodeOf(mode: number, repairBits: number): number {
  return mode | (repairBits << repairShift);
}

/** The mode's position in `modes` of a binding's mode code. */
export function modeOfCode(code: number): number {
  return code & ((1 << repairShift) - 1);
}

/** The engine's mode code with the allowed repairs, and what to do with the repairs after a call. */
export interface CallMode {
  code: number;
  /** Takes the last call's repairs and passes each to `onRepair`. */
  report(): Repair[];
}

export function callMode(options: Record<string, unknown>, mode: number): CallMode {
  const bits = repairBits(options, mode);
  const onRepair = options.onRepair;
  if (onRepair !== undefined && typeof onRepair !== 'function') {
    throw new TypeError(`applypatch: options.onRepair must be a function, got ${describe(onRepair)}`);
  }
  return {
    code: modeCodeOf(mode, bits),
    report(): Repair[] {
      if (bits === 0) return [];
      const repairs = core.wasm().takeRepairs() as Repair[];
      if (typeof onRepair === 'function') for (const r of repairs) onRepair(r);
      return repairs;
    },
  };
}

/** One line per repair, for a model or a log: `repaired[kind] (path, diff line 3, input line 12): message`. */
export function repairLine(r: Repair, lineOf = 'diff'): string {
  const at = [
    r.path,
    r.diff !== undefined ? `diff ${r.diff + 1}` : undefined,
    r.diffLine !== undefined ? `${lineOf} line ${r.diffLine}` : undefined,
    r.inputLine !== undefined ? `input line ${r.inputLine}` : undefined,
  ].filter((x) => x !== undefined);
  return `repaired[${r.kind}]${at.length ? ` (${at.join(', ')})` : ''}: ${r.message}`;
}
