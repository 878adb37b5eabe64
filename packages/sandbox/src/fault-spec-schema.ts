import { z } from 'zod';
import type { FaultSpec } from './faults.js';

// A FaultSpec as the HTTP control API receives it: its JSON body, checked field by field, so
// that a field of the wrong type, or one the fault's kind lacks (a misspelt `retryafter`), is
// refused with a message naming it instead of arming another fault.

/**
 * What Node sends as a header value: visible ASCII, spaces, tabs and Latin-1 bytes past ASCII
 * (obs-text), as Node's own check takes them; no line break or other control character.
 */
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

const say = (message: string) => ({ error: message });
// A final status Node can send: a misbehaving service's 300 or 799 is a case worth simulating.
const STATUS = say('fault status must be a whole number from 200 to 999');
const COUNT = say('fault count must be a whole number >= 1');
const CODE = say('an error fault needs a code (a non-empty string)');
const DELAY = say('a delay fault needs delayMs, a finite number >= 0');
const RETRY_AFTER = say(
  'fault retryAfter must be seconds (a finite number >= 0), a header value such as an HTTP-date, or null',
);

/** The fields of one kind of fault, with `count` and `scope`, and no other. */
function kindOf<Kind extends string, Shape extends z.ZodRawShape>(kind: Kind, shape: Shape) {
  return z.strictObject(
    {
      kind: z.literal(kind),
      count: z.int(COUNT).min(1, COUNT).optional(),
      scope: z
        .enum(['api', 'session', 'redeem'], say('fault scope must be api, session or redeem'))
        .optional(),
      ...shape,
    },
    {
      error: (issue) =>
        issue.code === 'unrecognized_keys'
          ? `fault kind ${kind} has no field ${issue.keys.join(', ')}`
          : undefined,
    },
  );
}

const status = z.int(STATUS).min(200, STATUS).max(999, STATUS).optional();

const FaultSpecSchema = z.discriminatedUnion(
  'kind',
  [
    kindOf('error', {
      code: z.string(CODE).min(1, CODE),
      status,
      retryable: z.boolean(say('fault retryable must be true or false')).optional(),
      retryAfter: z
        .union(
          [z.number().min(0, RETRY_AFTER), z.string().regex(HEADER_VALUE, RETRY_AFTER), z.null()],
          RETRY_AFTER,
        )
        .optional(),
      message: z.string(say('fault message must be a string')).optional(),
    }),
    kindOf('delay', { delayMs: z.number(DELAY).min(0, DELAY) }),
    kindOf('reset', {}),
    kindOf('notJson', { status }),
    kindOf('foreignEmbedUrl', {
      scope: z
        .literal('session', say('a foreignEmbedUrl fault is a mint answer: its scope is session'))
        .optional(),
      origin: z
        .string(say('fault origin must be a string, such as https://foreign.example'))
        .optional(),
    }),
  ],
  say('fault kind must be error, delay, reset, notJson or foreignEmbedUrl'),
);

/** `spec` if it is a FaultSpec; else a TypeError naming the first field that is not. */
export function checkFaultSpec(spec: unknown): FaultSpec {
  const parsed = FaultSpecSchema.safeParse(spec);
  if (!parsed.success) throw new TypeError(parsed.error.issues[0]?.message);
  return spec as FaultSpec;
}
