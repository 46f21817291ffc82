import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/config/configError.js';
import { parseConfigText } from '../../../src/config/loadConfig.js';

const LIVE_ENV = { JUPITER_API_KEY: 'k', JUPBOT_KEYPAIR: JSON.stringify(Array.from({ length: 64 }, () => 1)) };

function problems(text: string, env: Record<string, string> = {}): string[] {
  try {
    parseConfigText(text, 'c.yaml', env, '/');
  } catch (error) {
    if (error instanceof ConfigError) return error.message.split('\n');
    throw error;
  }
  return [];
}

describe('live mode', () => {
  it('requires https for the API and the RPC, redacting what it echoes', () => {
    const text = 'mode: live\napi: { base_url: "http://api.jup.ag" }\nrpc: { url: "http://user:pw@rpc.example.com/?api-key=abc" }\n';
    expect(problems(text, LIVE_ENV)).toEqual([
      'c.yaml:2:18: api.base_url must use https in live mode (got "http://api.jup.ag"); plain http is allowed only for localhost',
      'c.yaml:3:13: rpc.url: carries credentials (user:password@), which HTTP clients refuse to send: remove them and pass the key the way the provider documents it, in the path or the query string (e.g. https://rpc.example.com/?api-key=…); the value is not shown',
      'c.yaml:3:13: rpc.url must use https in live mode (got "http://…@rpc.example.com/?…"); plain http is allowed only for localhost',
    ]);
  });

  it('allows plain http to loopback addresses', () => {
    const text = 'mode: live\napi: { base_url: "http://127.0.0.1:8080/" }\nrpc: { url: "http://[::1]:8899" }\n';
    const config = parseConfigText(text, 'c.yaml', LIVE_ENV, '/');
    expect(config.api.base_url).toBe('http://127.0.0.1:8080');
    expect(config.rpc.url).toBe('http://[::1]:8899');
  });

  it('allows plain http in paper mode, where these URLs are not used', () => {
    expect(problems('mode: paper\nrpc: { url: "http://rpc.example.com" }\n')).toEqual([]);
  });
});

describe('notify.webhooks', () => {
  it('needs exactly one of url and url_env', () => {
    const text = 'notify:\n  webhooks:\n    - kind: slack\n    - url: https://a.example\n      url_env: HOOK\n';
    expect(problems(text, { HOOK: 'https://b.example' })).toEqual([
      'c.yaml:3:7: notify.webhooks[0] needs url (or url_env, the name of an environment variable holding it)',
      'c.yaml:5:16: notify.webhooks[1]: set url or url_env, not both',
    ]);
  });

  it('reads url_env from the environment and checks it without echoing it', () => {
    const text = 'notify:\n  webhooks:\n    - url_env: HOOK_A\n    - url_env: HOOK_B\n';
    expect(problems(text, { HOOK_B: 'not a url, but secret' })).toEqual([
      'c.yaml:3:16: notify.webhooks[0].url_env names HOOK_A, which is not set in the environment',
      'c.yaml:4:16: the URL in the environment variable HOOK_B is not an http(s) URL',
    ]);
  });

  it('defaults kind to generic and events to all', () => {
    const config = parseConfigText('notify: { webhooks: [ { url: "https://h.example/x" } ] }', 'c.yaml', {}, '/');
    expect(config.notify.webhooks).toEqual([expect.objectContaining({ kind: 'generic', events: ['trade', 'order', 'error', 'health', 'lifecycle'] })]);
  });
});

describe('all at once', () => {
  it('reports schema problems and cross-field problems in the same run', () => {
    const text = 'mode: live\napi:\n  keyless: true\n  requests_per_second: 2\n  timout: 5s\nhttp: { listen: "localhost:99999" }\n';
    expect(problems(text)).toEqual([
      'c.yaml:1:7: live mode needs a wallet: set wallet.keypair_file or the JUPBOT_KEYPAIR environment variable',
      'c.yaml:4:24: api.requests_per_second is 2 but the keyless tier allows 0.5 per second; lower it, or set a key and remove api.keyless',
      'c.yaml:5:3: unknown key "timout" in api (did you mean "timeout"?)',
      'c.yaml:6:17: http.listen: "localhost:99999" port 99999 is out of range (0 to 65535)',
    ]);
  });
});

