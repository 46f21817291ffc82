/**
 * The venues the guard walks Jupiter route plans with, kept current without a release. It starts
 * from the bundled table, adds what the database remembers of the aggregator's on-chain IDL, reads
 * that IDL over the RPC at start, and again when a route names a venue no table describes (at most
 * once an hour: a venue Jupiter has not published stays unknown until then). Whatever the IDL holds,
 * the table only grows: a missing, malformed or truncated IDL, or one at odds with what is known,
 * changes nothing and is reported once.
 */
import { PublicKey } from '@solana/web3.js';
import type { Clock } from '../clock.js';
import { errorMessage } from '../errors.js';
import type { Logger } from '../ops/log.js';
import type { Db } from '../store/db.js';
import { loadVenueIdl, saveVenueIdl } from '../store/venueIdls.js';
import { anchorIdlAddress, decodeIdlAccount, deploySlot, IdlAccountError, programDataAddress } from './decode/anchorIdlAccount.js';
import { SwapVariantTable } from './decode/swapVariantTable.js';
import type { VenueSource } from './guard.js';
import { JUPITER_AGGREGATOR_V6 } from './programIds.js';
import type { SolanaRpc } from './rpc.js';

export interface VenueBookOptions {
  readonly rpc: Pick<SolanaRpc, 'getMultipleAccounts'>;
  readonly clock: Clock;
  readonly log?: Logger | undefined;
  /** Where what was learned is kept across restarts. */
  readonly db?: Db | undefined;
  /** @default Jupiter Aggregator v6 */
  readonly program?: string | undefined;
  /** The least time between two reads asked for by an unknown venue. @default 1 hour */
  readonly minRefreshMs?: number | undefined;
}

export interface VenueBook extends VenueSource {
  /** Loads what the database remembers, then reads the on-chain IDL once. Never throws. */
  start(): Promise<void>;
  /** Reads the on-chain IDL now (start, and `learn` when allowed). Never throws. */
  refresh(): Promise<SwapVariantTable>;
}

const HOUR_MS = 3_600_000;

export function createVenueBook(options: VenueBookOptions): VenueBook {
  const { rpc, clock, log, db } = options;
  const program = options.program ?? JUPITER_AGGREGATOR_V6.toBase58();
  const idlAddress = anchorIdlAddress(new PublicKey(program)).toBase58();
  const minRefreshMs = options.minRefreshMs ?? HOUR_MS;
  let table = SwapVariantTable.bundled();
  let lastRead: number | null = null;
  let reading: Promise<SwapVariantTable> | null = null;
  const said = new Set<string>();

  /** Says each distinct problem once per process: the next read would only repeat it. */
  const once = (level: 'warn' | 'info', key: string, message: string): void => {
    if (said.has(key)) return;
    said.add(key);
    log?.[level]({ program, idl: idlAddress, venues: table.describe() }, message);
  };

  const adopt = (idl: unknown, slot: number | null, from: 'chain' | 'database'): boolean => {
    const { table: next, problem } = table.extend(idl, { kind: 'on-chain', address: idlAddress, slot });
    if (problem !== null) {
      const kept = next === table ? `; venues stay as they were: ${table.describe()}` : '';
      once('warn', `problem:${problem}`, `the aggregator's ${from === 'chain' ? 'on-chain' : 'remembered'} IDL ${idlAddress}: ${problem}${kept}`);
    }
    if (next === table) return false;
    table = next;
    log?.info({ program, idl: idlAddress, slot, from }, `route venues: ${table.describe()}`);
    return true;
  };

  async function read(): Promise<SwapVariantTable> {
    lastRead = clock.now();
    let idl: unknown;
    let slot: number | null = null;
    try {
      const { accounts } = await rpc.getMultipleAccounts([program, idlAddress], 'confirmed');
      const [programAccount, idlAccount] = accounts;
      if (!idlAccount) {
        once(
          'info',
          'absent',
          `the aggregator publishes no on-chain IDL at ${idlAddress}: routes are walked with the ${table.describe()} table; a newer venue is reported in a *_v2 route and refused in an older form`,
        );
        return table;
      }
      idl = decodeIdlAccount(idlAccount.data);
      const dataAccount = programAccount ? programDataAddress(programAccount.data) : null;
      if (dataAccount !== null) {
        const [programData] = (await rpc.getMultipleAccounts([dataAccount.toBase58()], 'confirmed')).accounts;
        slot = programData ? deploySlot(programData.data) : null;
      }
    } catch (error) {
      if (error instanceof IdlAccountError)
        once(
          'warn',
          `malformed:${error.message}`,
          `the aggregator's on-chain IDL ${idlAddress} is unusable: ${error.message}; venues stay as they were: ${table.describe()}`,
        );
      else once('warn', 'unreachable', `could not read the aggregator's on-chain IDL ${idlAddress}: ${errorMessage(error)}; read again when a route needs it`);
      return table;
    }
    if (adopt(idl, slot, 'chain') && db) {
      const types = (idl as { types?: unknown }).types;
      saveVenueIdl(db, { program, idlAddress, deploySlot: slot, types, variants: table.size, readAt: clock.now() });
    }
    return table;
  }

  const refresh = (): Promise<SwapVariantTable> => {
    reading ??= read().finally(() => {
      reading = null;
    });
    return reading;
  };

  return {
    table: () => table,
    async start() {
      const kept = db ? loadVenueIdl(db, program) : null;
      if (kept) adopt({ types: kept.types }, kept.deploySlot, 'database');
      await refresh();
    },
    refresh,
    async learn(variant) {
      if (table.nameOf(variant) !== undefined) return table;
      if (reading) return reading;
      if (lastRead !== null && clock.now() - lastRead < minRefreshMs) return table;
      return refresh();
    },
  };
}
