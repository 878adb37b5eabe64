import { defaultServicePaths, OrganisationSchema } from '@form-embed/protocol';

export interface EmbedOriginPair {
  formsOrigin: string;
  coreFormsOrigin: string;
}

/** How long the origins read from `GET /api/v1/me` are used before they are read again. */
const FRESH_MS = 60_000;
/** How long after a failed read the next one waits, so that a down service is not asked per page. */
const RETRY_MS = 15_000;
/** The longest one read may take. */
const READ_TIMEOUT_MS = 10_000;

/**
 * The real service's embed origins for the pages' Content-Security-Policy, read from
 * `GET /api/v1/me` as the middleware reads them (it keeps its copy to itself). Until a read has
 * succeeded, the page that starts a read waits for it (concurrent ones share it); after that
 * every page gets the last good origins at once, and a read older than FRESH_MS is renewed in the background, so a new forms
 * domain reaches the pages within about a minute. A failed read keeps the last good origins and
 * is tried again after RETRY_MS; with none yet, undefined (the pages frame nothing).
 */
export function serviceOrigins(
  baseUrl: string,
  apiKey: string,
): () => Promise<EmbedOriginPair | undefined> {
  let lastGood: EmbedOriginPair | undefined;
  let reading: Promise<void> | undefined;
  let nextReadAt = 0;
  const refresh = () => {
    if (reading === undefined && Date.now() >= nextReadAt) {
      reading = readEmbedOrigins(baseUrl, apiKey)
        .then(
          (origins) => {
            lastGood = origins;
            nextReadAt = Date.now() + FRESH_MS;
          },
          (error: unknown) => {
            console.warn(`[demo] the embed origins could not be read for the CSP: ${why(error)}`);
            nextReadAt = Date.now() + RETRY_MS;
          },
        )
        .finally(() => {
          reading = undefined;
        });
    }
    return reading;
  };
  return async () => {
    const read = refresh();
    if (lastGood === undefined) await read;
    return lastGood;
  };
}

class ReadFailed extends Error {}

async function readEmbedOrigins(baseUrl: string, apiKey: string): Promise<EmbedOriginPair> {
  const answer = await fetch(`${baseUrl.replace(/\/+$/, '')}${defaultServicePaths.me}`, {
    headers: { Authorization: `Bearer ${apiKey}`, Accept: 'application/json' },
    redirect: 'error',
    signal: AbortSignal.timeout(READ_TIMEOUT_MS),
  });
  if (!answer.ok) throw new ReadFailed(`GET /api/v1/me answered ${answer.status}`);
  const parsed = OrganisationSchema.safeParse(await answer.json().catch(() => undefined));
  const { formsOrigin, coreFormsOrigin } = parsed.data ?? {};
  if (formsOrigin === undefined || coreFormsOrigin === undefined) {
    throw new ReadFailed('GET /api/v1/me carries no embed origins');
  }
  return { formsOrigin, coreFormsOrigin };
}

/** Our own reasons as they are; fetch's by name only: its messages may quote the request's headers. */
function why(error: unknown): string {
  if (error instanceof ReadFailed) return error.message;
  return error instanceof Error ? `the request failed (${error.name})` : 'the request failed';
}
