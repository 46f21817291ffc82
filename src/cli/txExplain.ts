/**
 * `jupbot tx explain [FILE]`: what a transaction does to a wallet, and the guard's verdict on it for a
 * stated intent. Offline with a file of lookup-table accounts (the static checks only, and it says
 * so), or against an RPC node (tables fetched, effects simulated). Auditors point it at journaled
 * transactions with `--intent ID`. It never signs anything and needs no key.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { VersionedTransaction } from '@solana/web3.js';
import { Command } from 'commander';
import { z } from 'zod';
import { proveEffects } from '../solana/effects.js';
import type { Expectation } from '../solana/expectation.js';
import { explainTransaction, type Explanation } from '../solana/explainTransaction.js';
import { checkTransaction } from '../solana/guard.js';
import { GuardRefusal } from '../solana/guardRefusal.js';
import { createLookupTableResolver, type LookupTableResolver, staticLookupTables } from '../solana/lookupTables.js';
import { createSolanaRpc, type SolanaRpc } from '../solana/rpc.js';
import { SwapVariantTable } from '../solana/decode/swapVariantTable.js';
import { createVenueBook } from '../solana/venueBook.js';
import { CliExit, type CliContext } from './context.js';
import { ExitCode } from '../exitCodes.js';
import { parseExpectation } from './expectationFile.js';
import { journaledTransaction } from './journaledTransaction.js';

interface Options {
  wallet?: string;
  rpc?: string;
  tables?: string;
  idl?: string;
  expect?: string;
  json?: boolean;
  intent?: string;
  db?: string;
  config?: string;
}

interface Verdict {
  readonly accepted: boolean;
  readonly reason: string | null;
  readonly message: string;
  readonly effects: 'simulated' | 'not simulated (offline: static checks only)';
  readonly deltas?: Readonly<Record<string, string>>;
}

const Tables = z.record(z.string(), z.string());

async function tablesFrom(ctx: CliContext, file: string): Promise<LookupTableResolver> {
  const raw = Tables.safeParse(JSON.parse(await readFile(resolve(ctx.cwd, file), 'utf8')));
  if (!raw.success) throw new CliExit(ExitCode.InvalidInput, `${file}: expected an object of lookup-table address → base64 account data`);
  return staticLookupTables(new Map(Object.entries(raw.data).map(([address, data]) => [address, Buffer.from(data, 'base64')])));
}

/**
 * The venues to walk route plans with: an IDL file (`--idl`), else the aggregator's on-chain IDL when
 * a node is given, else the bundled table. A file that adds nothing says why.
 */
async function venueTable(ctx: CliContext, options: Options, rpc: SolanaRpc | null): Promise<{ table: SwapVariantTable; problem: string | null }> {
  if (options.idl !== undefined) {
    const file = options.idl;
    const text = await readFile(resolve(ctx.cwd, file), 'utf8').catch(() => {
      throw new CliExit(ExitCode.NotFound, `${file}: cannot read the IDL file`);
    });
    let idl: unknown;
    try {
      idl = JSON.parse(text);
    } catch (error) {
      throw new CliExit(ExitCode.InvalidInput, `${file}: not JSON (${error instanceof Error ? error.message : String(error)})`);
    }
    const { table, problem } = SwapVariantTable.bundled().extend(idl, { kind: 'file', path: file });
    return { table, problem: problem === null ? null : `${file}: ${problem}` };
  }
  if (rpc !== null) return { table: await createVenueBook({ rpc, clock: ctx.clock }).refresh(), problem: null };
  return { table: SwapVariantTable.bundled(), problem: null };
}

async function verdictFor(
  tx: VersionedTransaction,
  expectation: Expectation,
  wallet: string,
  resolver: LookupTableResolver | undefined,
  rpc: SolanaRpc | null,
  table: SwapVariantTable,
): Promise<Verdict> {
  try {
    const venues = { table: () => table, learn: () => Promise.resolve(table) };
    const summary = await checkTransaction(tx, expectation, { wallet, resolveLookupTable: resolver, venues });
    if (rpc === null) return { accepted: true, reason: null, message: 'accepted by the static checks', effects: 'not simulated (offline: static checks only)' };
    if (expectation.kind === 'login-challenge')
      return { accepted: true, reason: null, message: 'accepted (a login challenge is never sent)', effects: 'simulated' };
    const effects = await proveEffects(tx, expectation, summary, { wallet, rpc });
    return { accepted: true, reason: null, message: 'accepted: static checks and simulated effects', effects: 'simulated', deltas: effects.deltas };
  } catch (error) {
    if (!(error instanceof GuardRefusal)) throw error;
    return {
      accepted: false,
      reason: error.reason,
      message: error.message,
      effects: rpc === null ? 'not simulated (offline: static checks only)' : 'simulated',
    };
  }
}

