// The code examples of README.md and docs/*.md, as data: each fenced block
// with its language, its flags (the words after the language on the fence
// line) and where it is. tests/docs/examples.test.mjs runs them; the
// convention is described in docs/testing.md ("The examples in the docs").
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The Markdown files whose examples are checked, relative to the root. */
export function documents() {
  const docs = readdirSync(join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`);
  return ['README.md', ...docs];
}

/**
 * The fenced blocks of one Markdown file: `{ file, line, lang, flags, code }`,
 * `line` being the 1-based line of the opening fence. A block flagged
 * `continued` is joined to the block of the same language before it in the
 * same file (it uses its imports and variables).
 */
export function blocks(file) {
  const lines = readFileSync(join(root, file), 'utf8').split('\n');
  const out = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,})([^`]*)$/.exec(lines[i]);
    if (!open) continue;
    // A fixture for the test, in an HTML comment right above the fence (not shown on the page).
    let k = i - 1;
    while (k >= 0 && lines[k].trim() === '') k--;
    const fixture = k >= 0 ? /^<!-- example-fixture: (.*) -->$/.exec(lines[k]) : null;
    const [, indent, fence, info] = open;
    const [lang = '', ...flags] = info.trim().split(/\s+/).filter(Boolean);
    const body = [];
    let j = i + 1;
    for (; j < lines.length && !(lines[j].startsWith(indent + fence) && lines[j].trim() === fence); j++) {
      body.push(lines[j].slice(indent.length));
    }
    out.push({ file, line: i + 1, lang, flags, code: body.join('\n'), ...(fixture ? { fixture: JSON.parse(fixture[1]) } : {}) });
    i = j;
  }
  for (let k = 0; k < out.length; k++) {
    if (!out[k].flags.includes('continued')) continue;
    const before = out
      .slice(0, k)
      .reverse()
      .find((b) => b.lang === out[k].lang);
    if (!before) throw new Error(`${file}:${out[k].line}: a 'continued' block with no ${out[k].lang} block before it`);
    out[k].prefix = `${before.prefix ?? ''}${before.code}\n`;
  }
  return out;
}

/**
 * Turns an example into a program that checks its own comments:
 * - `EXPR; // → VALUE`: EXPR deep-equals VALUE (a JS expression);
 * - `EXPR; // throws: CODE`: EXPR throws a PatchError of that code;
 * - `// prints: TEXT` lines: what the example prints (checked by the caller,
 *   returned as `prints`).
 * The checks number the Markdown line they come from (`lineOf`).
 */
export function instrument(code, lineOf) {
  const prints = [];
  let checks = 0;
  const out = code.split('\n').map((text, i) => {
    const where = JSON.stringify(lineOf(i));
    const printed = /\/\/ prints: (.*)$/.exec(text);
    if (printed) {
      prints.push(printed[1]);
      return text;
    }
    const arrow = /^(\s*)(.*?);?\s*\/\/ → (.*)$/.exec(text);
    if (arrow) {
      checks++;
      const wait = /\bawait\b/.test(arrow[2]) ? ['await ', 'async '] : ['', ''];
      return `${arrow[1]}${wait[0]}__expect(${wait[1]}() => (${arrow[2]}), (${arrow[3]}), ${where});`;
    }
    const throws = /^(\s*)(.*?);?\s*\/\/ throws: ([a-z_]+)(?:\s.*)?$/.exec(text);
    if (throws) {
      checks++;
      return `${throws[1]}__throws(() => (${throws[2]}), ${JSON.stringify(throws[3])}, ${where});`;
    }
    return text;
  });
  return { code: out.join('\n'), prints, checks: checks + prints.length };
}

/** Defines __expect and __throws for an instrumented example (ESM). */
export const harness = `import { deepStrictEqual as __deepEqual } from 'node:assert/strict';
const __plain = (v) => v instanceof Map ? new Map([...v].map(([k, x]) => [k, __plain(x)])) : Array.isArray(v) ? v.map(__plain) : v !== null && typeof v === 'object' && !(v instanceof Error) ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, __plain(x)])) : v;
function __compare(got, want, where) {
  try { __deepEqual(__plain(got), __plain(want)); }
  catch { throw new Error(where + ': the comment says ' + JSON.stringify(want) + ' but the value is ' + JSON.stringify(got)); }
}
function __expect(get, want, where) {
  const got = get();
  if (got instanceof Promise) return got.then((v) => __compare(v, want, where));
  __compare(got, want, where);
}
function __throws(run, code, where) {
  let value;
  try { value = run(); } catch (e) {
    if (e?.code === code) return;
    throw new Error(where + ': the comment says it throws ' + code + ' but it threw ' + (e?.code ?? e));
  }
  throw new Error(where + ': the comment says it throws ' + code + ' but it returned ' + JSON.stringify(value));
}
`;

/** The names an example imports from the package: [[specifier, name], …]. */
export function packageImports(code) {
  const out = [];
  for (const m of code.matchAll(/import\s*\{([^}]*)\}\s*from\s*'(applypatch(?:\/[a-z]+)?)'/g)) {
    for (const part of m[1].split(',')) {
      const name = part
        .trim()
        .replace(/^type\s+/, '')
        .split(/\s+as\s+/)[0];
      if (name && !part.trim().startsWith('type ')) out.push([m[2], name]);
    }
  }
  return out;
}

/**
 * `@openai/agents` for an example flagged `agents`: the real SDK
 * (`@openai/agents-core`, this repository's devDependency), with `run`
 * driving the agent with the SDK's own ScriptedModel, which sends the
 * fixture's apply_patch operations as one turn and then answers 'done'.
 * What the model got back is written to `agents-outputs.json`.
 */
export function agentsShim(core, testing) {
  return `export * from ${JSON.stringify(core)};
import { Runner } from ${JSON.stringify(core)};
import { assistantMessage, ScriptedModel } from ${JSON.stringify(testing)};
import { readFileSync, writeFileSync } from 'node:fs';
export async function run(agent, input) {
  const fixture = JSON.parse(readFileSync('fixture.json', 'utf8'));
  const calls = fixture.model.map((operation, i) => ({ type: 'apply_patch_call', callId: 'call_' + (i + 1), status: 'completed', operation }));
  const model = new ScriptedModel([calls, [assistantMessage('done')]]);
  const result = await new Runner({ tracingDisabled: true }).run(agent.clone({ model }), input);
  const outputs = model.calls[1].request.input.filter((item) => item.type === 'apply_patch_call_output').map(({ status, output }) => ({ status, output }));
  writeFileSync('agents-outputs.json', JSON.stringify(outputs));
  return result;
}
`;
}
