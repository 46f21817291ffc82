/**
 * Building blocks shared by the wire schemas of all four Jupiter API areas.
 *
 * Conventions (every schema under src/jupiter/schemas follows them, and the simulator relies on them):
 * - Response objects are `z.looseObject`: unknown fields pass through untouched, since Trigger V2 and
 *   Prediction are beta APIs that add fields without notice.
 * - Optional response fields are `.nullish()`: Jupiter sometimes sends `null` for a field its spec marks
 *   as merely optional. Fields the spec marks required stay required.
 * - Response enums are {@link openEnum}: the known values are typed for autocompletion, but an unknown
 *   value parses (a new order state must not blind the daemon to all its orders).
 * - Request schemas are strict about what *we* send: `z.strictObject`, closed enums, ranges from the spec.
 * - Base-unit token amounts stay decimal strings (`BaseUnits`); prediction micro-USD values become
 *   `bigint` after parsing (`MicroUsd`). USD prices of Trigger V2 are numbers as the API sends them.
 *
 * Each schema has two TypeScript faces: `z.input<typeof S>` (the JSON on the wire, what the simulator
 * must produce) and `z.output<typeof S>` (what the daemon sees after parsing). Where they differ
 * (bigint fields), both are exported as `XWire` and `X`.
 */
import { z } from 'zod';

/** A base58 Solana address (32-byte public key). Loose on length (32–44 chars), strict on alphabet. */
export const Pubkey = z.string().regex(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/, 'expected a base58 Solana address');

/** A non-negative integer amount in a token's smallest unit, as a decimal string ("1000000"). */
export const BaseUnits = z.string().regex(/^\d+$/, 'expected a non-negative integer amount as a decimal string');

/** A positive base-unit amount: a decimal string of an integer > 0. Used in requests. */
export const PositiveBaseUnits = BaseUnits.refine((s) => /[1-9]/.test(s), 'expected an amount greater than zero');

/** A token's decimals (0–255, a u8 on chain). */
export const Decimals = z.number().int().min(0).max(255);

/** A USD price as a plain decimal string ("151.25"): how the journal keeps prices exactly. */
export const UsdDecimal = z.string().regex(/^\d+(\.\d+)?$/, 'expected a decimal USD price such as "151.25"');

/** Basis points, 0–10 000. */
export const Bps = z.number().int().min(0).max(10_000);

/**
 * A micro-USD value (1 000 000 = 1 USD), sent by Prediction as an integer string or number, parsed to
 * `bigint`. Negative values are allowed (P&L). A fractional value is a parse error, never rounded.
 */
export const MicroUsd = z.union([z.string().regex(/^-?\d+$/, 'expected an integer micro-USD string'), z.number().int()]).transform((v) => BigInt(v));

/** Same as {@link MicroUsd}, for micro-unit contract quantities (1 000 000 = 1 contract). */
export const MicroUnits = MicroUsd;

/**
 * A string enum that accepts values outside the known set. The type keeps the known literals
 * (editor completion, exhaustive-ish switches) while `(string & {})` admits the rest.
 */
export function openEnum<const T extends readonly [string, ...string[]]>(_values: T): z.ZodType<T[number] | (string & {}), string> {
  return z.string();
}

/** Number, or a numeric string (some Jupiter fields flip between the two across versions). */
export const NumberLike = z.union([
  z.number(),
  z
    .string()
    .regex(/^-?\d+(\.\d+)?$/)
    .transform(Number),
]);

/**
 * The gateway's own error body (`401`, `403`, some `429`), in front of every product:
 * `{ "code": 403, "message": "API key does not have access to this endpoint" }`.
 */
export const GatewayErrorBody = z.looseObject({
  code: z.number().nullish(),
  message: z.string().nullish(),
});
export type GatewayErrorBody = z.output<typeof GatewayErrorBody>;

/** The plain `{ "error": "..." }` body used by Tokens, Ultra and several Swap/Prediction routes. */
export const SimpleErrorBody = z.looseObject({ error: z.string() });
export type SimpleErrorBody = z.output<typeof SimpleErrorBody>;

/** Response headers the gateway sets for rate limiting (on 200 and 429 only). */
export const RATE_LIMIT_HEADERS = {
  remaining: 'x-ratelimit-remaining',
  current: 'x-ratelimit-current',
  reset: 'x-ratelimit-reset',
} as const;

/** The gateway's per-request id header: log it, it matches the portal's request logs. */
export const REQUEST_ID_HEADER = 'x-api-gateway-request-id';

/** The API key header, on every request. */
export const API_KEY_HEADER = 'x-api-key';
