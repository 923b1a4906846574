// Deterministic generated inputs for the benchmarks: a JavaScript-like file of
// `lines` lines (mostly unique lines, with the blank lines and braces real code
// repeats) and a V4A diff of `sections` sections spread over it, each with
// three lines of context around one changed line and one added line.
// Needs lines >= 10 * sections.
import { rng } from '../scripts/rng.mjs';

const WORDS = ['alpha', 'beta', 'gamma', 'delta', 'omega', 'sigma', 'kappa', 'theta'];

/** Line `i` of the generated file (5-line functions, then a blank line). */
export function line(i, random) {
  const f = Math.floor(i / 6);
  switch (i % 6) {
    case 0:
      return `function task${f}(input) {`;
    case 1:
      return `  const value = compute(input, ${f}, '${WORDS[Math.floor(random() * WORDS.length)]}');`;
    case 2:
      return `  if (value > ${Math.floor(random() * 1000)}) log('task${f}', value);`;
    case 3:
      return `  return value * ${f % 97};`;
    case 4:
      return '}';
    default:
      return '';
  }
}

export function generate(lines, sections, seed = 1) {
  const random = rng(seed);
  const text = Array.from({ length: lines }, (_, i) => line(i, random));
  const input = text.join('\n') + '\n';
  const diff = [];
  const step = Math.floor(lines / sections);
  for (let s = 0; s < sections; s++) {
    // The changed line, in the middle of its slice. Any 7 consecutive lines
    // hold a unique `function taskN` line, so every section matches once.
    const at = s * step + Math.floor(step / 2);
    diff.push('@@');
    for (let i = at - 3; i < at; i++) diff.push(' ' + text[i]);
    diff.push('-' + text[at]);
    diff.push('+' + (text[at] === '' ? '  // changed' : text[at] + ' // changed'));
    diff.push(`+  trace(${at});`);
    for (let i = at + 1; i <= at + 3; i++) diff.push(' ' + text[i]);
  }
  return { input, diff: diff.join('\n') + '\n' };
}
