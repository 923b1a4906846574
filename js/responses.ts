// Turning a Responses API stream into the text of one tool call's input, as
// it arrives, for createPatchStream (docs/stream.md): a custom tool's input
// deltas are the text itself; a function tool's argument deltas are pieces
// of a JSON object, whose one string field is decoded here incrementally
// (escapes, \uXXXX included, may be cut anywhere).

export interface ToolInputOptions {
  /** Only the events of this output item (`item_id`); by default, of the first tool call seen. */
  itemId?: string;
  /** For function tools: the argument holding the patch or diff (default `'diff'`). */
  field?: string;
}

/**
 * Returns a function that takes each Responses API stream event and returns
 * the text it adds to the tool call's input (`''` for any other event):
 * `response.custom_tool_call_input.delta` (a custom tool such as Codex's
 * `apply_patch`: the delta is the text) and
 * `response.function_call_arguments.delta` (the delta is JSON: the string
 * value of `field`, decoded).
 */
export function createToolInputDecoder(options: ToolInputOptions = {}): (event: unknown) => string {
  const field = options.field ?? 'diff';
  let item = options.itemId;
  let json: JsonField | undefined;
  return (event) => {
    if (event === null || typeof event !== 'object') return '';
    const e = event as { type?: unknown; item_id?: unknown; delta?: unknown };
    const custom = e.type === 'response.custom_tool_call_input.delta';
    if ((!custom && e.type !== 'response.function_call_arguments.delta') || typeof e.delta !== 'string') return '';
    if (typeof e.item_id === 'string') {
      item ??= e.item_id;
      if (e.item_id !== item) return '';
    }
    if (custom) return e.delta;
    json ??= new JsonField(field);
    return json.push(e.delta);
  };
}

/**
 * Where the decoder is: before the object's `{` (`start`), between tokens of
 * the top-level object (`object`), reading a top-level key (`key`), after the
 * wanted key (`colon`), inside the wanted string (`value`), inside another
 * value (`skip`), or past the wanted value (`done`).
 */
type At = 'start' | 'object' | 'key' | 'colon' | 'value' | 'skip' | 'done';

/** The string value of one top-level field of a JSON object that arrives in pieces. */
class JsonField {
  #at: At = 'start';
  #key = '';
  /** Inside a string being read or skipped: after a backslash, and the hex digits of a `\u` so far (`undefined`: not in one). */
  #escape = false;
  #hex: string | undefined;
  /** Skipping: nesting depth, and whether inside a string. */
  #depth = 0;
  #inString = false;

  constructor(readonly field: string) {}

  push(delta: string): string {
    let out = '';
    for (let i = 0; i < delta.length; i++) {
      const c = delta[i];
      switch (this.#at) {
        case 'start':
          if (c === '{') this.#at = 'object';
          break;
        case 'object':
          if (c === '"') {
            this.#at = 'key';
            this.#key = '';
          } else if (c === '}') this.#at = 'done';
          else if (c === ':') {
            this.#at = 'skip';
            this.#depth = 0;
            this.#inString = false;
          }
          break;
        case 'key': {
          const s = this.#char(c);
          if (s === null) {
            this.#at = this.#key === this.field ? 'colon' : 'object';
          } else this.#key += s;
          break;
        }
        case 'colon':
          if (c === '"') this.#at = 'value';
          else if (c !== ':' && c.trim() !== '') this.#at = 'done'; // not a string: nothing to stream
          break;
        case 'value': {
          const s = this.#char(c);
          if (s === null) this.#at = 'done';
          else out += s;
          break;
        }
        case 'skip':
          if (this.#inString) {
            if (this.#char(c) === null) this.#inString = false;
          } else if (c === '"') this.#inString = true;
          else if (c === '{' || c === '[') this.#depth++;
          else if (c === '}' || c === ']') {
            if (this.#depth === 0) this.#at = 'done';
            else this.#depth--;
          } else if (c === ',' && this.#depth === 0) this.#at = 'object';
          break;
        case 'done':
          return out;
      }
    }
    return out;
  }

  /** One character of a JSON string: its text (possibly empty, inside an escape), or `null` for the closing quote. */
  #char(c: string): string | null {
    if (this.#hex !== undefined) {
      this.#hex += c;
      if (this.#hex.length < 4) return '';
      const unit = String.fromCharCode(Number.parseInt(this.#hex, 16));
      this.#hex = undefined;
      return unit;
    }
    if (this.#escape) {
      this.#escape = false;
      if (c === 'u') {
        this.#hex = '';
        return '';
      }
      return ESCAPES[c] ?? c;
    }
    if (c === '\\') {
      this.#escape = true;
      return '';
    }
    return c === '"' ? null : c;
  }
}

const ESCAPES: Record<string, string> = { b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
