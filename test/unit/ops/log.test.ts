import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import { createLogger } from '../../../src/ops/log.js';
import { REDACTED, Redactor } from '../../../src/ops/redact.js';
import { MemoryStream } from '../../support/memoryStream.js';

// Fake but well-formed secrets: a 64-byte key in base58 and JSON-array form, an API key, a JWT.
const SECRET_BASE58 = '4AnotwFcVb5kBcAst5Dnhsw5bUNbB9rMz4DRNmfeHm33ASWgiQmp5zeQoBdPYCuzRcjzNbYuxnkQWncL9Tff9qJE';
const SECRET_BYTES = [
  158, 126, 76, 33, 162, 79, 188, 101, 171, 49, 63, 34, 236, 45, 229, 153, 151, 170, 48, 177, 144, 52, 120, 134, 187, 67, 140, 45, 73, 116, 253, 43, 78, 45,
  118, 219, 15, 159, 67, 92, 102, 190, 87, 157, 157, 107, 220, 82, 212, 81, 241, 161, 83, 33, 200, 77, 123, 164, 187, 110, 46, 6, 53, 135,
];
const API_KEY = 'jup_live_7f3a9c2e4b1d8f6a0e5c';
const JWT =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiI5V3pEWHdCYm1rZzhaVGJOTXFVeHZRUkF5clpaRHNHWWRMVkw5elloUkFXc' +
  'SIsImlhdCI6MTc2NDAwMDAwMH0.4Qy2vO0nX3l8Q0JfW1h0d8uE6y8b8pQyKXcQxV4bqzM';
const SECRETS = [SECRET_BASE58, JSON.stringify(SECRET_BYTES), SECRET_BYTES.join(','), API_KEY, JWT];

function capture(register: boolean): { log: ReturnType<typeof createLogger>; out: MemoryStream } {
  const redactor = new Redactor();
  if (register) for (const s of [SECRET_BASE58, API_KEY, JWT]) redactor.add(s);
  const out = new MemoryStream();
  const log = createLogger({ destination: out, redactor, clock: new ManualClock(1_700_000_000_000), level: 'trace' });
  return { log, out };
}

describe('logger redaction', () => {
  it('scrubs a private key, an API key and a JWT wherever they appear', () => {
    const { log, out } = capture(true);
    log.info({ wallet: { secretKey: SECRET_BASE58 } }, 'loaded key');
    log.info({ keyBytes: SECRET_BYTES }, 'key as bytes');
    log.info({ config: { api: { key: API_KEY } }, headers: { 'x-api-key': API_KEY, authorization: `Bearer ${JWT}` } });
    log.warn(`request to https://api.jup.ag/x?api-key=${API_KEY} failed with ${JWT}`);
    log.error({ err: new Error(`login failed for token ${JWT} and key ${SECRET_BASE58}`) }, 'boom');
    log.debug({ nested: { deeper: { note: `prefix ${SECRET_BASE58} suffix`, arr: [API_KEY] } } }, 'deep');
    log.info({ file: JSON.stringify(SECRET_BYTES) }, 'keypair file content');

    const text = out.text;
    expect(out.lines()).toHaveLength(7);
    for (const secret of SECRETS) expect(text).not.toContain(secret);
    expect(text).toContain(REDACTED);
    // What is not secret survives, so the log stays useful.
    expect(text).toContain('https://api.jup.ag/x?api-key=');
    expect(text).toContain('login failed for token');
  });

  it('scrubs by field name and by shape even when nothing was registered', () => {
    const { log, out } = capture(false);
    log.info({ apiKey: API_KEY, private_key: SECRET_BASE58, token: 'opaque-session-token' }, 'by name');
    log.info({ note: `jwt=${JWT}` }, 'by shape');
    log.info(`file body ${JSON.stringify(SECRET_BYTES)}`);
    const text = out.text;
    for (const secret of [API_KEY, SECRET_BASE58, 'opaque-session-token', JWT, JSON.stringify(SECRET_BYTES)]) {
      expect(text).not.toContain(secret);
    }
  });

  it("keeps an error's class, code and cause, scrubbed, under err and under any other name", () => {
    const { log, out } = capture(true);
    const cause = Object.assign(new RangeError(`quota for ${API_KEY}`), { code: 'RATE_LIMITED' });
    log.warn({ err: new TypeError('boom', { cause }) }, 'under err');
    log.warn(new SyntaxError('direct'));
    log.warn({ error: new TypeError('named') }, 'under error');
    const [first, second, third] = out.lines();
    expect(first?.['err']).toMatchObject({
      type: 'TypeError',
      message: 'boom',
      cause: { type: 'RangeError', code: 'RATE_LIMITED', message: `quota for ${REDACTED}` },
    });
    expect(second?.['err']).toMatchObject({ type: 'SyntaxError', message: 'direct' });
    expect(third?.['error']).toMatchObject({ type: 'TypeError', message: 'named' });
  });

  it('keeps signatures, mints and amounts, and stamps the injected clock time', () => {
    const { log, out } = capture(true);
    const signature = '5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW';
    log.info({ signature, mint: 'So11111111111111111111111111111111111111112', amount: 12345678901234567890n }, 'sent');
    const [line] = out.lines();
    expect(line).toMatchObject({ signature, amount: '12345678901234567890', time: 1_700_000_000_000, level: 'info', msg: 'sent' });
  });
});

describe('Redactor', () => {
  it('refuses to register short values that would mangle ordinary text', () => {
    expect(() => new Redactor().add('abc')).toThrow(RangeError);
  });

  it('stops scrubbing a value once removed, and cuts cycles', () => {
    const r = new Redactor();
    r.add(API_KEY);
    expect(r.scrubText(`k=${API_KEY}`)).toBe(`k=${REDACTED}`);
    r.remove(API_KEY);
    expect(r.scrubText(`k=${API_KEY}`)).toBe(`k=${API_KEY}`);
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic['self'] = cyclic;
    expect(r.scrub(cyclic)).toEqual({ a: 1, self: '[circular]' });
  });
});
