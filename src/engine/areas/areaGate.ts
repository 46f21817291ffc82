/**
 * What the engine asks of areas: whether a feed may poll (its area is needed and on), whether a
 * strategy may decide (every area it needs is on), and the `api-areas` readiness check. An area that
 * is off is not a readiness failure: the daemon trades what the key allows, and the check says what
 * is off in its detail, while it passes.
 */
import { AREA_WORDS, type ApiArea } from '../../jupiter/apiAreas.js';
import type { ReadinessCheck } from '../../ops/opsServer.js';
import type { LoadedStrategy } from '../../strategies/loadedStrategy.js';
import type { AreaAccess } from './areaAccess.js';
import { type AreaNeeds, strategyAreas } from './areaNeeds.js';

export interface AreaGate {
  /** Why a feed that reads `area` must not poll now (nothing needs it, or it is off), else null. */
  feedPaused(area: ApiArea): string | null;
  /** Why `strategy` must not decide now (an area it needs is off), else null. */
  strategyPaused(strategy: LoadedStrategy): string | null;
  /** Why `area` is off, else null. */
  areaOff(area: ApiArea): string | null;
  /** `api-areas`: always passes; its detail names what is off (and whom that pauses) and what nothing needs. */
  readiness(): ReadinessCheck;
}

const iso = (ms: number): string => new Date(ms).toISOString();

export function createAreaGate(access: AreaAccess, needs: AreaNeeds): AreaGate {
  return {
    feedPaused(area) {
      if (!needs.needed(area)) return `no loaded strategy needs ${AREA_WORDS[area]} (the ${area} area)`;
      return access.offWords(area);
    },
    strategyPaused(strategy) {
      const off = strategyAreas(strategy)
        .map((area) => access.offWords(area))
        .filter((words): words is string => words !== null);
      return off.length === 0 ? null : `paused: ${off.join('; ')}`;
    },
    areaOff: (area) => access.offWords(area),
    readiness: () => ({
      name: 'api-areas',
      probe() {
        const parts: string[] = [];
        const unused: string[] = [];
        for (const s of access.status()) {
          if (!s.on && s.refusal !== null && s.offSince !== null) {
            const said = s.refusal.message === null ? '' : ` "${s.refusal.message}"`;
            const next = s.needed && s.nextTryAt !== null ? `, asked again at ${iso(s.nextTryAt)}` : ', not asked again while nothing needs it';
            const paused = s.strategies.length > 0 ? `; paused: ${s.strategies.join(', ')}` : '';
            parts.push(`${s.area} off since ${iso(s.offSince)} (${s.refusal.status}${said} on ${s.refusal.call})${next}${paused}`);
          } else if (!s.needed) unused.push(s.area);
        }
        if (unused.length > 0) parts.push(`not polled, no loaded strategy needs them: ${unused.join(', ')}`);
        return parts.length === 0 ? { ok: true } : { ok: true, detail: parts.join('; ') };
      },
    }),
  };
}
