import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/config/configError.js';
import { parseConfigText } from '../../../src/config/loadConfig.js';

function problems(text: string, env: Record<string, string> = {}): string {
  try {
    parseConfigText(text, 'c.yaml', env, '/');
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  return '';
}

describe('config hardening', () => {
  it('refuses URLs that carry credentials, located, without echoing them', () => {
    const rpc = problems('rpc:\n  url: https://user:s3cret@rpc.example.com/\n');
    expect(rpc).toMatch(/^c\.yaml:2:8: rpc\.url: carries credentials \(user:password@\), which HTTP clients refuse to send: remove them/m);
    expect(rpc).not.toContain('s3cret');
    const hook = problems('notify:\n  webhooks:\n    - kind: generic\n      url: https://u:hooksecret@hooks.example.com/x\n');
    expect(hook).toContain('c.yaml:4:12: notify.webhooks[0].url carries credentials');
    expect(hook).not.toContain('hooksecret');
    const fromEnv = problems('notify:\n  webhooks:\n    - kind: generic\n      url_env: HOOK_URL\n', { HOOK_URL: 'https://a:envsecret@hooks.example.com/' });
    expect(fromEnv).toContain('the URL in the environment variable HOOK_URL carries credentials');
    expect(fromEnv).not.toContain('envsecret');
  });

  it('refuses an ops address beyond loopback unless http.allow_remote opts in', () => {
    for (const listen of ['0.0.0.0:9464', '"[::]:9464"', '10.1.2.3:9464']) {
      expect(problems(`http:\n  listen: ${listen}\n`)).toMatch(
        /^c\.yaml:2:11: http\.listen .* is not a loopback address, and \/status, \/metrics and \/readyz have no authentication/m,
      );
    }
    expect(problems('http:\n  listen: 0.0.0.0:9464\n  allow_remote: true\n')).toBe('');
    expect(problems('http:\n  listen: "[::1]:9464"\n')).toBe('');
    expect(problems('http:\n  listen: localhost:9464\n')).toBe('');
  });
});
