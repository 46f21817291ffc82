/**
 * `jupbot audit basis`: the cost basis of each token the wallet held before jupbot traded it (the
 * first dollar price the daemon saw for it, or the operator's), and `jupbot audit basis set TOKEN
 * USD`: the operator's basis, a `basis.set` action that overrides the first price seen
 * (docs/audit.md, "Cost basis"). Listing reads the database read-only like every audit command;
 * `set` is the one audit command that writes, and it writes nothing but that action.
 */
import { Command } from 'commander';
import { basisByMint, basisJson, heldBeforeJupbot, type RecordedBasis } from '../audit/heldBefore.js';
import { amountText, significantText } from '../money/humanFigures.js';
import { tokenNamer, type TokenNamer, USD_MINTS } from '../audit/tokenNames.js';
import { ExitCode } from '../exitCodes.js';
import { BASIS_SET_KIND, listBasisRecords } from '../store/basisRecords.js';
import type { Db } from '../store/db.js';
import { filledMints, pinnedSymbols } from '../store/fillRecords.js';
import { firstWalletReading, lastWalletReading } from '../store/walletReadings.js';
import { formatFixed, parseFixed, unitsToFixed } from '../money/decimal.js';
import { type ResolveDb, withAuditDb, withWritableAuditDb } from './auditDatabase.js';
import { CliExit, type CliContext } from './context.js';
import { renderTable } from './table.js';
import { timeOption } from './timeArg.js';

/** Each mint the database knows as a wallet token (pins, balances read, fills; not prediction contracts), with its decimals. */
function knownTokens(db: Db): Map<string, number> {
  const known = new Map<string, number>();
  for (const [mint, decimals] of filledMints(db)) if (!mint.startsWith('prediction:')) known.set(mint, decimals);
  for (const [mint, pin] of pinnedSymbols(db)) known.set(mint, pin.decimals);
  for (const reading of [lastWalletReading(db), firstWalletReading(db)]) for (const b of reading?.balances ?? []) known.set(b.mint, b.decimals);
  return known;
}

/** A token given by mint or symbol (any case), as the other audit commands take `--token`; refused when unknown or ambiguous. */
function resolveToken(db: Db, name: TokenNamer, given: string): { mint: string; decimals: number } {
  const known = knownTokens(db);
  const byMint = known.get(given);
  if (byMint !== undefined) return { mint: given, decimals: byMint };
  const matches = [...known].filter(([mint]) => name(mint).toLowerCase() === given.toLowerCase());
  if (matches.length === 1) {
    const [mint, decimals] = matches[0] as [string, number];
    return { mint, decimals };
  }
  const listed = [...known.keys()].map((mint) => `${name(mint)} (${mint})`).sort();
  throw new CliExit(
    ExitCode.InvalidInput,
    matches.length > 1
      ? `${given}: ${matches.length} tokens have that symbol here: give the mint: ${matches.map(([mint]) => mint).join(', ')}`
      : `${given}: no token of this database has that symbol or mint (it knows ${listed.join(', ') || 'none'})`,
  );
}

interface BasisRow {
  readonly mint: string;
  readonly symbol: string;
  readonly decimals: number;
  /** Base units held at the first balances reading; null for a token set by the operator but not held then. */
  readonly units: bigint | null;
  readonly basis: RecordedBasis | null;
}

/** Every token held before jupbot, and every token with a basis, by symbol. */
function basisRows(db: Db, name: TokenNamer): BasisRow[] {
  const held = heldBeforeJupbot(db);
  const basis = basisByMint(listBasisRecords(db));
  const rows = new Map<string, BasisRow>();
  for (const b of held?.balances ?? [])
    rows.set(b.mint, { mint: b.mint, symbol: name(b.mint), decimals: b.decimals, units: b.amount, basis: basis.get(b.mint) ?? null });
  for (const [mint, known] of basis)
    if (!rows.has(mint)) rows.set(mint, { mint, symbol: name(mint), decimals: known.record.decimals, units: null, basis: known });
  return [...rows.values()].sort((a, b) => a.symbol.localeCompare(b.symbol) || (a.mint < b.mint ? -1 : 1));
}

const SOURCE_WORDS = { 'first-price': 'first price seen', operator: 'set by operator' } as const;
const iso = (ms: number): string => new Date(ms).toISOString();

