/**
 * What a rehearsal tells the operator before the first live start, read from its database alone:
 * how many real transactions Jupiter built for the watched wallet and what the guard made of them
 * (each refusal by reason, with the intents to explain), what the intents came to, the ledger from
 * its opening to now, and the simulated vault orders. `jupbot rehearsal summary` prints it.
 */
import { z } from 'zod';
import type { Db } from '../store/db.js';
import { parseRows } from '../store/parseRows.js';
import { readOpening, ledgerBalances, totalCosts } from './ledger.js';
import { REHEARSAL_TRANSACTION } from './judgeTransaction.js';

export interface RefusalGroup {
  readonly reason: string;
  readonly count: number;
  /** The intents whose transaction was refused for it, oldest first (for `jupbot tx explain --intent`). */
  readonly intents: readonly string[];
  /** One refusal's message, as the guard put it. */
  readonly example: string;
}

export interface RehearsalSummary {
  /** False: the database holds no rehearsal (no ledger was ever opened in it). */
  readonly rehearsal: boolean;
  readonly opening: { readonly source: 'wallet' | 'config'; readonly openedAt: number } | null;
  readonly transactions: {
    /** Transactions Jupiter built for the wallet, each judged once. */
    readonly built: number;
    readonly accepted: number;
    readonly refused: number;
    /** Refused for the moment (the node could not simulate now): built again and judged again. */
    readonly deferred: number;
    readonly byKind: Readonly<Record<string, number>>;
    readonly refusals: readonly RefusalGroup[];
  };
  readonly intents: { readonly byState: Readonly<Record<string, number>>; readonly failedByCode: Readonly<Record<string, number>> };
  readonly fills: number;
  readonly networkFeeLamports: bigint;
  /** Opening and current ledger balance per mint (base units), with decimals where known. */
  readonly balances: readonly { readonly mint: string; readonly decimals: number | null; readonly opening: bigint; readonly now: bigint }[];
  readonly vaultOrders: Readonly<Record<string, number>>;
}

const Verdict = z.object({ intent_id: z.string().nullable(), data: z.string() });
const VerdictData = z.looseObject({ verdict: z.string(), kind: z.string(), reason: z.string().nullable().optional(), message: z.string().optional() });
const Count = z.object({ key: z.string().nullable(), n: z.number().int() });

function counts(db: Db, sql: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const row of parseRows(Count, db.prepare(sql).all(), sql)) out[row.key ?? '-'] = row.n;
  return out;
}

export function rehearsalSummary(db: Db): RehearsalSummary {
  const opening = readOpening(db);
  const verdicts = parseRows(Verdict, db.prepare('SELECT intent_id, data FROM actions WHERE kind = ? ORDER BY id').all(REHEARSAL_TRANSACTION), 'verdicts');
  const byKind: Record<string, number> = {};
  const tally = { accepted: 0, refused: 0, deferred: 0 };
  const refusals = new Map<string, { intents: string[]; example: string }>();
  for (const row of verdicts) {
    const data = VerdictData.parse(JSON.parse(row.data));
    byKind[data.kind] = (byKind[data.kind] ?? 0) + 1;
    if (data.verdict === 'accepted') tally.accepted += 1;
    else if (data.verdict === 'deferred') tally.deferred += 1;
    else {
      tally.refused += 1;
      const reason = data.reason ?? 'ERROR';
      const group = refusals.get(reason) ?? { intents: [], example: data.message ?? '' };
      if (row.intent_id !== null && !group.intents.includes(row.intent_id)) group.intents.push(row.intent_id);
      refusals.set(reason, group);
    }
  }
  const now = ledgerBalances(db);
  const decimals = new Map<string, number>();
  for (const row of db.prepare('SELECT in_mint AS mint, in_decimals AS d FROM fills UNION SELECT out_mint, out_decimals FROM fills').all() as {
    mint: string;
    d: number;
  }[])
    decimals.set(row.mint, row.d);
  for (const b of opening?.balances ?? []) decimals.set(b.mint, b.decimals);
  const openingBy = new Map((opening?.balances ?? []).map((b) => [b.mint, b.amount]));
  const mints = [...new Set([...openingBy.keys(), ...now.keys()])].sort();
  return {
    rehearsal: opening !== null,
    opening: opening === null ? null : { source: opening.source, openedAt: opening.openedAt },
    transactions: {
      built: verdicts.length,
      ...tally,
      byKind,
      refusals: [...refusals.entries()]
        .map(([reason, g]) => ({ reason, count: g.intents.length, intents: g.intents, example: g.example }))
        .sort((a, b) => b.count - a.count || a.reason.localeCompare(b.reason)),
    },
    intents: {
      byState: counts(db, 'SELECT state AS key, count(*) AS n FROM intents GROUP BY state ORDER BY state'),
      failedByCode: counts(db, "SELECT error_code AS key, count(*) AS n FROM intents WHERE state = 'failed' GROUP BY error_code ORDER BY error_code"),
    },
    fills: (db.prepare('SELECT count(*) AS n FROM fills').get() as { n: number }).n,
    networkFeeLamports: totalCosts(db),
    balances: mints.map((mint) => ({ mint, decimals: decimals.get(mint) ?? null, opening: openingBy.get(mint) ?? 0n, now: now.get(mint) ?? 0n })),
    vaultOrders: counts(db, 'SELECT state AS key, count(*) AS n FROM trigger_orders WHERE intent_id IS NOT NULL GROUP BY state ORDER BY state'),
  };
}
