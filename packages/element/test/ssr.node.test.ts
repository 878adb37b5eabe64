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

test('<FormEmbed> renders nothing on a server (it renders on the client), with no warning', async () => {
  const { createElement } = await import('react');
  const { renderToString } = await import('react-dom/server');
  const { FormEmbed } = await import('@form-embed/element/react');
  const warnings: unknown[] = [];
  const { error, warn } = console;
  console.error = console.warn = (...args: unknown[]) => warnings.push(args);
  try {
    const html = renderToString(
      createElement('main', null, createElement(FormEmbed, { formId: 'f1', loading: 'lazy' })),
    );
    assert.equal(html, '<main></main>');
  } finally {
    Object.assign(console, { error, warn });
  }
  assert.deepEqual(warnings, []);
});
