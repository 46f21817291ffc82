import type { PublicKey } from '@solana/web3.js';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import { ADDRESS_LOOKUP_TABLE_PROGRAM, createLookupTableResolver, parseLookupTable, staticLookupTables } from '../../../src/solana/lookupTables.js';
import type { AccountState } from '../../../src/solana/rpc.js';
import { keypair } from './txFactory.js';

/** A lookup table account as the chain stores it: 56-byte header, then the addresses. */
function tableData(addresses: PublicKey[], options: { deactivationSlot?: bigint; lastExtendedSlot?: bigint } = {}): Buffer {
  const header = Buffer.alloc(56);
  header.writeUInt32LE(1, 0);
  header.writeBigUInt64LE(options.deactivationSlot ?? 2n ** 64n - 1n, 4);
  header.writeBigUInt64LE(options.lastExtendedSlot ?? 7n, 12);
  header.writeUInt8(0, 20);
  header.writeUInt8(1, 21);
  keypair('table-authority').publicKey.toBuffer().copy(header, 22);
  return Buffer.concat([header, ...addresses.map((a) => a.toBuffer())]);
}

const A = keypair('alt-a').publicKey;
const B = keypair('alt-b').publicKey;
const C = keypair('alt-c').publicKey;
const TABLE = keypair('alt-table').publicKey.toBase58();

function node(accounts: Record<string, AccountState | null>) {
  const calls: string[][] = [];
  return {
    calls,
    accounts,
    getMultipleAccounts: (addresses: readonly string[]) => {
      calls.push([...addresses]);
      return Promise.resolve({ slot: 1, accounts: addresses.map((a) => accounts[a] ?? null) });
    },
  };
}
const account = (data: Buffer, owner = ADDRESS_LOOKUP_TABLE_PROGRAM): AccountState => ({ lamports: 1n, owner, data, executable: false });

describe('lookup tables through the RPC', () => {
  it('parses the on-chain layout', () => {
    expect(parseLookupTable(TABLE, ADDRESS_LOOKUP_TABLE_PROGRAM, tableData([A, B], { deactivationSlot: 99n, lastExtendedSlot: 12n }))).toEqual({
      address: TABLE,
      addresses: [A.toBase58(), B.toBase58()],
      deactivationSlot: 99n,
      lastExtendedSlot: 12,
    });
    expect(parseLookupTable(TABLE, keypair('not-alt-program').publicKey.toBase58(), tableData([A]))).toBeNull();
    expect(parseLookupTable(TABLE, ADDRESS_LOOKUP_TABLE_PROGRAM, Buffer.alloc(10))).toBeNull();
  });

  it('fetches once, serves from the cache, and fetches again when an index is past the cached end or the copy is old', async () => {
    const clock = new ManualClock(1_000);
    const rpc = node({ [TABLE]: account(tableData([A, B])) });
    const resolve = createLookupTableResolver({ rpc, clock, maxAgeMs: 60_000 });
    expect(await resolve([{ address: TABLE, minLength: 2 }])).toMatchObject([{ addresses: [A.toBase58(), B.toBase58()] }]);
    await resolve([{ address: TABLE, minLength: 1 }]);
    expect(rpc.calls).toHaveLength(1);
    // The table was extended: an index past the cached copy fetches again.
    rpc.accounts[TABLE] = account(tableData([A, B, C], { lastExtendedSlot: 8n }));
    expect(await resolve([{ address: TABLE, minLength: 3 }])).toMatchObject([{ addresses: [A.toBase58(), B.toBase58(), C.toBase58()], lastExtendedSlot: 8 }]);
    expect(rpc.calls).toHaveLength(2);
    // Deactivated since: seen once the cached copy is older than maxAgeMs.
    rpc.accounts[TABLE] = account(tableData([A, B, C], { lastExtendedSlot: 8n, deactivationSlot: 500n }));
    await resolve([{ address: TABLE, minLength: 1 }]);
    expect(rpc.calls).toHaveLength(2);
    await clock.advance(60_001);
    expect(await resolve([{ address: TABLE, minLength: 1 }])).toMatchObject([{ deactivationSlot: 500n }]);
    expect(rpc.calls).toHaveLength(3);
  });

  it('answers missing and invalid, in one call for several tables', async () => {
    const other = keypair('alt-other').publicKey.toBase58();
    const fake = keypair('alt-fake').publicKey.toBase58();
    const rpc = node({ [fake]: account(tableData([A]), keypair('some-program').publicKey.toBase58()) });
    const resolve = createLookupTableResolver({ rpc, clock: new ManualClock(0) });
    expect(
      await resolve([
        { address: other, minLength: 1 },
        { address: fake, minLength: 1 },
      ]),
    ).toEqual(['missing', 'invalid']);
    expect(rpc.calls).toEqual([[other, fake]]);
  });

  it('resolves offline from fixed account data', async () => {
    const resolve = staticLookupTables(new Map([[TABLE, tableData([A])]]));
    expect(
      await resolve([
        { address: TABLE, minLength: 1 },
        { address: keypair('x').publicKey.toBase58(), minLength: 1 },
      ]),
    ).toMatchObject([{ addresses: [A.toBase58()] }, 'missing']);
  });
});
