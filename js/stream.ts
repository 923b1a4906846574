// createPatchStream: a V4A update diff, a `*** Begin Patch` patch or a
// unified diff over a file map, applied while it is still being written
// (docs/stream.md); edit blocks are js/stream-blocks.ts. The
// engine keeps the parser's and the matcher's state between pushes
// (src/stream/); this wrapper only holds back text, so that what crosses into
// wasm is whole lines (never half a surrogate pair or half a CRLF), about
// once per section.
import { checkOptions, checkString, invalidString, loneSurrogate, modeCode, wellFormed } from './args.js';
import type { AnyEngine, Held } from './binding.js';
import { blockOptions, type EditOptions } from './blocks.js';
import { type ApplyOptions, apply, splice } from './diff.js';
import { core } from './engines/core.js';
import { extra } from './engines/extra.js';
import { call, PatchError, type PatchErrorFields } from './errors.js';
import type { operationKinds, unifiedStatuses } from './generated.js';
import { baseOption, mergeInto } from './merge.js';
import { applyFiles, baseFiles, type FileMap, type Files, type FilesOptions, fileMap } from './patch.js';
import {
  type AutoStreamOptions,
  createAutoStream,
  type FilesAutoStream,
  type FilesAutoStreamOptions,
  type TextAutoStream,
  wholeText,
} from './stream-auto.js';
import {
  type BlocksStream,
  type BlocksStreamOptions,
  createBlocksStream,
  type FilesBlocksStream,
  type FilesBlocksStreamOptions,
} from './stream-blocks.js';
import { applyUnified, type UnifiedOptions, type UnifiedReport, type UnifiedReportOptions, unifiedModeCode } from './unified.js';
import type * as CoreGlue from './wasm-core.js';
import type * as ExtraGlue from './wasm-extra.js';

/** One change of the target's original text: UTF-16 offsets `from..to` become `insert`. */
export interface StreamSplice {
  from: number;
  to: number;
  insert: string;
}

/** What a push completed. */
export type StreamEvent =
  | {
      /** A patch's operation header, or a unified diff's file header, was read. */
      type: 'operation';
      /** The path its header names (a unified diff: the path it writes, the old one for a deletion). */
      path: string;
      /** A patch: 'add', 'delete' or 'update'; a unified diff: the file's status, as parseUnified gives it. */
      kind: (typeof operationKinds)[number] | (typeof unifiedStatuses)[number];
      /** The header's line in the patch, 1-based. */
      line: number;
    }
  | {
      type: 'section';
      /** A patch or a unified diff: the file the update or hunk writes (its splices are offsets into that file as the operations before left it). */
      path?: string;
      /** The section's index in the diff (0-based). */
      index: number;
      /** Its first diff line (its `@@`, else its first line), 1-based; in a patch, a line of the update's body. */
      diffLine: number;
      /** The input line where its context and removed lines start, 1-based. */
      inputLine: number;
      /** Its changes, UTF-16 offsets into the target's original text, sorted and minimal. */
      splices: StreamSplice[];
    }
  | { type: 'error'; error: PatchError };

export type StreamOptions = ApplyOptions & {
  /**
   * What the streamed text is: `'diff'` (a V4A update diff over a text, the
   * default for a text) or `'patch'` (a `*** Begin Patch` patch over a file
   * map, the default for a map).
   */
  format?: 'diff' | 'patch';
};

/**
 * The options of a unified diff streamed over a file map: applyUnified's
 * (`mode` 'strict' or 'git', `base` a file map).
 */
export type UnifiedStreamOptions = UnifiedOptions & {
  format: 'unified';
};

/** A unified diff streamed with `report: true`: `end()` is applyUnified's report. */
export type UnifiedReportStream<T extends Files> = Omit<PatchStream<T>, 'end'> & {
  /** Exactly `applyUnified(files, diff, { ...options, report: true })`, or throws its `PatchError`. */
  end(): UnifiedReport<T>;
};

/** The options of a patch streamed over a file map (`base` is a file map there, as for applyFiles). */
export type FilesStreamOptions = FilesOptions & {
  format?: 'patch';
};

