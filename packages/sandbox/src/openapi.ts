/**
 * The machine-readable description (OpenAPI 3.0.3, version 1.4.0) of what the sandbox serves.
 * The sandbox's endpoints need no scope beyond "any key"; the scopes are still described under
 * `x-service-scopes`, and each operation carries its `x-service-scope` marker.
 */
import { defaultServicePaths as paths, SessionErrorCodes } from '@form-embed/protocol';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: object) => ({ 'application/json': { schema } });
const rateHeaders = {
  'X-RateLimit-Limit': { $ref: '#/components/headers/X-RateLimit-Limit' },
  'X-RateLimit-Remaining': { $ref: '#/components/headers/X-RateLimit-Remaining' },
};
const plainError = (description: string) => ({ description, content: json(ref('Error')) });
const sessionError = (description: string, retryAfter = false) => ({
  description,
  content: json(ref('SessionError')),
  ...(retryAfter
    ? { headers: { 'Retry-After': { $ref: '#/components/headers/Retry-After' } } }
    : {}),
});
const readErrors = {
  '401': plainError('Key missing, malformed, revoked or expired'),
  '429': {
    description: 'Rate limit',
    headers: { 'Retry-After': { $ref: '#/components/headers/Retry-After' } },
    content: json(ref('Error')),
  },
};
const pathParam = (name: string) => ({
  name,
  in: 'path',
  required: true,
  schema: { type: 'string' },
});
const ok = (description: string, schema: object) => ({
  description,
  headers: rateHeaders,
  content: json(schema),
});

function read(operationId: string, summary: string, response: object, extra: object = {}) {
  return {
    get: {
      operationId,
      summary,
      'x-service-scope': 'any',
      ...extra,
      responses: { '200': response, ...readErrors },
    },
  };
}

function formSession(operationId: string, summary: string, param: string) {
  return {
    post: {
      operationId,
      summary,
      'x-service-scope': 'any',
      parameters: [pathParam(param)],
      requestBody: { required: false, content: json(ref('FormSessionRequest')) },
      responses: {
        '200': {
          ...ok('A form session', ref('FormSession')),
          headers: { ...rateHeaders, 'Cache-Control': { schema: { type: 'string' } } },
        },
        '400': sessionError(
          'invalid_request, form_unpublished, form_session_unsupported, client_not_entitled, invalid_user_identifier',
        ),
        '401': sessionError('invalid_api_key'),
        '403': sessionError('tenant_not_connected, microsoft_permission_denied, forbidden'),
        '404': sessionError(
          'form_not_found, client_not_found, client_not_connected, user_not_found, not_found',
        ),
        '429': sessionError('rate_limited', true),
        '500': sessionError('microsoft_connection_failed, internal_error'),
        '503': sessionError('microsoft_unavailable, unavailable', true),
        default: sessionError('Any other code, including codes added in later releases'),
      },
    },
  };
}

const dateTime = { type: 'string', format: 'date-time' };

