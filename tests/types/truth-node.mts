// Types that tell the truth, applypatch/node: moves carry movedFrom, the
// editor's options reject impossible combinations, the CLI's --json output is
// a union on ok. Type-checked (not run) by npm test.
import { applyPatchToDirectory, type CliErrorCode, type CliOutput, createEditor, type DirectoryChange } from 'applypatch/node';

const changes: DirectoryChange[] = applyPatchToDirectory('.', '', { dryRun: true }).changes;
const from: string | undefined = changes[0]?.movedFrom;
void from;
// @ts-expect-error: repair is a Strict mode option
applyPatchToDirectory('.', '', { mode: 'codex', repair: true });
createEditor({ root: '.', mode: 'codex' });
createEditor({ root: '.', repair: ['indent'] });
// @ts-expect-error: repair is a Strict mode option
createEditor({ root: '.', mode: 'codex', repair: true });

declare const stdout: string;
const out = JSON.parse(stdout) as CliOutput;
if (out.ok) {
  if ('changes' in out) {
    const status: 'added' | 'modified' | 'deleted' | undefined = out.changes[0]?.status;
    const summary: string = out.summary;
    void [status, summary];
  } else {
    const blocks: number = out.blocks;
    void blocks;
  }
} else {
  const code: CliErrorCode = out.error.code;
  const line: number | undefined = out.error.line;
  void [code, line];
  if (out.error.code === 'no_match') {
    const block: number | undefined = out.error.block;
    void block;
  }
}
const usage: CliErrorCode = 'usage';
const noBlocks: CliErrorCode = 'no_blocks';
// @ts-expect-error: CLI codes are a closed set
const bad: CliErrorCode = 'no_such_code';
void [usage, noBlocks, bad];
