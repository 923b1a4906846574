// Changes as positions, for editors: the engine's splices as
// `{ from, to, insert }` (UTF-16 offsets into the text that was passed), and
// where each section landed. The engine computes them (the binding converts
// bytes to UTF-16 in the pass that already does); nothing here compares texts.
import type { AnyEngine, Engine, ExtraBinding, FlatChanges } from './binding.js';
import { call } from './errors.js';

/** One change of a text: UTF-16 offsets `from..to` of the text passed become `insert`. */
export interface Splice {
  from: number;
  to: number;
  insert: string;
}

/** Where a run of changed lines of a diff (between context lines) landed. */
export interface PlacedSection {
  /** 1-based line in the diff of the run's first removed or added line. */
  diffLine: number;
  /** 1-based input line the run replaces from (or inserts before). */
  inputLine: number;
  /** UTF-16 offsets into the input of the whole lines the run replaces (`from === to` for an insertion). */
  from: number;
  to: number;
  /** 0-based diff of a batch (`applyBatch` only). */
  diff?: number;
}

/**
 * The splices of a flat crossing (`[start, end, textEnd, …]` and the texts
 * joined), as objects. @internal
 */
export function splicesOf([offsets, texts]: FlatChanges | [Uint32Array, string, Uint32Array]): Splice[] {
  const out: Splice[] = [];
  let text = 0;
  for (let i = 0; i < offsets.length; i += 3) {
    const end = offsets[i + 2] as number;
    out.push({ from: offsets[i] as number, to: offsets[i + 1] as number, insert: texts.slice(text, end) });
    text = end;
  }
  return out;
}

/** The placed sections of a crossing (`[diff, diffLine, inputLine, from, to, …]`). @internal */
export function sectionsOf(flat: Uint32Array, batch: boolean): PlacedSection[] {
  const out: PlacedSection[] = [];
  for (let i = 0; i < flat.length; i += 5) {
    const s: PlacedSection = {
      diffLine: flat[i + 1] as number,
      inputLine: flat[i + 2] as number,
      from: flat[i + 3] as number,
      to: flat[i + 4] as number,
    };
    if (batch) s.diff = flat[i] as number;
    out.push(s);
  }
  return out;
}

/** The engine's minimal splices from `before` to `after` (a file result of a patch, a unified diff or edit blocks). @internal */
export function spliceTexts(engine: AnyEngine, before: string, after: string): Splice[] {
  if (before === after) return [];
  const len = engine.putInput(before);
  const afterLen = engine.putInput(after, len);
  return splicesOf(call(() => engine.wasm().spliceTexts(len, afterLen)) as FlatChanges);
}

/**
 * The minimal splices from `before` to `after` of whole-line ones the engine
 * placed (`[start, end, newStart, newEnd, …]`, byte ranges of each text, as
 * `PreparedPatch.apply` ends with them): the engine trims each. @internal
 */
export function trimSplices(engine: AnyEngine, before: string, after: string, runs: Uint32Array): Splice[] {
  const len = engine.putInput(before);
  const afterLen = engine.putInput(after, len);
  return splicesOf(call(() => engine.wasm().trimSplices(len, afterLen, runs)) as FlatChanges);
}

/**
 * The minimal splices from `before` to `after` of edit blocks the engine
 * placed (`runs` as for {@link trimSplices}: each edit's splice, composed into
 * splices of `before`): the engine splits each by the lines it covers and
 * trims them. @internal
 */
export function editSplices(engine: Engine<ExtraBinding>, before: string, after: string, runs: Uint32Array): Splice[] {
  if (runs.length === 0) return [];
  const len = engine.putInput(before);
  const afterLen = engine.putInput(after, len);
  return splicesOf(call(() => engine.wasm().editSplices(len, afterLen, runs)) as FlatChanges);
}

/**
 * Gives `target` a `splices` property from `before` to `after`, made on
 * first read (most callers of a patch never read it) from `placed`, where
 * the engine placed the changes: the splices themselves (a unified diff's
 * report), the whole-line ranges of a patch's update, which the engine
 * trims, or a function that asks the engine for them (edit blocks'); without
 * `placed`, the engine compares the two texts. Not
 * enumerable: a result compares, spreads and prints as it did without it.
 * @internal
 */
export function addSplices<T extends object>(
  engine: AnyEngine,
  target: T,
  before: string,
  after: string,
  placed?: FlatChanges | Uint32Array | (() => Splice[]),
): T & { readonly splices: Splice[] } {
  // Its inputs in a hidden property, and one getter shared by every result:
  // a getter made per result gave each result its own hidden class in V8, a
  // tenth of an exact edit-block call.
  Object.defineProperty(target, PENDING, { value: { engine, before, after, placed }, writable: true, configurable: true });
  Object.defineProperty(target, 'splices', SPLICES);
  return target as T & { readonly splices: Splice[] };
}

/** What a `splices` property is made from, until it is first read. */
interface Pending {
  engine: AnyEngine;
  before: string;
  after: string;
  placed: FlatChanges | Uint32Array | (() => Splice[]) | undefined;
}

/** Where a result keeps its {@link Pending} splices, then the splices themselves. */
const PENDING = Symbol('applypatch.splices');

/** The `splices` property of every result ({@link addSplices}): made on first read, then kept. */
const SPLICES: PropertyDescriptor = {
  enumerable: false,
  configurable: true,
  get(this: { [PENDING]: Pending | Splice[] }): Splice[] {
    const state = this[PENDING];
    if (Array.isArray(state)) return state;
    const { engine, before, after, placed } = state;
    const splices =
      placed === undefined
        ? spliceTexts(engine, before, after)
        : typeof placed === 'function'
          ? placed()
          : placed instanceof Uint32Array
            ? trimSplices(engine, before, after, placed)
            : splicesOf(placed);
    this[PENDING] = splices;
    return splices;
  },
};
