import { PublicKey } from '@solana/web3.js';
import { ChainFailure, decodeTransaction, hasValidSignature, Rejection, type DecodedTx, type Landed } from '../chain.js';
import { ok, parseJsonBody, type RouteRequest, type RouteResult, type Router } from '../http.js';
import { associatedTokenAddress, derivedAddress, ProgramId, SOL_MINT } from '../programIds.js';
import { buildV0, computeBudget, transferInstructions } from '../txBuilder.js';
import { isObject, isPubkey, parseAmount } from '../validate.js';
import type { SimWorld } from '../world.js';
import type { TriggerAuth } from './auth.js';
import { triggerError, validationFailed } from './triggerErrors.js';

export const MIN_ORDER_USD = 10;

export interface Vault {
  readonly userPubkey: string;
  readonly vaultPubkey: string;
  readonly privyVaultId: string;
}

export interface Deposit {
  readonly requestId: string;
  readonly wallet: string;
  readonly vault: string;
  readonly mint: string;
  readonly outputMint: string;
  readonly amount: bigint;
  readonly orderType: 'price' | 'dca';
  readonly orderSubType: string | undefined;
  readonly messageKey: string;
  /** The order this deposit funded, once one was created. */
  usedBy: string | undefined;
  signature: string | undefined;
}

/** A crafted withdrawal (cancel step 1) waiting for the user's signature (step 2). */
export interface Withdrawal {
  readonly requestId: string;
  readonly orderId: string;
  readonly wallet: string;
  readonly vault: string;
  readonly mint: string;
  readonly amount: bigint;
  readonly messageKey: string;
  readonly signers: string;
}

/**
 * One custodial vault per wallet, deposits into it and withdrawals out of it. Every movement is a
 * wallet-signed transaction that the simulator checks byte for byte before touching the ledger.
 */
export class TriggerVaults {
  readonly #vaults = new Map<string, Vault>();
  readonly #deposits = new Map<string, Deposit>();
  readonly #withdrawals = new Map<string, Withdrawal>();

  constructor(
    private readonly world: SimWorld,
    private readonly auth: TriggerAuth,
  ) {}

  register(router: Router): void {
    router.add('GET', '/trigger/v2/vault', (req) => {
      const vault = this.#vaults.get(this.auth.wallet(req));
      if (!vault) throw triggerError(404, 'Vault not found');
      return ok({ ...vault, privyUserId: null });
    });
    router.add('GET', '/trigger/v2/vault/register', (req) => {
      const wallet = this.auth.wallet(req);
      const existing = this.#vaults.get(wallet);
      if (existing)
        throw triggerError(409, 'Vault already exists', {
          userPubkey: existing.userPubkey,
          vaultPubkey: existing.vaultPubkey,
          privyVaultId: existing.privyVaultId,
        });
      return ok(this.create(wallet), 201);
    });
    router.add('POST', '/trigger/v2/deposit/craft', (req) => this.craftDeposit(req));
  }

  create(wallet: string): Vault {
    const vault: Vault = {
      userPubkey: wallet,
      vaultPubkey: derivedAddress(`${this.world.seed}:vault:${wallet}`).toBase58(),
      privyVaultId: `sim${this.world.ids.hex(12)}`,
    };
    this.#vaults.set(wallet, vault);
    return vault;
  }

  vaultOf(wallet: string): Vault | undefined {
    return this.#vaults.get(wallet);
  }

