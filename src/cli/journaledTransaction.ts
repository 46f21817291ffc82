/**
 * The transaction and intent `tx explain --intent ID` reads from the database: the signed bytes as
 * journaled, and the expectation the executor held them to, rebuilt from the intent's parameters and
 * what its signing recorded. Kinds whose expectation needs what only the API knew (our vault's
 * address) are explained without a verdict, and say so.
 */
import { z } from 'zod';
import { expectationFromJson } from './expectationFile.js';
import { openDatabase, type Db } from '../store/db.js';
import { journaledIntent } from '../store/journaledIntent.js';
import type { Expectation } from '../solana/expectation.js';
import { CliExit, type CliContext } from './context.js';
import { resolveDatabaseFile } from './databaseFile.js';
import { ExitCode } from '../exitCodes.js';

export interface Journaled {
  readonly base64: string;
  readonly kind: string;
  readonly strategy: string | null;
  readonly state: string;
  readonly expectation: Expectation | null;
  readonly note: string;
}

const Units = z.string().regex(/^\d+$/).transform(BigInt);
const SwapParams = z.looseObject({ inputMint: z.string(), outputMint: z.string(), amount: Units, slippageBps: z.number().optional() });
const SwapSigned = z.looseObject({
  quote: z.looseObject({
    outAmount: Units,
    otherAmountThreshold: Units.nullable(),
    slippageBps: z.number().nullable(),
    router: z.string().nullable(),
    gasless: z.boolean(),
  }),
  guard: z.looseObject({ feePayer: z.string() }).optional(),
});
const SellParams = z.looseObject({ positionPubkey: z.string(), isYes: z.boolean(), contractsMicro: Units, minSellPriceMicroUsd: Units.optional() });
const ClaimParams = z.looseObject({ positionPubkey: z.string() });

function expectationOf(kind: string, params: unknown, signed: Readonly<Record<string, unknown>> | null): { expectation: Expectation | null; note: string } {
  switch (kind) {
    case 'swap': {
      // Signings since the expectation is journaled with them: run the guard on exactly that.
      const recorded = (signed ?? {})['expectation'];
      if (recorded !== undefined)
        return {
          expectation: expectationFromJson(recorded, 'the journaled expectation'),
          note: 'the expectation the guard held these bytes to when they were signed',
        };
      const p = SwapParams.parse(params);
      const s = SwapSigned.parse(signed ?? {});
      const cap = s.quote.slippageBps ?? p.slippageBps ?? 0;
      return {
        expectation: {
          kind: 'swap',
          inputMint: p.inputMint,
          outputMint: p.outputMint,
          maxInAmount: p.amount,
          minOutAmount: s.quote.otherAmountThreshold ?? 0n,
          quotedOutAmount: s.quote.outAmount,
          maxSlippageBps: cap,
          gasless: s.quote.gasless,
          ...(s.quote.gasless && s.guard ? { feePayer: s.guard.feePayer } : {}),
        },
        note: 'expectation rebuilt from the intent and the quote its signing recorded (the declared gasless refund is not recorded: bounded at 0)',
      };
    }
    case 'sell-position':
    case 'partial-sell': {
      const p = SellParams.parse(params);
      return {
        expectation: {
          kind: kind === 'sell-position' ? 'prediction-sell' : 'prediction-partial-sell',
          position: p.positionPubkey,
          isYes: p.isYes,
          maxContracts: p.contractsMicro,
          minPriceMicroUsd: p.minSellPriceMicroUsd ?? 0n,
          externalOrderId: null,
        },
        note: 'expectation rebuilt from the intent (the order id the API answered is not recorded: not compared)',
      };
    }
    case 'claim-position':
      return { expectation: { kind: 'prediction-claim', position: ClaimParams.parse(params).positionPubkey }, note: 'expectation rebuilt from the intent' };
    default:
      return { expectation: null, note: `no verdict: a ${kind} expectation needs what only the API answered (pass --expect to give it)` };
  }
}

const Rehearsed = z.looseObject({ transaction: z.string(), expectation: z.unknown(), verdict: z.string(), reason: z.string().nullable().optional() });

/** The last transaction a rehearsal received for the intent, with its verdict; null when none. */
function lastRehearsedTransaction(db: Db, id: string): z.output<typeof Rehearsed> | null {
  const row = db.prepare("SELECT data FROM actions WHERE intent_id = ? AND kind = 'rehearsal.transaction' ORDER BY id DESC LIMIT 1").get(id) as
    { data: string } | undefined;
  return row === undefined ? null : Rehearsed.parse(JSON.parse(row.data));
}

export async function journaledTransaction(ctx: CliContext, id: string, options: { db?: string; config?: string }): Promise<Journaled> {
  const file = await resolveDatabaseFile(ctx, options);
  const db = openDatabase(file, { readonly: true });
  try {
    const found = journaledIntent(db, id);
    if (!found) throw new CliExit(ExitCode.NotFound, `${file}: no intent ${id}`);
    if (found.row.signedTx === null) {
      // A rehearsal signs nothing: it keeps each transaction Jupiter built with the guard's verdict on it.
      const rehearsed = lastRehearsedTransaction(db, id);
      if (rehearsed === null) throw new CliExit(ExitCode.NotFound, `intent ${id} holds no signed transaction (state ${found.row.state})`);
      return {
        base64: rehearsed.transaction,
        kind: found.row.kind,
        strategy: found.row.strategy,
        state: found.row.state,
        expectation: expectationFromJson(rehearsed.expectation, 'the expectation the rehearsal held the transaction to'),
        note: `REHEARSAL: the transaction Jupiter built for the watched wallet (never signed), which the guard ${rehearsed.verdict === 'accepted' ? 'accepted' : `refused (${rehearsed.reason ?? rehearsed.verdict})`}; the expectation it was held to`,
      };
    }
    const { expectation, note } = expectationOf(found.row.kind, found.row.params, found.signed);
    return {
      base64: Buffer.from(found.row.signedTx).toString('base64'),
      kind: found.row.kind,
      strategy: found.row.strategy,
      state: found.row.state,
      expectation,
      note,
    };
  } finally {
    db.close();
  }
}