/** A diff or patch being applied as it arrives. */
export interface PatchStream<R = string> {
  /**
   * Takes the next piece, cut anywhere; returns the events it completed.
   * After an `error` event it returns `[]` (the text is still taken, for
   * `end()`); it throws after `end()` or `abort()`.
   */
  push(chunk: string): StreamEvent[];
  /** The target with every placed section applied. */
  preview(): R;
  /** Exactly what the one-shot call (`apply`, `applyFiles`) returns for the whole text, or throws its `PatchError`. */
  end(): R;
  /** Releases the stream; it can no longer be used. */
  abort(): void;
}

/** What a stream's engine object does (the binding's `PreparedStream`, `PreparedPatchStream`, `PreparedUnifiedStream`). */
interface Prepared {
  /** Reads the complete lines the wrapper put in the input buffer (their length in bytes). */
  pushInput(len: number): unknown;
  /** A diff's stream: its stage in wasm memory, `len` bytes (src/wasm/stream.rs). */
  stage?(len: number): number;
  /** A diff's stream: reads the stage's first `complete` bytes, and moves the rest of the `staged` to its start. */
  pushStaged?(complete: number, staged: number): unknown;
  free(): void;
}

/** A stream's kind: the name of its text, and its preview and end. */
interface Kind<R> {
  name: 'diff' | 'patch' | 'unified';
  /** The engine the stream's object lives in (core, or unified for a unified diff). */
  engine: AnyEngine;
  /** The events of what the engine's push returned (`text`: everything pushed, for a patch or a unified diff). */
  events(raw: unknown, text: () => string): StreamEvent[];
  preview(object: Prepared): R;
  /** The result, from the last piece (`rest`) or all the text (`whole`). */
  end(object: Prepared, rest: string, whole: () => string): R;
}

const encoder = new TextEncoder();
/** Decodes the stage's bytes (ASCII) and the texts of a diff stream's splices (UTF-8). */
const utf8 = new TextDecoder();

// A stream dropped without end() or abort() is released when it is collected.
const dropped = new FinalizationRegistry<Held<Prepared>>((held) => held.release());

/**
 * Starts applying a V4A update diff to a text, or a `*** Begin Patch` patch
 * to a file map, as it arrives: `push` the model's output as it streams, act
 * on the events, and `end()` for the result, which is exactly
 * `apply(target, diff, options)` or `applyFiles(target, patch, options)`.
 */
