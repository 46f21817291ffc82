/**
 * The roster's figures are `/status`'s, read again only when they can have changed: after a row of
 * the audit log (then at most once per 10 s) or at once when the UTC day turns.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { statusFigures } from '../../../src/audit/statusFigures.js';
import { ManualClock } from '../../../src/clock.js';
import { REREAD_MS, rosterSources } from '../../../src/fleet/rosterSources.js';
import { Redactor } from '../../../src/ops/redact.js';
import { AuditLog } from '../../../src/store/audit.js';
import type { Db } from '../../../src/store/db.js';
import { recordFill } from '../../../src/store/fills.js';
import { openStore } from '../../../src/store/migrate.js';
import { SOL, USDC } from '../../support/mints.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function sell(db: Db, audit: AuditLog, tag: string, buyUsd: bigint, sellUsd: bigint, at: number): void {
  const owner = { intentId: null, strategy: 's' };
  const leg = { idx: 0, source: 'swap' as const, inDecimals: 6, outDecimals: 9 };
  recordFill(db, audit, { ...leg, signature: `${tag}-b`, inMint: USDC, inAmount: buyUsd, outMint: SOL, outAmount: 1_000_000_000n, at }, owner, at);
  recordFill(
    db,
    audit,
    { ...leg, signature: `${tag}-s`, inMint: SOL, inAmount: 1_000_000_000n, inDecimals: 9, outMint: USDC, outAmount: sellUsd, outDecimals: 6, at: at + 1 },
    owner,
    at + 1,
  );
}

describe('rosterSources', () => {
  it('reads the figures again only after an audit row (at most once per 10 s) or at once at midnight UTC', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'jb-roster-src-'));
    dirs.push(dir);
    const clock = new ManualClock(Date.UTC(2026, 10, 27, 23, 59, 0));
    const { db } = openStore(join(dir, 'db.sqlite'), { clock });
    try {
      const audit = new AuditLog(db, clock);
      const sources = rosterSources({
        db,
        clock,
        auditHead: () => audit.head,
        readiness: () => ({
          ready: false,
          checks: [
            { name: 'prices', ok: false, detail: 'stale' },
            { name: 'database', ok: true },
          ],
        }),
        control: () => ({ halted: null, paused: [] }),
        redactor: new Redactor(),
      });
      sell(db, audit, 'a', 150_000_000n, 151_500_000n, clock.now());
      const first = sources.figures();
      expect(first).toEqual({
        today: { since: '2026-11-27T00:00:00.000Z', realizedUsd: '1.5', trades: 2 },
        openOrders: 0,
        lastFill: { at: new Date(clock.now() + 1).toISOString(), strategy: 's', summary: 'sell 1 SOL for 151.5 USDC' },
      });
      expect(first.today).toMatchObject({ realizedUsd: statusFigures(db, clock.now()).today.realizedUsd });
      // Nothing written: the same figures, not read again.
      await clock.advance(5_000);
      expect(sources.figures()).toBe(first);
      // A new row within 10 s of the last reading waits for the 10 s; then it is read.
      sell(db, audit, 'b', 150_000_000n, 149_000_000n, clock.now());
      await clock.advance(REREAD_MS - 5_001);
      expect(sources.figures()).toBe(first);
      await clock.advance(1);
      expect(sources.figures().today.realizedUsd).toBe('0.5');
      // Midnight UTC: a new day at once, with nothing realized yet.
      await clock.advance(Date.UTC(2026, 10, 28) - clock.now());
      expect(sources.figures().today).toEqual({ since: '2026-11-28T00:00:00.000Z', realizedUsd: '0', trades: 0 });
      expect(sources.health()).toEqual({ ready: false, reason: 'prices: stale' });
    } finally {
      db.close();
    }
  });
});
