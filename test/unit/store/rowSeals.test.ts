/**
 * The rows the audit figures are made of are under the chain: a fill, an intent or a mirrored
 * order edited, deleted or inserted behind jupbot's back (as an auditor found: `UPDATE fills SET
 * out_amount = …` went through while `audit verify` said ok and `audit pnl` showed the new figure)
 * is named by `audit verify` with exit 3, and `audit pnl`, `trades`, `orders` and the report say
 * UNVERIFIED instead of showing it as fact.
 */
import { describe, expect, it } from 'vitest';
import { reportData } from '../../../src/audit/reportData.js';
import { renderReport } from '../../../src/audit/reportHtml.js';
import { ExitCode } from '../../../src/exitCodes.js';
import { openDatabase, type Db } from '../../../src/store/db.js';
import { rowDigest } from '../../../src/store/rowSeal.js';
import { audit } from '../cli/auditHarness.js';
import { track } from './helpers.js';
import { SIG, tampered, tradedDatabase } from './sealedDatabase.js';

const FILL_COLUMNS = `signature, idx, source, strategy, intent_id, in_mint, in_amount, in_decimals, out_mint, out_amount, out_decimals, at, recorded_at`;

const TAMPERING: readonly { table: string; how: string; change: (db: Db) => void; named: RegExp }[] = [
  {
    table: 'fills',
    how: 'edited',
    change: (db) => db.exec(`UPDATE fills SET out_amount = '908206188' WHERE id = 2`),
    named: /fills row 2 is not as action \d+ sealed it: edited outside jupbot/,
  },
  {
    table: 'fills',
    how: 'deleted',
    change: (db) => db.exec('DELETE FROM fills WHERE id = 1'),
    named: /fills row 1, sealed by action \d+, is missing: deleted/,
  },
  {
    table: 'fills',
    how: 'inserted',
    change: (db) =>
      db.exec(`INSERT INTO fills (${FILL_COLUMNS}) SELECT '${SIG(9)}', 0, source, strategy, intent_id, in_mint, in_amount, in_decimals, out_mint, out_amount,
                 out_decimals, at + 1, recorded_at FROM fills WHERE id = 2`),
    named: /fills row 3 is in no seal of the chain: inserted outside jupbot/,
  },
  {
    table: 'intents',
    how: 'edited',
    change: (db) => db.exec(`UPDATE intents SET state = 'failed', error_code = 'X' WHERE id = 'sell'`),
    named: /intents row "sell" is not as action \d+ sealed it/,
  },
  {
    table: 'intents',
    how: 'deleted',
    change: (db) => db.exec(`DELETE FROM intents WHERE id = 'place'`),
    named: /intents row "place", sealed by action \d+, is missing/,
  },
  {
    table: 'intents',
    how: 'inserted',
    change: (db) =>
      db.exec(`INSERT INTO intents (id, strategy, kind, params, state, created_at, updated_at) VALUES ('ghost', 'sol-tp', 'swap', '{}', 'confirmed', 1, 1)`),
    named: /intents row "ghost" is in no seal/,
  },
  {
    table: 'trigger_orders',
    how: 'edited',
    change: (db) => db.exec(`UPDATE trigger_orders SET trigger_price_usd = '150' WHERE id = 'order-1'`),
    named: /trigger_orders row "order-1" is not as action \d+ sealed it/,
  },
  {
    table: 'trigger_orders',
    how: 'deleted',
    change: (db) => db.exec(`DELETE FROM trigger_orders WHERE id = 'order-1'`),
    named: /trigger_orders row "order-1", sealed by action \d+, is missing/,
  },
  {
    table: 'trigger_orders',
    how: 'inserted',
    change: (db) =>
      db.exec(`INSERT INTO trigger_orders SELECT 'order-2', intent_id, strategy, adopted, family, order_type, state, raw_state, input_mint, input_decimals,
                 output_mint, output_decimals, input_amount, remaining_input_amount, input_used, output_amount, trigger_mint, trigger_condition,
                 trigger_price_usd, tp_price_usd, sl_price_usd, slippage_bps, trailing_bps, expires_at, deposit_signature, raw, created_at, updated_at,
                 first_seen_at, last_synced_at FROM trigger_orders WHERE id = 'order-1'`),
    named: /trigger_orders row "order-2" is in no seal/,
  },
];

describe('fills, intents and orders under the chain', () => {
  it('verifies a database written through the journal and the mirror, every row sealed', async () => {
    const file = tradedDatabase();
    const run = await audit(['--db', file, 'verify']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/tables as sealed: fills 2, intents 3, trigger_orders 1\n$/);
    const pnl = await audit(['--db', file, 'pnl', '--json']);
    expect(pnl.code).toBe(0);
    expect(JSON.parse(pnl.stdout)).toMatchObject({ verified: { ok: true, problem: null }, total: { realizedUsd: '8.206188' } });
  });

  for (const t of TAMPERING) {
    it(`names a ${t.table} row ${t.how} outside jupbot, and the figures say UNVERIFIED`, async () => {
      const file = tampered(tradedDatabase(), t.change);
      const verify = await audit(['--db', file, 'verify']);
      expect(verify.code).toBe(ExitCode.AuditChainBroken);
      expect(verify.stdout).toMatch(/^broken: the chain holds \(\d+ actions\) but 1 row\(s\) differ from it; first: /);
      expect(verify.stdout).toMatch(t.named);

      const pnl = await audit(['--db', file, 'pnl']);
      expect(pnl.code).toBe(ExitCode.AuditChainBroken);
      expect(pnl.stdout.split('\n')[0]).toMatch(/^UNVERIFIED: /);
      expect(pnl.stdout.split('\n')[0]).toMatch(t.named);
      const json = await audit(['--db', file, 'pnl', '--json']);
      expect(json.code).toBe(ExitCode.AuditChainBroken);
      expect((JSON.parse(json.stdout) as { verified: { ok: boolean; problem: string } }).verified.ok).toBe(false);
      for (const command of ['trades', 'orders']) {
        const other = await audit(['--db', file, command]);
        expect(other.code).toBe(ExitCode.AuditChainBroken);
        expect(other.stderr).toMatch(t.named);
      }

      const db = track(openDatabase(file, { readonly: true }));
      const data = reportData(db, 0);
      expect(data.chain.ok).toBe(false);
      expect(data.chain.firstBreak).toMatch(t.named);
      const page = renderReport(data);
      expect(page).toMatch(/<section id="chain" class="banner chain-broken" role="alert">NOT VERIFIED: /);
      expect(page).not.toContain('class="banner chain-ok"');
    });
  }

  it('catches the edit of the auditor who found it: $908.21 instead of $8.21 is not shown as fact', async () => {
    const file = tampered(tradedDatabase(), (db) => db.exec(`UPDATE fills SET out_amount = '1058206188' WHERE id = 2`));
    const pnl = await audit(['--db', file, 'pnl']);
    expect(pnl.stdout).toMatch(/^UNVERIFIED: fills differ from the audit chain \(row_changed\): fills row 2 is not as action \d+ sealed it/);
    expect(pnl.stdout).toContain('$908.21');
  });

  it("a row's digest leaves NULL columns out, so a column added later keeps old seals valid", () => {
    expect(rowDigest({ id: 1, a: 'x', b: null })).toBe(rowDigest({ id: 1, a: 'x' }));
    expect(rowDigest({ id: 1, a: 'x' })).not.toBe(rowDigest({ id: 1, a: 'y' }));
    expect(rowDigest({ id: 1, tx: Buffer.from([1, 2]) })).toBe(rowDigest({ id: 1, tx: '0102' }));
  });
});
