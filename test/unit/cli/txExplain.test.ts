import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PublicKey, type VersionedTransaction } from '@solana/web3.js';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import { AuditLog } from '../../../src/store/audit.js';
import { Journal } from '../../../src/store/journal.js';
import { openStore } from '../../../src/store/migrate.js';
import { jupbot } from '../../support/cli.js';
import { BUNDLED_SWAP_TYPES, BUNDLED_SWAP_VARIANTS } from '../../../src/solana/decode/jupiterSwapVariants.js';
import { routeIx, routeV2Ix } from '../solana/jupiterTx.js';
import { ata, BLOCKHASH, keypair, lookupTable, SOL, STRANGER, tx, USDC, W, wallet } from '../solana/txFactory.js';

const dir = mkdtempSync(join(tmpdir(), 'jupbot-explain-'));
const venues = lookupTable('explain-venues', [keypair('explain-pool').publicKey, keypair('explain-vault').publicKey]);

/** The table as getAccountInfo returns it: the 56-byte header, then the addresses. */
function tableAccount(): string {
  const header = Buffer.alloc(56);
  header.writeUInt32LE(1, 0);
  header.writeBigUInt64LE(2n ** 64n - 1n, 4);
  return Buffer.concat([header, ...venues.state.addresses.map((a) => a.toBuffer())]).toString('base64');
}

function write(name: string, text: string): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

const b64 = (t: VersionedTransaction): string => Buffer.from(t.serialize()).toString('base64');
const swap = (destination: PublicKey | null = null): VersionedTransaction =>
  tx(
    W,
    [
      routeIx({
        authority: W,
        source: ata(W, SOL),
        userDestination: ata(W, USDC),
        destination,
        destinationMint: new PublicKey(USDC),
        inAmount: 100_000_000n,
        quotedOutAmount: 1_000_000n,
        venues: venues.state.addresses,
      }),
    ],
    [venues],
  );
const tables = write('tables.json', JSON.stringify({ [venues.key.toBase58()]: tableAccount() }));
const expectFile = write(
  'expect.json',
  JSON.stringify({ kind: 'swap', inputMint: SOL, outputMint: USDC, maxInAmount: '100000000', minOutAmount: '990000', maxSlippageBps: 100 }),
);

