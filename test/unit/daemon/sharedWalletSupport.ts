/**
 * One simulated world that several daemons (and a foreign trader) share, in process, on a stepping
 * clock: the paper world a daemon would open for itself, handed to each daemon instead (`paperWorld`
 * and `network` deps), so two jupbots with different data and lock directories trade one wallet, as
 * two hosts would. The foreign trader acts on the wallet through the simulator's public API with the
 * wallet's key, as a person in Jupiter's interface or another bot would.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Keypair, VersionedTransaction } from '@solana/web3.js';
import { InProcessNetwork, SIM_ORIGIN } from '../../../src/backtest/inProcessNetwork.js';
import { SteppingClock } from '../../../src/backtest/steppingClock.js';
import { parseConfigText } from '../../../src/config/loadConfig.js';
import { trigger, swap } from '../../../src/jupiter/schemas/index.js';
import { createLogger } from '../../../src/ops/log.js';
import { openPaperWorld } from '../../../src/paper/openPaperWorld.js';
import type { PaperWorld } from '../../../src/paper/paperWorld.js';
import { PAPER_WALLET_FILE } from '../../../src/solana/paperWallet.js';
import type { Simulator } from '../../../src/sim/simulator.js';
import { createSolanaRpc } from '../../../src/solana/rpc.js';

export const SOL = 'So11111111111111111111111111111111111111112';
export const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
export const JUP = 'JUPyiwrYJFskUPiHa7hkeR8VUtAeFoSYbKedZNsDvCN';

export interface SharedWorld {
  readonly clock: SteppingClock;
  readonly net: InProcessNetwork;
  readonly sim: Simulator;
  /** The world as each daemon gets it: closing it is left to the test. */
  readonly world: PaperWorld;
  /** The wallet every daemon of the test trades (written as each one's paper wallet). */
  readonly keypair: Keypair;
  readonly wallet: string;
  close(): Promise<void>;
}

export async function sharedWorld(dir: string, start: number): Promise<SharedWorld> {
  const clock = new SteppingClock(start);
  const net = new InProcessNetwork(clock);
  const config = parseConfigText(`data_dir: ${dir}/world\nsim: { seed: shared-wallet }\n`, join(dir, 'world.yaml'), {}, dir);
  let sim: Simulator | undefined;
  const opened = await openPaperWorld(config, net.simClock(), createLogger({ level: 'silent' }), (s) => {
    sim = s;
    net.connect(s);
    return Promise.resolve({ url: SIM_ORIGIN, close: () => Promise.resolve() });
  });
  if (sim === undefined) throw new Error('the world did not start');
  const world: PaperWorld = { url: opened.url, seed: opened.seed, restored: false, fund: (w) => opened.fund(w), close: () => Promise.resolve() };
  const keypair = Keypair.generate();
  return { clock, net, sim, world, keypair, wallet: keypair.publicKey.toBase58(), close: () => opened.close() };
}

export interface Workspace {
  readonly data: string;
  readonly locks: string;
  readonly configFile: string;
  readonly config: ReturnType<typeof parseConfigText>;
}

/** A daemon's own directories (data, locks, strategies) and config, its paper wallet the world's wallet. */
export function workspace(w: SharedWorld, root: string, name: string, strategies: Readonly<Record<string, string>>, extra = ''): Workspace {
  const home = join(root, name);
  const data = join(home, 'data');
  const locks = join(home, 'locks');
  mkdirSync(data, { recursive: true, mode: 0o700 });
  mkdirSync(join(home, 'strategies'));
  writeFileSync(join(data, PAPER_WALLET_FILE), `${JSON.stringify(Array.from(w.keypair.secretKey))}\n`, { mode: 0o600 });
  for (const [file, text] of Object.entries(strategies)) writeFileSync(join(home, 'strategies', file), text);
  const text = [
    `data_dir: ${data}`,
    `lock_dir: ${locks}`,
    `strategies_dir: ${home}/strategies`,
    'http: { listen: "127.0.0.1:0" }',
    'poll: { orders: 10s }',
    'log: { format: json }',
    extra,
  ].join('\n');
  const configFile = join(home, 'config.yaml');
  writeFileSync(configFile, text);
  return { data, locks, configFile, config: parseConfigText(text, configFile, {}, home) };
}

