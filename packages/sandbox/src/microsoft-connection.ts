import { z } from 'zod';

/**
 * The state of the organisation's Microsoft connection, which microsoft and Core forms need, as
 * `setMicrosoftConnection` takes it.
 */
export type MicrosoftConnection =
  | { state: 'ok' }
  /** Not configured, consent lapsed or token refused: `microsoft_connection_failed`. */
  | { state: 'broken' }
  /** The provider throttles: `microsoft_unavailable` with `Retry-After: retryAfter` (30 s if left out). */
  | { state: 'throttled'; retryAfter?: number };

/** The connection as the sandbox holds it: a throttled one's `retryAfter` filled in. */
export type HeldMicrosoftConnection =
  | Exclude<MicrosoftConnection, { state: 'throttled' }>
  | {
      state: 'throttled';
      retryAfter: number;
    };

const RETRY_AFTER = { error: 'retryAfter must be a whole number of seconds' };

/** A state's fields and no other: `retryAfter` belongs to `throttled` alone. */
function stateOf<State extends string, Shape extends z.ZodRawShape>(state: State, shape: Shape) {
  return z.strictObject(
    { state: z.literal(state), ...shape },
    {
      error: (issue) =>
        issue.code === 'unrecognized_keys'
          ? `state ${state} has no field ${issue.keys.join(', ')}`
          : undefined,
    },
  );
}

const MicrosoftConnectionSchema = z.discriminatedUnion(
  'state',
  [
    stateOf('ok', {}),
    stateOf('broken', {}),
    stateOf('throttled', { retryAfter: z.int(RETRY_AFTER).min(0, RETRY_AFTER).default(30) }),
  ],
  { error: 'state must be ok, broken or throttled' },
);

export function parseMicrosoftConnection(value: unknown): HeldMicrosoftConnection {
  const parsed = MicrosoftConnectionSchema.safeParse(value);
  if (!parsed.success) throw new TypeError(parsed.error.issues[0]?.message);
  return parsed.data;
}
