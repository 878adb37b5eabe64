import { isDotSegment } from './form-ref.js';

/**
 * Where the service's endpoints live, relative to its base URL (docs/contract.md#paths-we-chose).
 * Paths the contract does not show are chosen here once, served by `@form-embed/sandbox`
 * and used by `@form-embed/express` as its defaults (overridable by its `paths` option).
 * Placeholders in braces are filled by `expandPath`, each value URL-encoded.
 */
export const defaultServicePaths = {
  /** Shown: GET, the Organisation and its embed origins. */
  me: '/api/v1/me',
  /** Shown: GET, `{forms: [Form]}`. */
  forms: '/api/v1/forms',
  /** Shown: GET with limit and offset; envelope not shown, chosen: `{clients, total, hasMore}`. */
  clients: '/api/v1/clients',
  /** Shown: GET, a Client. */
  client: '/api/v1/clients/{clientId}',
  /** Not shown, chosen: GET, `{forms: [CoreForm]}`. */
  coreForms: '/api/v1/core/forms',
  /** Not shown, chosen: GET, a CoreForm. */
  coreForm: '/api/v1/core/forms/{slug}',
  /** Not shown, chosen: POST FormSessionRequest, answers FormSession or SessionError. */
  formSession: '/api/v1/forms/{formId}/session',
  /** Not shown, chosen: POST FormSessionRequest, answers FormSession or SessionError. */
  coreFormSession: '/api/v1/core/forms/{slug}/session',
  /** Shown (Versioning): the OpenAPI 3.0.3 description. */
  openapi: '/api/v1/openapi.json',
} as const;

/** A path for each endpoint of `defaultServicePaths`, relative to the service's base URL. */
export type ServicePaths = { [K in keyof typeof defaultServicePaths]: string };

/**
 * Fills `{name}` placeholders of a path template, URL-encoding each value. A value that is empty,
 * `.` or `..` is refused: encoding leaves dots alone, so the URL parser would resolve them and
 * send the request to another path.
 */
export function expandPath(template: string, params: Record<string, string> = {}): string {
  const parts = partsOf(template);
  let path = parts[0] ?? '';
  for (let index = 1; index < parts.length; index += 2) {
    const name = parts[index] ?? '';
    const value = params[name];
    if (value === undefined) throw new Error(`path ${template} needs a value for {${name}}`);
    if (isDotSegment(value)) {
      throw new Error(`{${name}} of ${template} must be a path segment, not "${value}"`);
    }
    path += encodeURIComponent(value) + (parts[index + 1] ?? '');
  }
  return path;
}

// A template split once into text and placeholder names (text, name, text, ...): a mint
// expands the same few templates again and again.
const templateParts = new Map<string, string[]>();

function partsOf(template: string): string[] {
  let parts = templateParts.get(template);
  if (parts === undefined) {
    parts = template.split(/\{(\w+)\}/);
    if (templateParts.size < 100) templateParts.set(template, parts);
  }
  return parts;
}
