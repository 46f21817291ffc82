import { createHmac, timingSafeEqual } from 'node:crypto';

const b64url = (data: Buffer | string): string => Buffer.from(data).toString('base64url');

/** HS256 JWTs bound to a wallet (`sub`), as Trigger V2 issues them. */
export class JwtIssuer {
  constructor(private readonly secret: Buffer) {}

  issue(wallet: string, nowMs: number, ttlMs: number): string {
    const header = b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
    const iat = Math.floor(nowMs / 1000);
    const payload = b64url(JSON.stringify({ sub: wallet, iat, exp: iat + Math.floor(ttlMs / 1000) }));
    return `${header}.${payload}.${this.#sign(`${header}.${payload}`)}`;
  }

  /** The wallet the token was issued to, or undefined when malformed, forged or expired. */
  verify(token: string, nowMs: number): string | undefined {
    const parts = token.split('.');
    if (parts.length !== 3) return undefined;
    const [header, payload, signature] = parts as [string, string, string];
    const expected = Buffer.from(this.#sign(`${header}.${payload}`));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
    try {
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { sub?: unknown; exp?: unknown };
      if (typeof claims.sub !== 'string' || typeof claims.exp !== 'number') return undefined;
      return claims.exp * 1000 > nowMs ? claims.sub : undefined;
    } catch {
      return undefined;
    }
  }

  #sign(input: string): string {
    return createHmac('sha256', this.secret).update(input).digest('base64url');
  }
}