  craftDeposit(req: RouteRequest): RouteResult {
    const wallet = this.auth.wallet(req);
    const body = parseJsonBody(req, (error) => ({ error }));
    if (!isObject(body)) throw validationFailed({ body: 'Invalid input: expected object' });
    const details: Record<string, string> = {};
    const { inputMint, outputMint, userAddress, orderType, orderSubType } = body;
    const amount = parseAmount(body['amount']);
    if (!isPubkey(inputMint)) details['inputMint'] = 'Invalid public key';
    if (!isPubkey(outputMint)) details['outputMint'] = 'Invalid public key';
    if (!isPubkey(userAddress)) details['userAddress'] = 'Invalid public key';
    if (typeof body['amount'] !== 'string' || amount === undefined || amount === 0n) details['amount'] = 'Invalid input: expected a positive integer string';
    if (orderType !== 'price' && orderType !== 'dca') details['orderType'] = 'Invalid option: expected one of "price"|"dca"';
    if (orderSubType !== undefined && orderSubType !== 'single' && orderSubType !== 'oco' && orderSubType !== 'otoco')
      details['orderSubType'] = 'Invalid option: expected one of "single"|"oco"|"otoco"';
    if (Object.keys(details).length > 0) throw validationFailed(details);
    if (orderType === 'dca' && orderSubType !== undefined) throw triggerError(400, "orderSubType must be omitted when orderType is 'dca'");
    if (orderType === 'price' && orderSubType === undefined) throw triggerError(400, "orderSubType is required when orderType is 'price'");
    if (userAddress !== wallet) throw triggerError(403, 'Forbidden: userAddress must match authenticated user');
    const vault = this.#vaults.get(wallet);
    if (!vault) throw triggerError(400, 'Vault not found for user: register a vault first');
    if (userAddress === vault.vaultPubkey) throw triggerError(400, 'userAddress must not be the vault address');
    const spec = this.world.market.spec(inputMint as string);
    if (!spec || !this.world.market.spec(outputMint as string) || inputMint === outputMint) throw triggerError(400, 'Mint pair is not supported');
    const usd = this.world.market.usdValue(spec.mint, amount as bigint);
    if (usd < MIN_ORDER_USD) throw triggerError(400, `Order must be at least ${MIN_ORDER_USD} USD (current value: ${usd.toFixed(2)} USD)`);
    const user = new PublicKey(wallet);
    const { blockhash } = this.world.chain.latestBlockhash();
    const built = buildV0(user, blockhash, [
      ...computeBudget(60_000, 1_000),
      ...transferInstructions(user, user, new PublicKey(vault.vaultPubkey), spec.mint, amount as bigint, spec.decimals, new PublicKey(spec.tokenProgram)),
    ]);
    // What landing it would move, for a client that simulates before signing.
    this.world.chain.registerPreview(built.messageBytes, () => [{ from: wallet, to: vault.vaultPubkey, mint: spec.mint, amount: amount as bigint }]);
    const requestId = this.world.ids.uuid();
    this.#deposits.set(requestId, {
      requestId,
      wallet,
      vault: vault.vaultPubkey,
      mint: spec.mint,
      outputMint: outputMint as string,
      amount: amount as bigint,
      orderType: orderType as 'price' | 'dca',
      orderSubType: orderSubType as string | undefined,
      messageKey: decodeTransaction(built.base64).messageKey,
      usedBy: undefined,
      signature: undefined,
    });
    return ok({
      transaction: built.base64,
      requestId,
      receiverAddress: vault.vaultPubkey,
      mint: spec.mint,
      amount: (amount as bigint).toString(),
      tokenDecimals: spec.decimals,
      ...(spec.mint === SOL_MINT ? {} : { inputTokenAccount: associatedTokenAddress(user, new PublicKey(spec.mint)).toBase58() }),
      ...(orderSubType === 'otoco' ? { outputTokenAccount: associatedTokenAddress(user, new PublicKey(outputMint as string)).toBase58() } : {}),
    });
  }

  deposit(requestId: string): Deposit | undefined {
    return this.#deposits.get(requestId);
  }

  /**
   * Lands a signed deposit for a new order. Checks ownership, the exact crafted bytes, the user's
   * signature and that the deposit was not already spent on another order.
   */
  landDeposit(
    wallet: string,
    requestId: string,
    signedTx: string,
    expect: { orderType: 'price' | 'dca'; orderSubType?: string; inputMint: string; inputAmount: bigint; outputMint: string },
  ): Deposit {
    const deposit = this.#deposits.get(requestId);
    if (!deposit || deposit.wallet !== wallet) throw triggerError(400, 'Deposit transaction not found in cache. Please craft a new deposit first.');
    if (deposit.usedBy !== undefined) throw triggerError(400, `Duplicate deposit: depositRequestId was already used by order ${deposit.usedBy}`);
    if (deposit.orderType !== expect.orderType || (expect.orderSubType !== undefined && deposit.orderSubType !== expect.orderSubType))
      throw triggerError(400, 'Deposit order type does not match the order');
    if (deposit.mint !== expect.inputMint || deposit.amount !== expect.inputAmount || deposit.outputMint !== expect.outputMint)
      throw triggerError(400, 'Deposit does not match the order: inputMint, outputMint and inputAmount must equal the crafted deposit');
    const decoded = this.#decode(signedTx);
    if (decoded.messageKey !== deposit.messageKey) throw triggerError(400, 'Invalid deposit transaction: it does not match the crafted deposit');
    if (!hasValidSignature(decoded, wallet)) throw triggerError(400, 'Invalid deposit transaction: signature verification failed');
    const landed = this.#land(
      decoded,
      {
        kind: 'trigger-deposit',
        apply: (signature) => this.world.ledger.transfer(wallet, deposit.vault, deposit.mint, deposit.amount, 'deposit', signature),
      },
      [],
    );
    if (landed.err) throw triggerError(400, `Deposit transaction failed: ${landed.err.message}`);
    // Bytes that had already landed (another request crafted them identically in the same slot) move
    // nothing now: the chain refuses a transaction it has processed, so no order can be funded by them.
    if (landed.replay && deposit.signature !== landed.signature)
      throw triggerError(400, 'Deposit transaction failed: This transaction has already been processed');
    deposit.signature = landed.signature;
    return deposit;
  }

  /** Cancel step 1: an unsigned transfer of `amount` from the vault back to the wallet. */
  craftWithdrawal(orderId: string, wallet: string, mint: string, amount: bigint): Withdrawal & { transaction: string } {
    const vault = this.#vaults.get(wallet) as Vault;
    const spec = this.world.market.spec(mint);
    const user = new PublicKey(wallet);
    const vaultKey = new PublicKey(vault.vaultPubkey);
    const { blockhash } = this.world.chain.latestBlockhash();
    const built = buildV0(
      user,
      blockhash,
      transferInstructions(user, vaultKey, user, mint, amount, spec?.decimals ?? 0, new PublicKey(spec?.tokenProgram ?? ProgramId.token)),
    );
    this.world.chain.registerPreview(built.messageBytes, () => [{ from: vault.vaultPubkey, to: wallet, mint, amount }]);
    const decoded = decodeTransaction(built.base64);
    const signers = decoded.tx.message.staticAccountKeys
      .slice(0, decoded.tx.message.header.numRequiredSignatures)
      .map((k) => k.toBase58())
      .join(',');
    // A new craft supersedes older ones for the same order: only the latest can land.
    for (const [id, w] of this.#withdrawals) if (w.orderId === orderId) this.#withdrawals.delete(id);
    const withdrawal: Withdrawal = {
      requestId: this.world.ids.uuid(),
      orderId,
      wallet,
      vault: vault.vaultPubkey,
      mint,
      amount,
      messageKey: decoded.messageKey,
      signers,
    };
    this.#withdrawals.set(withdrawal.requestId, withdrawal);
    return { ...withdrawal, transaction: built.base64 };
  }

  /** Cancel step 2: checks the signed withdrawal and lands it; `onLanded` records the order side. */
  confirmWithdrawal(orderId: string, cancelRequestId: string, signedTx: string, onLanded: (signature: string) => void): Landed {
    const withdrawal = this.#withdrawals.get(cancelRequestId);
    if (!withdrawal || withdrawal.orderId !== orderId) throw triggerError(400, 'Withdrawal transaction not found in cache. Please initiate cancel again.');
    const decoded = this.#decode(signedTx);
    if (decoded.messageKey !== withdrawal.messageKey) {
      const signers = decoded.tx.message.staticAccountKeys
        .slice(0, decoded.tx.message.header.numRequiredSignatures)
        .map((k) => k.toBase58())
        .join(',');
      throw triggerError(
        400,
        signers === withdrawal.signers
          ? 'Invalid withdrawal transaction: message does not match'
          : 'Invalid withdrawal transaction: Transaction signers modified',
      );
    }
    if (!hasValidSignature(decoded, withdrawal.wallet)) throw triggerError(400, 'Invalid withdrawal transaction: signature verification failed');
    const landed = this.#land(
      decoded,
      {
        kind: 'trigger-withdrawal',
        apply: (signature) => {
          this.world.ledger.transfer(withdrawal.vault, withdrawal.wallet, withdrawal.mint, withdrawal.amount, 'withdrawal', signature);
          onLanded(signature);
        },
      },
      [withdrawal.vault],
    );
    if (landed.err) throw triggerError(400, `Withdrawal failed: ${landed.err.message}`);
    return landed;
  }

  #decode(signedTx: string): DecodedTx {
    try {
      return decodeTransaction(signedTx);
    } catch {
      throw triggerError(400, 'Invalid transaction format');
    }
  }

  #land(decoded: DecodedTx, intent: { kind: string; apply: (signature: string) => unknown }, trusted: string[]): Landed {
    try {
      return this.world.chain.land(decoded, { intent, trustedSigners: trusted });
    } catch (error) {
      if (error instanceof Rejection) {
        if (error.reason === 'blockhash') throw triggerError(400, 'Transaction expired: blockhash is no longer valid, craft a new one');
        throw triggerError(400, `Transaction rejected: ${error.message}`);
      }
      if (error instanceof ChainFailure) throw triggerError(400, error.message);
      throw error;
    }
  }
}
