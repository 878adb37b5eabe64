import { randomBytes } from 'node:crypto';
import type { FormSession, FormTarget } from '@form-embed/protocol';

/** A signed-in form session, created at mint and signed in when its handle is redeemed. */
export interface FormSessionRecord {
  id: string;
  target: FormTarget;
  /** One of the contract's four: the sandbox names no provider a release may not know. */
  provider: FormSession['provider'];
  /** Who is signed in: a UPN, email or portal identifier; undefined when anonymous. */
  identifier: string | undefined;
  mintedAt: number;
  /** Set by `control.expireSessions()`. */
  expiredByControl: boolean;
  /** The page has already been told to post `expired` for this lapse. */
  lapseReported: boolean;
}

interface HandleRecord {
  sessionId: string;
  mintedAt: number;
}

/** How many handles and sessions the store holds (`control.storeStats()`). */
export interface StoreStats {
  handles: number;
  sessions: number;
  /** Sessions past the horizon, kept only to be told as lapsed. */
  lapsed: number;
}

/** Lapsed sessions kept past the horizon; the oldest goes first. */
const MAX_LAPSED_SESSIONS = 100_000;

/** A failed redemption: the handle is unknown, already used or too old (one answer for all). */
export type Redemption = { ok: true; session: FormSessionRecord } | { ok: false };

/**
 * Handles and sessions (docs/contract.md#handles-and-signed-in-sessions): a handle is single use
 * and redeemable for `handleTtlSeconds`; the session lasts `sessionTtlSeconds` from mint.
 *
 * Each mint first forgets what no request can need any more, on the sandbox's clock:
 * - a handle once redeemed (at once), or once older than `handleTtlSeconds`, and then its session
 *   too: never redeemed, so no page knows its URL;
 * - a session `2 × sessionTtlSeconds` after its mint (the horizon) moves to the lapsed sessions,
 *   of which the newest MAX_LAPSED_SESSIONS are kept. However long after the lapse a page is
 *   reloaded or submitted, it gets the lapse page, posting `expired` once
 *   (docs/contract.md#embedded-form-message: the contract sets no limit), not the sign-in error
 *   an unknown session gets.
 * The maps are in mint order and the clock only moves forward, so pruning reads from the
 * oldest and stops at the first record it keeps: amortised O(1) a mint.
 */
export class SessionStore {
  #handles = new Map<string, HandleRecord>();
  #sessions = new Map<string, FormSessionRecord>();
  #lapsed = new Map<string, FormSessionRecord>();
  #ttl: { handleTtlSeconds: number; sessionTtlSeconds: number };
  #now: () => number;

  constructor(
    ttl: { handleTtlSeconds: number; sessionTtlSeconds: number },
    now: () => number = Date.now,
  ) {
    this.#ttl = ttl;
    this.#now = now;
  }

  /** Creates a session and returns its handle. */
  mint(
    target: FormTarget,
    provider: FormSession['provider'],
    identifier: string | undefined,
  ): string {
    const mintedAt = this.#now();
    this.#prune(mintedAt);
    const session: FormSessionRecord = {
      id: `fss_${token(18)}`,
      target,
      provider,
      identifier,
      mintedAt,
      expiredByControl: false,
      lapseReported: false,
    };
    const handle = `fsh_${token(24)}`;
    this.#sessions.set(session.id, session);
    this.#handles.set(handle, { sessionId: session.id, mintedAt });
    return handle;
  }

  redeem(handle: string): Redemption {
    const record = this.#handles.get(handle);
    if (!record || this.#isTooOld(record, this.#now())) return { ok: false };
    this.#handles.delete(handle);
    const session = this.#sessions.get(record.sessionId);
    return session ? { ok: true, session } : { ok: false };
  }

  session(id: string): FormSessionRecord | undefined {
    return this.#sessions.get(id) ?? this.#lapsed.get(id);
  }

  hasLapsed(session: FormSessionRecord): boolean {
    return (
      session.expiredByControl ||
      this.#now() - session.mintedAt >= this.#ttl.sessionTtlSeconds * 1000
    );
  }

  /**
   * Called when a page notices the lapse: true the first time for this session (the page then
   * posts `expired`), false afterwards, so the message is posted at most once per lapse.
   */
  reportLapse(session: FormSessionRecord): boolean {
    if (session.lapseReported) return false;
    session.lapseReported = true;
    return true;
  }

  expireAll(): void {
    for (const session of this.#sessions.values()) session.expiredByControl = true;
  }

  #isTooOld(handle: HandleRecord, now: number): boolean {
    return now - handle.mintedAt >= this.#ttl.handleTtlSeconds * 1000;
  }

  #prune(now: number): void {
    for (const [handle, record] of this.#handles) {
      if (!this.#isTooOld(record, now)) break;
      this.#handles.delete(handle);
      this.#sessions.delete(record.sessionId);
    }
    const horizonMs = 2 * this.#ttl.sessionTtlSeconds * 1000;
    for (const [id, session] of this.#sessions) {
      if (now - session.mintedAt < horizonMs) break;
      this.#sessions.delete(id);
      this.#lapsed.set(id, session);
    }
    for (const id of this.#lapsed.keys()) {
      if (this.#lapsed.size <= MAX_LAPSED_SESSIONS) break;
      this.#lapsed.delete(id);
    }
  }

  counts(): StoreStats {
    return {
      handles: this.#handles.size,
      sessions: this.#sessions.size,
      lapsed: this.#lapsed.size,
    };
  }

  clear(): void {
    this.#handles.clear();
    this.#sessions.clear();
    this.#lapsed.clear();
  }
}

function token(bytes: number): string {
  return randomBytes(bytes).toString('base64url');
}
