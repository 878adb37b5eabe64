import { INVISIBLE } from './logger.js';

/** The most characters of an upstream code or message that reach a log line. */
const LOGGED_TEXT_MAX = 500;

/**
 * What the service said, fit for a log line: not too long, no key (`redact` cuts it out), and no
 * control, format or line-separator character (a line break would let an upstream text forge a
 * line of its own), each one a space. A key written with such characters inside shows only once
 * they are gone: then the text is logged without them, the key cut out.
 */
export function loggedText(redact: (text: string) => string): (text: string) => string {
  return (text) => {
    const redacted = redact(text);
    const joined = redacted.replace(INVISIBLE, '');
    const rejoined = redact(joined);
    const clean = rejoined === joined ? redacted.replace(INVISIBLE, ' ') : rejoined;
    return clean.slice(0, LOGGED_TEXT_MAX);
  };
}
