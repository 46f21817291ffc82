/**
 * A rehearsed day of the demo strategies, the simulator standing in for Jupiter and the chain: every
 * trade in the rehearsal ledger is at a quote the rehearsal received, the ledger's balances are the
 * opening plus those trades less what its vault orders hold and the network fees declared, every
 * transaction Jupiter built has a verdict in the audit log, and the simulator records no `/execute`,
 * no Trigger write and no `sendTransaction`.
 */
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { driveTo } from '../../../src/backtest/driveTo.js';
import { ledgerBalances } from '../../../src/rehearsal/ledger.js';
import { verifyAuditChain } from '../../../src/store/chainVerifier.js';
import { jupbot } from '../../support/cli.js';
import { rehearsalWorld, type RehearsalWorld } from './support/rehearsalWorld.js';

const START = Date.UTC(2026, 10, 2, 6, 0);
const DAY = 24 * 3_600_000;

/** The requests a rehearsal may make that the simulator counts as changing its world. */
const READS_THAT_BUILD =
  /^(GET \/swap\/v2\/order|DELETE \/prediction\/v1\/positions\/[^/]+|POST \/prediction\/v1\/orders|POST \/prediction\/v1\/positions\/[^/]+\/claim)$/;

const worlds: RehearsalWorld[] = [];
afterEach(() => {
  for (const w of worlds.splice(0)) w.close();
});

interface Row {
  readonly [key: string]: string | number | null;
}