export function createPatchStream(target: string, options?: StreamOptions & { format?: 'diff' }): PatchStream<string>;
export function createPatchStream(target: string, options: BlocksStreamOptions): BlocksStream;
export function createPatchStream<T extends Files>(target: T, options: FilesBlocksStreamOptions): FilesBlocksStream<T>;
export function createPatchStream<T extends Files>(
  target: T,
  options: UnifiedReportOptions & { format: 'unified' },
): UnifiedReportStream<T>;
export function createPatchStream<T extends Files>(target: T, options: UnifiedStreamOptions): PatchStream<T>;
export function createPatchStream<T extends Files>(target: T, options?: FilesStreamOptions): PatchStream<T>;
export function createPatchStream(target: string, options: AutoStreamOptions): TextAutoStream;
export function createPatchStream<T extends Files>(target: T, options: FilesAutoStreamOptions): FilesAutoStream<T>;
export function createPatchStream(
  target: string | Files,
  options?:
    | StreamOptions
    | FilesStreamOptions
    | BlocksStreamOptions
    | FilesBlocksStreamOptions
    | UnifiedStreamOptions
    | (UnifiedReportOptions & { format: 'unified' })
    | AutoStreamOptions
    | FilesAutoStreamOptions,
):
  | PatchStream<string>
  | PatchStream<Files>
  | UnifiedReportStream<Files>
  | BlocksStream
  | FilesBlocksStream<Files>
  | TextAutoStream
  | FilesAutoStream<Files> {
  const opts = checkOptions(options);
  const text = typeof target === 'string';
  if (opts.format === 'auto') return autoStream(target, opts);
  if (opts.format === 'blocks') {
    return typeof target === 'string'
      ? createBlocksStream(target, options as BlocksStreamOptions)
      : createBlocksStream(target, options as FilesBlocksStreamOptions);
  }
  const format = opts.format ?? (text ? 'diff' : 'patch');
  if (format === 'unified') return unifiedStream(target, options as UnifiedStreamOptions, opts);
  if (format !== 'diff' && format !== 'patch') {
    throw new TypeError(
      `applypatch: createPatchStream streams format 'diff' (a V4A update diff), 'patch' (a *** Begin Patch patch), 'unified' (a unified diff), 'blocks' (edit blocks) or 'auto' (decided by its first lines), got ${String(format)}`,
    );
  }
  if (text !== (format === 'diff')) {
    throw new TypeError(
      text
        ? "applypatch: format 'patch' streams a *** Begin Patch patch over a file map: target must be a plain object or a Map from path to contents"
        : "applypatch: format 'diff' streams a V4A update diff over one text: target must be a string (for a file map, stream a *** Begin Patch patch, format 'patch')",
    );
  }
  noRepair(opts);
  const mode = modeCode(opts);
  if (typeof target === 'string') {
    checkString('target', target);
    // With `base`, the diff is applied to base as it streams, and the result
    // merged into the target at the end (as apply does).
    const base = baseOption(opts);
    const onto = base ?? target;
    const len = core.putInput(onto);
    const held = core.holdPrepared(
      'PreparedStream',
      call(() => core.wasm().prepareStream(len, onto.length, mode)) as CoreGlue.PreparedStream,
    );
    const merge = (text: string) => (base === undefined ? text : mergeInto(core, base, target, text));
    const kind: Kind<string> = {
      name: 'diff',
      engine: core,
      events: (ptr) => (ptr === 0 ? [] : diffEvents(core.memoryWords(), (ptr as number) >>> 2, held.object as CoreGlue.PreparedStream)),
      preview: (object) => merge((object as CoreGlue.PreparedStream).preview()),
      end: (object, rest) => {
        const left = call(() => (object as CoreGlue.PreparedStream).end(rest));
        return merge(splice(onto, core.takeChanges(left, false)));
      },
    };
    return new Stream(held as Held<Prepared>, kind);
  }
  const targetMap = fileMap(target);
  const baseMap = opts.base === undefined ? undefined : fileMap(opts.base as Files);
  const held = core.holdPrepared(
    'PreparedPatchStream',
    call(() => core.wasm().preparePatchStream(...encodeFiles(baseMap ?? targetMap), mode)) as CoreGlue.PreparedPatchStream,
  );
  const kind: Kind<Files> = {
    name: 'patch',
    engine: core,
    events: (raw) => patchEvents(raw as unknown[]),
    preview: (object) => previewMap(core, (object as CoreGlue.PreparedPatchStream).preview() as Array<string | null>, targetMap, baseMap),
    end: (_object, _rest, whole) => applyFiles(target, whole(), options as FilesOptions),
  };
  return new Stream(held as Held<Prepared>, kind);
}

/** `format: 'unified'`: a unified diff over a file map, whose one-shot call is applyUnified. */
function unifiedStream(target: string | Files, options: UnifiedStreamOptions, opts: Record<string, unknown>): PatchStream<Files> {
  if (typeof target === 'string') {
    throw new TypeError(
      "applypatch: format 'unified' streams a unified diff over a file map: target must be a plain object or a Map from path to contents, as for applyUnified",
    );
  }
  noRepair(opts);
  const mode = unifiedModeCode(opts);
  const targetMap = fileMap(target);
  const baseMap = opts.base === undefined ? undefined : fileMap(baseFiles(opts));
  const held = extra.holdPrepared(
    'PreparedUnifiedStream',
    call(() => extra.wasm().prepareUnifiedStream(...encodeFiles(baseMap ?? targetMap), mode)) as ExtraGlue.PreparedUnifiedStream,
  );
  const oneShot = (text: string) => applyUnified(target, text, options);
  const kind: Kind<Files> = {
    name: 'unified',
    engine: extra,
    events: (raw, text) => unifiedEvents(raw as unknown[], text, oneShot),
    preview: (object) =>
      previewMap(extra, (object as ExtraGlue.PreparedUnifiedStream).preview() as Array<string | null>, targetMap, baseMap),
    end: (_object, _rest, whole) => oneShot(whole()),
  };
  return new Stream(held as Held<Prepared>, kind);
}

