/**
 * The scores feed: live game scores for every prediction event some rule watches, through
 * `GET /prediction/v1/events/scores` (≤ 100 event ids a call), at market-polling priority.
 * The id set is read at every poll; none in use means no call and an empty map. Events the API has
 * no score for are absent from the map.
 */
import type { Clock } from '../../clock.js';
import { getScores } from '../../jupiter/prediction.js';
import type { GameScore } from '../../jupiter/schemas/prediction.js';
import { type JupiterClient, Priority } from '../../jupiter/transport.js';
import type { Logger } from '../../ops/log.js';
import { createPoller, type Poller } from './poller.js';

export type { GameScore } from '../../jupiter/schemas/prediction.js';
export type ScoreMap = ReadonlyMap<string, GameScore>;

export interface ScoresFeedOptions {
  readonly client: JupiterClient;
  readonly clock: Clock;
  /** `poll.scores` from the config. */
  readonly intervalMs: number;
  /** The event ids in use now; read at every poll. */
  readonly eventIds: () => Iterable<string>;
  readonly log?: Logger | undefined;
  /** Why the feed must not poll now (its API area is off, or nothing needs it), else null (poller.ts). */
  readonly paused?: (() => string | null) | undefined;
  /** @default 'scores' */
  readonly name?: string;
}

export function createScoresFeed(options: ScoresFeedOptions): Poller<ScoreMap> {
  const { client, eventIds } = options;
  return createPoller<ScoreMap>({
    name: options.name ?? 'scores',
    intervalMs: options.intervalMs,
    clock: options.clock,
    log: options.log,
    paused: options.paused,
    async poll(signal) {
      const wanted = [...new Set(eventIds())].sort();
      const out = new Map<string, GameScore>();
      if (wanted.length === 0) return out;
      const answer = await getScores(client, { eventIds: wanted }, { priority: Priority.PollMarket, signal });
      const asked = new Set(wanted);
      for (const score of answer.data) if (asked.has(score.eventId)) out.set(score.eventId, score);
      return out;
    },
  });
}
