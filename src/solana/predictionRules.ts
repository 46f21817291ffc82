/**
 * The static checks of a prediction-program instruction against a sell or claim intent. A sale
 * must be the order instruction with isBuy 0, by our wallet, on our position and side, for no more
 * contracts than the intent, at a floor no lower than the strategy's, under the order id the API
 * answered, with proceeds paid into our own token account. A claim must name our position and pay
 * into our account. Anything of the program these decoders do not recognise is refused.
 */
import { decodePredictionInstruction, PredictionDecodeError, type PredictionInstruction } from './decode/predictionOrder.js';
import type { Expectation } from './expectation.js';
import { GuardRefusal, type RefusalReason } from './guardRefusal.js';
import { associatedTokenAccounts } from './programIds.js';
import type { ResolvedInstruction } from './resolveAccounts.js';

/** Decodes a prediction-program instruction, refusing layouts jupbot does not know. */
export function decodePrediction(ix: ResolvedInstruction): PredictionInstruction {
  try {
    return decodePredictionInstruction(
      ix.accounts.map((a) => a.address),
      ix.data,
    );
  } catch (error) {
    if (error instanceof PredictionDecodeError)
      throw new GuardRefusal('PREDICTION_LAYOUT_UNKNOWN', `instruction ${ix.index}: ${error.message}`, { instruction: ix.index, program: ix.program });
    throw error;
  }
}

export function checkPredictionInstruction(ix: ResolvedInstruction, expectation: Expectation, wallet: string): PredictionInstruction {
  const refuse = (reason: RefusalReason, message: string, details: Record<string, unknown> = {}): never => {
    throw new GuardRefusal(reason, `instruction ${ix.index}: ${message}`, { instruction: ix.index, program: ix.program, kind: expectation.kind, ...details });
  };
  const decoded = decodePrediction(ix);
  if (decoded.owner !== wallet) refuse('PREDICTION_OWNER_MISMATCH', `is for owner ${decoded.owner}, not our wallet`, { owner: decoded.owner });
  if (!associatedTokenAccounts(wallet, decoded.mint).includes(decoded.fundingTokenAccount)) {
    refuse('PREDICTION_FUNDS_NOT_OURS', `pays into ${decoded.fundingTokenAccount}, not our ${decoded.mint} account`, {
      fundingTokenAccount: decoded.fundingTokenAccount,
    });
  }
  switch (expectation.kind) {
    case 'prediction-sell':
    case 'prediction-partial-sell': {
      if (decoded.type !== 'order') return refuse('PREDICTION_LAYOUT_UNKNOWN', 'is a claim where a sale was asked');
      if (decoded.isBuy) refuse('PREDICTION_BUY_NOT_ALLOWED', 'is a buy order; the intent sells', { isBuy: true });
      if (decoded.position !== expectation.position)
        refuse('PREDICTION_POSITION_MISMATCH', `sells position ${decoded.position}, the intent ${expectation.position}`, { position: decoded.position });
      if (decoded.isYes !== expectation.isYes)
        refuse('PREDICTION_SIDE_MISMATCH', `sells the ${decoded.isYes ? 'YES' : 'NO'} side, the intent the ${expectation.isYes ? 'YES' : 'NO'} side`, {
          isYes: decoded.isYes,
        });
      if (decoded.contracts > expectation.maxContracts) {
        refuse('PREDICTION_CONTRACTS_EXCEED_POSITION', `sells ${decoded.contracts} micro-contracts, more than the intent's ${expectation.maxContracts}`, {
          contracts: decoded.contracts.toString(),
          max: expectation.maxContracts.toString(),
        });
      }
      if (decoded.priceBoundMicroUsd < expectation.minPriceMicroUsd) {
        refuse(
          'PREDICTION_PRICE_BELOW_FLOOR',
          `accepts a price of ${decoded.priceBoundMicroUsd} micro-USD, below the strategy's floor of ${expectation.minPriceMicroUsd}`,
          {
            priceBound: decoded.priceBoundMicroUsd.toString(),
            floor: expectation.minPriceMicroUsd.toString(),
          },
        );
      }
      if (expectation.externalOrderId !== null && decoded.externalOrderId !== expectation.externalOrderId) {
        refuse('PREDICTION_ORDER_ID_MISMATCH', `carries order id ${decoded.externalOrderId}, the API answered ${expectation.externalOrderId}`, {
          externalOrderId: decoded.externalOrderId,
        });
      }
      return decoded;
    }
    case 'prediction-claim':
      if (decoded.type !== 'claim')
        return refuse(decoded.isBuy ? 'PREDICTION_BUY_NOT_ALLOWED' : 'PREDICTION_LAYOUT_UNKNOWN', 'is an order where a claim was asked');
      if (decoded.position !== expectation.position)
        refuse('PREDICTION_POSITION_MISMATCH', `claims position ${decoded.position}, the intent ${expectation.position}`, { position: decoded.position });
      return decoded;
    case 'prediction-buy':
      // What a buy spends is bounded by the simulated effects (at most `maxAmount` of the mint).
      if (decoded.type !== 'order' || !decoded.isBuy) return refuse('PREDICTION_LAYOUT_UNKNOWN', 'is not a buy order');
      return decoded;
    default:
      return refuse('PROGRAM_NOT_ALLOWED', `the prediction program is not allowed for a ${expectation.kind}`);
  }
}
