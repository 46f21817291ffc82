/**
 * The scores feed: live game scores for every prediction event some rule watches, through
 * `GET /prediction/v1/events/scores` (≤ 100 event ids a call), at market-polling priority.
 * The id set is read at every poll; none in use means no call and an empty map. Events the API has
 * no score for are absent from the map.
 *
 * A score's clock is read by sport (engine/tick/sportOf.ts). When the score's league names none
 * jupbot knows, the event's `category` and `subcategory` come along instead: they never change, so
 * each such event is asked once through `GET /events/{eventId}`; a failed ask is asked again at the
 * next poll and fails nothing, an event the API does not know is remembered as naming nothing.
 */
import type { Clock } from '../../clock.js';
import { errorMessage } from '../../errors.js';
import { PredictionApiError } from '../../jupiter/errors.js';
import { getEvent, getScores } from '../../jupiter/prediction.js';
import type { GameScore } from '../../jupiter/schemas/prediction.js';
import { type CallOptions, type JupiterClient, Priority } from '../../jupiter/transport.js';
import type { Logger } from '../../ops/log.js';
import { sportOf } from '../tick/sportOf.js';
import { createPoller, type Poller } from './poller.js';

export type { GameScore } from '../../jupiter/schemas/prediction.js';

/** A score with what its event says of the sport (null: the event names none, or is unknown). */
export type ScoredGame = GameScore & { readonly eventCategory?: string | null; readonly eventSubcategory?: string | null };
export type ScoreMap = ReadonlyMap<string, ScoredGame>;

interface EventSport {
  readonly category: string | null;
  readonly subcategory: string | null;
}

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
  /** Category and subcategory by event id, for the events in use. */
  const sports = new Map<string, EventSport>();

  async function learnSport(eventId: string, call: CallOptions): Promise<void> {
    try {
      const event = await getEvent(client, { eventId }, call);
      sports.set(eventId, { category: event.category ?? null, subcategory: event.subcategory ?? null });
    } catch (error) {
      if (error instanceof PredictionApiError && error.code === 'PREDICTION_NOT_FOUND') sports.set(eventId, { category: null, subcategory: null });
      else options.log?.debug({ eventId, err: error }, `scores: event ${eventId} not read (${errorMessage(error)}); asked again at the next poll`);
    }
  }

  return createPoller<ScoreMap>({
    name: options.name ?? 'scores',
    intervalMs: options.intervalMs,
    clock: options.clock,
    log: options.log,
    paused: options.paused,
    async poll(signal) {
      const wanted = [...new Set(eventIds())].sort();
      const out = new Map<string, ScoredGame>();
      if (wanted.length === 0) return out;
      const call: CallOptions = { priority: Priority.PollMarket, signal };
      const answer = await getScores(client, { eventIds: wanted }, call);
      const asked = new Set(wanted);
      for (const id of [...sports.keys()]) if (!asked.has(id)) sports.delete(id);
      const scored = answer.data.filter((score) => asked.has(score.eventId));
      await Promise.all(
        [...new Set(scored.filter((s) => sportOf({ league: s.leagueAbbreviation }) === null).map((s) => s.eventId))]
          .filter((id) => !sports.has(id))
          .map(async (id) => learnSport(id, call)),
      );
      for (const score of scored) {
        const sport = sports.get(score.eventId);
        out.set(score.eventId, sport ? { ...score, eventCategory: sport.category, eventSubcategory: sport.subcategory } : score);
      }
      return out;
    },
  });
}
