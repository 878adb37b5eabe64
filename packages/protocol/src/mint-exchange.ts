/**
 * The exchange between `<form-embed>` and `@form-embed/express` (docs/architecture.md),
 * relative to the path where the portal mounts the middleware.
 */

/**
 * How the service signed the user in: one of the contract's four, or a newer one this release
 * does not know yet, passed on as the service named it (docs/contract.md#form-sessions).
 */
export type Provider = 'microsoft' | 'google' | 'portal' | 'none' | (string & {});

/** Which form to mint a session for: a designer form by id, or a Core form by slug. */
export type FormTarget = { kind: 'form'; formId: string } | { kind: 'coreForm'; slug: string };

/** The 200 answer of a mint. `embedOrigin` is the embed origin the framed page posts from. */
export interface MintResponse {
  embedUrl: string;
  embedOrigin: string;
  provider: Provider;
  /** Seconds the single-use handle stays redeemable (120), 0 when no handle was issued. */
  expiresIn: number;
}

/** `POST {endpoint}/forms/:formId/session` or `POST {endpoint}/core-forms/:slug/session`. */
export function mintPath(target: FormTarget): string {
  return target.kind === 'form'
    ? `/forms/${encodeURIComponent(target.formId)}/session`
    : `/core-forms/${encodeURIComponent(target.slug)}/session`;
}

/** `GET {endpoint}/forms`: the embeddable forms a portal menu offers its signed-in user. */
export const CATALOGUE_PATH = '/forms';

/**
 * A form a portal menu may offer. A designer form's `authType` is one of the contract's that an
 * embeddable form has, or a newer one this release does not know, passed on as the service
 * named it (docs/contract.md#designer-forms).
 */
export type CatalogueEntry =
  | {
      kind: 'form';
      formId: string;
      name: string;
      authType: 'microsoft' | 'google' | 'none' | (string & {});
    }
  | { kind: 'coreForm'; slug: string; name: string };

/** The 200 answer of `GET {endpoint}/forms`: designer forms first, then Core forms. */
export interface Catalogue {
  forms: CatalogueEntry[];
}
