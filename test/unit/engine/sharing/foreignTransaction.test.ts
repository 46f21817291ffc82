import { describe, expect, it } from 'vitest';
import { foreignTrade, jupiterPrograms } from '../../../../src/engine/sharing/foreignTransaction.js';
import type { LandedTransaction } from '../../../../src/solana/rpcHistory.js';

const WALLET = 'Wa11et1111111111111111111111111111111111111';
const GAS = 'gasTzr94Pmp4Gf8vknQnqxeYxdgwFjbgdJa4msYRpnB';
const KEEPER = 'Keeper111111111111111111111111111111111111';
const AGGREGATOR = 'JUP6LkbZbjS1jKKwapdHNy74zcZ3tLUZoi5QNyVTaV4';
const ORDER_ENGINE = '61DFfeTKM7trxYcPQCM78bJ794ddZprZpAwAnLiwTpYH';
const PREDICTION = '3ZZuTbwC6aJbvteyVxXUS7gtFYdf7AuXeitx6VyvjvUp';
const TOKEN = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';
const SYSTEM = '11111111111111111111111111111111';
const programs = jupiterPrograms([PREDICTION]);

/** A landed transaction: `signers` sign in order, then the other accounts. */
function landed(signers: readonly [string, string][], others: readonly string[], extra: Partial<LandedTransaction> = {}): LandedTransaction {
  return {
    slot: 7,
    blockTime: 1_795_000_000,
    signatures: signers.map(([, signature]) => signature),
    accountKeys: [...signers.map(([key]) => key), ...others],
    err: null,
    fee: 5_000n,
    preBalances: [],
    postBalances: [],
    preTokenBalances: [],
    postTokenBalances: [],
    ...extra,
  };
}

describe('a transaction of the wallet, judged', () => {
  it('a Jupiter swap the wallet signed and the journal does not hold is foreign, with its time and programs', () => {
    expect(foreignTrade('sigA', landed([[WALLET, 'sigA']], [TOKEN, AGGREGATOR]), WALLET, programs, new Set())).toEqual({
      signature: 'sigA',
      walletSignature: 'sigA',
      at: 1_795_000_000_000,
      trade: 'swap',
      programs: [AGGREGATOR],
      failed: false,
    });
  });

  it('a gasless swap names the wallet as the second signer: its own signature is that slot, and one that failed still counts', () => {
    const tx = landed(
      [
        [GAS, 'sigGas'],
        [WALLET, 'sigOwn'],
      ],
      [ORDER_ENGINE],
      { err: { InstructionError: [0, { Custom: 6001 }] } },
    );
    expect(foreignTrade('sigGas', tx, WALLET, programs, new Set())).toMatchObject({
      signature: 'sigGas',
      walletSignature: 'sigOwn',
      trade: 'swap',
      failed: true,
    });
  });

  it('a prediction order is a trade of its own kind', () => {
    expect(foreignTrade('sigP', landed([[WALLET, 'sigP']], [PREDICTION]), WALLET, programs, new Set())).toMatchObject({
      trade: 'prediction',
      programs: [PREDICTION],
    });
  });

  it('is ours when the journal holds its id or our own signature in it', () => {
    const tx = landed(
      [
        [GAS, 'sigGas'],
        [WALLET, 'sigOwn'],
      ],
      [AGGREGATOR],
    );
    expect(foreignTrade('sigGas', tx, WALLET, programs, new Set(['sigOwn']))).toBeNull();
    expect(foreignTrade('sigGas', tx, WALLET, programs, new Set(['sigGas']))).toBeNull();
  });

  it("is not a trade by the wallet's key when a keeper signed it (a vault fill), nor a Jupiter trade when it only moves funds", () => {
    expect(foreignTrade('sigK', landed([[KEEPER, 'sigK']], [WALLET, AGGREGATOR]), WALLET, programs, new Set())).toBeNull();
    expect(foreignTrade('sigT', landed([[WALLET, 'sigT']], [SYSTEM, TOKEN]), WALLET, programs, new Set())).toBeNull();
    expect(foreignTrade('sigX', landed([[KEEPER, 'sigX']], [TOKEN]), WALLET, programs, new Set())).toBeNull();
  });
});
