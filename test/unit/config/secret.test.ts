import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/config/configError.js';
import { parseConfigText } from '../../../src/config/loadConfig.js';
import { Secret } from '../../../src/secret.js';

const VALUE = 'sk-live-9f8e7d6c5b4a';

describe('Secret', () => {
  it('gives its value only through reveal()', () => {
    expect(new Secret(VALUE).reveal()).toBe(VALUE);
  });

  it.each([
    ['String()', (s: Secret) => String(s)],
    ['toString()', (s: Secret) => s.toString()],
    ['toLocaleString()', (s: Secret) => s.toLocaleString()],
    // eslint-disable-next-line @typescript-eslint/restrict-template-expressions -- the point: someone will write this
    ['template literal', (s: Secret) => `${s}`],
    ['concatenation', (s: Secret) => 'key=' + (s as unknown as string)],
    ['JSON.stringify', (s: Secret) => JSON.stringify({ key: s })],
    ['util.inspect', (s: Secret) => inspect({ nested: { key: s } }, { depth: 10, showHidden: true })],
    ['Object.entries', (s: Secret) => JSON.stringify(Object.entries(s))],
    ['spread', (s: Secret) => JSON.stringify({ ...s })],
    ['structuredClone', (s: Secret) => inspect(structuredClone(s))],
  ])('%s never shows the value', (_how, render) => {
    const text = render(new Secret(VALUE));
    expect(text).not.toContain(VALUE);
  });

  it('renders as [redacted] where it is printed', () => {
    const secret = new Secret(VALUE);
    expect(String(secret)).toBe('[redacted]');
    expect(JSON.stringify({ key: secret })).toBe('{"key":"[redacted]"}');
    expect(inspect(secret)).toBe('[redacted]');
  });
});

describe('secrets in a loaded config', () => {
  const env = {
    HOME: '/home/op',
    JUPITER_API_KEY: VALUE,
    JUPBOT_KEYPAIR: JSON.stringify(Array.from({ length: 64 }, () => 9)),
    HOOK: 'https://hooks.slack.com/services/T0/B0/XYZSECRET',
  };
  const text = 'notify:\n  webhooks:\n    - url_env: HOOK\n      kind: slack\n';

  it('are wrapped and show nowhere in the printed config', () => {
    const config = parseConfigText(text, 'c.yaml', env, '/');
    expect(config.api.key?.reveal()).toBe(VALUE);
    expect(config.notify.webhooks[0]?.url.reveal()).toBe(env.HOOK);
    for (const printed of [JSON.stringify(config), inspect(config, { depth: 20 }), String(config.api.key)]) {
      expect(printed).not.toContain(VALUE);
      expect(printed).not.toContain('XYZSECRET');
      expect(printed).not.toContain(env.JUPBOT_KEYPAIR);
    }
  });

  it('never reach a ConfigError message', () => {
    const broken = [
      'mode: live',
      'api:',
      `  key: ${VALUE}`, // a key pasted into the file: refused without being echoed
      `  key_env: ${VALUE}`, // a key pasted where a variable name belongs
      'notify:',
      '  webhooks:',
      '    - url: hxxps://hooks.slack.com/services/XYZSECRET',
    ].join('\n');
    let error: unknown;
    try {
      parseConfigText(broken, 'c.yaml', { ...env, JUPBOT_KEYPAIR: `${VALUE}-not-a-keypair` }, '/');
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const everything = [(error as ConfigError).message, JSON.stringify((error as ConfigError).diagnostics), inspect(error, { depth: 20 })].join('\n');
    expect(everything).not.toContain(VALUE);
    expect(everything).not.toContain('XYZSECRET');
    expect((error as ConfigError).message.split('\n')).toEqual([
      'c.yaml:3:8: api.key: secrets are never written in the config file: put the API key in the environment variable named by api.key_env',
      'c.yaml:4:12: api.key_env: must be the name of an environment variable (upper-case letters, digits and _, e.g. JUPITER_API_KEY); the value itself belongs in that variable, not in this file',
      'c.yaml:7:12: notify.webhooks[0].url is not an http(s) URL (the value is not shown: a webhook URL is a credential)',
      'c.yaml: the environment variable JUPBOT_KEYPAIR does not hold a secret key (expected base58 text or a JSON array of 64 numbers, as in a solana-keygen file)',
    ]);
  });
});
