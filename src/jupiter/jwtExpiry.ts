/**
 * The expiry a JWT claims, read without verifying it: the token is the server's, we only need to know
 * when to log in again. Trigger V2 does not document an `exp`, so absence is normal.
 */

/** `exp` in epoch ms, or null when the token has no readable numeric `exp`. */
export function jwtExpiryMs(token: string): number | null {
  const payload = token.split('.')[1];
  if (payload === undefined || payload.length === 0) return null;
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as unknown;
    if (typeof claims !== 'object' || claims === null) return null;
    const exp = (claims as { exp?: unknown }).exp;
    return typeof exp === 'number' && Number.isFinite(exp) && exp > 0 ? exp * 1000 : null;
  } catch {
    return null;
  }
}
