import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { defaultServicePaths as paths } from '@form-embed/protocol';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { z } from 'zod';
import { fixtureIds, type Sandbox } from '../src/index.js';
import { componentZodSchemas } from '../src/openapi-schemas.js';
import { call, requestSession, sandboxFor } from './helpers.js';

type Json = Record<string, unknown>;

async function servedComponents(sandbox: Sandbox): Promise<Record<string, Json>> {
  const document = (await (await call(sandbox, paths.openapi)).json()) as {
    components: { schemas: Record<string, Json> };
  };
  return document.components.schemas;
}

/** A component with every `$ref` replaced by the component it names. */
function inlined(value: unknown, components: Record<string, Json>): unknown {
  if (Array.isArray(value)) return value.map((item) => inlined(item, components));
  if (typeof value !== 'object' || value === null) return value;
  const { $ref, ...rest } = value as Json;
  if (typeof $ref === 'string') {
    return inlined(components[$ref.replace('#/components/schemas/', '')], components);
  }
  return Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, inlined(v, components)]));
}

/** Validates payloads against the served components, as an OpenAPI client would. */
function openApiValidator(components: Record<string, Json>) {
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addSchema({ components: { schemas: components } }, 'openapi');
  return (name: string, payload: unknown) =>
    ajv.validate({ $ref: `openapi#/components/schemas/${name}` }, payload);
}

const adele = {
  microsoftTenantId: fixtureIds.tenants.contoso,
  userIdentifier: fixtureIds.users.adele,
};

describe('OpenAPI components and the protocol zod schemas', () => {
  test('the served components are exactly zod’s OpenAPI 3.0 output of the protocol schemas, one per name', async (t) => {
    const components = await servedComponents(await sandboxFor(t));
    assert.deepEqual(Object.keys(components).sort(), Object.keys(componentZodSchemas).sort());
    for (const [name, schema] of Object.entries(componentZodSchemas)) {
      const alone = z.toJSONSchema(schema, { target: 'openapi-3.0', io: 'input' });
      assert.deepEqual(inlined(components[name], components), alone, name);
    }
  });

  test('what the sandbox answers is valid under both; broken payloads are invalid under both', async (t) => {
    const sandbox = await sandboxFor(t);
    const valid = openApiValidator(await servedComponents(sandbox));
    const answers: [string, unknown][] = [];
    for (const [name, path] of [
      ['Organisation', paths.me],
      ['ClientPage', paths.clients],
      ['FormList', paths.forms],
      ['CoreFormList', paths.coreForms],
    ] as const) {
      answers.push([name, await (await call(sandbox, path)).json()]);
    }
    const form = { kind: 'form', formId: fixtureIds.forms.microsoft } as const;
    answers.push(['FormSession', await (await requestSession(sandbox, form, adele)).json()]);
    answers.push(['SessionError', await (await requestSession(sandbox, form, {})).json()]);
    answers.push(['Error', await (await call(sandbox, '/nowhere')).json()]);
    answers.push(['FormSessionRequest', { user: adele }]);
    const session = answers.find(([name]) => name === 'FormSession')?.[1] as Json;
    const broken: [string, unknown][] = [
      ['FormSession', { ...session, provider: 'okta' }],
      ['FormSession', { ...session, expiresIn: -1 }],
      ['FormSession', { ...session, embedUrl: undefined }],
      ['SessionError', { error: { code: '', message: 'x', retryable: false } }],
      ['SessionError', { error: 'plain' }],
      ['FormSessionRequest', { user: { clientId: 7 } }],
      ['Error', {}],
    ];
    for (const [name, payload] of [...answers, ...broken]) {
      const byZod = componentZodSchemas[name]?.safeParse(payload).success;
      assert.equal(valid(name, payload), byZod, `${name} ${JSON.stringify(payload)}`);
    }
    assert.ok(
      answers.every(([name, payload]) => valid(name, payload)),
      'the answers are valid',
    );
  });
});