describe('a rehearsed day of the demo strategies', () => {
  it('trades only at the quotes received, keeps its ledger exact, judges every transaction, writes nothing', async () => {
    // Prices and orders polled less often than by default (a rehearsal may run so) and the strategy files
    // rescanned hourly: the same strategies decide over the same day, with a fraction of the work.
    const world = rehearsalWorld({
      seed: 'rehearsal-day',
      startAt: START,
      strategies: 'demo',
      config: ['poll: { prices: 30s, orders: 60s, strategies: 1h }'],
    });
    worlds.push(world);
    const daemon = await world.start();
    await driveTo(world.clock, world.net, START + DAY);
    await daemon.stop('the day is over');

    // Nothing reached Jupiter or the chain that would act: only quotes and unsigned builds.
    const writes = world.writes.map((w) => `${w.method} ${w.path}`);
    expect(writes.filter((w) => !READS_THAT_BUILD.test(w))).toEqual([]);

    const fillsByRequest = new Map<string, { strategy: string; outMint: string }>();
    const db = new Database(world.database, { readonly: true });
    try {
      const all = (sql: string, ...args: unknown[]): Row[] => db.prepare(sql).all(...args) as Row[];
      const verdicts = all("SELECT intent_id, data FROM actions WHERE kind = 'rehearsal.transaction'").map((r) => ({
        intent: r['intent_id'],
        ...(JSON.parse(String(r['data'])) as { kind: string; verdict: string; transaction: string }),
      }));
      // Every transaction Jupiter built (an order asked with our wallet as taker, a prediction build) has one verdict.
      const built = world.writes.filter(
        (w) => (w.path === '/swap/v2/order' && new URLSearchParams(w.query).has('taker')) || w.path.startsWith('/prediction/v1/'),
      );
      expect(verdicts).toHaveLength(built.length);
      expect(verdicts.length).toBeGreaterThanOrEqual(3);
      expect(verdicts.filter((v) => v.verdict !== 'accepted').map((v) => v.verdict)).toEqual([]);

      // Every quote the daemon received, by request id, as the simulator answered it.
      const received = new Map(world.quotes.map((q) => [String(q.body['requestId']), q.body]));
      const atQuote = (requestId: unknown): [string, string] => {
        const quote = received.get(String(requestId));
        return quote === undefined ? ['no quote', String(requestId)] : [quote.inAmount, quote.outAmount];
      };
      // Swaps: each fill is the quote its intent received (asked with our wallet as taker), to the base unit.
      const swaps = all("SELECT f.in_amount, f.out_amount, f.raw FROM fills f WHERE f.source = 'swap'");
      expect(swaps.length).toBeGreaterThanOrEqual(1);
      for (const s of swaps) expect([s['in_amount'], s['out_amount']]).toEqual(atQuote((JSON.parse(String(s['raw'])) as { requestId: string }).requestId));
      for (const f of all('SELECT strategy, out_mint, raw FROM fills')) {
        const raw = JSON.parse(String(f['raw'])) as { requestId?: string; quote?: { requestId: string } };
        const requestId = raw.requestId ?? raw.quote?.requestId;
        if (requestId !== undefined) fillsByRequest.set(requestId, { strategy: String(f['strategy']), outMint: String(f['out_mint']) });
      }
      // Vault fills: at the quote the rehearsal keeper asked (without a taker) when the price crossed.
      const vault = all("SELECT in_amount, out_amount, raw FROM fills WHERE source IN ('trigger', 'dca')");
      expect(vault.length).toBeGreaterThanOrEqual(1);
      for (const v of vault) {
        const { quote } = JSON.parse(String(v['raw'])) as { quote: { requestId: string } };
        expect([v['in_amount'], v['out_amount']]).toEqual(atQuote(quote.requestId));
      }
      // Prediction exits: sold, at the figure the answer gave.
      expect(all("SELECT id FROM fills WHERE source = 'prediction'").length).toBeGreaterThanOrEqual(1);

      // The ledger: opening + fills − live vault holds − network fees, computed here independently.
      const expected = new Map<string, bigint>();
      const add = (mint: string, amount: bigint): void => {
        if (!mint.startsWith('prediction:')) expected.set(mint, (expected.get(mint) ?? 0n) + amount);
      };
      for (const r of all('SELECT mint, amount FROM rehearsal_opening')) add(String(r['mint']), BigInt(String(r['amount'])));
      for (const r of all('SELECT in_mint, in_amount, out_mint, out_amount FROM fills')) {
        add(String(r['in_mint']), -BigInt(String(r['in_amount'])));
        add(String(r['out_mint']), BigInt(String(r['out_amount'])));
      }
      for (const r of all(
        "SELECT input_mint, COALESCE(remaining_input_amount, input_amount) AS held FROM trigger_orders WHERE intent_id IS NOT NULL AND state IN ('pending', 'open', 'active', 'executing', 'pending_withdraw', 'unknown', 'expired')",
      ))
        add(String(r['input_mint']), -BigInt(String(r['held'])));
      for (const r of all("SELECT c.lamports FROM rehearsal_costs c JOIN intents i ON i.id = c.intent_id WHERE i.state = 'confirmed'"))
        add('So11111111111111111111111111111111111111112', -BigInt(String(r['lamports'])));
      expect(ledgerBalances(db)).toEqual(expected);
      for (const [mint, amount] of expected) expect({ mint, negative: amount < 0n }).toEqual({ mint, negative: false });

      expect(all("SELECT id FROM intents WHERE state = 'failed'")).toEqual([]);
      expect(verifyAuditChain(db)).toMatchObject({ ok: true });
    } finally {
      db.close();
    }
    // P&L as `audit pnl` reports it: each buying strategy holds what its quotes gave, at what its quotes cost.
    const pnl = await jupbot(['audit', 'pnl', '--json', '--db', world.database], { cwd: world.dir });
    expect(pnl.code).toBe(0);
    type Holding = { mint: string; units: string; costUsd: string };
    const report = JSON.parse(pnl.stdout) as { strategies: { strategy: string; trades: number; holdings: Holding[] }[]; total: { trades: number } };
    const byStrategy = new Map(report.strategies.map((r) => [r.strategy, r]));
    for (const name of ['sol-dca-daily', 'jup-dca-vault']) {
      const quoted = new Map<string, { units: bigint; cost: bigint }>();
      for (const q of world.quotes) {
        const fill = fillsByRequest.get(String(q.body['requestId']));
        if (fill?.strategy !== name) continue;
        const had = quoted.get(fill.outMint) ?? { units: 0n, cost: 0n };
        quoted.set(fill.outMint, { units: had.units + BigInt(q.body.outAmount), cost: had.cost + BigInt(q.body.inAmount) });
      }
      expect(quoted.size).toBe(1);
      const holdings = (byStrategy.get(name)?.holdings ?? []).map((h) => [h.mint, BigInt(h.units), h.costUsd]);
      // Both pay with USDC (6 decimals): the cost in dollars is the quotes' input.
      expect(holdings).toEqual([...quoted].map(([mint, q]) => [mint, q.units, (Number(q.cost) / 1e6).toString()]));
    }
    const summary = await jupbot(['rehearsal', 'summary', '--db', world.database], { cwd: world.dir });
    expect(summary.code).toBe(0);
    expect(summary.stdout).toMatch(/the guard accepted \d+, refused 0/);
    process.stdout.write(summary.stdout);
  }, 600_000);
});
