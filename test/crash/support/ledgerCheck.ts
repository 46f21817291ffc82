/**
 * Compares the simulated world (its ledger and its Trigger orders) with what the daemon wrote down
 * (journal, audit log, fills, trigger_orders), after any number of crashes. The simulator's ledger
 * is the truth of what happened; the database must account for every bit of it, exactly once:
 *
 * - every transaction that landed for the wallet was signed by exactly one journaled intent (the
 *   `intent.signed` actions name every signature an intent ever had), and no intent landed twice;
 * - every swap and every keeper fill that paid the wallet has exactly one `fills` row, with the
 *   amounts the ledger moved, and no `fills` row is without a ledger counterpart;
 * - the same for prediction sales and claims (source 'prediction'): a sale's transaction only opens
 *   an order, and the keeper's fill pays the wallet later under the ref `<signature>:fill`, so the
 *   sale is the intent that signed `<signature>`, and its fills row is keyed by that signature; a
 *   claim pays on landing, under its own signature;
 * - every Trigger order (price or DCA) of the wallet was placed by exactly one journaled intent (one
 *   deposit each) and is mirrored once in trigger_orders;
 * - each balance equals the funding plus what the database says happened (fills, deposits,
 *   withdrawals), network fees aside (they are lamports the database does not itemise; they are
 *   subtracted from the ledger's own `network-fee` entries, each of which must belong to a journaled
 *   signature).
 */
import Database from 'better-sqlite3';
import type { LedgerDump } from '../../../src/sim/ledger.js';
import { SOL_MINT } from '../../../src/sim/programIds.js';

type Entry = LedgerDump['entries'][number];

/** A price order as `dumpOrders().price` lists it (the history item shape). */
export interface SimPriceOrder {
  readonly id: string;
  readonly orderType: string;
  readonly orderState: string;
  readonly userPubkey: string;
  readonly privyWalletPubkey: string;
  readonly inputMint: string;
  readonly initialInputAmount: string;
  readonly createdAt: number;
  readonly expiresAt: number;
  readonly events: readonly { type: string; txSignature: string }[];
}

/** A DCA order as `dumpOrders().dca` lists it. */
export interface SimDcaOrder {
  readonly id: string;
  readonly wallet: string;
  readonly state: string;
}

export interface CheckInput {
  readonly database: string;
  readonly wallet: string;
  readonly ledger: LedgerDump;
  readonly priceOrders: readonly SimPriceOrder[];
  readonly dcaOrders: readonly SimDcaOrder[];
  /** Ledger reasons that are the test's own funding of the wallet. */
  readonly fundingReasons: readonly string[];
}

export interface CheckReport {
  /** Everything that does not add up; empty when the database accounts for the world exactly. */
  readonly problems: string[];
  readonly counts: {
    intents: Record<string, number>;
    pendingIntents: number;
    landedTransactions: number;
    swaps: number;
    keeperFills: number;
    predictionSales: number;
    predictionClaims: number;
    deposits: number;
    withdrawals: number;
    simOrders: number;
    triggerOrderRows: number;
    fills: Record<string, number>;
    duplicateExecutions: number;
    missingFills: number;
    phantomFills: number;
    unjournaledTransactions: number;
  };
}

interface IntentRow {
  id: string;
  kind: string;
  state: string;
  signature: string | null;
  order_id: string | null;
  params: string;
}
interface FillRow {
  signature: string;
  idx: number;
  source: string;
  intent_id: string | null;
  trigger_order_id: string | null;
  in_mint: string;
  in_amount: string;
  out_mint: string;
  out_amount: string;
}
interface TriggerOrderRow {
  id: string;
  intent_id: string | null;
  adopted: number;
  deposit_signature: string | null;
  state: string;
}

const PENDING = new Set(['planned', 'signed', 'sent', 'expired']);
/** Intent kinds whose confirmed transaction is a deposit of `params.inputAmount` of `params.inputMint`. */
const DEPOSIT_KINDS = new Set(['place-vault-order', 'place-dca-vault-order']);
/** Intent kinds that, once confirmed, must have moved money on chain. */
const MOVING_KINDS = new Set(['swap', ...DEPOSIT_KINDS, 'sell-position', 'partial-sell', 'claim-position']);
/** Prediction intents whose params name the micro-contracts they sell (the fills row's `in_amount`). */
const PREDICTION_SELL_KINDS = new Set(['sell-position', 'partial-sell']);
/** The ledger's ref of the keeper's fill of the prediction order opened by a transaction (src/sim/prediction/trading.ts). */
const KEEPER_FILL_SUFFIX = ':fill';
/** Ledger reasons of the wallet's prediction payouts: the keeper's sale proceeds and a settled position's claim. */
const PREDICTION_REASONS = new Set(['prediction-sell', 'prediction-claim']);

