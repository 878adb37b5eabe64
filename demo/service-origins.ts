import { defaultServicePaths, OrganisationSchema } from '@form-embed/protocol';

export interface EmbedOriginPair {
  formsOrigin: string;
  coreFormsOrigin: string;
}

/** How long the origins read from `GET /api/v1/me` are used before they are read again. */
const FRESH_MS = 5 * 60_000;

/**
 * The real service's embed origins for the pages' Content-Security-Policy, read from
 * `GET /api/v1/me` as the middleware reads them (it keeps its copy to itself): once, shared by
 * concurrent pages, again after FRESH_MS so that a new forms domain reaches the next pages. A
 * failed read keeps the last good origins; with none, undefined (the pages frame nothing).
 */
export function serviceOrigins(
  baseUrl: string,
  apiKey: string,
): () => Promise<EmbedOriginPair | undefined> {
  let lastGood: EmbedOriginPair | undefined;
  let read: Promise<EmbedOriginPair | undefined> | undefined;
  let readAt = 0;
  const readMe = async () => {
    const answer = await fetch(`${baseUrl.replace(/\/+$/, '')}${defaultServicePaths.me}`, {
      headers: { Authorization: `Bearer ${apiKey}`, Accept: 'application/json' },
      redirect: 'error',
      signal: AbortSignal.timeout(10_000),
    });
    if (!answer.ok) throw new Error(`GET /api/v1/me answered ${answer.status}`);
    const { formsOrigin, coreFormsOrigin } = OrganisationSchema.parse(await answer.json());
    if (formsOrigin === undefined || coreFormsOrigin === undefined) {
      throw new Error('GET /api/v1/me carries no embed origins');
    }
    lastGood = { formsOrigin, coreFormsOrigin };
    return lastGood;
  };
  return () => {
    if (read === undefined || Date.now() - readAt > FRESH_MS) {
      readAt = Date.now();
      read = readMe().catch((error: Error) => {
        console.warn(`[demo] the embed origins could not be read for the CSP: ${error.message}`);
        if (lastGood === undefined) read = undefined; // the next page tries again
        return lastGood;
      });
    }
    return read;
  };
}
