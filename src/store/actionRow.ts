import { hash } from 'node:crypto';
import { canonicalJson } from './canonicalJson.js';
import { StoreError } from './errors.js';
import type { RowRef } from './rowSeal.js';
import { assertNoSecrets } from './secretGuard.js';

/** The prev_hash of the first row of the chain: 64 zeros. */
export const GENESIS_HASH = '0'.repeat(64);

/** Largest `data` accepted, in UTF-16 code units of its canonical JSON: a snapshot, not a dump. */
export const MAX_DATA_LENGTH = 1_000_000;

/**
 * One thing the daemon did or decided, as handed to the audit log. Amounts are integer base
 * units (bigint, or a decimal string such as "-1500") and always come with their mint and
 * decimals. `data` is the plain-JSON context that caused it (snapshot, params, error).
 */
export interface ActionInput {
  /** Dotted lowercase kind, e.g. `intent.signed`, `order.placed`, `fill`, `guard.refused`, `error`. */
  readonly kind: string;
  readonly strategy?: string | null | undefined;
  readonly intentId?: string | null | undefined;
  readonly mint?: string | null | undefined;
  readonly amount?: bigint | string | null | undefined;
  /** The mint's decimals (0–255). Required with `amount`. */
  readonly decimals?: number | null | undefined;
  /** A transaction signature the action produced or observed. */
  readonly signature?: string | null | undefined;
  /** A plain JSON object (bigint allowed); never a secret. @default {} */
  readonly data?: object | undefined;
  /**
   * Rows of fills, intents or trigger_orders this action's transaction wrote: the audit log reads
   * each as it now stands and records its digest in `data.sealed` (see rowSeal.ts).
   */
  readonly seal?: readonly RowRef[] | undefined;
}

/** The columns of an actions row, exactly as stored. The chain hashes all but `hash`. */
export interface ActionRow {
  readonly id: number;
  readonly at: number;
  readonly kind: string;
  readonly strategy: string | null;
  readonly intent_id: string | null;
  readonly mint: string | null;
  readonly amount: string | null;
  readonly decimals: number | null;
  readonly signature: string | null;
  /** Canonical JSON text. */
  readonly data: string;
  readonly prev_hash: string;
  readonly hash: string;
}

/** The validated, stored form of an {@link ActionInput}, before id, time and chain are assigned. */
export type ActionColumns = Omit<ActionRow, 'id' | 'at' | 'prev_hash' | 'hash'>;

const KIND = /^[a-z][a-z0-9._-]{0,63}$/;
const INTEGER = /^-?(0|[1-9][0-9]*)$/;
// C0/C1 controls and lone surrogates: they would not survive the round trip through SQLite's
// UTF-8 unchanged, and the hash is computed over the JavaScript string.
// eslint-disable-next-line no-control-regex
const UNSAFE_TEXT = /[\u0000-\u001f\u007f-\u009f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function invalid(message: string, field: string): never {
  throw new StoreError('STORE_ACTION_INVALID', `audit action: ${message}`, { details: { field } });
}

/** Printable ASCII: the common case, checked first because it is several times cheaper. */
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

function text(value: string | null | undefined, field: string): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string' || value.length === 0 || value.length > 256 || (!PRINTABLE_ASCII.test(value) && UNSAFE_TEXT.test(value))) {
    invalid(`${field} must be 1–256 printable characters`, field);
  }
  return value;
}

function amountText(value: bigint | string | null | undefined): string | null {
  if (value === undefined || value === null) return null;
  const digits = typeof value === 'bigint' ? value.toString() : value;
  if (typeof digits !== 'string' || !INTEGER.test(digits) || digits === '-0') {
    invalid(`amount must be integer base units (a bigint or a string like "1500"), got ${String(value)}`, 'amount');
  }
  return digits;
}

