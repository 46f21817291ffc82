/**
 * Jupiter's prediction-market program, as far as its transactions have been observed (there is no
 * published IDL): the order instruction that opens a buy or a sale, and the claim of a settled
 * position. Both decoders insist on the exact layout; an instruction of the program that matches
 * neither is "unknown" and the guard refuses it rather than guess.
 *
 * Order: discriminator 8d3625cfedd2fad7, then Borsh { externalOrderId: string, marketIdHash: string,
 * isYes: u8, isBuy: u8, contracts: u64 (millionths), priceBound: u64 (micro-USD per contract: the
 * most a buy may pay, the least a sale may fetch), cost: u64, slippageBps: u16, maxSlippageBps:
 * Option<u16> }; accounts begin payer, owner, protocol co-signer, market, position, order, funding
 * token account, mint.
 *
 * Claim: Anchor discriminator of `claim_position`, no arguments; accounts begin payer, owner,
 * protocol co-signer, market, position, funding token account, mint. This layout is the simulator's
 * and is not confirmed against a live claim.
 */
import { BorshError, BorshReader } from './borshReader.js';
import { anchorDiscriminator } from './jupiterSwapInstruction.js';

export const PREDICTION_ORDER_DISCRIMINATOR = Buffer.from('8d3625cfedd2fad7', 'hex');
export const PREDICTION_CLAIM_DISCRIMINATOR = anchorDiscriminator('claim_position');

export interface PredictionOrderInstruction {
  readonly type: 'order';
  readonly externalOrderId: string;
  readonly marketIdHash: string;
  readonly isYes: boolean;
  readonly isBuy: boolean;
  readonly contracts: bigint;
  readonly priceBoundMicroUsd: bigint;
  readonly costMicroUsd: bigint;
  readonly slippageBps: number;
  readonly maxSlippageBps: number | null;
  readonly payer: string;
  readonly owner: string;
  readonly protocol: string;
  readonly market: string;
  readonly position: string;
  readonly order: string;
  readonly fundingTokenAccount: string;
  readonly mint: string;
}

export interface PredictionClaimInstruction {
  readonly type: 'claim';
  readonly payer: string;
  readonly owner: string;
  readonly protocol: string;
  readonly market: string;
  readonly position: string;
  readonly fundingTokenAccount: string;
  readonly mint: string;
}

export type PredictionInstruction = PredictionOrderInstruction | PredictionClaimInstruction;

export class PredictionDecodeError extends Error {
  override name = 'PredictionDecodeError';
}

const startsWith = (data: Uint8Array, prefix: Buffer): boolean =>
  data.byteLength >= prefix.length && Buffer.from(data.subarray(0, prefix.length)).equals(prefix);

export function decodePredictionInstruction(accounts: readonly string[], data: Uint8Array): PredictionInstruction {
  if (startsWith(data, PREDICTION_ORDER_DISCRIMINATOR)) {
    if (accounts.length < 8) throw new PredictionDecodeError(`the order instruction names ${accounts.length} accounts, fewer than the 8 it begins with`);
    const r = new BorshReader(data, 8);
    try {
      const externalOrderId = r.string('externalOrderId', 128);
      const marketIdHash = r.string('marketIdHash', 128);
      const isYes = r.bool('isYes');
      const isBuy = r.bool('isBuy');
      const contracts = r.u64('contracts');
      const priceBoundMicroUsd = r.u64('priceBound');
      const costMicroUsd = r.u64('cost');
      const slippageBps = r.u16('slippageBps');
      const maxSlippageBps = r.option(() => r.u16('maxSlippageBps'), 'maxSlippageBps');
      r.end('the order instruction');
      const [payer, owner, protocol, market, position, order, fundingTokenAccount, mint] = accounts as [
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
      ];
      return {
        type: 'order',
        externalOrderId,
        marketIdHash,
        isYes,
        isBuy,
        contracts,
        priceBoundMicroUsd,
        costMicroUsd,
        slippageBps,
        maxSlippageBps,
        payer,
        owner,
        protocol,
        market,
        position,
        order,
        fundingTokenAccount,
        mint,
      };
    } catch (error) {
      if (error instanceof BorshError) throw new PredictionDecodeError(`the order instruction does not match the known layout: ${error.message}`);
      throw error;
    }
  }
  if (startsWith(data, PREDICTION_CLAIM_DISCRIMINATOR)) {
    if (data.byteLength !== 8)
      throw new PredictionDecodeError(`the claim instruction carries ${data.byteLength - 8} byte(s) of arguments; the known layout has none`);
    if (accounts.length < 7) throw new PredictionDecodeError(`the claim instruction names ${accounts.length} accounts, fewer than the 7 it begins with`);
    const [payer, owner, protocol, market, position, fundingTokenAccount, mint] = accounts as [string, string, string, string, string, string, string];
    return { type: 'claim', payer, owner, protocol, market, position, fundingTokenAccount, mint };
  }
  throw new PredictionDecodeError(`instruction ${Buffer.from(data.subarray(0, 8)).toString('hex')} of the prediction program is not one jupbot knows`);
}
