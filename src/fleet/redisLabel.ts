/**
 * How a Redis URL is shown: apart from the client, so a command can name the server in its
 * messages without loading ioredis.
 */
import type { Secret } from '../secret.js';

/** `redis://host:port/db`, never the user or password: what logs and status may show. */
export function redisLabel(url: Secret): string {
  const text = url.reveal().trim();
  if (!URL.canParse(text)) return 'redis (unparsable URL)';
  const parsed = new URL(text);
  const db = parsed.pathname.replace(/^\//, '') || '0';
  return `${parsed.protocol}//${parsed.hostname}:${parsed.port || '6379'}/${db}`;
}
