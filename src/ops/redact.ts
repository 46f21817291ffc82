/**
 * Scrubbing of secrets from anything that leaves the process as text: log lines, error messages,
 * audit rows. Two nets, because either alone leaks:
 * - by key: fields whose name says "secret" (apiKey, secretKey, authorization, token, …) are
 *   replaced whatever their value;
 * - by value: every secret the daemon holds (the API key, the wallet key in its base58 and
 *   JSON-array forms, the current JWT) is registered here, and any string containing one has it
 *   cut out, wherever it hides (a URL, an error message, a nested response body).
 * JWT-shaped strings and 64-number arrays (a Solana secret key's JSON form) are scrubbed even when
 * nobody registered them.
 */

export const REDACTED = '[redacted]';

/** Field names whose values are always secret, compared case-insensitively without `_` or `-`. */
const SECRET_KEYS = new Set([
  'apikey',
  'xapikey',
  'authorization',
  'secret',
  'secretkey',
  'privatekey',
  'keypair',
  'jwt',
  'token',
  'accesstoken',
  'password',
  'mnemonic',
  'seedphrase',
]);

const normaliseKey = (key: string): string => key.toLowerCase().replace(/[-_]/g, '');

/** Whether a field of this name holds a secret by its name alone. */
export function isSecretKey(key: string): boolean {
  return SECRET_KEYS.has(normaliseKey(key));
}

// Three base64url segments starting with an encoded '{"' header: a JWT, ours or anybody's.
const JWT_PATTERN = /eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]+/g;
// A JSON array of exactly 64 small integers: the Solana CLI keypair file format.
const KEY_ARRAY_PATTERN = /\[\s*\d{1,3}(?:\s*,\s*\d{1,3}){63}\s*\]/g;

/** Registered secret values, scrubbed from every string passed through {@link Redactor.scrub}. */
export class Redactor {
  #values: string[] = [];

  /** Registers a secret; values shorter than 8 characters are refused, as scrubbing them would mangle text. */
  add(value: string): void {
    if (value.length < 8) throw new RangeError('refusing to register a secret shorter than 8 characters');
    if (!this.#values.includes(value)) {
      this.#values.push(value);
      // Longest first, so a secret that contains another is removed whole.
      this.#values.sort((a, b) => b.length - a.length);
    }
  }

  /** Forgets a secret (an expired JWT, say) once it can no longer appear. */
  remove(value: string): void {
    this.#values = this.#values.filter((v) => v !== value);
  }

  /** A copy of `text` with every registered secret and every JWT- or key-shaped string replaced. */
  scrubText(text: string): string {
    let out = text;
    for (const value of this.#values) {
      if (out.includes(value)) out = out.split(value).join(REDACTED);
    }
    return out.replace(JWT_PATTERN, REDACTED).replace(KEY_ARRAY_PATTERN, REDACTED);
  }

  /**
   * A deep copy of `value` with secret-named fields replaced and every string scrubbed.
   * Cycles are cut; errors become plain objects that keep name, message, code and cause.
   */
  scrub(value: unknown): unknown {
    return this.#scrub(value, new WeakSet());
  }

  #scrub(value: unknown, seen: WeakSet<object>): unknown {
    if (typeof value === 'string') return this.scrubText(value);
    // JSON has no bigint; base-unit amounts are written as decimal strings.
    if (typeof value === 'bigint') return value.toString();
    if (typeof value !== 'object' || value === null) return value;
    if (seen.has(value)) return '[circular]';
    seen.add(value);
    if (Array.isArray(value)) {
      // An array of 64 byte values is a secret key in memory; nothing else we log looks like that.
      if (value.length === 64 && value.every((v) => Number.isInteger(v) && v >= 0 && v <= 255)) return REDACTED;
      return value.map((v) => this.#scrub(v, seen));
    }
    if (value instanceof Uint8Array) return `<${value.length} bytes>`;
    if (value instanceof Error) {
      const plain: Record<string, unknown> = { type: value.name, message: this.scrubText(value.message) };
      const code = (value as { code?: unknown }).code;
      if (code !== undefined) plain['code'] = code;
      if (value.stack) plain['stack'] = this.scrubText(value.stack);
      if (value.cause !== undefined) plain['cause'] = this.#scrub(value.cause, seen);
      return plain;
    }
    // Objects that choose their own JSON form (the Secret wrapper, Date, URL) are asked for it first.
    const toJSON = (value as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function') return this.#scrub((toJSON as () => unknown).call(value), seen);
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) {
      out[key] = isSecretKey(key) && v !== null && v !== undefined ? REDACTED : this.#scrub(v, seen);
    }
    return out;
  }
}
