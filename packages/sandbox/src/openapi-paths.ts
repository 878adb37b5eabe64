/**
 * The paths of the OpenAPI document: one small entry per endpoint the sandbox serves, built
 * from the protocol's paths and the SessionError table. The schemas are components
 * (openapi-schemas.ts). None needs a scope, so none carries an `x-service-scope` marker.
 */
import {
  knownSessionErrorCodes,
  defaultServicePaths as paths,
  SessionErrorCodes,
} from '@form-embed/protocol';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (name: string) => ({ 'application/json': { schema: ref(name) } });
const header = (name: string) => ({ $ref: `#/components/headers/${name}` });
const rateHeaders = {
  'X-RateLimit-Limit': header('X-RateLimit-Limit'),
  'X-RateLimit-Remaining': header('X-RateLimit-Remaining'),
};
const pathParam = (name: string) => ({
  name,
  in: 'path',
  required: true,
  schema: { type: 'string' },
});
const ok = (description: string, schema: string) => ({
  description,
  headers: rateHeaders,
  content: json(schema),
});

const readErrors = {
  '401': { description: 'Key missing, malformed, revoked or expired', content: json('Error') },
  '429': {
    description: 'Rate limit',
    headers: { 'Retry-After': header('Retry-After') },
    content: json('Error'),
  },
};

function read(
  operationId: string,
  summary: string,
  answer: object,
  parameters?: object[],
  errors: Record<string, object> = {},
) {
  const operation = { operationId, summary, ...(parameters ? { parameters } : {}) };
  return { get: { ...operation, responses: { '200': answer, ...errors, ...readErrors } } };
}

const badPage = { '400': { description: 'limit or offset out of range', content: json('Error') } };
const notFound = (what: string) => ({
  '404': { description: `No such ${what} (or another organisation's)`, content: json('Error') },
});

/** The SessionError answers by status, each naming its codes, from the contract's table. */
function sessionErrorAnswers() {
  const answers: Record<string, { description: string; content: object; headers?: object }> = {};
  const statuses = new Set(knownSessionErrorCodes.map((code) => SessionErrorCodes[code].status));
  for (const status of [...statuses].filter((s) => s !== null).sort((a, b) => a - b)) {
    const codes = knownSessionErrorCodes.filter(
      (code) => SessionErrorCodes[code].status === status,
    );
    answers[String(status)] = {
      description: codes.join(', '),
      content: json('SessionError'),
      // The table says to wait Retry-After on these two (docs/contract.md#retry-after).
      ...(status === 429 || status === 503
        ? { headers: { 'Retry-After': header('Retry-After') } }
        : {}),
    };
  }
  answers.default = {
    description: 'unknown, any other code, including codes added in later releases',
    content: json('SessionError'),
  };
  return answers;
}

function formSession(operationId: string, summary: string, param: string) {
  const session = ok('A form session', 'FormSession');
  const answer = {
    ...session,
    headers: { ...rateHeaders, 'Cache-Control': { schema: { type: 'string' } } },
  };
  return {
    post: {
      operationId,
      summary,
      parameters: [pathParam(param)],
      requestBody: { required: false, content: json('FormSessionRequest') },
      responses: { '200': answer, ...sessionErrorAnswers() },
    },
  };
}

const pageParameters = [
  {
    name: 'limit',
    in: 'query',
    schema: { type: 'integer', minimum: 1, maximum: 100, default: 50 },
  },
  { name: 'offset', in: 'query', schema: { type: 'integer', minimum: 0, default: 0 } },
];

export function openApiPaths(): Record<string, object> {
  return {
    [paths.me]: read(
      'getOrganisation',
      'The organisation and its embed origins',
      ok('The organisation', 'Organisation'),
    ),
    [paths.clients]: read(
      'listClients',
      "The organisation's clients, paged",
      ok('A page of clients', 'ClientPage'),
      pageParameters,
      badPage,
    ),
    [paths.client]: read(
      'getClient',
      'One client',
      ok('The client', 'Client'),
      [pathParam('clientId')],
      notFound('client'),
    ),
    [paths.forms]: read('listForms', 'The designer forms', ok('The forms', 'FormList')),
    [paths.coreForms]: read(
      'listCoreForms',
      'The Core forms',
      ok('The Core forms', 'CoreFormList'),
    ),
    [paths.coreForm]: read(
      'getCoreForm',
      'One Core form',
      ok('The Core form', 'CoreForm'),
      [pathParam('slug')],
      notFound('Core form'),
    ),
    [paths.formSession]: formSession(
      'createFormSession',
      'Mint a form session for a designer form',
      'formId',
    ),
    [paths.coreFormSession]: formSession(
      'createCoreFormSession',
      'Mint a form session for a Core form',
      'slug',
    ),
    [paths.openapi]: read('getOpenApi', 'This description', {
      description: 'OpenAPI 3.0.3',
      headers: rateHeaders,
      content: { 'application/json': { schema: { type: 'object' } } },
    }),
  };
}
