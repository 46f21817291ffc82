import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/config/configError.js';
import { parseConfigText } from '../../../src/config/loadConfig.js';

const parse = (yaml: string): ReturnType<typeof parseConfigText> => parseConfigText(yaml, 'c.yaml', {}, '/');

function problems(yaml: string): string {
  try {
    parse(yaml);
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  throw new Error('the config was accepted');
}

describe('protections in the config', () => {
  it('are all off when the section is left out', () => {
    expect(parse('').protections).toEqual({ max_daily_loss: null, max_drawdown: null, max_exposure: null, loss_cooldown: null });
  });

  it('take a limit alone or with its own pauses; the section’s pauses is the default of the others', () => {
    const yaml = [
      'protections:',
      '  pauses: all',
      '  max_daily_loss_usd: 250',
      '  max_drawdown: 12.5%',
      '  max_exposure_usd: { limit: "5000.5", pauses: buying }',
      '  loss_cooldown: { losing_exits: 3, for: 6h }',
    ].join('\n');
    expect(parse(yaml).protections).toEqual({
      max_daily_loss: { limitUsd: '250', pauses: 'all' },
      max_drawdown: { percent: '12.5', pauses: 'all' },
      max_exposure: { limitUsd: '5000.5', pauses: 'buying' },
      loss_cooldown: { losingExits: 3, forMs: 6 * 3_600_000, pauses: 'all' },
    });
    expect(parse('protections: { max_drawdown: 15 }').protections.max_drawdown).toEqual({ percent: '15', pauses: 'buying' });
  });

  it('refuse a bad value with its field path and position, one line each', () => {
    const yaml = [
      'protections:',
      '  max_daily_loss_usd: -3',
      '  max_drawdown: { limit: 150%, pauses: some }',
      '  loss_cooldown: { losing_exits: 0 }',
      '  max_exposur_usd: 3',
    ].join('\n');
    expect(problems(yaml).split('\n')).toEqual([
      'c.yaml:2:23: protections.max_daily_loss_usd.limit: -3 is not an amount of dollars above 0 (e.g. 250 or "99.5")',
      'c.yaml:3:26: protections.max_drawdown.limit: "150%" is not a percent above 0 and below 100 (e.g. 15%)',
      'c.yaml:3:40: protections.max_drawdown.pauses must be one of "buying", "all" (got "some")',
      'c.yaml:4:18: missing required key "for" in protections.loss_cooldown',
      'c.yaml:4:34: protections.loss_cooldown.losing_exits must be at least 1 (got number 0)',
      'c.yaml:5:3: unknown key "max_exposur_usd" in protections (did you mean "max_exposure_usd"?)',
    ]);
    expect(problems('protections: { max_exposure_usd: "0" }')).toMatch(/protections\.max_exposure_usd\.limit: "0" is not an amount of dollars above 0/);
    expect(problems('protections: { loss_cooldown: { losing_exits: 2, for: 10s } }')).toMatch(
      /protections\.loss_cooldown\.for: "10s" is too short \(at least 1m\)/,
    );
  });
});
