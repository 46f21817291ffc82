import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/config/configError.js';
import { parseConfigText } from '../../../src/config/loadConfig.js';

describe('notify.down_after', () => {
  it('defaults to 5 minutes and takes a duration', () => {
    expect(parseConfigText('', 'c.yaml', {}, '/').notify.down_after).toBe(300_000);
    expect(parseConfigText('notify: { down_after: 90s }', 'c.yaml', {}, '/').notify.down_after).toBe(90_000);
  });

  it('refuses less than 10 s, with the position', () => {
    const error = (() => {
      try {
        parseConfigText('notify:\n  down_after: 5s\n', 'c.yaml', {}, '/');
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toMatch(/^c\.yaml:2:15: notify\.down_after: .*too short \(at least 10s\)/m);
  });
});
