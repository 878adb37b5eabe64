// Apart from the middleware that uses it, so that the public types need no Express types.
import { isLoopbackHostname } from '@form-embed/protocol';

const HOST_HEADER = /^(?:\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::\d{1,5})?$/i;

/** localhost, *.localhost, 127.0.0.0/8 and [::1], with any port. */
export function isLoopbackHost(host: string | undefined): boolean {
  if (!host || !HOST_HEADER.test(host)) return false;
  let hostname: string;
  try {
    hostname = new URL(`http://${host}`).hostname;
  } catch {
    return false;
  }
  return isLoopbackHostname(hostname);
}
