// createPatchStream(target, { format: 'auto' }): the text is held until a
// line settles its format (the engine's FormatLines, detectFormat's rules
// read line by line), then everything pushed so far goes to the stream of
// that format, which takes the rest (docs/stream.md).
import { checkOptions } from './args.js';
import type { Held } from './binding.js';
import type { BlocksResult, EditsResult } from './blocks.js';
import { extra } from './engines/extra.js';
import { call, PatchError } from './errors.js';
import { detectFormat, type Format } from './format.js';
import type { Files } from './patch.js';
import type { StreamEvent } from './stream.js';
import type { BlocksStreamEvent, BlocksStreamOptions, FilesBlocksStreamEvent, FilesBlocksStreamOptions } from './stream-blocks.js';
import type * as ExtraGlue from './wasm-extra.js';

/** The options of a text streamed in the format its lines show, over a text: those of the diff and the edit-block streams (not `repair`). */
export type AutoStreamOptions = Omit<BlocksStreamOptions, 'format' | 'repair' | 'onRepair'> & {
  format: 'auto';
  /** For a V4A diff: `'strict'` (default) or `'codex'`, as for `apply`. */
  mode?: 'strict' | 'codex';
};

/** The options of a text streamed in the format its lines show, over a file map (`base` a file map). */
export type FilesAutoStreamOptions = Omit<FilesBlocksStreamOptions, 'format' | 'repair' | 'onRepair'> & {
  format: 'auto';
  /** For a patch or a unified diff: `'strict'` (default) or `'codex'`, as for `applyFiles` (a unified diff takes `'strict'` only: `applyUnified` refuses `'codex'`). */
  mode?: 'strict' | 'codex';
};

/** A stream whose format is decided by its first lines (`format: 'auto'`). */
export interface AutoStream<R, E, End> {
  /** The format decided (`detectFormat`'s for the lines up to the one that decided it); `undefined` until then. */
  readonly format: Format | undefined;
  /** Takes the next piece, cut anywhere; returns the events it completed (none until the format is decided). */
  push(chunk: string): E[];
  /** The target with every placed section applied (the target itself until the format is decided). */
  preview(): R;
  /** Exactly the one-shot call of the format decided (if none was, `detectFormat`'s for the whole text). */
  end(): End;
  /** Releases the stream; it can no longer be used. */
  abort(): void;
}

/**
 * `format: 'auto'` over a text: a V4A diff (`apply`) or edit blocks
 * (`applyEdits(parseBlocks())`); a patch or a unified diff is held, and
 * `end()` throws `apply`'s error for it (which names the function that
 * takes it).
 */
export type TextAutoStream = AutoStream<string, StreamEvent | BlocksStreamEvent, string | EditsResult>;

/**
 * `format: 'auto'` over a file map: a patch (`applyFiles`), edit blocks
 * (`applyBlocks`) or a unified diff (`applyUnified`).
 */
export type FilesAutoStream<T extends Files> = AutoStream<T, StreamEvent | FilesBlocksStreamEvent<T>, T | BlocksResult<T>>;

/** What a decided format streams into. */
type Inner = {
  push(chunk: string): unknown[];
  preview(): unknown;
  end(): unknown;
  abort(): void;
};

/** Makes the stream of a format (createPatchStream with that format). */
type Make = (format: 'diff' | 'patch' | 'blocks' | 'unified') => Inner;

// A stream dropped before its format was decided frees the engine's reader when collected.
const dropped = new FinalizationRegistry<Held<ExtraGlue.PreparedFormat>>((held) => held.release());

/**
 * Starts a `format: 'auto'` stream: `make` creates the stream of the format
 * decided, with the caller's options; `preview` is the target's preview
 * before any is. @internal
 */
export function createAutoStream(isText: boolean, options: Record<string, unknown>, make: Make, preview: () => unknown): Inner {
  if (checkOptions(options).repair !== undefined && options.repair !== false) {
    throw new TypeError(
      "applypatch: format 'auto' does not take options.repair (diffs and patches do not stream with repairs yet); give the format ('blocks') to stream edit blocks with repairs",
    );
  }
  return new Auto(isText, make, preview);
}

