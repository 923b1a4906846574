// The Codex CLI's apply_patch tool definition, to offer a model.
import { checkOptions } from './args.js';
import { core } from './engines/core.js';

export interface CodexToolOptions {
  /** Use the grammar that allows an `*** Environment ID:` line (default false). */
  environmentId?: boolean;
}

/** A Responses API custom tool with a Lark grammar. */
export interface CodexTool {
  type: 'custom';
  name: 'apply_patch';
  description: string;
  format: { type: 'grammar'; syntax: 'lark'; definition: string };
}

function environmentId(options: unknown): boolean {
  const value = checkOptions(options).environmentId ?? false;
  if (typeof value !== 'boolean') throw new TypeError('applypatch: options.environmentId must be a boolean');
  return value;
}

/** The Lark grammar of Codex's apply_patch tool, byte for byte. */
export function codexGrammar(options?: CodexToolOptions): string {
  return core.wasm().codexGrammar(environmentId(options));
}

/**
 * The apply_patch tool exactly as the Codex CLI offers it to GPT-5 models: a
 * freeform tool whose input is the patch, constrained by a Lark grammar. Pass
 * it in `tools` of a Responses API request; the model answers with a
 * `custom_tool_call` whose `input` is a patch for {@link applyFiles}.
 */
export function codexTool(options?: CodexToolOptions): CodexTool {
  return {
    type: 'custom',
    name: 'apply_patch',
    description: core.wasm().codexDescription(),
    format: { type: 'grammar', syntax: 'lark', definition: codexGrammar(options) },
  };
}
