const BASE58_ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
/** A Solana keypair: 32-byte seed followed by the 32-byte public key. */
const KEYPAIR_BYTES = 64;

/**
 * True when `text` has the shape of a Solana secret key in one of the two forms people paste:
 * a JSON array of 64 numbers (the Solana CLI's id.json) or base58 text (wallet exports).
 * Only the shape is checked here, so that `jupbot validate` catches a truncated or mangled
 * JUPBOT_KEYPAIR; the wallet module derives and checks the key itself.
 */
export function isSecretKeyText(text: string): boolean {
  const trimmed = text.trim();
  if (trimmed.startsWith('[')) return isByteArrayJson(trimmed);
  return decodedBase58Length(trimmed) === KEYPAIR_BYTES;
}

function isByteArrayJson(text: string): boolean {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return false;
  }
  return Array.isArray(parsed) && parsed.length === KEYPAIR_BYTES && parsed.every((n) => typeof n === 'number' && Number.isInteger(n) && n >= 0 && n <= 255);
}

/** The number of bytes base58 `text` decodes to, or -1 if it is not base58. */
function decodedBase58Length(text: string): number {
  if (text.length === 0) return -1;
  let value = 0n;
  for (const char of text) {
    const digit = BASE58_ALPHABET.indexOf(char);
    if (digit < 0) return -1;
    value = value * 58n + BigInt(digit);
  }
  // Each leading '1' stands for a leading zero byte.
  const zeros = /^1*/.exec(text)?.[0].length ?? 0;
  const body = value === 0n ? 0 : Math.ceil(value.toString(16).length / 2);
  return zeros + body;
}