function noRepair(opts: Record<string, unknown>): void {
  if (opts.repair !== undefined && opts.repair !== false) {
    throw new TypeError(
      'applypatch: createPatchStream does not take options.repair yet; apply the whole text with the one-shot call for that',
    );
  }
}

/**
 * Every file of a map, for the operations to come: paths, contents one
 * after another (UTF-8) and their lengths (lone surrogates become U+FFFD
 * here; end() is the one-shot call itself, which refuses them where it
 * reads them).
 */
function encodeFiles(map: FileMap<Files>): [string[], Uint8Array, Uint32Array] {
  const encoded = map.paths.map((path) => encoder.encode(map.get(path)));
  const contents = new Uint8Array(encoded.reduce((n, b) => n + b.length, 0));
  let at = 0;
  for (const b of encoded) {
    contents.set(b, at);
    at += b.length;
  }
  return [map.paths, contents, new Uint32Array(encoded.map((b) => b.length))];
}

/**
 * A map of the target's kind from the engine's preview (`[path, contents or
 * null, …]`); with `base`, each file changed over base merged into the
 * target's, as the one-shot calls merge.
 */
function previewMap(
  engine: AnyEngine,
  changes: Array<string | null>,
  targetMap: FileMap<Files>,
  baseMap: FileMap<Files> | undefined,
): Files {
  if (baseMap !== undefined) {
    for (let i = 0; i < changes.length; i += 2) {
      const [path, text] = [changes[i] as string, changes[i + 1]];
      const [was, now] = [baseMap.get(path), targetMap.get(path)];
      if (text !== null && was !== undefined && now !== undefined) changes[i + 1] = mergeInto(engine, was, now, text);
    }
  }
  return targetMap.with(changes);
}

/**
 * `format: 'auto'`: the options checked now, as each format's stream checks
 * them; the stream of the format decided is this function's with that format.
 */
function autoStream(target: string | Files, opts: Record<string, unknown>): TextAutoStream | FilesAutoStream<Files> {
  const { format: _format, ...rest } = opts;
  modeCode(rest);
  blockOptions(rest as EditOptions);
  if (typeof target === 'string') {
    checkString('target', target);
    baseOption(rest);
  } else {
    fileMap(target);
    if (rest.base !== undefined) fileMap(baseFiles(rest));
    if (rest.path !== undefined && typeof rest.path !== 'string') {
      throw new TypeError(`applypatch: options.path must be a string, got ${typeof rest.path}`);
    }
  }
  const make = (format: 'diff' | 'patch' | 'blocks' | 'unified') => {
    if (typeof target === 'string' && (format === 'patch' || format === 'unified')) {
      // Over a text: apply()'s error, which names the function that takes it, from end().
      return wholeText(
        () => target,
        (diff) => apply(target, diff, rest as ApplyOptions),
      );
    }
    // A unified diff in a mode applyUnified refuses: its TypeError comes from end(), as the one-shot call throws it.
    if (format === 'unified' && (rest.mode ?? 'strict') !== 'strict')
      return wholeText(
        () => fileMap(target as Files).with([]),
        (diff) => applyUnified(target as Files, diff, rest),
      );
    return (createPatchStream as (target: string | Files, options: Record<string, unknown>) => PatchStream<unknown>)(target, {
      ...rest,
      format,
    });
  };
  const preview = () => (typeof target === 'string' ? target : fileMap(target).with([]));
  return createAutoStream(typeof target === 'string', rest, make, preview) as TextAutoStream | FilesAutoStream<Files>;
}

/** Complete lines held back at most before they are sent anyway (UTF-16 units). */
const HOLD = 1 << 16;
/** A piece of at most this many units, all ASCII, is staged (copied), not joined to the text. */
const SHORT = 16;
/** The stage's size in bytes (it is moved into the text when full). */
const STAGE = 4096;

const SPACE = 0x20;
const PLUS = 0x2b;
const MINUS = 0x2d;
const STAR = 0x2a;
const CR = 0x0d;
const NL = 0x0a;

