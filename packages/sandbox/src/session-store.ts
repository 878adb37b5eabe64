import { randomBytes } from 'node:crypto';
import type { FormTarget, Provider } from '@form-embed/protocol';

/** A signed-in form session, created at mint and signed in when its handle is redeemed. */
export interface FormSessionRecord {
  id: string;
  target: FormTarget;
  provider: Provider;
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
  redeemed: boolean;
}

export type Redemption =
  | { ok: true; session: FormSessionRecord }
  | { ok: false; reason: 'unknown' | 'used' | 'too-old' };

/**
 * Handles and sessions (docs/contract.md#handles-and-signed-in-sessions): a handle is single use and
 * redeemable for `handleTtlSeconds`; the session lasts `sessionTtlSeconds` from mint.
 */
export class SessionStore {
  #handles = new Map<string, HandleRecord>();
  #sessions = new Map<string, FormSessionRecord>();
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
  mint(target: FormTarget, provider: Provider, identifier: string | undefined): string {
    const mintedAt = this.#now();
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
    this.#handles.set(handle, { sessionId: session.id, mintedAt, redeemed: false });
    return handle;
  }

  redeem(handle: string): Redemption {
    const record = this.#handles.get(handle);
    if (!record) return { ok: false, reason: 'unknown' };
    if (record.redeemed) return { ok: false, reason: 'used' };
    if (this.#now() - record.mintedAt > this.#ttl.handleTtlSeconds * 1000) {
      return { ok: false, reason: 'too-old' };
    }
    const session = this.#sessions.get(record.sessionId);
    if (!session) return { ok: false, reason: 'unknown' };
    record.redeemed = true;
    return { ok: true, session };
  }

  session(id: string): FormSessionRecord | undefined {
    return this.#sessions.get(id);
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

  clear(): void {
    this.#handles.clear();
    this.#sessions.clear();
  }
}

function token(bytes: number): string {
  return randomBytes(bytes).toString('base64url');
}
