/** What counts as two strategies managing the same thing (strategyOverlaps.ts), on parsed files. */
import { describe, expect, it } from 'vitest';
import { parseStrategyText } from '../../../src/strategies/parseStrategy.js';
import { DEFAULT_STRATEGY_LIMITS } from '../../../src/strategies/strategyLimits.js';
import { overlapLines, strategyOverlaps, type OverlapCandidate } from '../../../src/strategies/strategyOverlaps.js';

function candidate(file: string, text: string): OverlapCandidate {
  const parsed = parseStrategyText(text, file, DEFAULT_STRATEGY_LIMITS);
  if (!parsed.ok) throw new Error(parsed.diagnostics.map((d) => d.message).join('; '));
  return { file, spec: parsed.strategy.spec };
}

const exit = (name: string, positions: string, extra = ''): OverlapCandidate =>
  candidate(
    `${name}.yaml`,
    `name: ${name}\nkind: prediction-exit\npositions: ${positions}\n${extra}rules:\n  - id: tp\n    when: { sell_price_at_least: "0.8" }\n`,
  );
const dca = (name: string, buy: string, pay: string): OverlapCandidate =>
  candidate(`${name}.yaml`, `name: ${name}\nkind: dca\nbuy: ${buy}\npay_with: ${pay}\namount: "10"\nschedule: { cron: "0 9 * * *", timezone: UTC }\n`);

describe('strategyOverlaps', () => {
  it('prediction exits overlap on the same market when their sides meet', () => {
    const found = strategyOverlaps([
      exit('any-side', '{ market: M1 }'),
      exit('no-side', '{ market: M1, side: no }'),
      exit('yes-side', '{ market: M1, side: yes }'),
      exit('other', '{ market: M2 }'),
    ]);
    expect(found.map((o) => [o.key, o.what])).toEqual([
      ['positions:market M1|any-side|no-side', "both manage NO positions in market M1: the first to act sells contracts the other's rules count on"],
      ['positions:market M1|any-side|yes-side', "both manage YES positions in market M1: the first to act sells contracts the other's rules count on"],
    ]);
    expect(overlapLines(found[0] as (typeof found)[number])).toEqual([
      "warning: any-side and no-side overlap: both manage NO positions in market M1: the first to act sells contracts the other's rules count on",
      '  any-side (any-side.yaml): manages YES and NO positions in market M1: tp (sells all); claims when settled',
      '  no-side (no-side.yaml): manages NO positions in market M1: tp (sells all); claims when settled',
    ]);
  });

  it('prediction exits overlap on the same event; a market and an event are not compared', () => {
    const found = strategyOverlaps([exit('a', '{ event: E1 }'), exit('b', '{ event: E1, side: yes }'), exit('c', '{ market: E1-M1 }')]);
    expect(found.map((o) => o.key)).toEqual(['positions:event E1|a|b']);
  });

  it('a market named with its event manages that market only', () => {
    const found = strategyOverlaps([
      exit('m1', '{ market: E1-M1, event: E1 }'),
      exit('m2', '{ market: E1-M2, event: E1 }'),
      exit('m1-again', '{ market: E1-M1 }'),
    ]);
    expect(found.map((o) => o.key)).toEqual(['positions:market E1-M1|m1|m1-again']);
  });

  it('DCA strategies overlap on the same pair only', () => {
    const found = strategyOverlaps([dca('a', 'JUP', 'USDC'), dca('b', 'jup', 'USDC'), dca('c', 'JUP', 'SOL')]);
    expect(found.map((o) => [o.key, o.what])).toEqual([
      ['dca:JUP:USDC|a|b', 'both buy JUP with USDC: each run of either spends from the same USDC budget (one file copied?)'],
    ]);
  });
});
