import type { Keypair } from '@solana/web3.js';
import { trigger } from '../../../src/jupiter/schemas/index.js';
import { login, signTx, SOL, USDC, wallet, type Harness, type Reply } from './simHarness.js';

export interface TriggerUser {
  kp: Keypair;
  pub: string;
  jwt: string;
  vault: string;
}

/** A logged-in wallet with a vault, 10 SOL and 1,000 USDC. */
export async function triggerUser(h: Harness, label: string): Promise<TriggerUser> {
  const kp = wallet(label);
  const pub = kp.publicKey.toBase58();
  const jwt = await login(h, kp);
  const vault = trigger.Vault.parse((await h.call('GET', '/trigger/v2/vault/register', { jwt })).body).vaultPubkey;
  h.sim.control.fund(pub, 10_000_000_000n, SOL);
  h.sim.control.fund(pub, 1_000_000_000n, USDC);
  return { kp, pub, jwt, vault };
}

export async function craftDeposit(
  h: Harness,
  u: TriggerUser,
  body: { inputMint: string; outputMint: string; amount: string; orderType: 'price' | 'dca'; orderSubType?: string },
): Promise<{ requestId: string; signed: string; reply: Reply }> {
  const reply = await h.call('POST', '/trigger/v2/deposit/craft', { jwt: u.jwt, body: { ...body, userAddress: u.pub } });
  if (reply.status !== 200) return { requestId: '', signed: '', reply };
  const parsed = trigger.DepositCraftResponse.parse(reply.body);
  return { requestId: parsed.requestId, signed: signTx(parsed.transaction, u.kp), reply };
}

/** Crafts and signs the deposit, then creates the price order. */
export async function createPriceOrder(
  h: Harness,
  u: TriggerUser,
  order: Record<string, unknown> & { orderType: string; inputMint: string; outputMint: string; inputAmount: string },
): Promise<Reply> {
  const dep = await craftDeposit(h, u, {
    inputMint: order.inputMint,
    outputMint: order.outputMint,
    amount: order.inputAmount,
    orderType: 'price',
    orderSubType: order.orderType,
  });
  return h.call('POST', '/trigger/v2/orders/price', {
    jwt: u.jwt,
    body: { userPubkey: u.pub, depositRequestId: dep.requestId, depositSignedTx: dep.signed, expiresAt: h.clock.now() + 86_400_000, ...order },
  });
}

export async function orderById(h: Harness, u: TriggerUser, id: string): Promise<trigger.OrderHistoryItem> {
  const reply = await h.call('GET', '/trigger/v2/orders/history?limit=100', { jwt: u.jwt });
  const found = trigger.OrderHistoryResponse.parse(reply.body).orders.find((o) => o.id === id);
  if (!found) throw new Error(`order ${id} not in history`);
  return found;
}
