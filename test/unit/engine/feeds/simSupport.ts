import bs58 from 'bs58';
import { ManualClock } from '../../../../src/clock.js';
import { createJupiterClient, type JupiterClient, type JupiterClientOptions } from '../../../../src/jupiter/index.js';
import { createRandom } from '../../../../src/random.js';
import { createSimulator, type Simulator } from '../../../../src/sim/simulator.js';
import { simFetch } from '../../../support/simFetch.js';

export { simFetch };

export interface FeedHarness {
  clock: ManualClock;
  sim: Simulator;
  client: JupiterClient;
  /** Routes of the finished exchanges, in order. */
  routes: string[];
}

export function startFeedHarness(clientOptions: Partial<JupiterClientOptions> = {}): FeedHarness {
  const clock = new ManualClock(Date.UTC(2026, 0, 1, 12));
  const sim = createSimulator({ clock, seed: 'feeds' });
  const client = createJupiterClient({
    baseUrl: 'http://sim.local',
    apiKey: 'feeds-test-key',
    requestsPerSecond: 10,
    clock,
    random: createRandom('feeds'),
    fetch: simFetch(sim),
    ...clientOptions,
  });
  const routes: string[] = [];
  client.events.on('request', (e) => routes.push(e.route));
  return { clock, sim, client, routes };
}

/** `n` distinct, valid, deterministic public keys that no token uses. */
export function fakeMints(n: number): string[] {
  return Array.from({ length: n }, (_, i) => {
    const bytes = new Uint8Array(32).fill(7);
    bytes[0] = i & 0xff;
    bytes[1] = (i >> 8) & 0xff;
    return bs58.encode(bytes);
  });
}

export const SOL = 'So11111111111111111111111111111111111111112';
export const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
export const JUP = 'JUPyiwrYJFskUPiHa7hkeR8VUtAeFoSYbKedZNsDvCN';
