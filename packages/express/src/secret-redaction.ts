const REDACTED = '[redacted]';

/**
 * Cuts `secret` (the API key) out of a text in every form an upstream message or a URL might
 * carry it: as is, JSON-escaped, percent-encoded (hex in either case; once with any of its
 * characters encoded or not, as encoders differ in which they leave alone, or twice as
 * `encodeURIComponent` does it), base64 and base64url (at each of the three byte alignments, so
 * also inside a longer encoded value, such as an encoded `Bearer <key>`), and hex.
 */
export function secretRedactor(secret: string): (text: string) => string {
  const bytes = Buffer.from(secret, 'utf8');
  const caseless = [encodeURIComponent(encodeURIComponent(secret)), bytes.toString('hex')];
  const exact = [secret, JSON.stringify(secret).slice(1, -1), ...base64Forms(bytes)];
  const patterns = [
    new RegExp(alternatives(exact, secret), 'g'),
    new RegExp(alternatives(caseless, secret), 'gi'),
    new RegExp(eachCharacterPercentEncodedOrNot(secret), 'g'),
  ];
  return (text) => patterns.reduce((clean, pattern) => clean.replace(pattern, REDACTED), text);
}

/** Each character of `secret` as itself or as its UTF-8 bytes percent-encoded, hex in either case. */
function eachCharacterPercentEncodedOrNot(secret: string): string {
  const percent = (byte: number) =>
    `%${[...byte.toString(16).padStart(2, '0')].map((digit) => `[${digit}${digit.toUpperCase()}]`).join('')}`;
  return [...secret]
    .map((character) => {
      const encoded = [...Buffer.from(character, 'utf8')].map(percent).join('');
      return `(?:${escapeRegExp(character)}|${encoded})`;
    })
    .join('');
}

/** The base64 and base64url characters that only `bytes` decide, at byte offsets 0, 1 and 2. */
function base64Forms(bytes: Buffer): string[] {
  return [0, 1, 2].flatMap((offset) => {
    const padded = Buffer.concat([Buffer.alloc(offset), bytes, Buffer.alloc(2)]);
    const first = Math.ceil((offset * 8) / 6);
    const end = Math.floor(((offset + bytes.length) * 8) / 6);
    const base64 = padded.toString('base64').slice(first, end);
    return [base64, base64.replaceAll('+', '-').replaceAll('/', '_')];
  });
}

/** One pattern matching any of `texts`, longest first; encoded forms under 8 characters are left out. */
function alternatives(texts: string[], secret: string): string {
  return [...new Set([secret, ...texts])]
    .filter((text) => text === secret || text.length >= 8)
    .sort((a, b) => b.length - a.length)
    .map(escapeRegExp)
    .join('|');
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
