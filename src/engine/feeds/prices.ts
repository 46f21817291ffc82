/**
 * The price feed: USD prices for every mint some strategy uses, through token search (≤ 100 mints a
 * call, so 200 mints cost 2 calls a poll), at market-polling priority through the one client.
 * The mint set is read at the start of each poll, so hot-reloaded strategies take effect at the next
 * poll (or at once with `pollSoon()`). With no mints in use a poll sends nothing and succeeds with an
 * empty map. A string that is not a valid address is left out (logged once) instead of failing every poll. If any batch fails, the poll fails and the previous map (with its age) is kept.
 * Prices are as the API gives them (`usdPrice`, a float): compare them, never do money arithmetic on them.
 * A price that jumped more than 20 % since the last poll is held until the next one confirms it (priceJumps.ts).
 */
import type { Clock } from '../../clock.js';
import { Pubkey } from '../../jupiter/schemas/common.js';
import { prices, type TokenPrice } from '../../jupiter/tokens.js';
import { type JupiterClient, Priority } from '../../jupiter/transport.js';
import type { Logger } from '../../ops/log.js';
import { createPoller, type Poller } from './poller.js';
import { PriceJumps } from './priceJumps.js';

export type { TokenPrice } from '../../jupiter/tokens.js';
export type PriceMap = ReadonlyMap<string, TokenPrice>;

export interface PricesFeedOptions {
  readonly client: JupiterClient;
  readonly clock: Clock;
  /** `poll.prices` from the config. */
  readonly intervalMs: number;
  /** The mints in use now (e.g. `() => interest.keys()`); read at every poll. */
  readonly mints: () => Iterable<string>;
  /** Search route. @default 'tokens' */
  readonly api?: 'tokens' | 'ultra';
  readonly log?: Logger | undefined;
  /** Why the feed must not poll now (its API area is off, or nothing needs it), else null (poller.ts). */
  readonly paused?: (() => string | null) | undefined;
  /** @default 'prices' */
  readonly name?: string;
}

export function createPricesFeed(options: PricesFeedOptions): Poller<PriceMap> {
  const { client, mints, api = 'tokens' } = options;
  const refused = new Set<string>();
  const jumps = new PriceJumps();
  return createPoller<PriceMap>({
    name: options.name ?? 'prices',
    intervalMs: options.intervalMs,
    clock: options.clock,
    log: options.log,
    paused: options.paused,
    async poll(signal) {
      const wanted: string[] = [];
      for (const mint of new Set(mints())) {
        if (Pubkey.safeParse(mint).success) wanted.push(mint);
        else if (!refused.has(mint)) {
          // One bad entry must not fail the whole batch (the client validates every mint): skip it, say so once.
          refused.add(mint);
          options.log?.warn({ feed: 'prices', mint }, 'not a valid mint address; left out of price polls');
        }
      }
      wanted.sort();
      if (wanted.length === 0) return new Map();
      const polled = await prices(client, wanted, { api, priority: Priority.PollMarket, signal });
      return jumps.filter(polled, (jump) =>
        options.log?.info(
          { feed: 'prices', mint: jump.mint, from: jump.from, to: jump.to },
          `${jump.symbol}: the price feed says $${jump.to}, ${Math.round((Math.abs(jump.to - jump.from) / jump.from) * 100)}% from the last price $${jump.from}: held until the next poll confirms it`,
        ),
      );
    },
  });
}
