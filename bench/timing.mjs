// Timing for the benchmarks: the median of repeated calls after a warm-up.
import { performance } from 'node:perf_hooks';

export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** Median milliseconds of `reps` calls of `fn`, after one warm-up call. */
export function time(fn, reps) {
  fn();
  const out = [];
  for (let i = 0; i < reps; i++) {
    const t = performance.now();
    fn();
    out.push(performance.now() - t);
  }
  return median(out);
}