class Stream<R> implements PatchStream<R> {
  #held: Held<Prepared>;
  #kind: Kind<R>;
  /** The engine object's pushInput, guarded, looked up once (called once per section). */
  #pushInput: (len: number) => unknown;
  /**
   * A patch or a unified diff: the text sent so far, a rope of what each
   * send took (with {@link #text}, everything pushed: end() is the one-shot
   * call on the whole text).
   */
  #sentText: string | undefined;
  /**
   * The text not sent yet: complete lines, then the unfinished last one (a
   * rope of the pieces, flattened once, when it is sent).
   */
  #text = '';
  /**
   * The short ASCII pieces pushed since {@link #text} was last read, which
   * follow it, a byte a unit: a piece of a token or so is copied here, not joined to
   * the text, so that a push allocates nothing (a string per piece made
   * garbage that cost more than the pieces' own work, and its collections
   * pushed the engine's tables out of the cache). Read through
   * {@link #unsent}. A diff's stage is in wasm memory (the engine object's),
   * so that its lines are sent without a copy ({@link #send}); when the
   * memory grows, the view is detached (its length 0) and {@link #view}
   * makes it again.
   */
  #stage: Uint8Array;
  #staged = 0;
  /** A diff's stage: where it is in wasm memory (-1: a patch's or a unified diff's, in JS memory). */
  #stageAt = -1;
  /** A diff's stream: the engine object's pushStaged, guarded, looked up once. */
  #pushStaged: ((complete: number, staged: number) => unknown) | undefined;
  /** The UTF-16 units of the text not sent through its last line break. */
  #complete = 0;
  /** The first unit of the unfinished line (-1: none yet). */
  #first = -1;
  /** The unfinished line has a carriage return before something other than its line break. */
  #strayCr = false;
  /** The unfinished line ends with a carriage return (its line break may follow). */
  #lastCr = false;
  /**
   * Open, started, and not after a carriage return: {@link push} takes a
   * short ASCII piece with no carriage return and at most one line break in
   * its short path (which reads a line's first unit when the piece starts
   * the line).
   */
  #quick = false;
  /** Lines are sent as soon as they are complete (after a `***` line). */
  #eager = false;
  #started = false;
  /** UTF-16 units sent to the engine so far (for the index of a lone surrogate). */
  #sent = 0;
  #state: 'open' | 'failed' | 'ended' = 'open';
  /** A lone surrogate in the text: the error the one-shot call throws, kept for end(). */
  #invalid: PatchError | undefined;

  constructor(held: Held<Prepared>, kind: Kind<R>) {
    this.#held = held;
    this.#kind = kind;
    this.#pushInput = held.object.pushInput;
    if (kind.name === 'diff') {
      this.#stageAt = held.object.stage!(STAGE);
      this.#stage = kind.engine.memoryBytes(this.#stageAt, STAGE);
      this.#pushStaged = held.object.pushStaged;
    } else {
      this.#sentText = '';
      this.#stage = new Uint8Array(STAGE);
    }
    dropped.register(this, held, this);
  }

