/**
 * The machine-readable description (OpenAPI 3.0.3, version 1.4.0) of what the sandbox serves
 * (docs/contract.md#paths-we-chose). Every key may call the sandbox's endpoints, so no operation
 * carries an `x-service-scope` marker (only scoped ones do); the scopes are still described
 * under `x-service-scopes`, as the service does.
 */

import { openApiPaths } from './openapi-paths.js';
import { componentSchemas } from './openapi-schemas.js';

const scopes = {
  'core:run':
    "Running Core forms from the caller's own app, with the same approvals as Core. Includes the UPN check.",
  'core:configure':
    "Reading and changing Core workflow configuration, including each client's groups, licences and mailboxes. Also reads the on-prem groups options.",
  'executions:manage':
    'Approving or rejecting approvals, completing manual steps, and cancelling or retrying executions, on behalf of a named person.',
};

let document: object | undefined;

export function openApiDocument(): object {
  document ??= {
    openapi: '3.0.3',
    info: {
      title: 'Partner API (form sessions), as served by @form-embed/sandbox',
      version: '1.4.0',
    },
    servers: [{ url: '/' }],
    security: [{ bearerAuth: [] }],
    'x-service-scopes': scopes,
    paths: openApiPaths(),
    components: {
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } },
      headers: {
        'X-RateLimit-Limit': { schema: { type: 'integer' } },
        'X-RateLimit-Remaining': { schema: { type: 'integer' } },
        // delta-seconds or an HTTP-date
        'Retry-After': { schema: { type: 'string' } },
      },
      schemas: componentSchemas(),
    },
  };
  return document;
}
