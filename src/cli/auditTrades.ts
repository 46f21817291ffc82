/**
 * `jupbot audit trades` and `jupbot audit pnl`: the fills as trades (token by symbol, human amounts,
 * dollar price, fee) and the P&L they add up to, per strategy and in total (docs/audit.md defines it).
 * Read-only, like every audit command.
 */
import { Command, Option } from 'commander';
import { databasePnl, tradeMatches } from '../audit/databasePnl.js';
import type { Basis } from '../audit/heldBefore.js';
import type { Holding, PnlReport, StrategyPnl } from '../audit/pnl.js';
import { pnlJson, PRE_HELD_LABEL } from '../audit/pnlJson.js';
import { tokenNamer } from '../audit/tokenNames.js';
import { pendingFillJson, type PendingFillJson, pendingFillWords, toTrade, type Trade, tradeJson } from '../audit/trades.js';
import { listPendingFills } from '../store/pendingFills.js';
import type { Db } from '../store/db.js';
import { type FillFilter, listFills, pinnedSymbols } from '../store/fillRecords.js';
import { formatFixed, unitsToFixed } from '../money/decimal.js';
import type { ResolveDb } from './auditDatabase.js';
import { unverifiedBanner, withVerifiedAuditDb } from './verifiedFigures.js';
import type { CliContext } from './context.js';
import { csvRecord } from './csv.js';
import { amountText, significantText, usdText } from '../money/humanFigures.js';
import { renderTable } from './table.js';
import { timeOption } from './timeArg.js';

interface TradeOptions {
  json?: true;
  csv?: true;
  since?: number;
  until?: number;
  strategy?: string;
  token?: string;
}

/** Trades of the database matching the options; a `--token` symbol is looked up among the names fills use. */
function tradesOf(db: Db, options: TradeOptions): Trade[] {
  const name = tokenNamer(pinnedSymbols(db));
  const filter: FillFilter = { since: options.since, until: options.until, strategy: options.strategy };
  const trades = listFills(db, filter).map((fill) => toTrade(fill, name));
  return options.token === undefined ? trades : trades.filter((t) => tradeMatches(t, { token: options.token }));
}

function filterOptions(command: Command, ctx: CliContext): Command {
  const time = timeOption(ctx.clock);
  return command
    .option('--since <time>', 'at or after: epoch ms, 2026-01-31, 2026-01-31T09:30Z, or a duration ago (24h, 7d)', time)
    .option('--until <time>', 'before (same forms as --since)', time)
    .option('--strategy <name>', 'only this strategy')
    .option('--token <symbol|mint>', 'only fills with this token on either side');
}

const CSV_HEADER = [
  'at',
  'strategy',
  'strategy_version',
  'source',
  'side',
  'token',
  'token_mint',
  'token_amount',
  'counter',
  'counter_mint',
  'counter_amount',
  'price_usd',
  'fee_token',
  'fee_amount',
  'fee_usd',
  'intent_id',
  'order_id',
  'signature',
  'idx',
];

export function tradesSubcommand(ctx: CliContext, resolveDb: ResolveDb): Command {
  return filterOptions(
    new Command('trades')
      .description('every fill as a trade: side, tokens and amounts, dollar price, fee; oldest first')
      .addOption(new Option('--json', 'one JSON array, amounts as exact decimal text').conflicts('csv'))
      .addOption(new Option('--csv', 'RFC 4180 CSV').conflicts('json')),
    ctx,
  ).action(async (options: TradeOptions, command: Command) => {
    await withVerifiedAuditDb(ctx, resolveDb, command, (db, verification) => {
      const trades = tradesOf(db, options);
      // A landed trade whose amounts are not known yet is listed as pending, never left out.
      const pending = listPendingFills(db)
        .filter((p) => options.strategy === undefined || p.strategy === options.strategy)
        .map(pendingFillJson);
      if (options.json) ctx.stdout(`${JSON.stringify([...trades.map(tradeJson), ...pending], null, 2)}\n`);
      else if (options.csv) {
        ctx.stdout(csvRecord(CSV_HEADER) + trades.map((t) => csvRecord(csvRow(t))).join('') + pending.map((p) => csvRecord(pendingCsvRow(p))).join(''));
      } else if (trades.length === 0 && pending.length === 0) ctx.stdout(`${unverifiedBanner(verification)}no trades match\n`);
      else if (trades.length === 0) ctx.stdout(`${unverifiedBanner(verification)}${pending.map(pendingFillWords).join('\n')}\n`);
      else {
        const rows = trades.map((t) => [
          `${new Date(t.at).toISOString().slice(0, 19)}Z`,
          t.strategy ?? '(adopted)',
          t.side,
          `${amountText(t.token.amount)} ${t.token.symbol}`,
          `${amountText(t.counter.amount)} ${t.counter.symbol}`,
          t.priceUsd === null ? '—' : `$${significantText(t.priceUsd)}`,
          t.fee === null ? '—' : `${amountText(t.fee.amount)} ${t.fee.symbol}`,
          t.signature.slice(0, 12),
        ]);
        ctx.stdout(
          unverifiedBanner(verification) +
            renderTable(['time (UTC)', 'strategy', 'side', 'token', 'for', 'price', 'fee', 'signature'], rows, [
              'left',
              'left',
              'left',
              'right',
              'right',
              'right',
              'right',
            ]) +
            pending.map((p) => `${pendingFillWords(p)}\n`).join(''),
        );
      }
    });
  });
}

