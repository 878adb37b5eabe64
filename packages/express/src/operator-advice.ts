// What an operator does about a failure the service answered: the clause that follows the log
// line naming it (the README's Troubleshooting lists each line).

/** What an operator does about a code the service answered, after the line naming it. */
export const WHAT_TO_DO = new Map([
  [
    'invalid_api_key',
    ': the key is revoked, expired or mistyped; give apiKey a valid key of the organisation',
  ],
  [
    'microsoft_connection_failed',
    ": the organisation's Microsoft connection is not working (not configured, consent lapsed or token refused), and every microsoft and Core form fails until an administrator of the organisation reconnects it at the service",
  ],
  [
    'microsoft_unavailable',
    ': Microsoft is throttling or unavailable for the organisation; nothing in the portal to change, it passes on its own (the element retries after the Retry-After the service gave)',
  ],
  [
    'microsoft_permission_denied',
    ": the organisation's Microsoft connection may not read that client's users; an administrator of the organisation grants it at the service",
  ],
  [
    'rate_limited',
    ": the organisation's own limit at the service is spent (every user's and instance's mints count); lower limit.mints or limit.signedOutMints, or ask the service for more",
  ],
]);

/**
 * What an operator does about a 429 on a read of the middleware's own (`GET /me`, the lists, a
 * client): the key's reads limit, apart from the mints' (docs/contract.md#limits), is spent, and
 * the mint limits have no part in it.
 */
export const WHEN_READS_LIMITED =
  ": the reads limit at the service is spent (the key's, which every instance's catalogue reads and any other program reading with the key count); raise catalogue.cacheTtlMs, lower limit.catalogue, or find what else reads with the key";
