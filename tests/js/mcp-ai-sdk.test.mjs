// toolDefinitions + createToolHandlers as Vercel AI SDK tools, in a
// generateText loop driven by the SDK's mock language model, editing a real
// temporary directory. The tools come from the example in docs/mcp.md, run
// as written; the configuration snippets there must be valid JSON.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { makeTree, patchOf } from './fs-helpers.mjs';

const repo = join(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '..', '..');
const doc = readFileSync(join(repo, 'docs', 'mcp.md'), 'utf8');
const blocks = (lang) => [...doc.matchAll(new RegExp('```' + lang + '\\n([\\s\\S]*?)```', 'g'))].map((m) => m[1]);

/** The docs' AI SDK tools, loaded from a file inside the package (so `import 'applypatch'` is the package itself). */
async function docTools(t) {
  const code = blocks('js').find((b) => b.includes('export function applypatchTools'));
  assert.ok(code, 'docs/mcp.md has the applypatchTools example');
  mkdirSync(join(repo, 'target'), { recursive: true });
  const dir = mkdtempSync(join(repo, 'target', 'doc-example-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'example.mjs'), code);
  return (await import(pathToFileURL(join(dir, 'example.mjs')).href)).applypatchTools;
}

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
};
const toolCall = (id, toolName, input) => ({
  content: [{ type: 'tool-call', toolCallId: id, toolName, input: JSON.stringify(input) }],
  finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
  usage,
  warnings: [],
});

test('the AI SDK runs the tools in a generateText loop with a mock model', async (t) => {
  const { root } = makeTree(t, { 'src/app.py': 'def main():\n\tprint("hi")\n', 'dup.txt': 'a\na\n' });
  const applypatchTools = await docTools(t);
  const steps = [
    toolCall('1', 'read_file', { path: 'src/app.py' }),
    toolCall('2', 'edit_file', { path: 'src/app.py', edits: [{ oldText: '\tprint("hi")', newText: '\tprint("hello")' }] }),
    toolCall('3', 'edit_file', { path: 'dup.txt', edits: [{ oldText: 'a', newText: 'b' }] }),
    toolCall('4', 'apply_patch', { patch: patchOf('*** Add File: NOTES.md', '+done') }),
    { content: [{ type: 'text', text: 'All done.' }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] },
  ];
  const model = new MockLanguageModelV3({ doGenerate: async () => steps.shift() });
  const result = await generateText({
    model,
    tools: applypatchTools(root),
    stopWhen: stepCountIs(10),
    prompt: 'Say hello instead of hi, and write NOTES.md.',
  });
  assert.equal(result.text, 'All done.');
  assert.equal(result.steps.length, 5);
  // The model was offered the four tools with their JSON Schemas.
  const offered = model.doGenerateCalls[0].tools.map((tool) => [tool.name, tool.inputSchema.required]);
  assert.deepEqual(offered, [
    ['apply_patch', ['patch']],
    ['edit_file', ['path', 'edits']],
    ['apply_unified_diff', ['diff']],
    ['read_file', ['path']],
  ]);
  const outputs = result.steps.flatMap((s) => s.toolResults).map((r) => r.output);
  assert.equal(outputs[0], 'def main():\n\tprint("hi")\n');
  assert.match(outputs[1], /^Edited src\/app\.py \(1 edit\):\n/);
  assert.match(
    outputs[2],
    /^error\[context_ambiguous\]: dup\.txt, edit 1: its oldText matches 2 places in the file \(exactly\): line 1, line 2\. /,
  );
  assert.equal(outputs[3], 'Success. Updated the following files:\nA NOTES.md\n');
  // The failure reached the model in the next request.
  assert.match(JSON.stringify(model.doGenerateCalls[3].prompt), /context_ambiguous/);
  assert.equal(readFileSync(join(root, 'src/app.py'), 'utf8'), 'def main():\n\tprint("hello")\n');
  assert.equal(readFileSync(join(root, 'dup.txt'), 'utf8'), 'a\na\n');
  assert.equal(readFileSync(join(root, 'NOTES.md'), 'utf8'), 'done\n');
});

test('the configuration snippets in docs/mcp.md are valid JSON that run applypatch mcp', () => {
  const json = blocks('json');
  assert.equal(json.length, 2);
  for (const text of json) {
    const config = JSON.parse(text);
    const server = (config.mcpServers ?? config.servers).applypatch;
    assert.equal(server.command, 'npx');
    assert.deepEqual(server.args.slice(0, 8), ['-y', '-p', 'applypatch', '-p', '@modelcontextprotocol/sdk', 'applypatch', 'mcp', '--root']);
  }
  const toml = blocks('toml')[0];
  assert.match(toml, /^\[mcp_servers\.applypatch\]\ncommand = "npx"\nargs = \[.*"applypatch", "mcp", "--root", .*\]\n$/);
});
