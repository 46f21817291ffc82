import { type Keypair, PublicKey, type TransactionInstruction } from '@solana/web3.js';
import { ChainFailure, type Intent } from '../chain.js';
import { SystemWallet } from '../ledger.js';
import { derivedAddress, ProgramId, SOL_MINT, USDC_MINT } from '../programIds.js';
import { buildPredictionTransaction, claimInstruction, orderInstruction, PREDICTION_EVENT_AUTHORITY, PredictionSigners } from './predictionTransaction.js';
import type { SimWorld } from '../world.js';
import { MICRO, pricesOf, type PMarket, type PredictionMarkets } from './markets.js';
import { historyWire, orderWire, positionWire, type WireContext } from './tradingWire.js';
import type { HistoryRow, POrder, Position } from './types.js';
import { contractFields, createdOrderWire, DEFAULT_SLIPPAGE_BPS, marketIdHash, predictionError } from './wire.js';

const M = BigInt(MICRO);
const CENT = 10_000n;
const CONTRACT_STEP = 10_000n;
export const MIN_ORDER_MICRO = 5_000_000n;
export const JUPUSD_MINT = 'JuprjznTrTSp2UFa3ZBUFgwdAmtZCq4MQCwysN55USD';

/** Fee per contract in micro-USD: highest near $0.50, like the venue's table. */
const feePerContract = (price: number): number => 0.07 * price * (1 - price / MICRO);
const ceilCent = (micro: bigint): bigint => ((micro + CENT - 1n) / CENT) * CENT;
const feeFor = (contractsMicro: bigint, price: number): bigint => ceilCent((contractsMicro * BigInt(Math.ceil(feePerContract(price)))) / M);

/**
 * Positions, keeper-filled orders, sells, claims and the transactions that ask for them. A build
 * only registers an intent; nothing changes until the signed bytes land via /execute or RPC.
 */
export class PredictionTrading {
  readonly positions: Position[] = [];
  readonly orders: POrder[] = [];
  readonly history: HistoryRow[] = [];
  tradingPausedByControl = false;
  /** Jupiter's prediction payer and protocol co-signers, as the simulator stands in for them. */
  readonly signers: PredictionSigners;

  constructor(
    private readonly world: SimWorld,
    private readonly markets: PredictionMarkets,
  ) {
    this.signers = new PredictionSigners(world.seed);
    // Jupiter's prediction payer pays every order's fees and the owner's account rent.
    world.ledger.transfer(SystemWallet.treasury, this.signers.payer.publicKey.toBase58(), SOL_MINT, 1_000n * 10n ** 9n, 'genesis-gas', 'genesis');
    markets.onSettle = (market, t) => {
      for (const p of this.positions) {
        if (p.marketId !== market.marketId || p.contractsMicro === 0n) continue;
        if ((market.result === 'yes') !== p.isYes) {
          p.realizedPnlMicro -= p.totalCostMicro;
          p.updatedAt = t;
          this.#log('position_lost', '', null, p, 0n);
        }
      }
    };
  }

  marketPubkey(m: PMarket | string): string {
    return derivedAddress(`jupbot-sim:prediction-market:${typeof m === 'string' ? m : m.marketId}`).toBase58();
  }

  /** Whether a required signer is a trader (not Jupiter's payer or one of its co-signers). */
  isOwnerSlot(address: string): boolean {
    return address !== this.signers.payer.publicKey.toBase58() && !this.signers.protocol.some((k) => k.publicKey.toBase58() === address);
  }

  /** A daily maintenance window (04:00–04:10 UTC) or a control pause. */
  tradingActive(): boolean {
    if (this.tradingPausedByControl) return false;
    const minute = Math.floor((this.world.now() % 86_400_000) / 60_000);
    return !(minute >= 240 && minute < 250);
  }

  positionFor(wallet: string, marketId: string, isYes: boolean): Position {
    const pubkey = derivedAddress(`${this.world.seed}:position:${wallet}:${marketId}:${isYes ? 'yes' : 'no'}`).toBase58();
    let p = this.positions.find((x) => x.pubkey === pubkey);
    if (!p) {
      p = {
        pubkey,
        wallet,
        marketId,
        isYes,
        contractsMicro: 0n,
        reservedMicro: 0n,
        totalCostMicro: 0n,
        feesPaidMicro: 0n,
        realizedPnlMicro: 0n,
        claimed: false,
        claimedMicro: 0n,
        openedAt: this.world.now(),
        updatedAt: this.world.now(),
      };
      this.positions.push(p);
    }
    return p;
  }