/** The transaction a prediction payout answers: the sell that opened the order, or the claim itself. */
function predictionSignature(ref: string, reasons: ReadonlySet<string>): string {
  return reasons.has('prediction-sell') && ref.endsWith(KEEPER_FILL_SUFFIX) ? ref.slice(0, -KEEPER_FILL_SUFFIX.length) : ref;
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = out.get(k);
    if (list) list.push(item);
    else out.set(k, [item]);
  }
  return out;
}

/** Signed sum of a wallet's entries for one ref and mint. */
function delta(entries: readonly Entry[], mint: string): bigint {
  return entries.filter((e) => e.mint === mint).reduce((sum, e) => sum + BigInt(e.delta), 0n);
}

export function checkLedgerAgainstJournal(input: CheckInput): CheckReport {
  const db = new Database(input.database, { readonly: true, fileMustExist: true });
  try {
    return check(input, db);
  } finally {
    db.close();
  }
}

function check(input: CheckInput, db: Database.Database): CheckReport {
  const problems: string[] = [];
  const { wallet } = input;
  const intents = db.prepare('SELECT id, kind, state, signature, order_id, params FROM intents').all() as IntentRow[];
  const intentById = new Map(intents.map((i) => [i.id, i]));
  const signedActions = db.prepare("SELECT intent_id, signature FROM actions WHERE kind = 'intent.signed' AND signature IS NOT NULL").all() as {
    intent_id: string;
    signature: string;
  }[];
  const fills = db
    .prepare('SELECT signature, idx, source, intent_id, trigger_order_id, in_mint, in_amount, out_mint, out_amount FROM fills')
    .all() as FillRow[];
  const triggerOrders = db.prepare('SELECT id, intent_id, adopted, deposit_signature, state FROM trigger_orders').all() as TriggerOrderRow[];

  const intentCounts: Record<string, number> = {};
  for (const i of intents) intentCounts[`${i.kind}:${i.state}`] = (intentCounts[`${i.kind}:${i.state}`] ?? 0) + 1;
  const pending = intents.filter((i) => PENDING.has(i.state));
  for (const i of pending) problems.push(`intent ${i.id} (${i.kind}) is still ${i.state}: the journal is not quiescent`);

  // Which intent signed each signature, by the audit log (a re-armed intent had several).
  const signerOf = groupBy(signedActions, (a) => a.signature);
  for (const [signature, rows] of signerOf) {
    const ids = new Set(rows.map((r) => r.intent_id));
    if (ids.size > 1) problems.push(`signature ${signature} was signed by ${ids.size} intents: ${[...ids].join(', ')}`);
  }

  const mine = input.ledger.entries.filter((e) => e.wallet === wallet);
  const funding = mine.filter((e) => input.fundingReasons.includes(e.reason));
  const movements = mine.filter((e) => !input.fundingReasons.includes(e.reason));
  const byRef = groupBy(movements, (e) => e.ref);

  // 1. Every landed transaction belongs to exactly one journaled intent; no intent landed twice.
  const landedByIntent = new Map<string, string[]>();
  let unjournaled = 0;
  const KNOWN = new Set(['network-fee', 'swap', 'deposit', 'withdrawal', 'keeper-fill', ...PREDICTION_REASONS]);
  for (const [ref, entries] of byRef) {
    const reasons = new Set(entries.map((e) => e.reason));
    for (const reason of reasons)
      if (!KNOWN.has(reason)) problems.push(`ledger entry ${ref} has a reason this check does not know (${reason}): extend ledgerCheck.ts`);
    if (reasons.has('keeper-fill')) continue; // The keeper signs those, not the wallet.
    // A prediction sale is paid by the keeper: it counts for the intent that signed the opening sell.
    const signed = reasons.has('prediction-sell') ? predictionSignature(ref, reasons) : ref;
    const signers = signerOf.get(signed);
    if (!signers) {
      unjournaled += 1;
      problems.push(
        `transaction ${ref} landed for the wallet (${[...reasons].join(', ')}) but no intent.signed action names ${signed === ref ? 'it' : `the sell ${signed} it fills`}`,
      );
      continue;
    }
    const id = signers[0]?.intent_id as string;
    landedByIntent.set(id, [...(landedByIntent.get(id) ?? []), ref]);
  }
  let duplicateExecutions = 0;
  for (const [id, refs] of landedByIntent) {
    // A landed-and-failed transaction only charges its fee; two that moved money are a double execution.
    const effective = refs.filter((ref) => (byRef.get(ref) ?? []).some((e) => e.reason !== 'network-fee'));
    if (effective.length > 1) {
      duplicateExecutions += effective.length - 1;
      problems.push(`intent ${id} executed ${effective.length} times on chain: ${effective.join(', ')}`);
    }
    const intent = intentById.get(id);
    if (effective.length === 1 && intent && intent.state !== 'confirmed')
      problems.push(`intent ${id} moved money on chain (${effective[0]}) but its journal state is ${intent.state}`);
  }
  for (const i of intents) {
    if (i.state !== 'confirmed' || !MOVING_KINDS.has(i.kind)) continue;
    const effective = (landedByIntent.get(i.id) ?? []).filter((ref) => (byRef.get(ref) ?? []).some((e) => e.reason !== 'network-fee'));
    // (A cancel of an order the keeper already filled withdraws nothing: cancels are not checked here.)
    if (effective.length === 0) problems.push(`intent ${i.id} (${i.kind}) is confirmed but nothing it signed moved money in the simulator`);
  }

  // 2. Fills: one row per swap and per keeper fill that paid the wallet, with the ledger's amounts.
  const fillsBySignature = groupBy(fills, (f) => f.signature);
  let missingFills = 0;
  let swaps = 0;
  let keeperFills = 0;
  let predictionSales = 0;
  let predictionClaims = 0;
  const seenFillSignatures = new Set<string>();
  /**
   * One prediction payout: exactly one `fills` row (source 'prediction') under the signature of the
   * transaction that asked for it, written by the intent that signed it, with the USDC the ledger
   * paid and, for a sale, the contracts the intent sold.
   */
  function checkPredictionFill(ref: string, entries: readonly Entry[], reasons: ReadonlySet<string>): 'sale' | 'claim' | undefined {
    const what = reasons.has('prediction-sell') ? 'prediction sale' : 'prediction claim';
    if (reasons.has('prediction-sell') && !ref.endsWith(KEEPER_FILL_SUFFIX)) {
      problems.push(`${what} ${ref}: the keeper's proceeds are not under a '${KEEPER_FILL_SUFFIX}' ref (has the simulator changed?)`);
      return undefined;
    }
    const signature = predictionSignature(ref, reasons);
    seenFillSignatures.add(signature);
    const rows = fillsBySignature.get(signature) ?? [];
    if (rows.length !== 1) {
      if (rows.length === 0) missingFills += 1;
      problems.push(`${what} ${ref} has ${rows.length} fills rows under ${signature} (expected 1)`);
      return undefined;
    }
    const fill = rows[0] as FillRow;
    const signer = signerOf.get(signature)?.[0]?.intent_id;
    const intent = signer === undefined ? undefined : intentById.get(signer);
    if (fill.source !== 'prediction') problems.push(`${what} ${ref}: its fills row has source ${fill.source} (expected prediction)`);
    if (signer !== undefined && fill.intent_id !== signer)
      problems.push(`${what} ${ref}: its fills row names intent ${fill.intent_id ?? 'none'}, the signature was signed by ${signer}`);
    const paid = delta(
      entries.filter((e) => PREDICTION_REASONS.has(e.reason)),
      fill.out_mint,
    );
    if (paid !== BigInt(fill.out_amount))
      problems.push(`${what} ${ref}: the wallet received ${paid} of ${fill.out_mint}, the fills row says ${fill.out_amount}`);
    if (!fill.in_mint.startsWith('prediction:')) problems.push(`${what} ${ref}: its fills row's in_mint ${fill.in_mint} is not a prediction contract leg`);
    if (reasons.has('prediction-sell')) {
      if (!intent || !PREDICTION_SELL_KINDS.has(intent.kind)) {
        problems.push(`${what} ${ref}: signed by ${intent ? `a ${intent.kind} intent` : 'no known intent'}, expected sell-position or partial-sell`);
      } else {
        const params = JSON.parse(intent.params) as { contractsMicro?: string };
        if (params.contractsMicro !== fill.in_amount)
          problems.push(`${what} ${ref}: intent ${intent.id} sold ${params.contractsMicro ?? '?'} micro-contracts, the fills row says ${fill.in_amount}`);
      }
      return 'sale';
    }
    if (intent && intent.kind !== 'claim-position') problems.push(`${what} ${ref}: signed by a ${intent.kind} intent, expected claim-position`);
    return 'claim';
  }
  // The wallet's vault: where its deposits went.
  const depositRefs = new Set(movements.filter((e) => e.reason === 'deposit').map((e) => e.ref));
  const vaults = new Set(input.ledger.entries.filter((e) => e.reason === 'deposit' && depositRefs.has(e.ref) && e.wallet !== wallet).map((e) => e.wallet));
  for (const [ref, entries] of byRef) {
    const reasons = new Set(entries.map((e) => e.reason));
    const isSwap = reasons.has('swap');
    const isKeeper = reasons.has('keeper-fill');
    if ([...reasons].some((r) => PREDICTION_REASONS.has(r))) {
      const counted = checkPredictionFill(ref, entries, reasons);
      if (counted === 'sale') predictionSales += 1;
      if (counted === 'claim') predictionClaims += 1;
      continue;
    }
    if (!isSwap && !isKeeper) continue;
    if (isSwap) swaps += 1;
    else keeperFills += 1;
    seenFillSignatures.add(ref);
    const rows = fillsBySignature.get(ref) ?? [];
    if (rows.length !== 1) {
      if (rows.length === 0) missingFills += 1;
      problems.push(`${isSwap ? 'swap' : 'keeper fill'} ${ref} has ${rows.length} fills rows (expected 1)`);
      continue;
    }
    const fill = rows[0] as FillRow;
    const outDelta = delta(
      entries.filter((e) => e.reason !== 'network-fee'),
      fill.out_mint,
    );
    if (outDelta !== BigInt(fill.out_amount))
      problems.push(`fill ${ref}: the wallet received ${outDelta} of ${fill.out_mint}, the fills row says ${fill.out_amount}`);
    const inEntries = isSwap ? entries.filter((e) => e.reason === 'swap') : input.ledger.entries.filter((e) => e.ref === ref && vaults.has(e.wallet));
    const inDelta = -delta(inEntries, fill.in_mint);
    if (inDelta !== BigInt(fill.in_amount)) problems.push(`fill ${ref}: ${inDelta} of ${fill.in_mint} went in, the fills row says ${fill.in_amount}`);
  }
  let phantomFills = 0;
  for (const [signature, rows] of fillsBySignature) {
    if (seenFillSignatures.has(signature)) continue;
    phantomFills += rows.length;
    problems.push(`fills row ${signature} (${rows[0]?.source}) matches no swap, keeper fill or prediction payout of the wallet in the simulator`);
  }

  // 3. Orders: each sim order group was placed by exactly one confirmed place intent, mirrored once.
  const myOrders = input.priceOrders.filter((o) => o.userPubkey === wallet);
  const depositOf = (o: SimPriceOrder): string | undefined => o.events.find((e) => e.type === 'deposit')?.txSignature;
  const heads = myOrders.filter((o) => depositOf(o) !== undefined);
  // An OCO's stop leg carries no deposit event: it shares its take-profit leg's deposit (same instant and amount).
  for (const leg of myOrders.filter((o) => depositOf(o) === undefined && o.orderType === 'oco')) {
    if (
      !heads.some(
        (h) => h.orderType === 'oco' && h.createdAt === leg.createdAt && h.expiresAt === leg.expiresAt && h.initialInputAmount === leg.initialInputAmount,
      )
    ) {
      problems.push(`OCO leg ${leg.id} has no take-profit leg with a deposit`);
    }
  }
  const rowsByOrder = groupBy(triggerOrders, (t) => t.id);
  const ordersByIntent = new Map<string, string[]>();
  for (const head of heads) {
    const deposit = depositOf(head) as string;
    const signers = signerOf.get(deposit);
    const intentId = signers?.[0]?.intent_id;
    if (!intentId) {
      problems.push(`order ${head.id}: its deposit ${deposit} was signed by no journaled intent`);
      continue;
    }
    ordersByIntent.set(intentId, [...(ordersByIntent.get(intentId) ?? []), head.id]);
    const rows = rowsByOrder.get(head.id) ?? [];
    if (rows.length !== 1 || rows[0]?.intent_id !== intentId) {
      problems.push(
        `order ${head.id} (intent ${intentId}): trigger_orders has ${rows.length} row(s)${rows[0] ? ` for intent ${rows[0].intent_id}` : ''}, expected one for its intent`,
      );
    }
    const intent = intentById.get(intentId);
    if (intent?.order_id !== head.id) problems.push(`order ${head.id}: intent ${intentId} records order ${intent?.order_id ?? 'none'}`);
  }
  for (const [intentId, ids] of ordersByIntent) if (ids.length > 1) problems.push(`intent ${intentId} placed ${ids.length} orders: ${ids.join(', ')}`);
  // DCA orders: each one mirrored once, for a confirmed DCA place intent that placed no other.
  const myDca = input.dcaOrders.filter((o) => o.wallet === wallet);
  const dcaByIntent = new Map<string, string[]>();
  for (const order of myDca) {
    const rows = rowsByOrder.get(order.id) ?? [];
    const intent = rows[0]?.intent_id ? intentById.get(rows[0].intent_id) : undefined;
    if (rows.length !== 1 || !intent || intent.kind !== 'place-dca-vault-order' || intent.state !== 'confirmed') {
      problems.push(
        `DCA order ${order.id}: trigger_orders has ${rows.length} row(s)${intent ? ` for ${intent.kind} ${intent.id} (${intent.state})` : ' with no intent'}, expected one for a confirmed DCA place intent`,
      );
      continue;
    }
    dcaByIntent.set(intent.id, [...(dcaByIntent.get(intent.id) ?? []), order.id]);
  }
  for (const [intentId, ids] of dcaByIntent) if (ids.length > 1) problems.push(`intent ${intentId} placed ${ids.length} DCA orders: ${ids.join(', ')}`);
  const simIds = new Set([...myOrders.map((o) => o.id), ...myDca.map((o) => o.id)]);
  for (const row of triggerOrders) {
    if (!simIds.has(row.id)) problems.push(`trigger_orders row ${row.id} is not an order of the wallet in the simulator`);
    if (row.adopted === 1) problems.push(`trigger_orders row ${row.id} was adopted (no intent): the daemon did not recognise its own order`);
  }

  // 4. Balances: funding + what the database recorded (fees from the ledger, see the header).
  // Prediction contracts (`prediction:<market>:yes|no`) are positions, not ledger tokens: they have no balance here.
  const mints = new Set([...mine.map((e) => e.mint), ...fills.flatMap((f) => [f.in_mint, f.out_mint])].filter((m) => !m.startsWith('prediction:')));
  for (const mint of mints) {
    const actual = delta(mine, mint);
    let expected = delta(funding, mint);
    for (const f of fills) {
      if (f.source === 'swap' && f.in_mint === mint) expected -= BigInt(f.in_amount);
      if (f.out_mint === mint) expected += BigInt(f.out_amount);
    }
    for (const i of intents) {
      if (!DEPOSIT_KINDS.has(i.kind) || i.state !== 'confirmed') continue;
      const params = JSON.parse(i.params) as { inputMint?: string; inputAmount?: string };
      if (params.inputMint === mint) expected -= BigInt(params.inputAmount ?? '0');
    }
    expected += delta(
      mine.filter((e) => e.reason === 'withdrawal'),
      mint,
    );
    if (mint === SOL_MINT)
      expected += delta(
        mine.filter((e) => e.reason === 'network-fee'),
        mint,
      );
    if (actual !== expected)
      problems.push(
        `balance of ${mint}: the simulator holds ${actual}, funding + the database's fills/deposits/withdrawals (fees from the ledger) give ${expected} (off by ${actual - expected})`,
      );
  }

  const fillCounts: Record<string, number> = {};
  for (const f of fills) fillCounts[f.source] = (fillCounts[f.source] ?? 0) + 1;
  return {
    problems,
    counts: {
      intents: intentCounts,
      pendingIntents: pending.length,
      // Keeper fills and a prediction sale's proceeds are paid by the keeper: no transaction of the wallet.
      landedTransactions: [...byRef.values()].filter((es) => !es.some((e) => e.reason === 'keeper-fill' || e.reason === 'prediction-sell')).length,
      swaps,
      keeperFills,
      predictionSales,
      predictionClaims,
      deposits: movements.filter((e) => e.reason === 'deposit').length,
      withdrawals: movements.filter((e) => e.reason === 'withdrawal').length,
      simOrders: myOrders.length + myDca.length,
      triggerOrderRows: triggerOrders.length,
      fills: fillCounts,
      duplicateExecutions,
      missingFills,
      phantomFills,
      unjournaledTransactions: unjournaled,
    },
  };
}
