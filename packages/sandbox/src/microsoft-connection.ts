/** The state of the organisation's connection to the first identity provider. */
export type MicrosoftConnection =
  | { state: 'ok' }
  /** Not configured, consent lapsed or token refused: `microsoft_connection_failed`. */
  | { state: 'broken' }
  /** The provider throttles: `microsoft_unavailable` with `Retry-After: retryAfter`. */
  | { state: 'throttled'; retryAfter: number };

export function parseMicrosoftConnection(value: unknown): MicrosoftConnection {
  const input = (typeof value === 'object' && value !== null ? value : {}) as Record<
    string,
    unknown
  >;
  if (input.state === 'ok' || input.state === 'broken') return { state: input.state };
  if (input.state === 'throttled') {
    const retryAfter = input.retryAfter ?? 30;
    if (typeof retryAfter !== 'number' || !Number.isInteger(retryAfter) || retryAfter < 0) {
      throw new TypeError('retryAfter must be a whole number of seconds');
    }
    return { state: 'throttled', retryAfter };
  }
  throw new TypeError('state must be ok, broken or throttled');
}