/** A pending fill in the trades CSV: side `pending`, no amounts. */
function pendingCsvRow(p: PendingFillJson): (string | number | null)[] {
  return [p.since, p.strategy, null, null, 'pending', null, null, null, null, null, null, null, null, null, null, p.intentId, null, p.signature, null];
}

function csvRow(t: Trade): (string | number | null)[] {
  return [
    new Date(t.at).toISOString(),
    t.strategy,
    t.strategyVersion,
    t.source,
    t.side,
    t.token.symbol,
    t.token.mint,
    formatFixed(t.token.amount),
    t.counter.symbol,
    t.counter.mint,
    formatFixed(t.counter.amount),
    t.priceUsd === null ? null : formatFixed(t.priceUsd),
    t.fee?.symbol ?? null,
    t.fee === null ? null : formatFixed(t.fee.amount),
    t.fee?.usd === null || t.fee === null ? null : formatFixed(t.fee.usd),
    t.intentId,
    t.orderId,
    t.signature,
    t.idx,
  ];
}

/** A figure that comes (in part) from the basis of units held before jupbot is marked with this. */
const BASIS_MARK = '*';

export function pnlSubcommand(ctx: CliContext, resolveDb: ResolveDb): Command {
  return filterOptions(
    new Command('pnl').description('realized and unrealized P&L per strategy and in total (FIFO; docs/audit.md)').option('--json', 'exact figures as JSON'),
    ctx,
  ).action(async (options: TradeOptions, command: Command) => {
    await withVerifiedAuditDb(ctx, resolveDb, command, (db, verification) => {
      const report = databasePnl(db, { since: options.since, until: options.until, strategy: options.strategy, token: options.token });
      if (options.json) {
        ctx.stdout(`${JSON.stringify({ ...pnlJson(report), verified: verification }, null, 2)}\n`);
        return;
      }
      ctx.stdout(unverifiedBanner(verification) + pnlText(report));
    });
  });
}

/** The report for people: dollars to the cent, figures from a pre-held basis marked and explained below. */
export function pnlText(report: PnlReport): string {
  const marked = (text: string, basisCost: bigint): string => (basisCost > 0n ? `${text}${BASIS_MARK}` : text);
  const row = (name: string, s: Omit<StrategyPnl, 'strategy' | 'holdings'>): string[] => [
    name,
    String(s.trades),
    marked(usdText(s.realizedUsd), s.basisCostUsd),
    usdText(s.unrealizedUsd),
    usdText(s.feesUsd),
    usdText(s.unmatchedProceedsUsd),
  ];
  // The wallet's own holdings are all at a basis: their unrealized P&L is always marked.
  const preHeld = report.preHeld.holdings.length === 0 ? [] : [[PRE_HELD_LABEL, '—', '—', `${usdText(report.preHeld.unrealizedUsd)}${BASIS_MARK}`, '—', '—']];
  const rows = [...report.strategies.map((s) => row(s.strategy ?? '(adopted)', s)), ...preHeld, row('total', report.total)];
  let out = renderTable(['strategy', 'trades', 'realized', 'unrealized', 'fees', 'no known cost'], rows, ['left', 'right', 'right', 'right', 'right', 'right']);
  const holdings = [
    ...report.strategies.flatMap((s) => s.holdings.map((h) => holdingRow(s.strategy ?? '(adopted)', h))),
    ...report.preHeld.holdings.map((h) => holdingRow(PRE_HELD_LABEL, h)),
  ];
  if (holdings.length > 0)
    out += `\n${renderTable(['strategy', 'holding', 'amount', 'cost', 'value', 'unrealized'], holdings, ['left', 'left', 'right', 'right', 'right', 'right'])}`;
  if (report.total.basisCostUsd > 0n || report.preHeld.holdings.length > 0) {
    const bases = report.preHeld.holdings.map((h) => `${h.symbol} ${basisWords(h.basis)}`);
    out +=
      `\n${BASIS_MARK} from units the wallet held before jupbot traded them, at their basis (jupbot audit basis): ` +
      `${usdText(report.total.basisCostUsd)} of cost taken by sales and swaps${bases.length > 0 ? `; still held: ${bases.join(', ')}` : ''}\n`;
  }
  return out;

  function holdingRow(owner: string, h: Holding): string[] {
    return [
      owner,
      h.symbol,
      amountText(unitsToFixed(h.units, h.decimals)),
      marked(usdText(h.costUsd), h.basisCostUsd),
      usdText(h.valueUsd),
      usdText(h.unrealizedUsd),
    ];
  }
}

/** "at $0.04 (first price seen 2026-01-01T00:00:00Z)". */
function basisWords(basis: Basis | null): string {
  if (basis === null) return '';
  const source = basis.source === 'operator' ? 'set by operator' : 'first price seen';
  return `at $${significantText(basis.priceUsd)} (${source} ${new Date(basis.at).toISOString().replace('.000Z', 'Z')})`;
}
