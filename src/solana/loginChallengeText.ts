/**
 * The text of a Trigger V2 message challenge. Signing it means signing raw bytes with the hot key,
 * which is exactly what a tampered answer would ask for (bytes that are really a transaction message,
 * or a statement meant for some other service), so the signer signs only text that starts the way
 * Jupiter documents; the nonce follows. The prefix lives beside the signer that enforces it so the
 * signing layer depends on nothing of the HTTP client; the Trigger schemas re-export it.
 */

/** The text every message challenge starts with (the nonce follows). */
export const CHALLENGE_PREFIX = 'Sign this message to authenticate with Jupiter Trigger Order API: ';

/** True when `text` is Jupiter's challenge text: the documented prefix, then a non-empty nonce. */
export function isLoginChallengeText(text: string): boolean {
  return text.startsWith(CHALLENGE_PREFIX) && text.length > CHALLENGE_PREFIX.length;
}
