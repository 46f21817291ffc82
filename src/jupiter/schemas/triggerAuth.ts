/**
 * Trigger V2 login schemas: `POST /auth/challenge` and `POST /auth/verify`, the two calls made with
 * the API key alone, which end in the JWT every other Trigger call carries. Part of the `trigger`
 * namespace.
 */
import { z } from 'zod';
import { Pubkey } from './common.js';

export const ChallengeType = z.enum(['message', 'transaction']);
export type ChallengeType = z.output<typeof ChallengeType>;

/** Body of `POST /auth/challenge`. */
export const ChallengeParams = z.strictObject({ walletPubkey: Pubkey, type: ChallengeType });
export type ChallengeParams = z.input<typeof ChallengeParams>;

// The signer enforces the challenge text, so the prefix is defined on its side.
export { CHALLENGE_PREFIX } from '../../solana/loginChallengeText.js';

/** 200 of `POST /auth/challenge`: a text to sign, or a memo-only base64 transaction to sign (never sent). */
export const ChallengeResponse = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('message'), challenge: z.string().min(1) }),
  z.looseObject({ type: z.literal('transaction'), transaction: z.string().min(1) }),
]);
export type ChallengeResponse = z.output<typeof ChallengeResponse>;

/**
 * Body of `POST /auth/verify`: the base58 ed25519 signature of the challenge's UTF-8 bytes, or the
 * signed memo transaction in base64.
 */
export const VerifyParams = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('message'),
    walletPubkey: Pubkey,
    signature: z.string().regex(/^[1-9A-HJ-NP-Za-km-z]{64,90}$/, 'expected a base58 64-byte signature'),
  }),
  z.strictObject({ type: z.literal('transaction'), walletPubkey: Pubkey, signedTransaction: z.string().min(1) }),
]);
export type VerifyParams = z.input<typeof VerifyParams>;

/** 200 of `POST /auth/verify`: a JWT valid 24 h, bound to the wallet. A secret: never log it. */
export const VerifyResponse = z.looseObject({ token: z.string().min(1) });
export type VerifyResponse = z.output<typeof VerifyResponse>;
