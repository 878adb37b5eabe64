import assert from 'node:assert/strict';
import { test } from 'node:test';

test('importing the class entry in Node, with no DOM, does not throw', async () => {
  assert.equal(typeof document, 'undefined');
  const module = await import('@form-embed/element');
  assert.equal(typeof module.FormEmbedElement.define, 'function');
});

test('importing the define entry in Node, with no DOM, does not throw', async () => {
  const module = await import('@form-embed/element/define');
  assert.equal(typeof module.FormEmbedElement, 'function');
});