function human(e: Explanation, wallet: string, verdict: Verdict | null, note: string | null, venues: string): string {
  const lines: string[] = [];
  if (note) lines.push(note);
  lines.push(`route venues: ${venues}`);
  lines.push(`fee payer: ${e.feePayer}${e.feePayer === wallet ? ' (our wallet)' : ''}`);
  lines.push('signers:');
  for (const s of e.signers) lines.push(`  ${s.address}${s.address === wallet ? ' (our wallet)' : ''}: ${s.signature}`);
  lines.push(`programs: ${e.programs.join(', ')}`);
  lines.push(`lookup tables: ${e.lookupTables.length === 0 ? 'none' : ''}`);
  for (const t of e.lookupTables) lines.push(`  ${t.address}: ${t.addresses.length} addresses${t.addresses.length > 0 ? ` (${t.addresses.join(', ')})` : ''}`);
  if (e.unresolved) lines.push(`accounts unresolved: ${e.unresolved}`);
  lines.push('instructions:');
  for (const ix of e.instructions) lines.push(`  #${ix.index} ${ix.program}: ${JSON.stringify(ix.decoded)}`);
  lines.push(`leaves the wallet (by the instructions): ${e.outflows.length === 0 ? 'nothing' : ''}`);
  for (const o of e.outflows)
    lines.push(
      `  ${Object.entries(o)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')}`,
    );
  if (verdict) {
    lines.push(`effects: ${verdict.effects}`);
    if (verdict.deltas) for (const [mint, delta] of Object.entries(verdict.deltas)) lines.push(`  ${mint}: ${delta}`);
    lines.push(verdict.accepted ? `guard: ACCEPTED (${verdict.message})` : `guard: REFUSED ${verdict.reason ?? ''}: ${verdict.message}`);
  }
  return `${lines.join('\n')}\n`;
}

async function readStdin(ctx: CliContext): Promise<string> {
  if (ctx.stdin) return ctx.stdin();
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export function txCommand(ctx: CliContext): Command {
  const command = new Command('tx').description("transactions: what they do, and the guard's verdict");
  command
    .command('explain')
    .description('decode a base64 transaction (FILE, or stdin) and, with --expect, run the guard on it')
    .argument('[file]', 'a file holding the base64 transaction; - or none reads stdin')
    .option('-w, --wallet <address>', 'the wallet whose view to take (ours)')
    .option('--rpc <url>', 'an RPC node: lookup tables fetched, effects simulated')
    .option('--tables <file>', 'offline: JSON of lookup-table address → base64 account data')
    .option('--idl <file>', "Jupiter Aggregator v6's IDL (JSON) to walk route venues newer than the bundled table with")
    .option('--expect <file>', 'an intent in JSON (docs/security.md): run the guard against it')
    .option('--intent <id>', 'explain a journaled transaction and its intent, read from the database')
    .option('--db <file>', "the database for --intent (default: the config's)")
    .option('-c, --config <file>', 'config file for --intent (default: $JUPBOT_CONFIG, else config/default.yaml)')
    .option('--json', 'one JSON object')
    .action(async (file: string | undefined, options: Options) => {
      let base64: string;
      let expectation: Expectation | null = null;
      let note: string | null = null;
      if (options.intent !== undefined) {
        const journaled = await journaledTransaction(ctx, options.intent, options);
        base64 = journaled.base64;
        expectation = journaled.expectation;
        note = `intent ${options.intent} (${journaled.kind}, strategy ${journaled.strategy ?? '-'}, state ${journaled.state}): ${journaled.note}`;
      } else {
        const text =
          file === undefined || file === '-'
            ? await readStdin(ctx)
            : await readFile(resolve(ctx.cwd, file), 'utf8').catch(() => {
                throw new CliExit(ExitCode.NotFound, `${file}: cannot read the transaction file`);
              });
        base64 = text.trim();
      }
      if (options.wallet === undefined) throw new CliExit(ExitCode.Usage, 'tx explain needs --wallet <address>: the wallet whose view to take');
      if (options.expect !== undefined) {
        try {
          expectation = parseExpectation(await readFile(resolve(ctx.cwd, options.expect), 'utf8'), options.expect);
        } catch (error) {
          throw new CliExit(ExitCode.InvalidInput, error instanceof Error ? error.message : String(error));
        }
      }
      let tx: VersionedTransaction;
      try {
        tx = VersionedTransaction.deserialize(Buffer.from(base64, 'base64'));
      } catch {
        throw new CliExit(ExitCode.InvalidInput, 'the input is not a base64 Solana transaction');
      }
      const rpc = options.rpc === undefined ? null : createSolanaRpc({ url: options.rpc, clock: ctx.clock });
      const resolver =
        rpc !== null ? createLookupTableResolver({ rpc, clock: ctx.clock }) : options.tables !== undefined ? await tablesFrom(ctx, options.tables) : undefined;
      const venues = await venueTable(ctx, options, rpc);
      if (venues.problem !== null) ctx.stderr(`${venues.problem}; route venues are walked with the ${venues.table.describe()} table\n`);
      const explanation = await explainTransaction(tx, options.wallet, resolver, venues.table);
      const verdict = expectation === null ? null : await verdictFor(tx, expectation, options.wallet, resolver, rpc, venues.table);
      const venueTableName = venues.table.describe();
      if (options.json)
        ctx.stdout(
          `${JSON.stringify({ ...(note ? { intent: note } : {}), venueTable: venueTableName, ...explanation, ...(verdict ? { guard: verdict } : {}) })}\n`,
        );
      else ctx.stdout(human(explanation, options.wallet, verdict, note, venueTableName));
      if (verdict && !verdict.accepted) throw new CliExit(ExitCode.GuardRefused, `guard refused: ${verdict.reason ?? ''}`);
    });
  return command;
}