  /** Gives a paper wallet a starting position bought at the mid price (collateral from the treasury). */
  seedPosition(wallet: string, marketId: string, isYes: boolean, contractsMicro: bigint): Position {
    const m = this.markets.market(marketId);
    if (!m) throw new RangeError(`unknown market ${marketId}`);
    const price = BigInt(isYes ? m.mid : MICRO - m.mid);
    const cost = (contractsMicro * price) / M;
    const p = this.positionFor(wallet, marketId, isYes);
    this.world.ledger.transfer(SystemWallet.treasury, SystemWallet.predictionVault, USDC_MINT, cost, 'prediction-seed', p.pubkey);
    p.contractsMicro += contractsMicro;
    p.totalCostMicro += cost;
    return p;
  }

  /** Keeper fills: pending orders fill at the current price, or fail outside their limit. */
  step(t: number): void {
    for (const o of this.orders) if (o.status === 'pending' && t - o.createdAt >= 1000) this.#fill(o, t);
  }

  buildBuy(wallet: string, market: PMarket, isYes: boolean, depositMicro: bigint, depositMint: string): Record<string, unknown> {
    this.#checkTradable(market);
    if (depositMicro < MIN_ORDER_MICRO) throw predictionError(400, 'Minimum order is $5', 'minimum_order');
    const prices = pricesOf(market);
    const price = (isYes ? prices.buyYes : prices.buyNo) as number;
    const limit = Math.min(990_000, Math.floor(price * (1 + DEFAULT_SLIPPAGE_BPS / 10_000)));
    const unit = BigInt(Math.ceil(limit + feePerContract(limit)) + 1);
    const contractsMicro = ((depositMicro * M) / unit / CONTRACT_STEP) * CONTRACT_STEP;
    if (contractsMicro === 0n) throw predictionError(400, 'Order too small', 'order_too_small');
    const position = this.positionFor(wallet, market.marketId, isYes);
    return this.#build(wallet, market, position, { isBuy: true, contractsMicro, limit, depositMicro, depositMint, price, slippageBps: DEFAULT_SLIPPAGE_BPS });
  }

  buildSell(wallet: string, position: Position, contractsMicro: bigint, slippageBps = DEFAULT_SLIPPAGE_BPS): Record<string, unknown> {
    const market = this.markets.market(position.marketId) as PMarket;
    this.#checkTradable(market);
    const available = position.contractsMicro - position.reservedMicro;
    if (contractsMicro <= 0n || contractsMicro > available)
      throw predictionError(400, `Cannot sell ${contractsMicro} micro-contracts: ${available} available`, 'insufficient_contracts');
    const prices = pricesOf(market);
    const price = (position.isYes ? prices.sellYes : prices.sellNo) as number;
    const limit = Math.max(10_000, Math.floor(price * (1 - slippageBps / 10_000)));
    return this.#build(wallet, market, position, { isBuy: false, contractsMicro, limit, depositMicro: 0n, depositMint: USDC_MINT, price, slippageBps });
  }

