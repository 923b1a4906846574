// Shared by the JS tests: fixtures and a small deterministic PRNG.
import { readFileSync } from 'node:fs';
import { rng } from '../../scripts/rng.mjs';

export { rng };

export function fixture(name) {
  return JSON.parse(readFileSync(new URL(`../fixtures/${name}`, import.meta.url), 'utf8'));
}

export function pick(random, list) {
  return list[Math.floor(random() * list.length)];
}
