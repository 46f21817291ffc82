/**
 * The venue book against the simulator's Aggregator v6 accounts: the on-chain IDL it serves adds the
 * venues past the bundled table, and the daemon then decodes routes through them; an IDL that is
 * absent, truncated or at odds with the known venues changes nothing and is reported once; what
 * was learned survives a restart in the database; an unknown venue asks the node again at most
 * once an hour.
 */
import { join } from 'node:path';
import { VersionedTransaction } from '@solana/web3.js';
import { afterEach, describe, expect, it } from 'vitest';
import { decodeJupiterSwap } from '../../../src/solana/decode/jupiterSwapInstruction.js';
import { SwapVariantTable } from '../../../src/solana/decode/swapVariantTable.js';
import { createLookupTableResolver } from '../../../src/solana/lookupTables.js';
import { JUPITER_AGGREGATOR_V6 } from '../../../src/solana/programIds.js';
import { resolveTransaction } from '../../../src/solana/resolveAccounts.js';
import { createSolanaRpc, type SolanaRpc } from '../../../src/solana/rpc.js';
import { createVenueBook } from '../../../src/solana/venueBook.js';
import { createLogger } from '../../../src/ops/log.js';
import { openStore } from '../../../src/store/migrate.js';
import { MemoryStream } from '../../support/memoryStream.js';
import { startSim, USDC, SOL, wallet, type Harness } from '../../sim/support/simHarness.js';
import { simFetch } from '../engine/feeds/simSupport.js';
import { tempDir, track } from '../store/helpers.js';

let h: Harness;
afterEach(async () => h.close());

function setup(): { rpc: SolanaRpc; calls: string[]; log: ReturnType<typeof createLogger>; out: MemoryStream } {
  const calls: string[] = [];
  const inner = simFetch(h.sim);
  const fetch: typeof globalThis.fetch = (input, init) => {
    calls.push((JSON.parse(typeof init?.body === 'string' ? init.body : '{}') as { method: string }).method);
    return inner(input, init);
  };
  const out = new MemoryStream();
  return { rpc: createSolanaRpc({ url: 'http://sim.local/rpc', clock: h.clock, fetch }), calls, log: createLogger({ destination: out, clock: h.clock }), out };
}

/** A simulator swap routed through `venue`, its route instruction's accounts and data. */
async function routeThrough(venue: string, rpc: SolanaRpc): Promise<{ accounts: string[]; data: Uint8Array }> {
  h.sim.control.setRouting({ form: 'route_v2', venues: [venue] });
  const taker = wallet('venue-book-taker').publicKey.toBase58();
  h.sim.control.fund(taker, 1_000_000_000n);
  h.sim.control.fund(taker, 100_000_000n, USDC);
  const query = new URLSearchParams({ inputMint: USDC, outputMint: SOL, amount: '20000000', taker, slippageBps: '100' });
  const reply = await h.call('GET', `/swap/v2/order?${query.toString()}`);
  const tx = VersionedTransaction.deserialize(Buffer.from((reply.body as { transaction: string }).transaction, 'base64'));
  const resolved = await resolveTransaction(tx, createLookupTableResolver({ rpc, clock: h.clock }));
  const ix = resolved.instructions.find((i) => i.program === JUPITER_AGGREGATOR_V6.toBase58());
  if (!ix) throw new Error('no route instruction');
  return { accounts: ix.accounts.map((a) => a.address), data: ix.data };
}

const warnings = (out: MemoryStream): string[] =>
  out
    .lines()
    .filter((l) => l['level'] === 'warn')
    .map((l) => String(l['msg']));

