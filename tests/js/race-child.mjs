// A second party for tests/js/node-race.test.mjs, run as a child process or
// a worker thread:
//   swap ROOT SECONDS OUTSIDE  swaps ROOT/sub for a symlink to OUTSIDE, and
//                              ROOT/sub/f.txt for a FIFO, in a loop
//   write ROOT COUNT TAG       applies COUNT updates to ROOT/f.txt, each
//                              adding the line TAG-i; prints the outcome of each

import { execFileSync } from 'node:child_process';
import { renameSync, symlinkSync, unlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';

const require = createRequire(import.meta.url);
const [command, root, arg, extra] = workerData ?? process.argv.slice(2);

if (command === 'swap') {
  const sub = join(root, 'sub');
  const aside = join(root, 'sub.aside');
  const fifo = join(root, 'fifo');
  execFileSync('mkfifo', [fifo]);
  const end = Date.now() + Number(arg) * 1000;
  const swaps = { dir: 0, fifo: 0 };
  const quietly = (fn) => {
    try {
      fn();
      return true;
    } catch {
      return false;
    }
  };
  for (let extras = 0; Date.now() < end; ) {
    // The directory for a symlink to outside, and back.
    if (quietly(() => renameSync(sub, aside))) {
      quietly(() => symlinkSync(extra, sub));
      quietly(() => unlinkSync(sub));
      if (!quietly(() => renameSync(aside, sub))) {
        // a patch made a new sub/ in between: move it out of the way
        quietly(() => renameSync(sub, join(root, `sub.extra-${extras++}`)));
        quietly(() => renameSync(aside, sub));
      }
      swaps.dir++;
    }
    // The file for a FIFO, and back.
    if (quietly(() => renameSync(join(sub, 'f.txt'), join(root, 'f.aside')))) {
      if (quietly(() => renameSync(fifo, join(sub, 'f.txt')))) {
        quietly(() => renameSync(join(sub, 'f.txt'), fifo));
        swaps.fifo++;
      }
      quietly(() => renameSync(join(root, 'f.aside'), join(sub, 'f.txt')));
    }
  }
  process.stdout.write(JSON.stringify(swaps));
} else if (command === 'write') {
  require('../../dist/index.cjs');
  const { applyPatchToDirectory } = require('../../dist/node.cjs');
  const outcomes = [];
  for (let i = 0; i < Number(arg); i++) {
    const line = `${extra}-${i}`;
    const patch = `*** Begin Patch\n*** Update File: f.txt\n@@\n start\n+${line}\n*** End Patch\n`;
    try {
      applyPatchToDirectory(root, patch);
      outcomes.push([line, 'ok']);
    } catch (e) {
      outcomes.push([line, e.code ?? String(e)]);
    }
  }
  if (parentPort) parentPort.postMessage(outcomes);
  else process.stdout.write(JSON.stringify(outcomes));
} else {
  throw new Error(`unknown command ${command}`);
}
