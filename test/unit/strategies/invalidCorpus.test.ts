import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatDiagnostic } from '../../../src/config/diagnostics.js';
import { paperTokenSearch } from '../../../src/sim/paperTokenSearch.js';
import { loadStrategyFile } from '../../../src/strategies/loadStrategies.js';
import { DEFAULT_STRATEGY_LIMITS } from '../../../src/strategies/strategyLimits.js';

const dir = join(import.meta.dirname, '../../fixtures/strategies/invalid');
const fixtures = readdirSync(dir)
  .filter((f) => f.endsWith('.yaml'))
  .sort();

// Each fixture is a file an author could write; its .expected file holds the exact lines
// `jupbot validate` prints for it. Token checks run against the simulator's catalogue.
describe('invalid strategy corpus', () => {
  it('has at least 40 files, each with its expected lines', () => {
    expect(fixtures.length).toBeGreaterThanOrEqual(40);
    for (const f of fixtures) expect(readdirSync(dir)).toContain(f.replace(/\.yaml$/, '.expected'));
  });

  it.each(fixtures)('%s', async (file) => {
    const text = readFileSync(join(dir, file), 'utf8');
    const expected = readFileSync(join(dir, file.replace(/\.yaml$/, '.expected')), 'utf8')
      .trimEnd()
      .split('\n');
    const outcome = await loadStrategyFile({ file, text }, paperTokenSearch, { get: () => undefined }, DEFAULT_STRATEGY_LIMITS);
    expect(outcome.strategy).toBeUndefined();
    expect(outcome.diagnostics.map(formatDiagnostic)).toEqual(expected);
  });
});
