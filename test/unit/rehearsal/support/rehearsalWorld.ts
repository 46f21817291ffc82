/**
 * A rehearsal against the embedded simulator standing in for Jupiter and the chain: the simulator is
 * a world of its own (not the daemon's paper world), the watched wallet is funded there as a real
 * wallet would be, and the daemon runs with `mode: rehearsal` against it as it would against mainnet.
 * Every request that would change the simulated world is recorded from the simulator's side
 * (`onInput`), so a test can prove which ones the rehearsal made; what the simulator answered to
 * each of them is kept beside it (`answers`), so a test can hold a fill to the figure it was given.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Keypair } from '@solana/web3.js';
import { InProcessNetwork, SIM_ORIGIN } from '../../../../src/backtest/inProcessNetwork.js';
import { SteppingClock } from '../../../../src/backtest/steppingClock.js';
import { parseConfigText } from '../../../../src/config/loadConfig.js';
import { start, type Daemon, type DaemonDeps } from '../../../../src/daemon.js';
import { createLogger } from '../../../../src/ops/log.js';
import { createRandom } from '../../../../src/random.js';
import { createSimulator, type Simulator } from '../../../../src/sim/simulator.js';
import type { RequestInput } from '../../../../src/sim/worldInput.js';
import { repoRoot } from '../../../support/cli.js';
import { MemoryStream } from '../../../support/memoryStream.js';

/** The key the rehearsal presents: the simulator's gateway takes any key. */
export const REHEARSAL_API_KEY = 'rehearsal-test-key-0123456789';

export interface RehearsalWorld {
  readonly dir: string;
  readonly sim: Simulator;
  readonly net: InProcessNetwork;
  readonly clock: SteppingClock;
  readonly out: MemoryStream;
  readonly wallet: string;
  /** Every world-changing request the simulator answered, in order. */
  readonly writes: RequestInput[];
  /** The daemon's API requests other than GET (the RPC aside), with the simulator's answer as the daemon received it. */
  readonly answers: Answer[];
  /** A read of the simulator's API at the current instant (a GET: it changes nothing). */
  read(path: string): Promise<unknown>;
  /** Every successful `GET /swap/v2/order` answer the daemon received, in order, with its query. */
  readonly quotes: QuoteAnswer[];
  readonly database: string;
  /** The config text the daemon runs with. */
  readonly configText: string;
  /** Starts the daemon; `deps` adds to (or replaces) what the world passes. */
  start(deps?: Partial<DaemonDeps>): Promise<Daemon>;
  close(): void;
}

export interface Answer {
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly body: unknown;
}

/** One `/swap/v2/order` exchange as the daemon saw it. */
export interface QuoteAnswer {
  readonly query: Readonly<Record<string, string>>;
  readonly body: { readonly inAmount: string; readonly outAmount: string; readonly transaction?: string | null; readonly [key: string]: unknown };
}

export interface RehearsalWorldOptions {
  readonly seed: string;
  readonly startAt: number;
  /** Strategy files by name (YAML text); `'demo'` copies the repository's strategies/. */
  readonly strategies: 'demo' | Readonly<Record<string, string>>;
  /** Extra config lines (YAML). */
  readonly config?: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
  /** More keys of the `wallet` section (YAML flow entries, e.g. `keypair_file: /x`). */
  readonly walletKeys?: readonly string[];
  /** The simulator's random price walk (false: prices hold still between `setPrice` calls). @default true */
  readonly priceWalk?: boolean;
  /** `false`: prediction markets hold their price between `setMark` calls. @default true */
  readonly predictionWalk?: boolean;
}

export function rehearsalWorld(options: RehearsalWorldOptions): RehearsalWorld {
  const dir = mkdtempSync(join(tmpdir(), 'jupbot-rehearsal-'));
  const strategies = join(dir, 'strategies');
  if (options.strategies === 'demo') cpSync(join(repoRoot, 'strategies'), strategies, { recursive: true });
  else {
    mkdirSync(strategies);
    for (const [name, text] of Object.entries(options.strategies)) writeFileSync(join(strategies, `${name}.yaml`), text);
  }
  const clock = new SteppingClock(options.startAt);
  const net = new InProcessNetwork(clock);
  const writes: RequestInput[] = [];
  const sim = createSimulator({
    clock: net.simClock(),
    seed: options.seed,
    ...(options.priceWalk === undefined ? {} : { priceWalk: options.priceWalk }),
    ...(options.predictionWalk === undefined ? {} : { predictionWalk: options.predictionWalk }),
    onInput: (input) => {
      if (input.kind === 'request') writes.push(input);
    },
  });
  net.connect(sim);
  const quotes: QuoteAnswer[] = [];
  // The daemon's network, keeping a copy of each quote it is given (the answer is read once, so it is handed on as read).
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const answer = await net.fetch(input, init);
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    if (url.pathname !== '/swap/v2/order' || !answer.ok) return answer;
    const text = await answer.text();
    quotes.push({ query: Object.fromEntries(url.searchParams), body: JSON.parse(text) as QuoteAnswer['body'] });
    const copy = {
      ok: answer.ok,
      status: answer.status,
      headers: answer.headers,
      text: () => Promise.resolve(text),
      json: () => Promise.resolve(JSON.parse(text)),
    };
    return copy as unknown as Response;
  };
  // The watched wallet: a real address whose key this test throws away, funded as the paper wallet is.
  const wallet = Keypair.generate().publicKey.toBase58();
  sim.control.paperWallet(wallet);
  const out = new MemoryStream();
  const log = createLogger({ destination: out, clock });
  const text = [
    'mode: rehearsal',
    `api: { base_url: "${SIM_ORIGIN}" }`,
    `rpc: { url: "${SIM_ORIGIN}/rpc" }`,
    `wallet: { ${[`address: ${wallet}`, ...(options.walletKeys ?? [])].join(', ')} }`,
    `data_dir: ${dir}/data`,
    `strategies_dir: ${strategies}`,
    `lock_dir: ${dir}/locks`,
    'http: { listen: "127.0.0.1:0" }',
    ...(options.config ?? []),
    '',
  ].join('\n');
  const config = parseConfigText(text, join(dir, 'config.yaml'), { JUPITER_API_KEY: REHEARSAL_API_KEY, ...options.env }, dir);
  const answers: Answer[] = [];
  const network = tapAnswers(fetch, answers);
  return {
    dir,
    sim,
    net,
    clock,
    out,
    wallet,
    writes,
    answers,
    quotes,
    async read(path) {
      const response = await net.fetch(`${SIM_ORIGIN}${path}`, { headers: { 'x-api-key': REHEARSAL_API_KEY } });
      return await response.json();
    },
    database: join(dir, 'data', 'jupbot-rehearsal.sqlite'),
    configText: text,
    start: (deps = {}) => start(config, { clock, log, random: createRandom(options.seed), network, ...deps }),
    close: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** `fetch` that keeps the API's answer to every request but a GET (the RPC aside), and hands the daemon the same answer. */
function tapAnswers(fetch: typeof globalThis.fetch, answers: Answer[]): typeof globalThis.fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    const method = (init?.method ?? 'GET').toUpperCase();
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    if (method === 'GET' || url.pathname === '/rpc' || url.pathname === '/') return response;
    const text = await response.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text) as unknown;
    } catch {
      // Kept as text: the daemon parses it its own way.
    }
    answers.push({ method, path: url.pathname, status: response.status, body });
    return {
      status: response.status,
      ok: response.ok,
      headers: response.headers,
      text: () => Promise.resolve(text),
      json: () => Promise.resolve(JSON.parse(text) as unknown),
    } as unknown as Response;
  };
}
