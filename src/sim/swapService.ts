import type { Keypair, PublicKey } from '@solana/web3.js';
import nacl from 'tweetnacl';
import { ChainFailure, decodeTransaction, hasValidSignature, type Move, Rejection, SIGNATURE_FEE_LAMPORTS, type DecodedTx, type Intent } from './chain.js';
import { HttpError, ok, parseJsonBody, type RouteRequest, type RouteResult, type Router } from './http.js';
import { SystemWallet } from './ledger.js';
import type { Quote } from './market.js';
import { associatedTokenAddress, ProgramId, pubkey, SOL_MINT } from './programIds.js';
import { buildRfqTransaction, RFQ_MINIMUM_USD, RFQ_QUOTE_MS, rfqMaker } from './rfq.js';
import { JUPITER_EVENT_AUTHORITY } from './jupiterRoutes.js';
import { buildSwapTransaction } from './swapTransaction.js';
import { isObject } from './validate.js';
import { parseOrderQuery, ROUTERS } from './swapOrderQuery.js';
import { planRoute } from './swapRoute.js';
import type { SimWorld } from './world.js';

/** How long /execute accepts a requestId (Ultra documents a 2-minute cache). */
const REQUEST_TTL_MS = 120_000;
const AUTO_PRIORITY_LAMPORTS = 10_000;
const COMPUTE_UNITS = 200_000;
/** Below this a swap cannot be made gasless (errorCode 3). */
const GASLESS_MINIMUM_USD = 10;

interface PendingSwap {
  readonly taker: string;
  readonly quote: Quote;
  readonly minOut: bigint;
  readonly messageKey: string;
  readonly expiresAt: number;
  readonly lastValidBlockHeight: number;
  readonly gasless: boolean;
  /** An integrator's `payer` pays: the simulator holds no key of theirs, so it stands in for their signature. */
  readonly sponsored: boolean;
  readonly intent: Intent;
  /** RFQ: the maker's quote expiry (unix seconds); the maker signs at /execute. */
  readonly rfqExpireAt?: number;
}

type Flavor = 'v2' | 'ultra';

/** Swap V2 `/order` + `/execute`, and the legacy Ultra paths with the same behaviour. */
export class SwapService {
  readonly #pending = new Map<string, PendingSwap>();
  /** The market maker answering RFQ quotes. */
  readonly #maker: Keypair;

