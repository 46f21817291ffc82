/**
 * docs/operations.md "Limits" against `OPS_LIMITS`: an operator reads there what a client beyond a
 * limit sees, so each value in the table is the one the server runs with.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { OPS_LIMITS } from '../../../src/ops/opsServer.js';

const doc = readFileSync(new URL('../../../docs/operations.md', import.meta.url), 'utf8');
const section = /^### Limits\n([\s\S]*?)^##/m.exec(doc)?.[1] ?? '';
/** The table's rows, limit → value (not its header). */
const values = new Map<string, string>();
for (const [, limit, value] of section.matchAll(/^\| ([^|]+?) \| ([^|]+?) \|/gm)) {
  if (limit !== undefined && value !== undefined && limit !== 'limit' && limit !== '---') values.set(limit, value);
}
const seconds = (ms: number): string => `${ms / 1000} s`;

describe('docs/operations.md "Limits"', () => {
  it('lists every limit with the value the server runs with', () => {
    expect(Object.fromEntries(values)).toEqual({
      'connections open at once': String(OPS_LIMITS.maxConnections),
      'sharing of `/status`, `/metrics`, `/`': seconds(OPS_LIMITS.shareMs),
      'requests waiting for a body being computed': String(OPS_LIMITS.maxWaiting),
      'request headers': seconds(OPS_LIMITS.headersTimeoutMs),
      'whole request': seconds(OPS_LIMITS.requestTimeoutMs),
      'idle keep-alive connection': seconds(OPS_LIMITS.keepAliveTimeoutMs),
      'a connection on which nothing moves (a client that stops reading its answer)': seconds(OPS_LIMITS.idleTimeoutMs),
    });
    expect(section).toContain(`{"error":"busy: ${OPS_LIMITS.maxWaiting} requests are already waiting for /metrics, /status or /; retry in a second"}`);
  });
});