  /**
   * The stage, its view made again after the memory grew (not into an
   * instance that replaced the stream's own after a trap: the stream is
   * lost then, and says so at its next send).
   */
  #view(): Uint8Array {
    if (this.#stage.length === 0) {
      this.#stage = this.#held.alive() ? this.#kind.engine.memoryBytes(this.#stageAt, STAGE) : new Uint8Array(STAGE);
    }
    return this.#stage;
  }

  /**
   * Takes a piece. Complete lines go to the engine at once when they can
   * complete a section or fail (a line that does not start with ' ', '+' or
   * '-', one with a carriage return inside, any line after a `***` line, and
   * the first push, which reports an input that cannot take any diff);
   * lines of a section's body, which can do neither, wait for the next such
   * line (at most {@link HOLD} units), so that the engine is called about
   * once per section, not once per line.
   */
  push(chunk: string): StreamEvent[] {
    // Most pieces (a token or so) end no line, or end a body line: only
    // remembered, in a path kept short (it runs for nearly every piece).
    // What decides when lines are sent (a line's first unit, its carriage
    // returns) is read from the pieces, never from the text held.
    if (this.#quick && typeof chunk === 'string') {
      const n = chunk.length;
      const at = this.#staged;
      const stage = this.#stage;
      // (A detached view's length is 0: the long path makes it again.)
      if (n <= SHORT && at + n <= stage.length) {
        // Copied to the stage, and its line breaks read in the same pass: `nl`
        // the last (`nls` of them); `or` the units or'ed, a carriage return
        // counting as 0x100, so that over 0x7f means a unit the long path
        // takes (one branch a unit: this loop is most of a push's time).
        let nl = -1;
        let nls = 0;
        let or = 0;
        for (let i = 0; i < n; i++) {
          const c = chunk.charCodeAt(i);
          stage[at + i] = c;
          or |= c;
          if (c === NL) {
            nl = i;
            nls++;
          } else if (c === CR) or |= 0x100;
        }
        if (or <= 0x7f && nls <= 1) {
          // The line's first unit: this piece's first when it starts the line
          // (-1: the line is empty, or not started).
          let first = this.#first;
          if (first < 0 && nl !== 0 && n > 0) first = chunk.charCodeAt(0);
          if (nl < 0) {
            this.#staged = at + n;
            this.#first = first;
            return [];
          }
          // A section's body line ends here, with no carriage return, and at
          // most the next line starts: held, as the long path holds it.
          if ((first === SPACE || first === PLUS || first === MINUS) && !this.#eager && !this.#strayCr) {
            this.#complete = this.#text.length + at + nl + 1;
            this.#staged = at + n;
            this.#first = nl + 1 < n ? chunk.charCodeAt(nl + 1) : -1;
            return this.#complete < HOLD ? [] : this.#send();
          }
        }
      }
    }
    return this.#push(chunk);
  }

  /** {@link push} for a piece that may end a line, or a stream not open. */
  #push(chunk: string): StreamEvent[] {
    if (typeof chunk !== 'string') throw new TypeError(`applypatch: push takes a string, got ${typeof chunk}`);
    if (this.#state === 'ended') throw new Error('applypatch: this stream has ended; start a new one with createPatchStream()');
    // After an error: kept for end(), which answers for everything pushed.
    if (this.#state === 'failed') {
      this.#append(chunk);
      return [];
    }
    let send = !this.#started;
    this.#started = true;
    const base = this.#text.length + this.#staged;
    this.#append(chunk);
    // The next carriage return at or after `from` (-1: none), searched for
    // once per carriage return, not once per line.
    let cr = chunk.indexOf('\r');
    for (let from = 0; ; ) {
      const nl = chunk.indexOf('\n', from);
      const end = nl < 0 ? chunk.length : nl;
      if (from < end) {
        if (this.#first < 0) this.#first = chunk.charCodeAt(from);
        if (this.#lastCr) this.#strayCr = true;
        for (; cr >= 0 && cr < end; cr = chunk.indexOf('\r', cr + 1)) {
          if (cr < end - 1) this.#strayCr = true;
        }
        this.#lastCr = chunk.charCodeAt(end - 1) === CR;
      }
      if (nl < 0) break;
      // A line is complete. Sent now: a line that is not a section's body
      // line (nor empty), or one with a carriage return inside (not just
      // before its break).
      const first = this.#first;
      if (first === STAR) this.#eager = true;
      if (this.#eager || this.#strayCr || (first >= 0 && first !== SPACE && first !== PLUS && first !== MINUS)) send = true;
      this.#first = -1;
      this.#strayCr = false;
      this.#lastCr = false;
      this.#complete = base + nl + 1;
      from = nl + 1;
    }
    this.#quick = !this.#lastCr;
    if (!send && this.#complete < HOLD) return [];
    return this.#send();
  }

  /** Sends the complete lines held to the engine; returns the events. */
  #send(): StreamEvent[] {
    this.#object();
    const complete = this.#complete;
    this.#complete = 0;
    if (this.#text === '' && this.#pushStaged !== undefined) {
      // A diff whose text not sent is all in the stage (ASCII): its bytes
      // are the lines' UTF-8, read where they are.
      const staged = this.#staged;
      this.#staged -= complete;
      this.#sent += complete;
      return this.#events(this.#pushStaged(complete, staged));
    }
    const text = this.#unsent();
    const lines = text.slice(0, complete);
    this.#text = '';
    // What follows the lines (the start of the next one) goes back to the stage when it can.
    if (!this.#stageText(text, complete)) this.#text = text.slice(complete);
    if (this.#sentText !== undefined) this.#sentText += lines;
    const at = wellFormed(lines) ? -1 : lines.search(loneSurrogate);
    if (at >= 0) {
      this.#invalid =
        this.#sentText === undefined
          ? invalid(this.#sent + at, lines.charCodeAt(at))
          : // The one-shot call's error: applyFiles names its patch, applyUnified its diff.
            invalidString(this.#kind.name === 'patch' ? 'patch' : 'diff', this.#sentText + this.#unsent());
      this.#stop('failed');
      return [{ type: 'error', error: this.#invalid }];
    }
    this.#sent += lines.length;
    // Through the input buffer: one native UTF-8 copy (a string argument is copied a unit at a time).
    return this.#events(this.#pushInput(this.#kind.engine.putInput(lines)));
  }

  /** Everything pushed (for a patch's or a unified diff's events). */
  #whole = (): string => (this.#sentText ?? '') + this.#unsent();

  /** The events of what the engine's push returned. */
  #events(raw: unknown): StreamEvent[] {
    const events = this.#kind.events(raw, this.#whole);
    if (events.at(-1)?.type === 'error') this.#stop('failed');
    return events;
  }

  /** Appends a piece to the text not sent: a short one to the stage. */
  #append(chunk: string): void {
    if (chunk.length > SHORT || !this.#stageText(chunk, 0)) this.#text = this.#unsent() + chunk;
  }

  /**
   * Copies `text` from unit `from` on to the stage if it is ASCII and fits
   * (and returns true); else leaves the stage as it was.
   */
  #stageText(text: string, from: number): boolean {
    const n = text.length - from;
    const at = this.#staged;
    if (at + n > STAGE) return false;
    const stage = this.#view();
    for (let i = 0; i < n; i++) {
      const c = text.charCodeAt(from + i);
      if (c > 0x7f) return false;
      stage[at + i] = c;
    }
    this.#staged = at + n;
    return true;
  }

  /** The text not sent: {@link #text}, with the stage moved into it. */
  #unsent(): string {
    if (this.#staged > 0) {
      this.#text += utf8.decode(this.#view().subarray(0, this.#staged));
      this.#staged = 0;
    }
    return this.#text;
  }

  preview(): R {
    if (this.#state === 'ended') throw new Error('applypatch: this stream has ended');
    return this.#kind.preview(this.#object());
  }

  end(): R {
    if (this.#state === 'ended') throw new Error('applypatch: this stream has ended; start a new one with createPatchStream()');
    const object = this.#object();
    this.#stop('ended');
    if (this.#sentText !== undefined) {
      // A patch or a unified diff: the one-shot call on the whole text, after the engine's stream is freed.
      const all = this.#sentText + this.#unsent();
      this.#release();
      return this.#kind.end(object, '', () => all);
    }
    try {
      if (this.#invalid !== undefined) throw this.#invalid;
      const rest = this.#unsent();
      const at = wellFormed(rest) ? -1 : rest.search(loneSurrogate);
      if (at >= 0) throw invalid(this.#sent + at, rest.charCodeAt(at));
      return this.#kind.end(object, rest, () => rest);
    } finally {
      this.#release();
    }
  }

  abort(): void {
    this.#stop('ended');
    this.#release();
  }

  #object(): Prepared {
    if (!this.#held.alive()) {
      this.#stop('ended');
      throw new PatchError({
        code: 'internal_error',
        message:
          'applypatch: the WebAssembly engine was restarted after a failure elsewhere, and this stream went with it. Start a new stream with createPatchStream() and push the text again.',
      });
    }
    return this.#held.object;
  }

  #stop(state: 'failed' | 'ended'): void {
    this.#state = state;
    this.#quick = false;
  }

  #release(): void {
    dropped.unregister(this);
    this.#held.release();
  }
}

/**
 * A diff stream's events, from the numbers at `words[at..]` in wasm memory
 * (src/wasm/stream.rs `PreparedStream::push_input`): `[sections,
 * failed, bytes]`, each section's `[index, diffLine, inputLine, n]` and `n`
 * splices `[from, to, textEnd]`, then the splices' texts as `bytes` bytes
 * of UTF-8 (decoded at once, and cut at each `textEnd`, in UTF-16 units);
 * `failed`: the engine's error comes from `takeError`, called after the
 * numbers are read (it may move them).
 */
function diffEvents(words: Uint32Array, at: number, object: CoreGlue.PreparedStream): StreamEvent[] {
  const events: StreamEvent[] = [];
  const sections = words[at];
  const failed = words[at + 1];
  const bytes = words[at + 2];
  let i = at + 3;
  let texts = i;
  for (let k = 0; k < sections; k++) texts += 4 + 3 * words[texts + 3];
  const all = bytes === 0 ? '' : utf8.decode(new Uint8Array(words.buffer, texts * 4, bytes));
  let text = 0;
  for (let k = 0; k < sections; k++) {
    const n = words[i + 3];
    const event: StreamEvent = { type: 'section', index: words[i], diffLine: words[i + 1], inputLine: words[i + 2], splices: [] };
    i += 4;
    for (const end = i + 3 * n; i < end; i += 3) {
      event.splices.push({ from: words[i], to: words[i + 1], insert: all.slice(text, words[i + 2]) });
      text = words[i + 2];
    }
    events.push(event);
  }
  if (failed === 1) events.push({ type: 'error', error: new PatchError(object.takeError() as PatchErrorFields) });
  return events;
}

/** A patch stream's events: one value each (src/wasm/stream.rs). */
function patchEvents(raw: unknown[]): StreamEvent[] {
  const events: StreamEvent[] = [];
  for (const e of raw) {
    if (Array.isArray(e) && typeof e[0] === 'string') {
      const [kind, path, line] = e as [(typeof operationKinds)[number], string, number];
      events.push({ type: 'operation', path, kind, line });
    } else if (Array.isArray(e)) {
      const [index, diffLine, inputLine, offsets, texts, path] = e as [number, number, number, Uint32Array, string, string];
      const splices: StreamSplice[] = [];
      let text = 0;
      for (let i = 0; i < offsets.length; i += 3) {
        splices.push({ from: offsets[i], to: offsets[i + 1], insert: texts.slice(text, offsets[i + 2]) });
        text = offsets[i + 2];
      }
      events.push({ type: 'section', path, index, diffLine, inputLine, splices });
    } else {
      events.push({ type: 'error', error: new PatchError(e as PatchErrorFields) });
    }
  }
  return events;
}

/**
 * A unified diff stream's events: as a patch's, but a failure is the number
 * of diff lines through which the one-shot call gives it; its error is the
 * one-shot call's on those lines (src/wasm/stream.rs).
 */
function unifiedEvents(raw: unknown[], text: () => string, oneShot: (text: string) => unknown): StreamEvent[] {
  const events: StreamEvent[] = [];
  for (const e of raw) {
    if (typeof e !== 'number') {
      events.push(...patchEvents([e]));
      continue;
    }
    const all = text();
    let end = 0;
    for (let n = 0; n < e && end < all.length; n++) {
      const nl = all.indexOf('\n', end);
      end = nl < 0 ? all.length : nl + 1;
    }
    try {
      oneShot(all.slice(0, end));
    } catch (error) {
      if (!(error instanceof PatchError)) throw error;
      events.push({ type: 'error', error });
    }
  }
  return events;
}

/** The one-shot call's error for a diff with a lone surrogate at `index`. */
function invalid(index: number, unit: number): PatchError {
  return new PatchError({
    code: 'invalid_string',
    message: `diff is not well-formed UTF-16: it has a lone surrogate (\\u${unit.toString(16).toUpperCase()}) at index ${index}. Such a string cannot be encoded as UTF-8 without changing it, so it is refused.`,
  });
}