/**
 * Moves the clock one due sleeper at a time until `done()` holds (checked whenever the daemons are
 * idle), never past `limitMs` from now: a test can stop while a daemon waits on the clock.
 */
export async function driveUntil(w: SharedWorld, done: () => boolean, limitMs: number): Promise<void> {
  const end = w.clock.monotonic() + limitMs;
  for (;;) {
    await w.net.settle();
    if (done()) return;
    const next = w.clock.nextWake();
    if (next === undefined || next > end) throw new Error(`not reached within ${limitMs} ms`);
    await w.clock.advance(next - w.clock.monotonic());
  }
}

async function call(w: SharedWorld, method: string, path: string, options: { body?: unknown; jwt?: string } = {}): Promise<unknown> {
  const headers: Record<string, string> = { 'x-api-key': 'someone-else' };
  if (options.jwt !== undefined) headers['authorization'] = `Bearer ${options.jwt}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const answer = await w.net.fetch(`${SIM_ORIGIN}${path}`, {
    method,
    headers,
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
  return await answer.json();
}

function signed(w: SharedWorld, base64: string): string {
  const tx = VersionedTransaction.deserialize(Buffer.from(base64, 'base64'));
  tx.sign([w.keypair]);
  return Buffer.from(tx.serialize()).toString('base64');
}

/** Someone else swaps with the wallet's key through Swap V2 (`/order`, sign, `/execute`); returns the landed signature. */
export async function foreignSwap(w: SharedWorld, inputMint: string, outputMint: string, amount: string): Promise<string> {
  const query = new URLSearchParams({ inputMint, outputMint, amount, taker: w.wallet });
  const order = swap.OrderResponse.parse(await call(w, 'GET', `/swap/v2/order?${query.toString()}`));
  const executed = swap.ExecuteResponse.parse(
    await call(w, 'POST', '/swap/v2/execute', { body: { signedTransaction: signed(w, order.transaction as string), requestId: order.requestId } }),
  );
  if (executed.status !== 'Success' || typeof executed.signature !== 'string') throw new Error(`the foreign swap did not land: ${JSON.stringify(executed)}`);
  return executed.signature;
}

/** Someone else places a Trigger V2 take-profit on 0.1 SOL with the wallet's key; returns the order id. */
export async function foreignPriceOrder(w: SharedWorld): Promise<string> {
  const jwt = w.sim.control.triggerToken(w.wallet);
  await call(w, 'GET', '/trigger/v2/vault/register', { jwt });
  const amount = '100000000';
  const deposit = trigger.DepositCraftResponse.parse(
    await call(w, 'POST', '/trigger/v2/deposit/craft', {
      jwt,
      body: { inputMint: SOL, outputMint: USDC, amount, orderType: 'price', orderSubType: 'single', userAddress: w.wallet },
    }),
  );
  const created = (await call(w, 'POST', '/trigger/v2/orders/price', {
    jwt,
    body: {
      orderType: 'single',
      depositRequestId: deposit.requestId,
      depositSignedTx: signed(w, deposit.transaction),
      userPubkey: w.wallet,
      inputMint: SOL,
      outputMint: USDC,
      inputAmount: amount,
      triggerMint: SOL,
      triggerCondition: 'above',
      triggerPriceUsd: Number((w.sim.control.price(SOL) * 2).toFixed(2)),
      expiresAt: w.clock.now() + 86_400_000,
    },
  })) as { id?: unknown };
  if (typeof created.id !== 'string') throw new Error(`the foreign order was not created: ${JSON.stringify(created)}`);
  return created.id;
}

/** When `signature` landed, as the node reports it (whole seconds), in ms. */
export async function landedAt(w: SharedWorld, signature: string): Promise<number> {
  const rpc = createSolanaRpc({ url: `${SIM_ORIGIN}/rpc`, clock: w.clock, fetch: w.net.fetch });
  const tx = await rpc.getTransaction(signature);
  if (tx?.blockTime === null || tx === null) throw new Error(`${signature} has not landed`);
  return tx.blockTime * 1000;
}