  constructor(private readonly world: SimWorld) {
    this.#maker = rfqMaker(world.seed);
    world.ledger.transfer(SystemWallet.treasury, this.#maker.publicKey.toBase58(), SOL_MINT, 1_000n * 10n ** 9n, 'genesis-gas', 'genesis');
  }

  register(router: Router): void {
    router.add('GET', '/swap/v2/order', (req) => this.order(req, 'v2'));
    router.add('POST', '/swap/v2/execute', (req) => this.execute(req, 'v2'));
    router.add('GET', '/ultra/v1/order', (req) => this.order(req, 'ultra'));
    router.add('POST', '/ultra/v1/execute', (req) => this.execute(req, 'ultra'));
  }

  /** Drops requestIds that can no longer execute, so memory stays flat on long paper runs. */
  sweep(now: number): void {
    for (const [id, p] of this.#pending) if (now > p.expiresAt + REQUEST_TTL_MS) this.#pending.delete(id);
  }

  order(req: RouteRequest, flavor: Flavor): RouteResult {
    const { world } = this;
    const noRoute = (): HttpError => new HttpError(400, { error: flavor === 'v2' ? 'No routes found' : 'Failed to get quotes' });
    const query = parseOrderQuery(req.query);
    const { inputMint, outputMint, amount, taker, receiver, payer, referralAccount, referralFee } = query;
    // An integrator payer restricts routing to Metis.
    const candidates = ROUTERS.filter((r) => !query.excludedRouters.has(r) && (payer === null || payer === taker || r === 'metis'));
    let router = candidates[0];
    const inSpec = world.market.spec(inputMint);
    const outSpec = world.market.spec(outputMint);
    if (!router || !inSpec || !outSpec) throw noRoute();
    const quote = world.market.quote(inputMint, outputMint, amount);
    const route = planRoute(quote, { excludedDexes: query.excludedDexes, routing: world.routing, referral: referralAccount !== null, inUsd: quote.inUsd });
    if (route === null) throw noRoute();
    // A market maker wins large swaps (or any, when the other routers are excluded): the answer is RFQ.
    const rfq =
      candidates.includes('jupiterz') && (router === 'jupiterz' || quote.inUsd >= RFQ_MINIMUM_USD) && receiver === null && (payer === null || payer === taker);
    if (rfq) router = 'jupiterz';
    const expireAt = Math.floor((world.now() + RFQ_QUOTE_MS) / 1000);
    if (quote.outAmount <= 0n) throw noRoute();
    const impactBps = Math.round(quote.impact * 10_000);
    const slippageBps = query.slippageBps ?? Math.min(10_000, 50 + impactBps * 2);
    // The least the program delivers: the quote less floor(quote × slippage / 10 000).
    const minOut = quote.outAmount - (quote.outAmount * BigInt(slippageBps)) / 10_000n;
    const priorityLamports = Math.floor(query.priorityFeeLamports ?? AUTO_PRIORITY_LAMPORTS) + Math.floor(query.jitoTipLamports ?? 0);
    const requestId = world.ids.uuid();
    const { lastValidBlockHeight, blockhash } = world.chain.latestBlockhash();
    const sponsor = payer !== null && payer !== taker ? payer : undefined;
    const base = {
      mode: query.mode,
      inputMint,
      outputMint,
      inAmount: quote.inAmount.toString(),
      outAmount: quote.outAmount.toString(),
      inUsdValue: quote.inUsd,
      outUsdValue: quote.outUsd,
      priceImpact: -Number((quote.impact * 100).toFixed(6)),
      swapUsdValue: quote.inUsd,
      otherAmountThreshold: minOut.toString(),
      swapMode: 'ExactIn',
      slippageBps,
      priceImpactPct: (-quote.impact).toFixed(8),
      routePlan: route.routePlan,
      ...(referralAccount === null ? {} : { referralAccount }),
      feeMint: quote.feeMint,
      feeBps: quote.feeBps,
      platformFee: { amount: quote.feeAmount.toString(), feeBps: quote.feeBps, feeMint: quote.feeMint },
      signatureFeeLamports: Number(SIGNATURE_FEE_LAMPORTS),
      prioritizationFeeLamports: priorityLamports,
      rentFeeLamports: 0,
      swapType: rfq ? 'rfq' : 'aggregator',
      router,
      ...(rfq ? { quoteId: world.ids.uuid(), maker: this.#maker.publicKey.toBase58(), expireAt: String(expireAt) } : {}),
    };
    if (taker === null) {
      return ok({
        ...base,
        signatureFeePayer: null,
        prioritizationFeePayer: null,
        rentFeePayer: null,
        transaction: null,
        gasless: false,
        requestId,
        totalTime: 12,
        taker: null,
        ...(flavor === 'v2' ? { lastValidBlockHeight: String(lastValidBlockHeight) } : {}),
      });
    }
    const inBalance = world.ledger.balance(taker, inputMint);
    const solBalance = world.ledger.balance(taker, SOL_MINT) - (inputMint === SOL_MINT ? amount : 0n);
    const gasNeeded = SIGNATURE_FEE_LAMPORTS + BigInt(priorityLamports);
    let errorCode: number | undefined;
    let errorMessage = '';
    let gasless = false;
    if (inBalance < amount) {
      errorCode = 1;
      errorMessage = `Insufficient funds: have ${inBalance}, need ${amount}`;
    } else if (!sponsor && !rfq && solBalance < gasNeeded) {
      if (inputMint === SOL_MINT) {
        errorCode = 2;
        errorMessage = `Top up ${(Number(gasNeeded - solBalance) / 1e9).toFixed(9)} SOL for gas`;
      } else if (quote.inUsd < GASLESS_MINIMUM_USD) {
        errorCode = 3;
        errorMessage = `Swap value below the gasless minimum of ${GASLESS_MINIMUM_USD} USD`;
      } else {
        gasless = true;
      }
    }
    const gasWallet = world.gasWallet.publicKey.toBase58();
    const feePayer = rfq ? this.#maker.publicKey.toBase58() : (sponsor ?? (gasless ? gasWallet : taker));
    // The signature fee of every signature the transaction needs: the payer's and, when another pays, the taker's.
    const signatureFeeLamports = Number(SIGNATURE_FEE_LAMPORTS * (feePayer === taker ? 1n : 2n));
    const common = {
      signatureFeeLamports,
      signatureFeePayer: feePayer,
      prioritizationFeePayer: feePayer,
      rentFeePayer: feePayer,
      requestId,
      totalTime: 18,
      taker,
    };
    if (errorCode !== undefined) {
      return ok({
        ...base,
        ...common,
        transaction: '',
        gasless,
        errorCode,
        errorMessage,
        ...(flavor === 'v2' ? { error: errorMessage, lastValidBlockHeight: String(lastValidBlockHeight) } : {}),
      });
    }
    if (rfq)
      return this.#rfqOrder({
        base,
        common,
        taker,
        quote,
        expireAt,
        requestId,
        lastValidBlockHeight,
        blockhash,
        flavor,
        inputMint: inputMint,
        outputMint: outputMint,
      });
    // Jupiter's gas wallet takes its fees back in SOL when the swap pays out SOL (else they are in feeBps).
    const feeRefund = feePayer === gasWallet && outputMint === SOL_MINT ? BigInt(signatureFeeLamports + priorityLamports) : 0n;
    const [x, y] = inputMint < outputMint ? [inputMint, outputMint] : [outputMint, inputMint];
    const legacyFee =
      referralAccount !== null && referralFee !== null
        ? { account: associatedTokenAddress(pubkey(referralAccount), pubkey(outputMint)).toBase58(), bps: referralFee }
        : quote.feeBps > 0
          ? { account: associatedTokenAddress(world.feeOwner, pubkey(quote.feeMint)).toBase58(), bps: quote.feeBps }
          : null;
    const v2 = route.form === 'route_v2' || route.form === 'shared_accounts_route_v2';
    const built = buildSwapTransaction({
      payer: feePayer,
      taker,
      receiver: receiver ?? taker,
      inputMint: inputMint,
      outputMint: outputMint,
      blockhash,
      computeUnits: COMPUTE_UNITS,
      microLamports: Math.floor((priorityLamports * 1_000_000) / COMPUTE_UNITS),
      inAmount: amount,
      quotedOut: quote.outAmount,
      slippageBps,
      form: route.form,
      sharedId: route.sharedId,
      steps: route.steps,
      venueAccounts: route.venueAccounts,
      tables: [
        world.lookupTables.ensure(`pair:${x}:${y}:${route.key}`, [...route.venueAccounts, pubkey(inputMint), pubkey(outputMint), JUPITER_EVENT_AUTHORITY]),
      ],
      // Jupiter's fee rides inside a v2 route; the older forms pay it (or a referral's) into a fee account.
      feeBps: v2 ? quote.feeBps : (legacyFee?.bps ?? 0),
      feeAccount: v2 ? null : (legacyFee?.account ?? null),
      feeRefund,
    });
    const intent = this.#intent(
      taker,
      receiver ?? taker,
      quote,
      minOut,
      BigInt(priorityLamports),
      feeRefund === 0n ? null : { to: feePayer, lamports: feeRefund },
    );
    const messageKey = world.chain.registerIntent(built.messageBytes, intent);
    this.#pending.set(requestId, {
      taker,
      quote,
      minOut,
      messageKey,
      expiresAt: world.now() + REQUEST_TTL_MS,
      lastValidBlockHeight,
      gasless: feePayer !== taker,
      sponsored: sponsor !== undefined,
      intent,
    });
    // Unsigned, as /order hands it out: a gasless payer signs at /execute, after the taker.
    return ok({
      ...base,
      ...common,
      transaction: built.base64,
      gasless: feePayer !== taker,
      ...(flavor === 'v2' ? { lastValidBlockHeight: String(lastValidBlockHeight) } : {}),
    });
  }

  /** An RFQ answer: the maker pays and will sign at /execute; the taker signs first. */
  #rfqOrder(o: {
    base: object;
    common: object;
    taker: string;
    quote: Quote;
    expireAt: number;
    requestId: string;
    lastValidBlockHeight: number;
    blockhash: string;
    flavor: Flavor;
    inputMint: string;
    outputMint: string;
  }): RouteResult {
    const { world } = this;
    const [x, y] = o.inputMint < o.outputMint ? [o.inputMint, o.outputMint] : [o.outputMint, o.inputMint];
    const table = world.lookupTables.ensure(`rfq:${x}:${y}`, [pubkey(o.inputMint), pubkey(o.outputMint), ProgramId.token, ProgramId.system]);
    // Paid out in SOL, the maker delivers before Jupiter's fee and the taker pays the fee on in SOL.
    const feeInSol = o.outputMint === SOL_MINT && o.quote.feeMint === SOL_MINT && o.quote.feeAmount > 0n;
    const feeAccount = associatedTokenAddress(world.feeOwner, pubkey(SOL_MINT));
    const delivered = feeInSol ? o.quote.routeOut : o.quote.outAmount;
    const built = buildRfqTransaction({
      maker: this.#maker.publicKey,
      taker: pubkey(o.taker),
      inputMint: o.inputMint,
      outputMint: o.outputMint,
      inAmount: o.quote.inAmount,
      outAmount: delivered,
      expireAt: o.expireAt,
      blockhash: o.blockhash,
      tables: [table],
      fee: feeInSol ? { lamports: o.quote.feeAmount, account: feeAccount } : null,
    });
    // The maker fills at its quoted price: exactly the quoted output, whatever the market does.
    const moves = (): Move[] => [
      { from: o.taker, to: SystemWallet.liquidity, mint: o.inputMint, amount: o.quote.inAmount },
      { from: SystemWallet.liquidity, to: o.taker, mint: o.outputMint, amount: delivered },
      ...(feeInSol ? [{ from: o.taker, to: SystemWallet.fees, mint: SOL_MINT, amount: o.quote.feeAmount }] : []),
    ];
    const intent: Intent = {
      kind: 'swap-rfq',
      preview: () => {
        if (world.now() > o.expireAt * 1000) throw new ChainFailure(2003, 'RFQ quote expired');
        return moves();
      },
      apply: (signature) => {
        world.ledger.batch(moves(), 'swap-rfq', signature);
        return {
          totalInputAmount: o.quote.inAmount.toString(),
          totalOutputAmount: o.quote.outAmount.toString(),
          inputAmountResult: o.quote.inAmount.toString(),
          outputAmountResult: delivered.toString(),
          swapEvents: [],
        };
      },
    };
    const messageKey = world.chain.registerIntent(built.messageBytes, intent);
    this.#pending.set(o.requestId, {
      taker: o.taker,
      quote: o.quote,
      minOut: o.quote.outAmount,
      messageKey,
      expiresAt: world.now() + REQUEST_TTL_MS,
      lastValidBlockHeight: o.lastValidBlockHeight,
      gasless: true,
      sponsored: false,
      intent,
      rfqExpireAt: o.expireAt,
    });
    return ok({
      ...o.base,
      ...o.common,
      transaction: built.base64,
      gasless: true,
      ...(o.flavor === 'v2' ? { lastValidBlockHeight: String(o.lastValidBlockHeight) } : {}),
    });
  }

  execute(req: RouteRequest, _flavor: Flavor): RouteResult {
    const body = parseJsonBody(req, (error) => ({ error, code: -2 }));
    if (!isObject(body)) throw new HttpError(400, { error: 'Invalid request body', code: -2 });
    if (typeof body['signedTransaction'] !== 'string' || body['signedTransaction'] === '')
      throw new HttpError(400, { error: 'Missing signedTransaction', code: -5 });
    if (typeof body['requestId'] !== 'string' || body['requestId'] === '') throw new HttpError(400, { error: 'Missing requestId', code: -4 });
    const failed = (code: number, error: string, signature?: string): RouteResult =>
      ok({ status: 'Failed', ...(signature === undefined ? {} : { signature }), slot: '0', error, code });
    const pending = this.#pending.get(body['requestId']);
    let decoded: DecodedTx;
    try {
      decoded = decodeTransaction(body['signedTransaction']);
    } catch {
      return failed(-2, 'Invalid signed transaction');
    }
    if (!pending) return failed(-1, 'Order not found, it might have expired');
    if (decoded.messageKey !== pending.messageKey) return failed(-3, 'Invalid message bytes: the transaction was modified');
    const previous = this.world.chain.landedFor(decoded.messageKey);
    if (!previous && this.world.now() > pending.expiresAt) return failed(-1, 'Order not found, it might have expired');
    if (!hasValidSignature(decoded, pending.taker)) {
      const sig = decoded.tx.signatures[decoded.tx.message.staticAccountKeys.findIndex((k) => k.toBase58() === pending.taker)];
      return sig && sig.some((b) => b !== 0)
        ? failed(-2, 'Invalid signed transaction: signature verification failed')
        : failed(-1003, 'Transaction is not fully signed');
    }
    if (pending.rfqExpireAt !== undefined) {
      if (!previous && this.world.now() > pending.rfqExpireAt * 1000) return failed(-2003, 'RFQ: quote expired');
      // The market maker signs last, over the same message.
      const index = decoded.tx.message.staticAccountKeys.findIndex((k) => k.equals(this.#maker.publicKey));
      decoded.tx.signatures[index] = nacl.sign.detached(decoded.messageBytes, this.#maker.secretKey);
    }
    // Jupiter's gas wallet signs a gasless swap last, into its empty slot (a signature already there stays, valid or not).
    const gasAt = decoded.tx.message.staticAccountKeys.findIndex((k) => k.equals(this.world.gasWallet.publicKey));
    if (gasAt >= 0 && gasAt < decoded.tx.message.header.numRequiredSignatures && (decoded.tx.signatures[gasAt] ?? new Uint8Array(64)).every((b) => b === 0))
      decoded.tx.signatures[gasAt] = nacl.sign.detached(decoded.messageBytes, this.world.gasWallet.secretKey);
    try {
      const landed = this.world.chain.land(decoded, { intent: pending.intent, trustedSigners: pending.sponsored ? [payerOf(decoded)] : [] });
      if (landed.err) return failed(landed.err.code, landed.err.message, landed.signature);
      return ok({ status: 'Success', signature: landed.signature, slot: String(landed.slot), code: 0, ...(landed.result as object) });
    } catch (error) {
      if (error instanceof Rejection) {
        if (error.reason === 'blockhash') return failed(-1004, 'Invalid block height: the transaction expired');
        if (error.reason === 'fee') return failed(-1000, 'Failed to land: fee payer cannot pay the fee');
        return failed(-1002, `Invalid transaction: ${error.message}`);
      }
      throw error;
    }
  }

  #intent(taker: string, receiver: string, quoted: Quote, minOut: bigint, priorityLamports: bigint, refund: { to: string; lamports: bigint } | null): Intent {
    const { world } = this;
    // Executed at the current price: the quote may be stale, the slippage bound is what protects.
    const moves = (): { q: Quote; moves: Move[] } => {
      const q = world.market.quote(quoted.inputMint, quoted.outputMint, quoted.inAmount);
      if (q.outAmount < minOut) throw new ChainFailure(6001, 'Slippage tolerance exceeded');
      const feeInInput = q.feeMint === q.inputMint;
      const all: Move[] = [
        { from: taker, to: SystemWallet.liquidity, mint: q.inputMint, amount: q.routeIn },
        { from: taker, to: SystemWallet.fees, mint: q.inputMint, amount: feeInInput ? q.feeAmount : 0n },
        { from: SystemWallet.liquidity, to: receiver, mint: q.outputMint, amount: q.outAmount },
        { from: SystemWallet.liquidity, to: SystemWallet.fees, mint: q.outputMint, amount: feeInInput ? 0n : q.feeAmount },
        ...(refund === null ? [] : [{ from: taker, to: refund.to, mint: SOL_MINT, amount: refund.lamports }]),
      ];
      return { q, moves: all.filter((m) => m.amount > 0n) };
    };
    return {
      kind: 'swap',
      priorityLamports,
      preview: () => moves().moves,
      apply: (signature) => {
        const { q, moves: all } = moves();
        // The refund is paid from the swap's own SOL output, so it follows the swap.
        world.ledger.batch(all.slice(0, refund === null ? all.length : -1), 'swap', signature);
        if (refund !== null) world.ledger.transfer(taker, refund.to, SOL_MINT, refund.lamports, 'gas-refund', signature);
        return {
          totalInputAmount: q.inAmount.toString(),
          totalOutputAmount: q.outAmount.toString(),
          inputAmountResult: q.routeIn.toString(),
          outputAmountResult: q.routeOut.toString(),
          swapEvents: [{ inputMint: q.inputMint, inputAmount: q.routeIn.toString(), outputMint: q.outputMint, outputAmount: q.routeOut.toString() }],
        };
      },
    };
  }
}

const payerOf = (decoded: DecodedTx): string => (decoded.tx.message.staticAccountKeys[0] as PublicKey).toBase58();
