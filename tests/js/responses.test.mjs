// createToolInputDecoder turns Responses API stream events into the text of
// one tool call's input, for createPatchStream: the event sequences of
// tests/fixtures/responses-stream-events.json (a function call whose JSON
// arguments are cut inside escapes, with other events interleaved, and a
// custom tool call), and JSON strings of every escape cut at every place.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { apply, createPatchStream, createToolInputDecoder } from 'applypatch';
import { fixture, rng } from './helpers.mjs';

const recorded = fixture('responses-stream-events.json');

for (const { name, events } of recorded.sequences) {
  test(`${name}: the events stream the diff, and the stream ends as apply()`, () => {
    const decode = createToolInputDecoder();
    const stream = createPatchStream(recorded.input);
    let text = '';
    const placed = [];
    for (const event of events) {
      const piece = decode(event);
      text += piece;
      for (const e of stream.push(piece)) placed.push(e);
    }
    assert.equal(text, recorded.want);
    assert.deepEqual(
      placed.map((e) => [e.type, e.index, e.inputLine]),
      [['section', 0, 2]],
    );
    assert.equal(stream.end(), apply(recorded.input, recorded.want));
  });
}

test('a JSON string field is decoded whatever the cuts, escapes included', () => {
  const random = rng(4);
  const alphabet = ['a', ' ', '\n', '\r', '\t', '"', '\\', '/', '\b', '\f', '\u0001', 'é', '😀', '\u2028'];
  for (let round = 0; round < 200; round++) {
    const value = Array.from({ length: Math.floor(random() * 40) }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
    // Some encoders escape every non-ASCII character as \uXXXX.
    const ascii = random() < 0.5;
    let json = JSON.stringify({ before: { x: ['}', 1] }, diff: value, after: 'z' });
    if (ascii) json = json.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
    const cut = random() < 0.3 ? 1 : 1 + Math.floor(random() * 7);
    const decode = createToolInputDecoder();
    let out = '';
    for (let i = 0; i < json.length; i += cut) {
      out += decode({ type: 'response.function_call_arguments.delta', item_id: 'fc', delta: json.slice(i, i + cut) });
    }
    assert.equal(out, value, json);
  }
});

test('events of other items and other types add nothing', () => {
  const decode = createToolInputDecoder({ itemId: 'b', field: 'patch' });
  assert.equal(decode({ type: 'response.function_call_arguments.delta', item_id: 'a', delta: '{"patch":"x"}' }), '');
  assert.equal(decode({ type: 'response.output_text.delta', item_id: 'b', delta: 'hello' }), '');
  assert.equal(decode(null), '');
  assert.equal(decode({ type: 'response.function_call_arguments.delta', item_id: 'b', delta: '{"diff":"no","patch":"y' }), 'y');
  assert.equal(decode({ type: 'response.function_call_arguments.delta', item_id: 'b', delta: 'es"}' }), 'es');
});
