import { StoreError } from './errors.js';

// Key names that only ever hold credentials, compared lowercased with '_' and '-' removed.
// Deliberately not 'token' (a token symbol) or 'seed' (the simulator's replay seed, which is meant to be logged).
const SECRET_KEYS = new Set([
  'secretkey',
  'privatekey',
  'secret',
  'mnemonic',
  'seedphrase',
  'passphrase',
  'password',
  'apikey',
  'xapikey',
  'jwt',
  'accesstoken',
  'refreshtoken',
  'authorization',
  'bearer',
  'keypair',
]);

/** Three base64url segments, the first two starting with '{"' encoded: the shape of every JWT. */
const JWT_SHAPE = /^eyJ[\w-]+\.eyJ[\w-]+\.[\w-]*$/;

function looksLikeKeypairBytes(value: readonly unknown[]): boolean {
  // The Solana CLI key file format: a JSON array of the 64 secret-key bytes.
  return value.length === 64 && value.every((b) => typeof b === 'number' && Number.isInteger(b) && b >= 0 && b <= 255);
}

function refuse(path: string, why: string): never {
  throw new StoreError('STORE_ACTION_SECRET', `${path} ${why}: secrets never go into the audit log`, { details: { path } });
}

/**
 * Refuses data that obviously carries a credential: a key named like one (`secretKey`,
 * `api_key`, `jwt`, …), a JWT-shaped string, or a 64-byte array in the Solana key-file format.
 * A safety net for mistakes, not a guarantee: callers must not pass secrets in the first place.
 */
export function assertNoSecrets(value: unknown, path = '$'): void {
  if (typeof value === 'string') {
    if (value.startsWith('eyJ') && JWT_SHAPE.test(value)) refuse(path, 'looks like a JWT');
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  if (Array.isArray(value)) {
    if (looksLikeKeypairBytes(value)) refuse(path, 'looks like a 64-byte secret key');
    value.forEach((item, index) => assertNoSecrets(item, `${path}[${index}]`));
    return;
  }
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    const lower = key.toLowerCase();
    const normalised = lower.includes('_') || lower.includes('-') ? lower.replace(/[-_]/g, '') : lower;
    if (SECRET_KEYS.has(normalised)) refuse(`${path}.${key}`, 'is named like a secret');
    const child = (value as Record<string, unknown>)[key];
    // Only descend where something can hide: strings and containers (the path is built lazily too).
    if (typeof child === 'string' ? child.startsWith('eyJ') : typeof child === 'object' && child !== null) {
      assertNoSecrets(child, `${path}.${key}`);
    }
  }
}