  buildClaim(wallet: string, position: Position): Record<string, unknown> {
    const market = this.markets.market(position.marketId) as PMarket;
    if (market.result === null) throw predictionError(400, 'Market not settled yet', 'market_not_settled');
    if ((market.result === 'yes') !== position.isYes || position.contractsMicro === 0n)
      throw predictionError(400, 'Position is not claimable', 'not_claimable');
    if (position.claimed) throw predictionError(400, 'Position already claimed', 'already_claimed');
    const owner = new PublicKey(wallet);
    const txMeta = this.world.chain.latestBlockhash();
    const built = this.#signed(
      owner,
      claimInstruction(this.signers.payer.publicKey, this.#protocol.publicKey, {
        owner,
        market: new PublicKey(this.marketPubkey(market)),
        position: new PublicKey(position.pubkey),
        mint: USDC_MINT,
      }),
      txMeta.blockhash,
    );
    const payout = position.contractsMicro;
    const intent: Intent = {
      kind: 'prediction-claim',
      preview: () => {
        if (position.claimed) throw new ChainFailure(6010, 'Position already claimed');
        return [{ from: SystemWallet.predictionVault, to: wallet, mint: USDC_MINT, amount: payout }];
      },
      apply: (signature) => {
        if (position.claimed) throw new ChainFailure(6010, 'Position already claimed');
        this.world.ledger.transfer(SystemWallet.predictionVault, wallet, USDC_MINT, payout, 'prediction-claim', signature);
        position.claimed = true;
        position.claimedMicro = payout;
        position.realizedPnlMicro += payout - position.totalCostMicro;
        position.updatedAt = this.world.now();
        this.#log('payout_claimed', signature, null, position, payout);
      },
    };
    this.world.chain.registerIntent(built.messageBytes, intent);
    return {
      transaction: built.base64,
      txMeta,
      position: {
        positionPubkey: position.pubkey,
        marketPubkey: this.marketPubkey(market),
        userPubkey: wallet,
        ownerPubkey: wallet,
        isYes: position.isYes,
        ...contractFields('contracts', position.contractsMicro),
        payoutAmountUsd: payout.toString(),
      },
    };
  }

  #protocolSigner: Keypair | null = null;

  /** The co-signer of the transaction being built (they rotate between builds). */
  get #protocol(): Keypair {
    this.#protocolSigner ??= this.signers.nextProtocol();
    return this.#protocolSigner;
  }

  /** Compiles and pre-signs, then lets the next build take the next co-signer. */
  #signed(owner: PublicKey, instruction: TransactionInstruction, blockhash: string, mint = USDC_MINT): ReturnType<typeof buildPredictionTransaction> {
    // Jupiter loads the market, mint and programs' accounts through a lookup table.
    const market = instruction.keys[3]?.pubkey as PublicKey;
    const table = this.world.lookupTables.ensure(`prediction:${market.toBase58()}`, [
      market,
      new PublicKey(mint),
      ProgramId.system,
      ProgramId.token,
      PREDICTION_EVENT_AUTHORITY,
    ]);
    const built = buildPredictionTransaction({ payer: this.signers.payer, protocol: this.#protocol }, owner, mint, blockhash, instruction, [table]);
    this.#protocolSigner = null;
    return built;
  }

  #checkTradable(market: PMarket): void {
    if (market.status !== 'open') throw predictionError(400, 'Market is not open for trading', 'market_not_tradable');
    if (!this.tradingActive()) throw predictionError(400, 'Trading is currently paused', 'trading_inactive');
  }

  #build(
    wallet: string,
    market: PMarket,
    position: Position,
    o: { isBuy: boolean; contractsMicro: bigint; limit: number; depositMicro: bigint; depositMint: string; price: number; slippageBps: number },
  ): Record<string, unknown> {
    const owner = new PublicKey(wallet);
    const orderPubkey = this.world.ids.base58(32);
    const externalOrderId = this.world.ids.uuid();
    const txMeta = this.world.chain.latestBlockhash();
    const cost = (o.contractsMicro * BigInt(o.price)) / M;
    const order = orderInstruction(this.signers.payer.publicKey, this.#protocol.publicKey, {
      owner,
      market: new PublicKey(this.marketPubkey(market)),
      position: new PublicKey(position.pubkey),
      order: new PublicKey(orderPubkey),
      mint: o.depositMint,
      externalOrderId,
      marketIdHash: marketIdHash(market.marketId),
      isYes: position.isYes,
      isBuy: o.isBuy,
      contractsMicro: o.contractsMicro,
      priceBoundMicro: BigInt(o.limit),
      costMicro: o.isBuy ? o.depositMicro : cost,
      slippageBps: o.slippageBps,
    });
    const built = this.#signed(owner, order, txMeta.blockhash, o.depositMint);
    const intent: Intent = {
      kind: o.isBuy ? 'prediction-buy' : 'prediction-sell',
      // Opening a sale moves nothing (contracts are reserved; the keeper pays later); a buy deposits.
      preview: () => {
        if (!o.isBuy && position.contractsMicro - position.reservedMicro < o.contractsMicro) throw new ChainFailure(6011, 'Insufficient contracts');
        return o.isBuy ? [{ from: wallet, to: SystemWallet.predictionVault, mint: o.depositMint, amount: o.depositMicro }] : [];
      },
      apply: (signature) => {
        if (!o.isBuy) {
          if (position.contractsMicro - position.reservedMicro < o.contractsMicro) throw new ChainFailure(6011, 'Insufficient contracts');
          position.reservedMicro += o.contractsMicro;
        } else {
          this.world.ledger.transfer(wallet, SystemWallet.predictionVault, o.depositMint, o.depositMicro, 'prediction-deposit', signature);
        }
        const order: POrder = {
          pubkey: orderPubkey,
          wallet,
          marketId: market.marketId,
          positionPubkey: position.pubkey,
          isYes: position.isYes,
          isBuy: o.isBuy,
          contractsMicro: o.contractsMicro,
          limitPrice: o.limit,
          depositMicro: o.depositMicro,
          depositMint: o.depositMint,
          status: 'pending',
          createdAt: this.world.now(),
          updatedAt: this.world.now(),
          filledAt: 0,
          filledMicro: 0n,
          avgFillPrice: 0,
          feeMicro: 0n,
          proceedsMicro: 0n,
          externalOrderId,
          orderId: externalOrderId,
          signature,
        };
        this.orders.push(order);
        this.#log('order_created', signature, order, position, 0n);
      },
    };
    this.world.chain.registerIntent(built.messageBytes, intent);
    return {
      transaction: built.base64,
      txMeta,
      externalOrderId,
      requiredSigners: [wallet],
      execution: { endpoint: '/api/v1/execute', context: { type: 'create_order', orderPubkey, externalOrderId } },
      executionModel: null,
      settlement: null,
      jupiterSwapRequestId: null,
      order: createdOrderWire({
        orderPubkey,
        wallet,
        marketId: market.marketId,
        position,
        isBuy: o.isBuy,
        contractsMicro: o.contractsMicro,
        limit: o.limit,
        externalOrderId,
        costMicro: cost,
        feeMicro: feeFor(o.contractsMicro, o.price),
      }),
    };
  }

  #fill(o: POrder, t: number): void {
    const market = this.markets.market(o.marketId) as PMarket;
    const position = this.positions.find((p) => p.pubkey === o.positionPubkey) as Position;
    const prices = pricesOf(market);
    const price = o.isBuy ? (o.isYes ? prices.buyYes : prices.buyNo) : o.isYes ? prices.sellYes : prices.sellNo;
    o.updatedAt = t;
    const fail = (): void => {
      o.status = 'failed';
      if (o.isBuy) this.world.ledger.transfer(SystemWallet.predictionVault, o.wallet, o.depositMint, o.depositMicro, 'prediction-refund', o.signature);
      else position.reservedMicro -= o.contractsMicro;
      this.#log('order_failed', o.signature, o, position, 0n);
    };
    if (price === null || (o.isBuy ? price > o.limitPrice : price < o.limitPrice)) return fail();
    const gross = (o.contractsMicro * BigInt(price)) / M;
    const fee = feeFor(o.contractsMicro, price);
    const ref = `${o.signature}:fill`;
    if (o.isBuy) {
      const refund = o.depositMicro - gross - fee;
      if (refund < 0n) return fail();
      this.world.ledger.transfer(SystemWallet.predictionVault, SystemWallet.fees, o.depositMint, fee, 'prediction-fee', ref);
      this.world.ledger.transfer(SystemWallet.predictionVault, o.wallet, o.depositMint, refund, 'prediction-refund', ref);
      position.contractsMicro += o.contractsMicro;
      position.totalCostMicro += gross;
    } else {
      const net = gross > fee ? gross - fee : 0n;
      this.world.ledger.transfer(SystemWallet.predictionVault, SystemWallet.fees, USDC_MINT, gross - net, 'prediction-fee', ref);
      this.world.ledger.transfer(SystemWallet.predictionVault, o.wallet, USDC_MINT, net, 'prediction-sell', ref);
      const costShare = position.contractsMicro === 0n ? 0n : (position.totalCostMicro * o.contractsMicro) / position.contractsMicro;
      position.reservedMicro -= o.contractsMicro;
      position.contractsMicro -= o.contractsMicro;
      position.totalCostMicro -= costShare;
      position.realizedPnlMicro += net - costShare;
      o.proceedsMicro = net;
    }
    position.feesPaidMicro += fee;
    position.updatedAt = t;
    o.status = 'filled';
    o.filledAt = t;
    o.filledMicro = o.contractsMicro;
    o.avgFillPrice = price;
    o.feeMicro = fee;
    this.#log('order_filled', `${o.signature}`, o, position, 0n);
  }

  #log(eventType: HistoryRow['eventType'], signature: string, order: POrder | null, position: Position, payoutMicro: bigint): void {
    this.history.push({ id: this.history.length + 1, eventType, signature, timestamp: this.world.now(), order, position, payoutMicro });
  }

  positionWire(p: Position): Record<string, unknown> {
    return positionWire(this.#wireContext(), p);
  }

  orderWire(o: POrder): Record<string, unknown> {
    return orderWire(this.#wireContext(), o);
  }

  historyWire(h: HistoryRow): Record<string, unknown> {
    return historyWire(this.#wireContext(), h);
  }

  #wireContext(): WireContext {
    return { markets: this.markets, orders: this.orders, marketPubkey: (m) => this.marketPubkey(m), slot: this.world.chain.slot() };
  }
}
