// createPatchStream(target, { format: 'blocks' }): search/replace edit
// blocks applied to a text or a file map while the message is still being
// written (docs/stream.md). The one-shot call it answers for is
// `applyEdits(text, parseBlocks(message, { detailed: true }).edits, options)`
// for a text and `applyBlocks(files, message, options)` for a file map.
//
// The message is held here as lines. When a complete line could close a
// block (it starts with `>>>` or `+++`), the engine parses the lines since
// the last point where no block was open (`blocksStreamParse`), so each
// line is parsed about once; each new edit is applied with `applyEdit`, the
// step the one-shot call takes for it. `end()` is the one-shot call itself.
import { checkOptions, checkString, wellFormed } from './args.js';
import {
  type ApplyBlocksOptions,
  applyBlocks,
  applyEdit,
  applyEdits,
  type BlocksResult,
  blockOptions,
  type EditOptions,
  type EditResult,
  type EditsResult,
  type ParsedEditBlock,
  parseBlocks,
} from './blocks.js';
import { extra } from './engines/extra.js';
import { call, PatchError } from './errors.js';
import { baseOption, mergeInto } from './merge.js';
import { type BaseChange, baseFiles, type FileMap, type Files, fileMap, mergeChanges } from './patch.js';
import type { StreamSplice } from './stream.js';

/**
 * The options of edit blocks streamed over a text: those of `applyEdits`
 * (`base`: the text the blocks were written against), and `format: 'blocks'`.
 */
export type BlocksStreamOptions = EditOptions & { format: 'blocks' };

/**
 * The options of edit blocks streamed over a file map: those of
 * `applyBlocks` (`path`, `base` a file map), and `format: 'blocks'`.
 */
export type FilesBlocksStreamOptions = ApplyBlocksOptions & { format: 'blocks' };

/** A block closed and applied (a text's stream; a file map's adds `path`). */
interface BlockPlaced {
  type: 'section';
  /** The block's index among the message's edits (0-based). */
  index: number;
  /** The line of its start marker in the message, 1-based. */
  diffLine: number;
  /** The line where the replaced text starts, 1-based, in the text as the blocks before left it. */
  inputLine: number;
  /** Its changes, UTF-16 offsets into the text as the blocks before left it (applied in order, they give `preview()`). */
  splices: StreamSplice[];
}

/** What a push of an edit-blocks message over a text completed. */
export type BlocksStreamEvent =
  | BlockPlaced
  | {
      /** The first block that does not apply. */
      type: 'error';
      /** `applyEdits` for the message up to that block's end marker line: `ok: false`, the failing block's result last. */
      result: EditsResult;
    }
  | {
      /** The one-shot call throws for the message up to this point (a lone surrogate). */
      type: 'error';
      error: PatchError;
    };

/** What a push of an edit-blocks message over a file map completed. */
export type FilesBlocksStreamEvent<T extends Files> =
  | (BlockPlaced & {
      /** The file the block went to; `inputLine` and `splices` are in that file as the blocks before left it. */
      path: string;
    })
  | {
      /**
       * The first block that does not apply, or a malformed block: `applyBlocks`
       * for the message up to that block's end (`ok: false`).
       */
      type: 'error';
      result: BlocksResult<T>;
    }
  | {
      /** The one-shot call throws for the message up to this point (a lone surrogate). */
      type: 'error';
      error: PatchError;
    };

/** Edit blocks being applied to a text as the message arrives. */
export interface BlocksStream {
  /** Takes the next piece, cut anywhere; returns the events it completed (`[]` after an error; it throws after `end()` or `abort()`). */
  push(chunk: string): BlocksStreamEvent[];
  /** The text with every applied block (with `base`: merged into the text). */
  preview(): string;
  /** Exactly `applyEdits(text, parseBlocks(message, { detailed: true }).edits, options)` for the whole message. */
  end(): EditsResult;
  /** Releases the stream; it can no longer be used. */
  abort(): void;
}

