import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runInNewContext } from 'node:vm';
import { EmbedMessageSchema, isEmbedMessage } from '../src/index.js';

test('the embed message is exactly {type, state} with state error or expired', () => {
  assert.equal(isEmbedMessage({ type: 'service:form-session', state: 'error' }), true);
  assert.equal(isEmbedMessage({ state: 'expired', type: 'service:form-session' }), true);
});

test("a message made in another realm is the embed message too: a window's, once the element is in a Picture-in-Picture window", () => {
  const data = runInNewContext("({ type: 'service:form-session', state: 'expired' })");
  assert.notEqual(Object.getPrototypeOf(data), Object.prototype);
  assert.equal(isEmbedMessage(data), true);
});

/** Forged as data: EmbedMessageSchema refuses them as well. */
const forged: [string, unknown][] = [
  ['an extra field', { type: 'service:form-session', state: 'error', token: 'x' }],
  ['a wrong type', { type: 'service:form-sessions', state: 'error' }],
  ['an unknown state', { type: 'service:form-session', state: 'framed' }],
  ['a missing state', { type: 'service:form-session' }],
  ['a string', '{"type":"service:form-session","state":"error"}'],
  ['null', null],
  ['an array', ['service:form-session', 'error']],
  [
    'an inherited field',
    Object.assign(Object.create({ type: 'service:form-session' }), { state: 'error', x: 1 }),
  ],
  ['a number', 0],
];

/** Forged as objects, which zod reads by their fields alone: only isEmbedMessage refuses them. */
const forgedObjects: [string, unknown][] = [
  [
    'a class instance',
    Object.assign(new (class Message {})(), { type: 'service:form-session', state: 'error' }),
  ],
  ['a symbol key', { type: 'service:form-session', state: 'error', [Symbol('s')]: 1 }],
  [
    'no prototype',
    Object.assign(Object.create(null), { type: 'service:form-session', state: 'error' }),
  ],
  [
    "another realm's class instance",
    runInNewContext(
      "Object.assign(new (class M {})(), { type: 'service:form-session', state: 'error' })",
    ),
  ],
];

for (const [what, data] of forged) {
  test(`a message with ${what} is not the embed message, nor valid under EmbedMessageSchema`, () => {
    assert.equal(isEmbedMessage(data), false);
    assert.equal(EmbedMessageSchema.safeParse(data).success, false);
  });
}

for (const [what, data] of forgedObjects) {
  test(`a message with ${what} is not the embed message`, () => {
    assert.equal(isEmbedMessage(data), false);
  });
}
