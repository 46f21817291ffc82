import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { paperTokenSearch } from '../../../src/sim/paperTokenSearch.js';
import { formatOutcomes, loadStrategyFiles } from '../../../src/strategies/loadStrategies.js';
import { DEFAULT_STRATEGY_LIMITS } from '../../../src/strategies/strategyLimits.js';

const dir = join(import.meta.dirname, '../../../strategies');
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.yaml'))
  .sort();

describe('shipped examples', () => {
  it('cover every kind, reference the JSON Schema on line 1, and validate in paper mode', async () => {
    const inputs = files.map((f) => ({ file: `strategies/${f}`, text: readFileSync(join(dir, f), 'utf8') }));
    for (const { file, text } of inputs) expect(text.split('\n')[0], file).toBe('# yaml-language-server: $schema=../schema/strategy.schema.json');
    const outcomes = await loadStrategyFiles(inputs, paperTokenSearch, { get: () => undefined }, DEFAULT_STRATEGY_LIMITS);
    expect(formatOutcomes(outcomes)).toEqual([]);
    const kinds = new Set(outcomes.map((o) => o.strategy?.spec.kind));
    expect([...kinds].sort()).toEqual(['dca', 'prediction-exit', 'price-order']);
  });

  it('reports a name used by two files in both files', async () => {
    const text = readFileSync(join(dir, 'sol-dca-daily.yaml'), 'utf8');
    const outcomes = await loadStrategyFiles(
      [
        { file: 'a.yaml', text },
        { file: 'b.yaml', text },
      ],
      paperTokenSearch,
      { get: () => undefined },
      DEFAULT_STRATEGY_LIMITS,
    );
    expect(formatOutcomes(outcomes)).toEqual([
      'a.yaml:5:7: strategy name "sol-dca-daily" is also used by b.yaml:5:7; names must be unique across files',
      'b.yaml:5:7: strategy name "sol-dca-daily" is also used by a.yaml:5:7; names must be unique across files',
    ]);
  });
});