/** Edit blocks being applied to a file map as the message arrives. */
export interface FilesBlocksStream<T extends Files> {
  /** Takes the next piece, cut anywhere; returns the events it completed (`[]` after an error; it throws after `end()` or `abort()`). */
  push(chunk: string): FilesBlocksStreamEvent<T>[];
  /** The file map (of the same kind) with every applied block (with `base`: merged into the files). */
  preview(): T;
  /** Exactly `applyBlocks(files, message, options)` for the whole message. */
  end(): BlocksResult<T>;
  /** Releases the stream; it can no longer be used. */
  abort(): void;
}

const GT = 0x3e;
const PLUS = 0x2b;

/** Starts a stream of edit blocks over a text or a file map (createPatchStream with `format: 'blocks'`). @internal */
export function createBlocksStream(target: string, options: BlocksStreamOptions): BlocksStream;
export function createBlocksStream<T extends Files>(target: T, options: FilesBlocksStreamOptions): FilesBlocksStream<T>;
export function createBlocksStream(
  target: string | Files,
  options: BlocksStreamOptions | FilesBlocksStreamOptions,
): BlocksStream | FilesBlocksStream<Files> {
  const { format: _format, ...rest } = checkOptions(options);
  // The options checked now, as the one-shot call checks them.
  blockOptions(rest as EditOptions);
  if (typeof target === 'string') {
    checkString('target', target);
    return new TextBlocks(target, rest as EditOptions);
  }
  const map = fileMap(target);
  const path = rest.path;
  if (path !== undefined && typeof path !== 'string') throw new TypeError(`applypatch: options.path must be a string, got ${typeof path}`);
  const base = rest.base === undefined ? undefined : fileMap(baseFiles(rest));
  return new FilesBlocks(target, map, base, rest as ApplyBlocksOptions);
}

/** Parses of one open block at full pace before the stream backs off (see `#wait`). */
const OPEN_PARSES = 8;

/**
 * The message held as lines, parsed where a block can close; what the
 * blocks apply to is the subclass's.
 */
abstract class Stream<E extends { type: string }> {
  /** Every piece pushed. */
  #all: string[] = [];
  /** The unfinished last line. */
  #line = '';
  /** Complete lines since the last point where no block was open, each with its `\n`. */
  #window: string[] = [];
  /** The message line (1-based) of `#window[0]`, and its UTF-16 offset in the message. */
  #windowLine = 1;
  #windowOffset = 0;
  /** A line that can close a block arrived since the last parse; the last such line in the window. */
  #closing = false;
  #trigger = 0;
  /**
   * The window's length, the parses in a row that found a block still open
   * and settled nothing, and the length the window must reach before the
   * next parse: lines starting with `>>>` or `+++` inside one block would
   * otherwise re-parse it at each of them (quadratic). After
   * {@link OPEN_PARSES} such parses the stream waits for the window to
   * double, which keeps the parsing linear in the message; that block's
   * event may then come later, or only from end() (the one-shot call
   * either way). A block with a few such lines is not delayed.
   */
  #windowChars = 0;
  #openParses = 0;
  #wait = 0;
  /** The edits applied so far. */
  #applied = 0;
  protected state: 'open' | 'failed' | 'ended' = 'open';

  /** Whether a malformed block fails the one-shot call (`applyBlocks`: it applies nothing then). */
  protected abstract readonly problemsFail: boolean;
  /** Applies edit `index`; `upTo()` is where its end marker line ends in the message. A failure's event is an error. */
  protected abstract apply(edit: ParsedEditBlock, index: number, upTo: () => number): E;
  /** The error event of the one-shot call on `message`, which fails or throws. */
  protected abstract failure(message: string): E;
  /** The one-shot call on the whole message. */
  protected abstract finish(message: string): unknown;

