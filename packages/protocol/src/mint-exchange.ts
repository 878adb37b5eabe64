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
export type FormTarget =
  | {
      kind: 'form';
      /** The designer form's id (`form-id`), as the service's forms list names it. */
      formId: string;
    }
  | {
      kind: 'coreForm';
      /** The Core form's slug (`core-slug`), as the service's Core forms list names it. */
      slug: string;
    };

/** The 200 answer of a mint. `embedOrigin` is the embed origin the framed page posts from. */
export interface MintResponse {
  /** The page to frame, on `embedOrigin`, with the single-use handle in it: never logged. */
  embedUrl: string;
  /**
   * The origin the framed page posts its messages from, canonical: `https://host[:port]`, or
   * `http` on this machine in development (the sandbox).
   */
  embedOrigin: string;
  /** How the service signed the user in: `microsoft`, `google`, `portal`, `none` or a newer one. */
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
      /** The designer form's id, for `<form-embed form-id>`. */
      formId: string;
      /** The form's name, as its organisation wrote it: for a menu. */
      name: string;
      /** Whom the form signs in: a Microsoft user, a Google user, nobody (`none`), or a newer one. */
      authType: 'microsoft' | 'google' | 'none' | (string & {});
    }
  | {
      kind: 'coreForm';
      /** The Core form's slug, for `<form-embed core-slug>`. */
      slug: string;
      /** The form's name, as its organisation wrote it: for a menu. */
      name: string;
    };

/** The 200 answer of `GET {endpoint}/forms`: designer forms first, then Core forms. */
export interface Catalogue {
  forms: CatalogueEntry[];
}