describe('jupbot tx explain', () => {
  it('explains a swap offline from a tables file, and accepts it for the stated intent on the static checks', async () => {
    const file = write('swap.b64', b64(swap()));
    const run = await jupbot(['tx', 'explain', file, '--wallet', wallet, '--tables', tables, '--expect', expectFile]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`fee payer: ${wallet} (our wallet)`);
    expect(run.stdout).toContain(`${wallet} (our wallet): ours (to be signed)`);
    expect(run.stdout).toContain(`${venues.key.toBase58()}: 2 addresses`);
    expect(run.stdout).toContain('"type":"jupiter.route"');
    expect(run.stdout).toContain('effects: not simulated (offline: static checks only)');
    expect(run.stdout).toContain('guard: ACCEPTED');
  });

  it('refuses a tampered copy with its reason code and exit 6, in JSON too, reading stdin', async () => {
    const run = await jupbot(['tx', 'explain', '--wallet', wallet, '--tables', tables, '--expect', expectFile, '--json'], {
      stdin: `${b64(swap(ata(STRANGER, USDC)))}\n`,
    });
    expect(run.code).toBe(6);
    expect(run.stderr).toContain('SWAP_DESTINATION_NOT_OURS');
    const out = JSON.parse(run.stdout) as {
      guard: { accepted: boolean; reason: string; effects: string };
      feePayer: string;
      lookupTables: { address: string }[];
    };
    expect(out.guard).toMatchObject({ accepted: false, reason: 'SWAP_DESTINATION_NOT_OURS', effects: 'not simulated (offline: static checks only)' });
    expect(out.lookupTables.map((t) => t.address)).toEqual([venues.key.toBase58()]);
  });

  it('names a lookup table it cannot resolve, and the guard refuses it as missing', async () => {
    const file = write('swap2.b64', b64(swap()));
    const empty = write('empty.json', '{}');
    const run = await jupbot(['tx', 'explain', file, '--wallet', wallet, '--tables', empty, '--expect', expectFile]);
    expect(run.code).toBe(6);
    expect(run.stdout).toContain('accounts unresolved: LOOKUP_TABLE_MISSING');
    expect(run.stdout).toContain('guard: REFUSED LOOKUP_TABLE_MISSING');
  });

  it('refuses bad input with a located message', async () => {
    const bad = write(
      'bad-expect.json',
      JSON.stringify({ kind: 'swap', inputMint: SOL, outputMint: USDC, maxInAmount: 100, minOutAmount: '1', maxSlippageBps: 1 }),
    );
    const run = await jupbot(['tx', 'explain', write('s3.b64', b64(swap())), '--wallet', wallet, '--tables', tables, '--expect', bad]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('bad-expect.json: maxInAmount: must be a decimal string of base units');
    const notTx = await jupbot(['tx', 'explain', write('junk.b64', 'not a transaction'), '--wallet', wallet]);
    expect(notTx.code).toBe(1);
    expect(notTx.stderr).toContain('not a base64 Solana transaction');
  });
});

describe('jupbot tx explain on a route_v2 through a venue past the bundled table', () => {
  // Jupiter's fee inside the route (11 bps), a step through Swap variant 141 with fields (bool, u64).
  const v2 = (): VersionedTransaction =>
    tx(W, [
      routeV2Ix({
        authority: W,
        source: ata(W, SOL),
        userDestination: ata(W, USDC),
        destinationMint: new PublicKey(USDC),
        sourceMint: new PublicKey(SOL),
        inAmount: 100_000_000n,
        quotedOutAmount: 1_000_000n,
        platformFeeBps: 11,
        steps: [{ variant: 141, fields: [1, 1, 2, 3, 4, 5, 6, 7, 8] }],
      }),
    ]);
  const idl = {
    types: [
      ...BUNDLED_SWAP_TYPES,
      {
        name: 'Swap',
        type: {
          kind: 'enum',
          variants: [
            ...BUNDLED_SWAP_VARIANTS,
            ...Array.from({ length: 141 - BUNDLED_SWAP_VARIANTS.length }, (_, i) => ({ name: `Venue${109 + i}` })),
            { name: 'NewClob', fields: ['bool', 'u64'] },
          ],
        },
      },
    ],
  };
  const feeExpect = write(
    'expect-fee.json',
    JSON.stringify({ kind: 'swap', inputMint: SOL, outputMint: USDC, maxInAmount: '100000000', minOutAmount: '990000', maxSlippageBps: 100, feeBps: 11 }),
  );

  it('says which table walked the plan: bundled (the venue reported), or the IDL file given (the venue named)', async () => {
    const file = write('v2.b64', b64(v2()));
    const bundled = await jupbot(['tx', 'explain', file, '--wallet', wallet, '--expect', feeExpect]);
    expect(bundled.code).toBe(0);
    expect(bundled.stdout).toContain('route venues: bundled (109 venues)');
    expect(bundled.stdout).toContain('"unknownVenue":{"variant":141,"step":0}');
    expect(bundled.stdout).toContain('guard: ACCEPTED');

    const idlFile = write('jupiter-idl.json', JSON.stringify(idl));
    const learned = await jupbot(['tx', 'explain', file, '--wallet', wallet, '--expect', feeExpect, '--idl', idlFile, '--json']);
    expect(learned.code).toBe(0);
    const out = JSON.parse(learned.stdout) as { venueTable: string; instructions: { decoded: Record<string, unknown> }[]; guard: { accepted: boolean } };
    expect(out.venueTable).toBe(`IDL file ${idlFile} (109 bundled + 33 learned venues)`);
    expect(out.instructions[0]?.decoded).toMatchObject({
      type: 'jupiter.route_v2',
      platformFeeBps: 11,
      unknownVenue: null,
      steps: [{ venue: 'NewClob', variant: 141 }],
    });
    expect(out.guard.accepted).toBe(true);
  });

  it('refuses the fee when the expectation declares none, and says why an IDL file adds nothing', async () => {
    const file = write('v2b.b64', b64(v2()));
    const short = write('short-idl.json', JSON.stringify({ types: [{ name: 'Swap', type: { kind: 'enum', variants: [{ name: 'Saber' }] } }] }));
    const run = await jupbot(['tx', 'explain', file, '--wallet', wallet, '--expect', expectFile, '--idl', short]);
    expect(run.code).toBe(6);
    expect(run.stderr).toContain(
      `${short}: the IDL lists 1 Swap variants, no more than the 109 already known: it adds nothing; route venues are walked with the bundled (109 venues) table`,
    );
    expect(run.stdout).toContain('guard: REFUSED PLATFORM_FEE_UNDECLARED');
  });
});

describe('jupbot tx explain --intent', () => {
  it("reads a journaled swap and the quote it was signed against, and gives the guard's verdict, with no key or network", async () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 1));
    const file = join(dir, 'audit.sqlite');
    const { db } = openStore(file, { clock });
    const journal = new Journal(db, new AuditLog(db, clock), clock);
    const params = { inputMint: SOL, inputDecimals: 9, outputMint: USDC, amount: '100000000', slippageBps: 50 };
    journal.plan({ id: 'swap-1', kind: 'swap', strategy: 'sol-dca', params });
    const bytes = swap().serialize();
    journal.recordSigned('swap-1', {
      bytes,
      signature: '1'.repeat(64),
      blockhash: BLOCKHASH,
      lastValidBlockHeight: 100,
      requestId: 'req-1',
      data: {
        quote: {
          inAmount: '100000000',
          outAmount: '1000000',
          otherAmountThreshold: '995000',
          priceImpact: null,
          slippageBps: 50,
          router: 'metis',
          gasless: false,
        },
        guard: { feePayer: wallet },
      },
    });
    db.close();
    const run = await jupbot(['tx', 'explain', '--intent', 'swap-1', '--db', file, '--wallet', wallet, '--tables', tables]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('intent swap-1 (swap, strategy sol-dca, state signed)');
    expect(run.stdout).toContain('guard: ACCEPTED');
    const missing = await jupbot(['tx', 'explain', '--intent', 'nope', '--db', file, '--wallet', wallet]);
    expect(missing.code).toBe(5);
    expect(missing.stderr).toContain('no intent nope');
  });
});
