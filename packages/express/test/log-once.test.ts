import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { logOnce } from '../src/log-once.js';

function capture() {
  const warned: string[] = [];
  return { warned, tell: logOnce({ warn: (line) => warned.push(line), error: () => {} }) };
}

describe('logOnce', () => {
  test('tells a line once per key: the line itself, or the key given', () => {
    const { warned, tell } = capture();
    tell('a');
    tell('a');
    tell('b for x', 'x');
    tell('another b for x', 'x');
    assert.deepEqual(warned, ['a', 'b for x']);
  });

  test('remembers at most 1,000 keys, then forgets them: a service sending a new value each time cannot grow memory, and a key is told again', () => {
    const { warned, tell } = capture();
    for (let i = 0; i < 1_000; i += 1) tell(`value ${i}`);
    tell('value 0');
    assert.equal(warned.length, 1_000, 'the first 1,000 are remembered');
    tell('value 1000');
    tell('value 0');
    assert.equal(warned.length, 1_002, 'past 1,000 they were forgotten');
    assert.deepEqual(warned.slice(-2), ['value 1000', 'value 0']);
  });

  test('logs at the level given', () => {
    const lines: string[] = [];
    const tell = logOnce(
      { warn: (line) => lines.push(`warn ${line}`), error: (line) => lines.push(`error ${line}`) },
      'error',
    );
    tell('a');
    tell('a');
    assert.deepEqual(lines, ['error a']);
  });
});
