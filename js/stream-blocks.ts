// createPatchStream(text, { format: 'blocks' }): search/replace edit blocks
// applied to a text while the message is still being written
// (docs/stream.md). The one-shot call it answers for is
// `applyEdits(text, parseBlocks(message, { detailed: true }).edits, options)`.
//
// The message is held here as lines. When a complete line could close a
// block (it starts with `>>>` or `+++`), the engine parses the lines since
// the last point where no block was open (`blocksStreamParse`), so each
// line is parsed about once; each new edit is applied to the preview with
// `applyEdit`, the step `applyEdits` takes for it. `end()` is the one-shot
// call itself.
import { checkOptions, checkString, wellFormed } from './args.js';
import { wasm } from './binding.js';
import {
  applyEdit,
  applyEdits,
  blockOptions,
  type EditOptions,
  type EditResult,
  type EditsResult,
  type ParsedEditBlock,
  parseBlocks,
} from './blocks.js';
import { call, PatchError } from './errors.js';
import type { StreamSplice } from './stream.js';

/** The options of edit blocks streamed over a text: those of `applyEdits` (not `base`), and `format: 'blocks'`. */
export type BlocksStreamOptions = Omit<EditOptions, 'base'> & { format: 'blocks' };

/** What a push of an edit-blocks message completed. */
export type BlocksStreamEvent =
  | {
      /** A block was closed and applied. */
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

/** Edit blocks being applied to a text as the message arrives. */
export interface BlocksStream {
  /** Takes the next piece, cut anywhere; returns the events it completed (`[]` after an error; it throws after `end()` or `abort()`). */
  push(chunk: string): BlocksStreamEvent[];
  /** The text with every applied block. */
  preview(): string;
  /** Exactly `applyEdits(text, parseBlocks(message, { detailed: true }).edits, options)` for the whole message. */
  end(): EditsResult;
  /** Releases the stream; it can no longer be used. */
  abort(): void;
}

const GT = 0x3e;
const PLUS = 0x2b;

/** Starts a stream of edit blocks over `target` (createPatchStream with `format: 'blocks'`). @internal */
export function createBlocksStream(target: string, options: BlocksStreamOptions): BlocksStream {
  checkString('target', target);
  const opts = checkOptions(options);
  if (opts.base !== undefined) {
    throw new TypeError(
      "applypatch: format 'blocks' does not take options.base yet; apply the whole message with applyEdits(text, edits, { base }) for that",
    );
  }
  const { format: _format, ...editOptions } = opts as BlocksStreamOptions & Record<string, unknown>;
  // The options checked now, as applyEdits checks them.
  blockOptions(editOptions as EditOptions);
  return new Blocks(target, editOptions as EditOptions);
}

class Blocks implements BlocksStream {
  #target: string;
  #options: EditOptions;
  /** The options of each step: repairs are reported once, by end(). */
  #stepOptions: EditOptions;
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
  /** The edits applied so far, and the text they give. */
  #applied = 0;
  #preview: string;
  /** Line breaks in the target (for a startLine, see {@link #apply}). */
  #targetLines: number | undefined;
  #state: 'open' | 'failed' | 'ended' = 'open';

  constructor(target: string, options: EditOptions) {
    this.#target = target;
    this.#options = options;
    const { onRepair: _onRepair, ...step } = options as EditOptions & { onRepair?: unknown };
    this.#stepOptions = step;
    this.#preview = target;
  }

  push(chunk: string): BlocksStreamEvent[] {
    if (typeof chunk !== 'string') throw new TypeError(`applypatch: push takes a string, got ${typeof chunk}`);
    if (this.#state === 'ended') throw new Error('applypatch: this stream has ended; start a new one with createPatchStream()');
    this.#all.push(chunk);
    if (this.#state === 'failed') return [];
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
  #parse(): BlocksStreamEvent[] {
    const text = this.#window.join('');
    // A lone surrogate: the one-shot call refuses the message there.
    if (!wellFormed(text)) return this.#fail(this.#windowOffset + text.length);
    const [edits, ends, open] = call(() => wasm().blocksStreamParse(text)) as [ParsedEditBlock[], Uint32Array, boolean];
    const events: BlocksStreamEvent[] = [];
    for (const [k, parsed] of edits.entries()) {
      const end = (ends[k] as number) - 1;
      // (Its `path`, which applyEdits does not read, may be the previous block's; it is left as parsed.)
      const edit: ParsedEditBlock = { ...parsed, line: parsed.line + this.#windowLine - 1 };
      const event = this.#apply(edit, () => this.#windowOffset + lengthOf(this.#window, end + 1));
      events.push(event);
      if (event.type === 'error') return events;
    }
    // Settled: with no block open, everything before the last line that can
    // close one (no block starts after it); else everything before the last
    // end marker. The parser's state there is that of a parser starting
    // there: no block open (the line itself ends none in either).
    const keep = open ? (edits.length > 0 ? (ends[edits.length - 1] as number) - 1 : 0) : this.#trigger;
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

  /** Applies the next edit to the preview; `upTo()` is where its end marker line ends in the message. */
  #apply(edit: ParsedEditBlock, upTo: () => number): BlocksStreamEvent {
    const index = this.#applied;
    // applyEdits moves an edit's startLine by the lines the edits before it
    // added or removed (src/blocks/apply.rs `find_each`).
    let step: EditResult | undefined;
    if (edit.startLine === undefined) {
      step = applyEdit(this.#preview, edit, this.#stepOptions);
    } else {
      this.#targetLines ??= newlines(this.#target);
      const moved = edit.startLine + newlines(this.#preview) - this.#targetLines;
      if (moved >= 1) step = applyEdit(this.#preview, { ...edit, startLine: moved }, this.#stepOptions);
    }
    if (step === undefined || !step.ok) {
      // The one-shot call on the message so far says what happened (a step it
      // takes differently, such as a startLine moved before line 1, included).
      const result = this.#oneShot(upTo());
      if (result === undefined || !result.ok) {
        this.#state = 'failed';
        return result === undefined ? { type: 'error', error: this.#error as PatchError } : { type: 'error', result };
      }
      step = result.results[index] as EditResult;
    }
    const before = this.#preview;
    this.#preview = step.text;
    this.#applied++;
    return {
      type: 'section',
      index,
      diffLine: edit.line,
      inputLine: lineAt(before, step.start),
      splices: step.splices.map(({ from, to, insert }) => ({ from, to, insert })),
    };
  }

  /** The error the one-shot call threw in {@link #oneShot}. */
  #error: PatchError | undefined;

  /** The one-shot call on the message's first `length` units; `undefined` when it throws (then in `#error`). */
  #oneShot(length: number): EditsResult | undefined {
    try {
      const message = this.#all.join('').slice(0, length);
      return applyEdits(this.#target, parseBlocks(message, { detailed: true }).edits, this.#stepOptions);
    } catch (e) {
      if (!(e instanceof PatchError)) throw e;
      this.#error = e;
      return undefined;
    }
  }

  #fail(length: number): BlocksStreamEvent[] {
    this.#state = 'failed';
    const result = this.#oneShot(length);
    return [result === undefined ? { type: 'error', error: this.#error as PatchError } : { type: 'error', result }];
  }

  preview(): string {
    if (this.#state === 'ended') throw new Error('applypatch: this stream has ended');
    return this.#preview;
  }

  end(): EditsResult {
    if (this.#state === 'ended') throw new Error('applypatch: this stream has ended; start a new one with createPatchStream()');
    this.#state = 'ended';
    const message = this.#all.join('');
    this.#all = [];
    this.#window = [];
    return applyEdits(this.#target, parseBlocks(message, { detailed: true }).edits, this.#options);
  }

  abort(): void {
    this.#state = 'ended';
    this.#all = [];
    this.#window = [];
  }
}

/** UTF-16 units of the first `n` lines. */
/** Parses of one open block at full pace before the stream backs off (see `#wait`). */
const OPEN_PARSES = 8;

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
