import { z } from 'zod';

/**
 * Value schemas shared by config and strategy files. Their messages are written for the person
 * editing the YAML, and none of them echoes a value that may be a credential.
 */

/** Hides the parts of a URL that commonly carry credentials: `user:pass@` and the query string. */
export function redactUrl(text: string): string {
  return text.replace(/\/\/[^/?#@]*@/, '//…@').replace(/\?.*$/s, '?…');
}

/** Loopback hosts may use plain http even in live mode: the traffic never leaves the machine. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host === '::1' || /^127(?:\.\d{1,3}){3}$/.test(host);
}

/** Why a URL with `user:password@` is refused, and what to do instead (its value is never echoed). */
export const CREDENTIALS_IN_URL =
  'carries credentials (user:password@), which HTTP clients refuse to send: remove them and pass the key the way the provider documents it, in the path or the query string (e.g. https://rpc.example.com/?api-key=…); the value is not shown';

/** Parses an absolute http(s) URL, or returns undefined. */
export function parseHttpUrl(text: string): URL | undefined {
  if (!URL.canParse(text)) return undefined;
  const url = new URL(text);
  return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
}

/**
 * An absolute http or https URL. The https requirement of live mode is a cross-field rule
 * (it depends on `mode`), checked in configRules. Values are echoed only in redacted form.
 */
export function httpUrlSchema(options: { trimTrailingSlash?: boolean } = {}): z.ZodType<string, unknown> {
  return z.string().transform((text, ctx): string => {
    const url = parseHttpUrl(text.trim());
    if (!url) {
      ctx.addIssue({ code: 'custom', message: `${JSON.stringify(redactUrl(text))} is not an http(s) URL (e.g. https://api.jup.ag)`, input: text });
      return z.NEVER;
    }
    if (url.username !== '' || url.password !== '') {
      ctx.addIssue({ code: 'custom', message: CREDENTIALS_IN_URL, input: text });
      return z.NEVER;
    }
    const normal = text.trim();
    return options.trimTrailingSlash ? normal.replace(/\/+$/, '') : normal;
  });
}

/**
 * The name of an environment variable. Upper case only: it keeps the rule simple to state, and
 * an API key pasted here by mistake (they contain lower case or dashes) is refused without being
 * echoed back into a terminal or a log.
 */
export const envNameSchema = z.string().regex(/^[A-Z_][A-Z0-9_]*$/, {
  error:
    'must be the name of an environment variable (upper-case letters, digits and _, e.g. JUPITER_API_KEY); the value itself belongs in that variable, not in this file',
});

/** `host:port`, `[::1]:port`; port 0 asks the OS for a free one (useful in tests). */
export interface ListenAddress {
  readonly host: string;
  readonly port: number;
}

const LISTEN = /^(?:\[([0-9A-Fa-f:.]+)\]|([A-Za-z0-9.-]+)):(\d{1,5})$/;

export const listenAddressSchema: z.ZodType<ListenAddress, unknown> = z.unknown().transform((input, ctx): ListenAddress => {
  if (typeof input !== 'string') {
    const message = typeof input === 'number' ? `${input} is not host:port (e.g. 127.0.0.1:${input})` : undefined;
    if (message) ctx.addIssue({ code: 'custom', message, input });
    else ctx.addIssue({ code: 'invalid_type', expected: 'host:port address', input });
    return z.NEVER;
  }
  const match = LISTEN.exec(input.trim());
  const port = Number(match?.[3]);
  if (!match || port > 65_535) {
    const why = match ? `port ${port} is out of range (0 to 65535)` : 'is not host:port (e.g. 127.0.0.1:9464)';
    ctx.addIssue({ code: 'custom', message: `${JSON.stringify(input)} ${why}`, input });
    return z.NEVER;
  }
  return { host: match[1] ?? match[2] ?? '', port };
});

/** A filesystem path as written: `~/x`, `./x`, `/x`. Resolution against the file's directory happens later. */
export const pathSchema = z
  .string()
  .min(1)
  .refine((p) => !/^~[^/]/.test(p), { error: 'only ~/ (your home directory) is expanded, not ~user/; write the full path' })
  .refine((p) => !p.includes('\0'), { error: 'contains a NUL character' });

/**
 * A key that is deliberately not accepted, with the reason. Used where a plausible key would
 * tempt someone to write a secret into the file (`api.key`, `wallet.private_key`).
 */
export function forbiddenKey(reason: string): z.ZodOptional<z.ZodNever> {
  return z.never({ error: reason }).optional();
}