describe('http.listen', () => {
  it.each([
    ['127.0.0.1:9464', { host: '127.0.0.1', port: 9464 }],
    ['"[::1]:0"', { host: '::1', port: 0 }],
    ['localhost:80', { host: 'localhost', port: 80 }],
  ])('%s', (text, expected) => {
    expect(parseConfigText(`http: { listen: ${text} }`, 'c.yaml', {}, '/').http.listen).toEqual(expected);
  });

  it('explains a port without a host', () => {
    expect(problems('http:\n  listen: 9464\n')).toEqual(['c.yaml:2:11: http.listen: 9464 is not host:port (e.g. 127.0.0.1:9464)']);
  });
});

describe('rehearsal mode', () => {
  const ADDRESS = 'JUPyiwrYJFskUPiHa7hkeR8VUtAeFoSYbKedZNsDvCN';

  it('needs the address it watches, an API key and https, as live mode does, but no key', () => {
    expect(problems('mode: rehearsal\napi: { base_url: "http://api.jup.ag" }\n')).toEqual([
      'c.yaml:1:7: rehearsal mode needs an API key: the environment variable JUPITER_API_KEY (named by api.key_env) is not set; set it, or set api.keyless: true to use the keyless tier (0.5 requests/s)',
      'c.yaml:1:7: rehearsal mode needs wallet.address: the address to rehearse with, watch-only (no secret key is read in this mode)',
      'c.yaml:2:18: api.base_url must use https in rehearsal mode (got "http://api.jup.ag"); plain http is allowed only for localhost',
    ]);
  });

  it('never reads JUPBOT_KEYPAIR: a malformed one is no problem, and the config holds none', () => {
    const text = `mode: rehearsal\nwallet: { address: ${ADDRESS} }\n`;
    expect(problems(text, { JUPITER_API_KEY: 'k', JUPBOT_KEYPAIR: 'not a key' })).toEqual([]);
    const config = parseConfigText(text, 'c.yaml', { JUPITER_API_KEY: 'k', JUPBOT_KEYPAIR: LIVE_ENV.JUPBOT_KEYPAIR }, '/');
    expect([config.mode, config.wallet.address, config.wallet.keypair, config.rehearsal.balances]).toEqual(['rehearsal', ADDRESS, null, null]);
  });

  it('reads declared opening balances as decimal strings, and refuses a number or a malformed amount', () => {
    const text = `mode: rehearsal\nwallet: { address: ${ADDRESS} }\nrehearsal:\n  balances: { SOL: "2.5", USDC: 100, JUP: "1e3" }\n`;
    expect(problems(text, { JUPITER_API_KEY: 'k' })).toEqual([
      'c.yaml:4:33: rehearsal.balances.USDC must be a string (got number 100)',
      'c.yaml:4:43: rehearsal.balances.JUP: must be an amount of whole tokens as a quoted decimal, e.g. "12.5"',
    ]);
    const ok = parseConfigText(
      `mode: rehearsal\nwallet: { address: ${ADDRESS} }\nrehearsal: { balances: { SOL: "2.5" } }\n`,
      'c.yaml',
      { JUPITER_API_KEY: 'k' },
      '/',
    );
    expect(ok.rehearsal.balances).toEqual({ SOL: '2.5' });
  });
});

describe('fleet', () => {
  it('refuses a password in fleet.redis, in the userinfo or the query, without showing it', () => {
    const message =
      'carries a password, and secrets are never written in the config file: put the URL in an environment variable and name it in fleet.redis_env';
    expect(problems('fleet:\n  redis: "redis://:hunter2@10.0.0.5:6379/0"\n')).toEqual([`c.yaml:2:10: fleet.redis ${message}`]);
    expect(problems('fleet:\n  redis: "redis://10.0.0.5:6379/0?password=hunter2"\n')).toEqual([`c.yaml:2:10: fleet.redis ${message}`]);
    expect(problems('fleet:\n  redis: "redis://10.0.0.5:6379/0"\n  size: 3\n')).toEqual([]);
  });

  it('refuses a fleet.size the quota cannot give one request each beside its headroom', () => {
    // The Free plan's 1 request/s is 60 a window: 3 for order work, 57 daemons at most.
    expect(problems('fleet:\n  redis: "redis://h:6379"\n  size: 57\n')).toEqual([]);
    expect(problems('fleet:\n  redis: "redis://h:6379"\n  size: 58\n')).toEqual([
      "c.yaml:3:9: fleet.size 58 is more daemons than a quota of 60 requests per 60 s can hold (3 kept for order work leaves 57, at least one for each daemon): raise api.requests_per_second to the key's plan, or run fewer daemons on the key",
    ]);
    expect(problems('api: { requests_per_second: 10 }\nfleet:\n  redis: "redis://h:6379"\n  size: 58\n')).toEqual([]);
  });
});