  push(chunk: string): E[] {
    if (typeof chunk !== 'string') throw new TypeError(`applypatch: push takes a string, got ${typeof chunk}`);
    if (this.state === 'ended') throw new Error('applypatch: this stream has ended; start a new one with createPatchStream()');
    this.#all.push(chunk);
    if (this.state === 'failed') return [];
    let from = 0;
    for (let nl = chunk.indexOf('\n'); nl >= 0; nl = chunk.indexOf('\n', from)) {
      const line = this.#line + chunk.slice(from, nl + 1);
      this.#line = '';
      from = nl + 1;
      const c = line.charCodeAt(0);
      if ((c === GT || c === PLUS) && line.charCodeAt(1) === c && line.charCodeAt(2) === c) {
        this.#closing = true;
        this.#trigger = this.#window.length;
      }
      this.#window.push(line);
      this.#windowChars += line.length;
    }
    this.#line += chunk.slice(from);
    if (!this.#closing || this.#windowChars < this.#wait) return [];
    this.#closing = false;
    return this.#parse();
  }

  /** Parses the window, applies its edits, and moves the window past what is settled. */
  #parse(): E[] {
    const text = this.#window.join('');
    // A lone surrogate: the one-shot call refuses the message there.
    if (!wellFormed(text)) return [this.#fail(this.#windowOffset + text.length)];
    const [edits, ends, open, problems] = call(() => extra.wasm().blocksStreamParse(text)) as [
      ParsedEditBlock[],
      Uint32Array,
      boolean,
      Uint32Array,
    ];
    // Settled: with no block open, everything before the last line that can
    // close one (no block starts after it); else everything before the last
    // end marker. The parser's state there is that of a parser starting
    // there: no block open (the line itself ends none in either).
    const keep = open ? (edits.length > 0 ? (ends[edits.length - 1] as number) - 1 : 0) : this.#trigger;
    // The first malformed block settled here (through line keep + 1, where
    // no block is open; nothing while the window's only block is open), when
    // that fails the one-shot call. A moved window's first line was read in
    // its place already: read again with no block open, an end marker there
    // is no problem of the message.
    let problem = Number.POSITIVE_INFINITY;
    const through = open && edits.length === 0 ? 0 : keep + 1;
    if (this.problemsFail) {
      for (const p of problems) if (p <= through && (p > 1 || this.#windowLine === 1)) problem = Math.min(problem, p);
    }
    const events: E[] = [];
    for (const [k, parsed] of edits.entries()) {
      if (parsed.line > problem) break;
      const end = (ends[k] as number) - 1;
      // Its `path` is the previous block's when the line before names none;
      // `undefined` when that block is before the window (the subclass keeps it).
      const edit: ParsedEditBlock = { ...parsed, line: parsed.line + this.#windowLine - 1 };
      const event = this.apply(edit, this.#applied, () => this.#windowOffset + lengthOf(this.#window, end + 1));
      events.push(event);
      if (event.type === 'error') {
        this.state = 'failed';
        return events;
      }
      this.#applied++;
    }
    if (problem !== Number.POSITIVE_INFINITY) {
      events.push(this.#fail(this.#windowOffset + lengthOf(this.#window, keep + 1)));
      return events;
    }
    this.#openParses = open && keep === 0 ? this.#openParses + 1 : 0;
    this.#wait = this.#openParses > OPEN_PARSES ? 2 * text.length : 0;
    if (keep > 0) {
      const settled = lengthOf(this.#window, keep);
      this.#windowChars -= settled;
      this.#windowOffset += settled;
      this.#windowLine += keep;
      this.#window = this.#window.slice(keep);
    }
    return events;
  }

  /** The message's first `length` UTF-16 units. */
  protected pushed(length: number): string {
    return this.#all.join('').slice(0, length);
  }

  #fail(length: number): E {
    this.state = 'failed';
    return this.failure(this.pushed(length));
  }

  protected check(): void {
    if (this.state === 'ended') throw new Error('applypatch: this stream has ended');
  }

  /** The one-shot call on the whole message; the stream is then ended. */
  protected ending(): unknown {
    if (this.state === 'ended') throw new Error('applypatch: this stream has ended; start a new one with createPatchStream()');
    this.state = 'ended';
    const message = this.#all.join('');
    this.#all = [];
    this.#window = [];
    return this.finish(message);
  }

  abort(): void {
    this.state = 'ended';
    this.#all = [];
    this.#window = [];
  }
}

/** The options of one step: repairs are reported once, by end(). */
function withoutRepairs<O extends object>(options: O): O {
  const { onRepair: _onRepair, ...step } = options as O & { onRepair?: unknown };
  return step as O;
}

/** The one-shot call's outcome as an error event's fields: its result, or the `PatchError` it throws. */
function outcome<R>(fn: () => R): { result: R } | { error: PatchError } {
  try {
    return { result: fn() };
  } catch (e) {
    if (!(e instanceof PatchError)) throw e;
    return { error: e };
  }
}

/** Edit blocks over a text (with `base`: over base, merged into the text). */
class TextBlocks extends Stream<BlocksStreamEvent> implements BlocksStream {
  protected readonly problemsFail = false;
  #target: string;
  #base: string | undefined;
  #options: EditOptions;
  /** The options of the one-shot call on a prefix, and those of a step (on base, without merging). */
  #prefixOptions: EditOptions;
  #stepOptions: EditOptions;
  /** The text the edits apply to (the target, or base), as the edits so far left it. */
  #preview: string;
  /** Line breaks in the text the edits apply to (for a startLine, see {@link apply}). */
  #ontoLines: number | undefined;

  constructor(target: string, options: EditOptions) {
    super();
    this.#target = target;
    this.#base = baseOption(options as Record<string, unknown>);
    this.#options = options;
    this.#prefixOptions = withoutRepairs(options);
    const { base: _base, ...step } = this.#prefixOptions;
    this.#stepOptions = step;
    this.#preview = this.#base ?? target;
  }

  protected apply(edit: ParsedEditBlock, index: number, upTo: () => number): BlocksStreamEvent {
    // applyEdits moves an edit's startLine by the lines the edits before it
    // added or removed (src/blocks/apply.rs `find_each`).
    let step: EditResult | undefined;
    if (edit.startLine === undefined) {
      step = applyEdit(this.#preview, edit, this.#stepOptions);
    } else {
      this.#ontoLines ??= newlines(this.#base ?? this.#target);
      const moved = edit.startLine + newlines(this.#preview) - this.#ontoLines;
      if (moved >= 1) step = applyEdit(this.#preview, { ...edit, startLine: moved }, this.#stepOptions);
    }
    if (step === undefined || !step.ok) {
      // The one-shot call on the message so far says what happened (a step it
      // takes differently, such as a startLine moved before line 1, included).
      const oneShot = this.#oneShot(this.pushed(upTo()));
      if (!('result' in oneShot) || !oneShot.result.ok) return { type: 'error', ...oneShot };
      step = oneShot.result.results[index] as EditResult;
    }
    const before = this.#preview;
    this.#preview = step.text;
    return {
      type: 'section',
      index,
      diffLine: edit.line,
      inputLine: lineAt(before, step.start),
      splices: step.splices.map(({ from, to, insert }) => ({ from, to, insert })),
    };
  }

  #oneShot(message: string): { result: EditsResult } | { error: PatchError } {
    return outcome(() => applyEdits(this.#target, parseBlocks(message, { detailed: true }).edits, this.#prefixOptions));
  }

  protected failure(message: string): BlocksStreamEvent {
    return { type: 'error', ...this.#oneShot(message) };
  }

  protected finish(message: string): EditsResult {
    return applyEdits(this.#target, parseBlocks(message, { detailed: true }).edits, this.#options);
  }

  preview(): string {
    this.check();
    return this.#base === undefined ? this.#preview : mergeInto(extra, this.#base, this.#target, this.#preview);
  }

  end(): EditsResult {
    return this.ending() as EditsResult;
  }
}

/**
 * Edit blocks over a file map, each to the file `applyBlocks` sends it to
 * (with `base`: over the base map, each changed file merged into the map's).
 */
class FilesBlocks<T extends Files> extends Stream<FilesBlocksStreamEvent<T>> implements FilesBlocksStream<T> {
  protected readonly problemsFail = true;
  #files: T;
  #target: FileMap<T>;
  #base: FileMap<Files> | undefined;
  /** The files the blocks apply to (the target's, or base's). */
  #onto: FileMap<Files>;
  #options: ApplyBlocksOptions;
  #prefixOptions: ApplyBlocksOptions;
  #stepOptions: EditOptions;
  #path: string | undefined;
  // The maps are made in the constructor, not by field initializers:
  // Parcel keeps a class whose fields construct something, and with it this
  // module and the extra engine, in a bundle that never streams edit blocks.
  /** The files the blocks applied so far changed or created, as they left them. */
  #current: Map<string, string>;
  /**
   * As `applyBlocks` names the files (src/blocks/names.rs): the names of
   * files the message created (kept as written), the names the `file-name`
   * repair took as another file, and the last block's name (a block with
   * none on the line before takes it).
   */
  #created: Set<string>;
  #mapped: Map<string, string>;
  #written: string | undefined;

  constructor(files: T, target: FileMap<T>, base: FileMap<Files> | undefined, options: ApplyBlocksOptions) {
    super();
    this.#current = new Map();
    this.#created = new Set();
    this.#mapped = new Map();
    this.#files = files;
    this.#target = target;
    this.#base = base;
    this.#onto = base ?? target;
    this.#options = options;
    this.#prefixOptions = withoutRepairs(options);
    const { base: _base, path, ...step } = this.#prefixOptions;
    this.#stepOptions = step;
    this.#path = path;
  }

  protected apply(edit: ParsedEditBlock, index: number, upTo: () => number): FilesBlocksStreamEvent<T> {
    const written = edit.path ?? this.#written;
    this.#written = written;
    // The file, where applyBlocks' naming is plain: a name in the map, or
    // of a file the message created, kept; an unknown name with an empty
    // SEARCH text creates that file. Any other (an unknown name, no name
    // and no `path`) is the one-shot call's to name, or to fail.
    let file: string | undefined;
    if (written === undefined) file = this.#path;
    else if (this.#onto.get(written) !== undefined || this.#created.has(written)) file = written;
    else if (edit.search === '') {
      this.#created.add(written);
      file = written;
    } else file = this.#mapped.get(written);
    let before =
      file === undefined ? undefined : (this.#current.get(file) ?? this.#onto.get(file) ?? (edit.search === '' ? '' : undefined));
    const { search, replace, startLine, endLine } = edit;
    let result = before === undefined ? undefined : applyEdit(before, { search, replace, startLine, endLine }, this.#stepOptions);
    if (file === undefined || before === undefined || result === undefined || !result.ok) {
      const oneShot = outcome(() => applyBlocks(this.#files, this.pushed(upTo()), this.#prefixOptions));
      if (!('result' in oneShot) || !oneShot.result.ok) return { type: 'error', ...oneShot };
      // It applied: to the file the `file-name` repair took the name as (a
      // file of the map, so this step is the one-shot call's).
      file = (oneShot.result.results[index] as { path: string }).path;
      if (written !== undefined) this.#mapped.set(written, file);
      before = this.#current.get(file) ?? this.#onto.get(file) ?? '';
      result = applyEdit(before, { search, replace, startLine, endLine }, this.#stepOptions);
    }
    this.#current.set(file, result.text);
    return {
      type: 'section',
      path: file,
      index,
      diffLine: edit.line,
      inputLine: lineAt(before, result.start),
      splices: result.splices.map(({ from, to, insert }) => ({ from, to, insert })),
    };
  }

  protected failure(message: string): FilesBlocksStreamEvent<T> {
    return { type: 'error', ...outcome(() => applyBlocks(this.#files, message, this.#prefixOptions)) };
  }

  protected finish(message: string): BlocksResult<T> {
    return applyBlocks(this.#files, message, this.#options);
  }

  preview(): T {
    this.check();
    const flat: string[] = [];
    for (const [path, text] of this.#current) flat.push(path, text);
    const base = this.#base;
    if (base === undefined) return this.#target.with(flat);
    // As applyBlocks with base: each file changed over base merged into the map's.
    const patched = fileMap(base.with(flat));
    const changes: BaseChange[] = [];
    for (const path of this.#current.keys()) {
      const was = base.get(path);
      if (patched.get(path) !== was) changes.push({ path, status: was === undefined ? 'added' : 'modified' });
    }
    return this.#target.with(mergeChanges(extra, this.#target, base, patched, changes));
  }

  end(): BlocksResult<T> {
    return this.ending() as BlocksResult<T>;
  }
}

function lengthOf(lines: readonly string[], n: number): number {
  let total = 0;
  for (let i = 0; i < n; i++) total += (lines[i] as string).length;
  return total;
}

function newlines(text: string): number {
  let n = 0;
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) n++;
  return n;
}

/** The 1-based line of UTF-16 offset `at`. */
function lineAt(text: string, at: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < at; i = text.indexOf('\n', i + 1)) line++;
  return line;
}
