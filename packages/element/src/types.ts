import type { FormTarget, MintResponse } from '@form-embed/protocol/browser';

/** Where the element is in its lifecycle; reflected as the read-only `state` attribute. */
export type FormEmbedState = 'idle' | 'minting' | 'framed' | 'waiting' | 'failed';

/** Replaces the transport to the middleware; reject with a FormSessionError to report a SessionError. */
export type FetchSession = (
  target: FormTarget,
  options: { signal: AbortSignal },
) => Promise<MintResponse>;