/** Validates an action and converts it to its stored columns. Throws StoreError with a field name. */
export function toActionColumns(input: ActionInput): ActionColumns {
  if (typeof input.kind !== 'string' || !KIND.test(input.kind)) {
    invalid(`kind must be lowercase letters, digits and . _ - (got ${JSON.stringify(input.kind)})`, 'kind');
  }
  const mint = text(input.mint, 'mint');
  const amount = amountText(input.amount);
  const decimals = input.decimals ?? null;
  if (decimals !== null && (!Number.isInteger(decimals) || decimals < 0 || decimals > 255)) {
    invalid(`decimals must be an integer 0–255, got ${decimals}`, 'decimals');
  }
  if (amount !== null && (mint === null || decimals === null)) {
    invalid('an amount needs its mint and decimals', 'amount');
  }
  if (decimals !== null && mint === null) invalid('decimals without a mint', 'decimals');

  const dataValue = input.data ?? {};
  if (typeof dataValue !== 'object' || dataValue === null || Array.isArray(dataValue)) {
    invalid('data must be a plain object', 'data');
  }
  const data = canonicalJson(dataValue, 'data');
  if (data.length > MAX_DATA_LENGTH) invalid(`data is ${data.length} characters, more than ${MAX_DATA_LENGTH}`, 'data');
  assertNoSecrets(dataValue, 'data');

  return {
    kind: input.kind,
    strategy: text(input.strategy, 'strategy'),
    intent_id: text(input.intentId, 'intentId'),
    mint,
    amount,
    decimals,
    signature: text(input.signature, 'signature'),
    data,
  };
}

const jsonText = (value: string | null): string => (value === null ? 'null' : JSON.stringify(value));
const jsonInteger = (value: number | null): string => (value === null ? 'null' : String(value));

/**
 * The canonical encoding of a row that the chain hashes: the row as one JSON object, keys sorted,
 * no whitespace, every column but `hash` present (null included), strings written as
 * JSON.stringify writes them, and `data` inserted verbatim (it is stored as canonical JSON):
 *
 *   {"amount":…,"at":…,"data":{…},"decimals":…,"id":…,"intent_id":…,"kind":…,"mint":…,"prev_hash":…,"signature":…,"strategy":…}
 *
 * For rows jupbot wrote this equals canonicalJson of the row with data parsed (a test checks it).
 * It stays unambiguous whatever a tamperer puts in `data`: the columns after it are fixed keys
 * with escaped strings, so no other split of the same bytes is possible. Written out by hand
 * because it runs for every append and every verified row.
 */
export function encodeActionRow(row: Omit<ActionRow, 'hash'>): string {
  return (
    `{"amount":${jsonText(row.amount)},"at":${jsonInteger(row.at)},"data":${row.data},` +
    `"decimals":${jsonInteger(row.decimals)},"id":${jsonInteger(row.id)},"intent_id":${jsonText(row.intent_id)},` +
    `"kind":${jsonText(row.kind)},"mint":${jsonText(row.mint)},"prev_hash":${jsonText(row.prev_hash)},` +
    `"signature":${jsonText(row.signature)},"strategy":${jsonText(row.strategy)}}`
  );
}

/**
 * A row's hash: lowercase hex SHA-256 of the UTF-8 bytes of `prev_hash` (64 hex characters)
 * followed directly by the row's canonical encoding.
 */
export function hashActionRow(row: Omit<ActionRow, 'hash'>): string {
  return hash('sha256', row.prev_hash + encodeActionRow(row), 'hex');
}

function nullable<T>(value: unknown, check: (v: unknown) => v is T): T | null | undefined {
  if (value === null) return null;
  return check(value) ? value : undefined;
}
const isString = (v: unknown): v is string => typeof v === 'string';
const isInteger = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v);

/**
 * Checks the types of a row read from the actions table. STRICT tables guarantee them for rows
 * jupbot wrote; a tampered file may not be STRICT any more, and verify must report, not crash.
 * Returns a description of the first bad column, or the typed row.
 */
export function parseActionRow(raw: Readonly<Record<string, unknown>>): ActionRow | string {
  const row = {
    id: isInteger(raw.id) ? raw.id : undefined,
    at: isInteger(raw.at) ? raw.at : undefined,
    kind: isString(raw.kind) ? raw.kind : undefined,
    strategy: nullable(raw.strategy, isString),
    intent_id: nullable(raw.intent_id, isString),
    mint: nullable(raw.mint, isString),
    amount: nullable(raw.amount, isString),
    decimals: nullable(raw.decimals, isInteger),
    signature: nullable(raw.signature, isString),
    data: isString(raw.data) ? raw.data : undefined,
    prev_hash: isString(raw.prev_hash) ? raw.prev_hash : undefined,
    hash: isString(raw.hash) ? raw.hash : undefined,
  };
  for (const [column, value] of Object.entries(row)) {
    if (value === undefined) return `column ${column} has an unexpected type (${typeof raw[column]})`;
  }
  return row as ActionRow;
}