export function openApiDocument(): object {
  return {
    openapi: '3.0.3',
    info: {
      title: 'Partner API (form sessions), as served by @form-embed/sandbox',
      version: '1.4.0',
    },
    servers: [{ url: '/' }],
    security: [{ bearerAuth: [] }],
    'x-service-scopes': {
      any: 'Every key: read the catalogue and mint form sessions.',
      'core:run':
        "Running Core forms from the caller's own app, with the same approvals as Core. Includes the UPN check.",
      'core:configure':
        "Reading and changing Core workflow configuration, including each client's groups, licences and mailboxes. Also reads the on-prem groups options.",
      'executions:manage':
        'Approving or rejecting approvals, completing manual steps, and cancelling or retrying executions, on behalf of a named person.',
    },
    paths: {
      [paths.me]: read(
        'getOrganisation',
        'The organisation and its embed origins',
        ok('The organisation', ref('Organisation')),
      ),
      [paths.clients]: read(
        'listClients',
        "The organisation's clients, paged",
        ok('A page of clients', {
          type: 'object',
          required: ['clients', 'total', 'hasMore'],
          properties: {
            clients: { type: 'array', items: ref('Client') },
            total: { type: 'integer' },
            hasMore: { type: 'boolean' },
          },
        }),
        {
          parameters: [
            {
              name: 'limit',
              in: 'query',
              schema: { type: 'integer', minimum: 1, maximum: 100, default: 50 },
            },
            { name: 'offset', in: 'query', schema: { type: 'integer', minimum: 0, default: 0 } },
          ],
        },
      ),
      [paths.client]: read('getClient', 'One client', ok('The client', ref('Client')), {
        parameters: [pathParam('clientId')],
      }),
      [paths.forms]: read(
        'listForms',
        'The designer forms',
        ok('The forms', {
          type: 'object',
          required: ['forms'],
          properties: { forms: { type: 'array', items: ref('Form') } },
        }),
      ),
      [paths.coreForms]: read(
        'listCoreForms',
        'The Core forms',
        ok('The Core forms', {
          type: 'object',
          required: ['forms'],
          properties: { forms: { type: 'array', items: ref('CoreForm') } },
        }),
      ),
      [paths.coreForm]: read('getCoreForm', 'One Core form', ok('The Core form', ref('CoreForm')), {
        parameters: [pathParam('slug')],
      }),
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
      [paths.openapi]: read(
        'getOpenApi',
        'This description',
        ok('OpenAPI 3.0.3', { type: 'object' }),
      ),
    },
    components: {
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } },
      headers: {
        'X-RateLimit-Limit': { schema: { type: 'integer' } },
        'X-RateLimit-Remaining': { schema: { type: 'integer' } },
        'Retry-After': { schema: { type: 'integer' } },
      },
      schemas: {
        Error: { type: 'object', required: ['error'], properties: { error: { type: 'string' } } },
        SessionError: {
          type: 'object',
          required: ['error'],
          properties: {
            error: {
              type: 'object',
              required: ['code', 'message', 'retryable'],
              properties: {
                code: {
                  type: 'string',
                  description: `One of ${Object.keys(SessionErrorCodes).join(', ')}; new codes may appear.`,
                },
                message: { type: 'string' },
                retryable: { type: 'boolean' },
              },
            },
          },
        },
        Organisation: {
          type: 'object',
          properties: {
            organisationId: { type: 'string' },
            displayName: { type: 'string' },
            formsOrigin: { type: 'string' },
            coreFormsOrigin: { type: 'string' },
          },
        },
        Client: {
          type: 'object',
          required: [
            'id',
            'name',
            'environment',
            'microsoftTenantId',
            'microsoftDomain',
            'googleWorkspaceDomains',
            'integrationMappingIds',
            'createdAt',
          ],
          properties: {
            id: { type: 'string' },
            name: { type: 'string' },
            environment: {
              type: 'string',
              enum: ['cloudOnly', 'onPremOnly', 'cloudAndOnPremSeparate', 'cloudAndOnPremSynced'],
            },
            microsoftTenantId: { type: 'string' },
            microsoftDomain: { type: 'string' },
            googleWorkspaceDomains: { type: 'array', items: { type: 'string' } },
            integrationMappingIds: { type: 'object', additionalProperties: { type: 'string' } },
            createdAt: dateTime,
          },
        },
        Form: {
          type: 'object',
          required: [
            'id',
            'name',
            'shareUrl',
            'authType',
            'embeddable',
            'listedOnHomepage',
            'updatedAt',
          ],
          properties: {
            id: { type: 'string' },
            name: { type: 'string' },
            shareUrl: { type: 'string', format: 'uri' },
            authType: {
              type: 'string',
              enum: ['none', 'password', 'microsoft', 'google', 'internal'],
            },
            embeddable: { type: 'boolean' },
            listedOnHomepage: { type: 'boolean' },
            updatedAt: dateTime,
          },
        },
        CoreForm: {
          type: 'object',
          required: [
            'slug',
            'name',
            'enabled',
            'availability',
            'internal',
            'public',
            'embeddable',
            'listedOnHomepage',
            'clientOverrides',
          ],
          properties: {
            slug: { type: 'string' },
            name: { type: 'string' },
            enabled: { type: 'boolean' },
            availability: { type: 'string', enum: ['disabled', 'internal', 'public', 'both'] },
            internal: { type: 'boolean' },
            public: { type: 'boolean' },
            embeddable: { type: 'boolean' },
            listedOnHomepage: { type: 'boolean' },
            publicUrl: { type: 'string', format: 'uri' },
            clientOverrides: {
              type: 'array',
              items: {
                type: 'object',
                required: ['tenantId', 'tenantName', 'enabled', 'availability'],
                properties: {
                  tenantId: { type: 'string' },
                  tenantName: { type: 'string' },
                  enabled: { type: 'boolean' },
                  availability: { type: 'string', nullable: true },
                },
              },
            },
          },
        },
        FormSessionRequest: {
          type: 'object',
          properties: {
            user: {
              type: 'object',
              properties: {
                microsoftTenantId: { type: 'string' },
                clientId: { type: 'string' },
                userIdentifier: { type: 'string' },
              },
            },
          },
        },
        FormSession: {
          type: 'object',
          required: ['embedUrl', 'provider', 'expiresIn'],
          properties: {
            embedUrl: { type: 'string', format: 'uri' },
            provider: { type: 'string', enum: ['microsoft', 'google', 'portal', 'none'] },
            expiresIn: { type: 'integer', minimum: 0 },
            formSessionHandle: { type: 'string' },
          },
        },
      },
    },
  };
}