describe('the venue book', () => {
  it("learns the venues the simulator's on-chain IDL adds, and decodes routes through them", async () => {
    h = await startSim();
    const { rpc, log, out } = setup();
    const route = await routeThrough('Aurora CLOB', rpc);
    const bundled = decodeJupiterSwap(JUPITER_AGGREGATOR_V6.toBase58(), route.accounts, route.data);
    expect(bundled.unknownVenue).toEqual({ variant: 141, step: 0 });
    const book = createVenueBook({ rpc, clock: h.clock, log });
    await book.start();
    const table = book.table();
    expect(table.describe()).toBe('on-chain IDL of the program deployed at slot 301234567 (109 bundled + 91 learned venues)');
    const learned = decodeJupiterSwap(JUPITER_AGGREGATOR_V6.toBase58(), route.accounts, route.data, table);
    expect(learned.unknownVenue).toBeNull();
    expect(learned.steps).toEqual([{ venue: 'AuroraClob', variant: 141, share: 10_000, inputIndex: 0, outputIndex: 1 }]);
    expect(warnings(out)).toEqual([]);
  });

  it.each([
    ['truncated', 'the IDL account says its IDL is'],
    ['lying', 'the IDL names Swap variant 17 "WhirlpoolDeluxe", the known table Whirlpool: it does not describe this program, so none of it is used'],
  ] as const)('ignores a %s IDL with one warning, keeping the bundled venues', async (kind, says) => {
    h = await startSim();
    h.sim.control.setAggregatorIdl(kind);
    const { rpc, log, out } = setup();
    const book = createVenueBook({ rpc, clock: h.clock, log, minRefreshMs: 0 });
    await book.start();
    await book.learn(141);
    await book.learn(141);
    expect(book.table()).toBe(SwapVariantTable.bundled());
    const said = warnings(out);
    expect(said).toHaveLength(1);
    expect(said[0]).toContain(says);
    expect(said[0]).toContain('venues stay as they were: bundled (109 venues)');
  });

  it('says once, at info, that there is no on-chain IDL', async () => {
    h = await startSim();
    h.sim.control.setAggregatorIdl('absent');
    const { rpc, log, out } = setup();
    const book = createVenueBook({ rpc, clock: h.clock, log, minRefreshMs: 0 });
    await book.start();
    await book.learn(141);
    expect(book.table()).toBe(SwapVariantTable.bundled());
    expect(warnings(out)).toEqual([]);
    expect(out.lines().filter((l) => String(l['msg']).startsWith('the aggregator publishes no on-chain IDL'))).toHaveLength(1);
  });

  it('keeps what it learned in the database, and asks the node again for an unknown venue at most hourly', async () => {
    h = await startSim();
    const { rpc, calls, log } = setup();
    const file = join(tempDir(), 'venues.sqlite');
    const db = track(openStore(file, { clock: h.clock }).db);
    await createVenueBook({ rpc, clock: h.clock, log, db }).start();
    const row = db.prepare('SELECT program, deploy_slot, variants FROM venue_idls').get();
    expect(row).toEqual({ program: JUPITER_AGGREGATOR_V6.toBase58(), deploy_slot: 301_234_567, variants: 200 });

    // A restart while the node cannot be reached: the database still knows venue 141.
    h.sim.control.injectFault({ path: '/rpc', kind: 'status', status: 503 });
    const again = createVenueBook({ rpc, clock: h.clock, log, db });
    await again.start();
    expect(again.table().nameOf(141)).toBe('AuroraClob');
    h.sim.control.clearFaults();

    // An index no IDL describes: read once now, then not again within the hour.
    calls.length = 0;
    await again.learn(230);
    await again.learn(230);
    await h.sim.control.advance(59 * 60_000);
    await again.learn(231);
    expect(calls.filter((m) => m === 'getMultipleAccounts')).toHaveLength(0);
    await h.sim.control.advance(2 * 60_000);
    await again.learn(230);
    // The program and its IDL in one call, then its program-data account for the deploy slot.
    expect(calls.filter((m) => m === 'getMultipleAccounts')).toHaveLength(2);
  });

  it('a restart that reads again the IDL it remembers says nothing: the table is up to date', async () => {
    h = await startSim();
    const { rpc, log, out } = setup();
    const db = track(openStore(join(tempDir(), 'venues.sqlite'), { clock: h.clock }).db);
    await createVenueBook({ rpc, clock: h.clock, log, db }).start();
    const again = createVenueBook({ rpc, clock: h.clock, log, db });
    await again.start();
    expect(again.table().size).toBe(200);
    expect(warnings(out)).toEqual([]);
    // A shorter IDL than the table known is still worth a warning: it is not this program's.
    const shorter = again.table().extend({ types: [{ name: 'Swap', type: { kind: 'enum', variants: [{ name: 'Saber' }] } }] }, { kind: 'bundled' });
    expect(shorter.problem).toBe('the IDL lists 1 Swap variants, no more than the 200 already known: it adds nothing');
  });
});
