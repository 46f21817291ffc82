/**
 * The intent `jupbot tx explain --expect FILE` holds a transaction to, as JSON. Amounts are decimal
 * strings of base units (JSON numbers lose precision past 2^53); addresses base58. The forms are
 * documented in docs/security.md ("Explaining a transaction").
 */
import { z } from 'zod';
import type { Expectation } from '../solana/expectation.js';

const Address = z.string().regex(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/, { error: 'must be a base58 address' });
const Units = z
  .string({ error: 'must be a decimal string of base units' })
  .regex(/^\d{1,20}$/, { error: 'must be a decimal string of base units' })
  .transform(BigInt);

const ExpectationFile = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('login-challenge') }),
  z.strictObject({
    kind: z.literal('swap'),
    inputMint: Address,
    outputMint: Address,
    maxInAmount: Units,
    minOutAmount: Units,
    quotedOutAmount: Units.optional(),
    maxSlippageBps: z.int().min(0).max(10_000),
    feeBps: z.int().min(0).max(10_000).optional(),
    gasless: z.boolean().optional(),
    feePayer: Address.optional(),
    declaredFeeLamports: Units.optional(),
    rfqMaker: Address.optional(),
  }),
  z.strictObject({ kind: z.literal('vault-deposit'), mint: Address, amount: Units, vault: Address }),
  z.strictObject({ kind: z.literal('vault-withdrawal'), vault: Address }),
  z.strictObject({
    kind: z.enum(['prediction-sell', 'prediction-partial-sell']),
    position: Address,
    isYes: z.boolean(),
    maxContracts: Units,
    minPriceMicroUsd: Units,
    externalOrderId: z.string().nullable(),
  }),
  z.strictObject({ kind: z.literal('prediction-claim'), position: Address }),
]);

/** Parses the file's text; throws an Error naming the field path of the first problem. */
export function parseExpectation(text: string, file: string): Expectation {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new Error(`${file}: not JSON (${error instanceof Error ? error.message : String(error)})`, { cause: error });
  }
  return expectationFromJson(raw, file);
}

/** An expectation from its JSON form (a file's, or the one a signing journaled); `where` names it in errors. */
export function expectationFromJson(raw: unknown, where: string): Expectation {
  const parsed = ExpectationFile.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`${where}: ${issue?.path.join('.') || '(top level)'}: ${issue?.message ?? 'invalid'}`);
  }
  const value = Object.fromEntries(Object.entries(parsed.data).filter(([, v]) => v !== undefined));
  return value as unknown as Expectation;
}