function basisText(rows: readonly BasisRow[]): string {
  if (rows.length === 0) return 'no token held before jupbot is recorded yet (the daemon records the first balances reading when it starts)\n';
  const table = renderTable(
    ['token', 'held before jupbot', 'basis', 'source', 'when'],
    rows.map((r) => [
      r.symbol,
      r.units === null ? '—' : amountText(unitsToFixed(r.units, r.decimals)),
      r.basis === null ? '—' : `$${significantText(r.basis.priceUsd)}`,
      r.basis === null ? 'none: no known cost' : SOURCE_WORDS[r.basis.source],
      r.basis === null ? '—' : iso(r.basis.at),
    ]),
    ['left', 'right', 'right', 'left', 'left'],
  );
  const unheld = rows.some((r) => r.units === null) ? '— held before jupbot: not held at the first balances reading; its basis applies to nothing\n' : '';
  return table + unheld;
}

function listCommand(ctx: CliContext, resolveDb: ResolveDb): Command {
  return new Command('basis')
    .description("each token the wallet held before jupbot traded it, and its cost basis: the first price seen, or the operator's (set)")
    .option('--json', 'one JSON array, figures exact')
    .action(async (options: { json?: true }, command: Command) => {
      await withAuditDb(ctx, resolveDb, command, (db) => {
        const rows = basisRows(db, tokenNamer(pinnedSymbols(db)));
        if (!options.json) {
          ctx.stdout(basisText(rows));
          return;
        }
        const json = rows.map((r) => ({
          mint: r.mint,
          symbol: r.symbol,
          decimals: r.decimals,
          heldBefore: r.units !== null,
          units: r.units?.toString() ?? null,
          amount: r.units === null ? null : formatFixed(unitsToFixed(r.units, r.decimals)),
          basis: r.basis === null ? null : basisJson(r.basis),
        }));
        ctx.stdout(`${JSON.stringify(json, null, 2)}\n`);
      });
    });
}

function setCommand(ctx: CliContext, resolveDb: ResolveDb): Command {
  return new Command('set')
    .description("record the operator's cost basis of a token, dollars per token: it replaces the first price seen (a basis.set action)")
    .argument('<token>', 'symbol or mint')
    .argument('<usd>', 'dollars per token, a plain decimal (0.04, 150)')
    .option('--at <time>', 'the instant the price is for: epoch ms, 2026-01-31, 2026-01-31T09:30Z (default: now)', timeOption(ctx.clock))
    .option('--db <file>', 'database file (default: <data_dir>/jupbot-<mode>.sqlite from the config)')
    .option('--config <file>', 'config file whose data_dir and mode locate the database')
    .configureOutput({ writeOut: ctx.stdout, writeErr: ctx.stderr })
    .exitOverride()
    .action(async (token: string, usd: string, options: { at?: number }, command: Command) => {
      const price = parseFixed(usd.trim());
      if (price === undefined)
        throw new CliExit(ExitCode.InvalidInput, `${usd}: not a dollar price: write a plain decimal such as 0.04 (no sign, no exponent, at most 18 places)`);
      await withWritableAuditDb(ctx, resolveDb, command, (db, audit) => {
        const name = tokenNamer(pinnedSymbols(db));
        const { mint, decimals } = resolveToken(db, name, token);
        if (USD_MINTS.has(mint)) throw new CliExit(ExitCode.InvalidInput, `${name(mint)} is a dollar: P&L is counted in it, it has no basis to set`);
        const at = options.at ?? ctx.clock.now();
        const written = audit.append({ kind: BASIS_SET_KIND, mint, decimals, data: { mint, decimals, priceUsd: formatFixed(price), at } });
        ctx.stdout(`${name(mint)} (${mint}): basis $${formatFixed(price)} per token, set by operator for ${iso(at)} (action ${written.id})\n`);
        const held = heldBeforeJupbot(db);
        if (held === null)
          ctx.stderr(`note: no balances reading is recorded yet: this basis applies if the wallet holds ${name(mint)} at the first one the daemon records\n`);
        else if (!held.balances.some((b) => b.mint === mint))
          ctx.stderr(`note: the wallet did not hold ${name(mint)} at its first balances reading (${iso(held.readAt)}): this basis applies to nothing\n`);
      });
    });
}

/** `audit basis` (the list) with its `set`. */
export function basisSubcommand(ctx: CliContext, resolveDb: ResolveDb): Command {
  return listCommand(ctx, resolveDb)
    .option('--db <file>', 'database file (default: <data_dir>/jupbot-<mode>.sqlite from the config)')
    .option('--config <file>', 'config file whose data_dir and mode locate the database')
    .addCommand(setCommand(ctx, resolveDb));
}