class Auto implements Inner {
  #isText: boolean;
  #make: Make;
  #preview: () => unknown;
  #held: Held<ExtraGlue.PreparedFormat> | undefined;
  #inner: Inner | undefined;
  #format: Format | undefined;
  /** Before the format is decided: every piece pushed, and the unfinished last line. */
  #all: string[] = [];
  #line = '';
  #ended = false;

  constructor(isText: boolean, make: Make, preview: () => unknown) {
    this.#isText = isText;
    this.#make = make;
    this.#preview = preview;
    this.#held = extra.holdPrepared('PreparedFormat', call(() => extra.wasm().prepareFormat()) as ExtraGlue.PreparedFormat);
    dropped.register(this, this.#held, this);
  }

  get format(): Format | undefined {
    return this.#format;
  }

  push(chunk: string): unknown[] {
    if (this.#inner !== undefined) return this.#inner.push(chunk);
    if (typeof chunk !== 'string') throw new TypeError(`applypatch: push takes a string, got ${typeof chunk}`);
    if (this.#ended) throw new Error('applypatch: this stream has ended; start a new one with createPatchStream()');
    this.#all.push(chunk);
    const nl = chunk.lastIndexOf('\n');
    if (nl < 0) {
      this.#line += chunk;
      return [];
    }
    const lines = this.#line + chunk.slice(0, nl + 1);
    this.#line = chunk.slice(nl + 1);
    const format = this.#reader().push(lines) as Format | undefined;
    if (format === undefined) return [];
    // Decided: everything so far goes to that format's stream (whose events
    // do not depend on how its text is cut).
    return this.#decide(format).push(this.#take());
  }

  preview(): unknown {
    if (this.#inner !== undefined) return this.#inner.preview();
    if (this.#ended) throw new Error('applypatch: this stream has ended');
    return this.#preview();
  }

  end(): unknown {
    if (this.#inner === undefined) {
      if (this.#ended) throw new Error('applypatch: this stream has ended; start a new one with createPatchStream()');
      // Not decided by a line: detectFormat of the whole text, as the one-shot call reads it.
      const text = this.#all.join('');
      let format: Format;
      try {
        format = detectFormat(text);
      } catch (e) {
        // A lone surrogate: the one-shot call of any format refuses the text so.
        if (!(e instanceof PatchError)) throw e;
        format = this.#isText ? 'diff' : 'patch';
      }
      this.#decide(format).push(this.#take());
    }
    return (this.#inner as Inner).end();
  }

  abort(): void {
    this.#ended = true;
    this.#release();
    this.#all = [];
    this.#inner?.abort();
  }

  #reader(): ExtraGlue.PreparedFormat {
    const held = this.#held;
    if (held === undefined || !held.alive()) {
      this.#ended = true;
      throw new PatchError({
        code: 'internal_error',
        message:
          'applypatch: the WebAssembly engine was restarted after a failure elsewhere, and this stream went with it. Start a new stream with createPatchStream() and push the text again.',
      });
    }
    return held.object;
  }

  /** The stream of `format` (over a map, a V4A diff is read as a patch, as applyFiles reads it). */
  #decide(format: Format): Inner {
    this.#release();
    this.#format = format;
    const kind = !this.#isText && format === 'diff' ? 'patch' : format;
    this.#inner = this.#make(kind);
    return this.#inner;
  }

  #take(): string {
    const text = this.#all.join('');
    this.#all = [];
    this.#line = '';
    return text;
  }

  #release(): void {
    if (this.#held === undefined) return;
    dropped.unregister(this);
    this.#held.release();
    this.#held = undefined;
  }
}

/**
 * A stream of a format that does not stream yet: the text is held, and
 * `end()` is the one-shot call on it. @internal
 */
export function wholeText(preview: () => unknown, end: (text: string) => unknown): Inner {
  const all: string[] = [];
  let ended = false;
  const open = () => {
    if (ended) throw new Error('applypatch: this stream has ended; start a new one with createPatchStream()');
  };
  return {
    push(chunk: string): unknown[] {
      if (typeof chunk !== 'string') throw new TypeError(`applypatch: push takes a string, got ${typeof chunk}`);
      open();
      all.push(chunk);
      return [];
    },
    preview(): unknown {
      open();
      return preview();
    },
    end(): unknown {
      open();
      ended = true;
      return end(all.join(''));
    },
    abort(): void {
      ended = true;
    },
  };
}
