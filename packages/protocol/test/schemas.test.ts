import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FormSessionSchema, MintResponseSchema } from '../src/index.js';

const session = {
  embedUrl: 'https://forms.example/s/abc',
  provider: 'microsoft',
  expiresIn: 120,
};
const mintResponse = { ...session, embedOrigin: 'https://forms.example' };

test("the middleware's 200 is exactly {embedUrl, embedOrigin, provider, expiresIn}: the handle, or any other field, is refused", () => {
  assert.equal(MintResponseSchema.safeParse(mintResponse).success, true);
  for (const extra of [{ formSessionHandle: 'fsh_x' }, { user: 'adele' }]) {
    assert.equal(MintResponseSchema.safeParse({ ...mintResponse, ...extra }).success, false);
  }
});

test('expiresIn is whole seconds, 0 or more, in the service’s session and in the middleware’s 200', () => {
  for (const schema of [FormSessionSchema, MintResponseSchema]) {
    assert.equal(schema.safeParse({ ...mintResponse, expiresIn: 0 }).success, true);
    for (const expiresIn of [1.5, -1, '120']) {
      assert.equal(schema.safeParse({ ...mintResponse, expiresIn }).success, false, `${expiresIn}`);
    }
  }
});
