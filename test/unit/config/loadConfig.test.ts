import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, ConfigFileError } from '../../../src/config/configError.js';
import { loadConfig, parseConfigText } from '../../../src/config/loadConfig.js';

const repo = resolve(import.meta.dirname, '../../..');
const fixtures = 'test/fixtures/config';
const JSON_KEY = JSON.stringify(Array.from({ length: 64 }, (_, i) => i));
/** The same 64 bytes in base58, the other form JUPBOT_KEYPAIR accepts (not a real key: bytes 0..63). */
const BASE58_KEY = '1GMkH3brNXiNNs1tiFZHu4yZSRrzJwxi5wB9bHFtMinfCXNnR1adh8Vo8NTheK4evneedH4qmvjeqcBBNAefgS';

const scratch = mkdtempSync(join(tmpdir(), 'jupbot-config-test-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const tempDir = (name: string): string => mkdtempSync(join(scratch, name));

/** A HOME with a key file where live.example.yaml expects it. */
function fakeHome(): string {
  const home = tempDir('home-');
  mkdirSync(join(home, '.config/solana'), { recursive: true });
  writeFileSync(join(home, '.config/solana/id.json'), JSON_KEY);
  return home;
}

function problems(run: () => unknown): string[] {
  try {
    run();
  } catch (error) {
    if (error instanceof ConfigError) return error.message.split('\n');
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('shipped configs', () => {
  it('config/default.yaml loads with no key, no wallet and no HOME', async () => {
    const config = await loadConfig({ file: 'config/default.yaml', env: {}, cwd: repo });
    expect(config.mode).toBe('paper');
    expect(config.api.key).toBeNull();
    expect(config.wallet).toEqual({ keypair_file: null, keypair: null, allow_insecure_permissions: false, shared: false, address: null });
    expect(config.data_dir).toBe(join(repo, 'data'));
    expect(config.strategies_dir).toBe(join(repo, 'strategies'));
    expect(config.source.file).toBe(join(repo, 'config/default.yaml'));
  });

  it('config/docker.yaml, the image default, loads: paper mode, data on the volume, ops published on purpose', async () => {
    const config = await loadConfig({ file: 'config/docker.yaml', env: {}, cwd: repo });
    expect(config.mode).toBe('paper');
    expect(config.data_dir).toBe('/data');
    expect(config.strategies_dir).toBe(join(repo, 'strategies'));
    expect(config.http.listen).toEqual({ host: '0.0.0.0', port: 9464 });
  });

  it('config/live.example.yaml loads once a key and a key file exist', async () => {
    const home = fakeHome();
    const config = await loadConfig({ file: 'config/live.example.yaml', env: { HOME: home, JUPITER_API_KEY: 'k-123' }, cwd: repo });
    expect(config.mode).toBe('live');
    expect(config.api.key?.reveal()).toBe('k-123');
    expect(config.wallet.keypair_file).toBe(join(home, '.config/solana/id.json'));
    // Empty but for its README: a copy of the example started with a key trades nothing.
    expect(config.strategies_dir).toBe(join(repo, 'strategies.live'));
    expect(config.poll).toEqual({ prices: 10_000, scores: 15_000, positions: 30_000, orders: 30_000, strategies: 5_000 });
  });

  it('config/live.example.yaml names what is missing when the environment is empty', async () => {
    const home = tempDir('empty-home-');
    const error = await loadConfig({ file: 'config/live.example.yaml', env: { HOME: home }, cwd: repo }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as ConfigError).message;
    expect(message).toMatch(
      /^config\/live\.example\.yaml:\d+:\d+: live mode needs an API key: the environment variable JUPITER_API_KEY \(named by api\.key_env\) is not set/m,
    );
    expect(message).toContain(`wallet.keypair_file: ${home}/.config/solana/id.json does not exist`);
  });
});

describe('defaults', () => {
  it('an empty file is a complete paper config', () => {
    const config = parseConfigText('# nothing but a comment\n', 'etc/jupbot.yaml', {}, '/srv');
    expect(config).toMatchObject({
      mode: 'paper',
      api: { base_url: 'https://api.jup.ag', key_env: 'JUPITER_API_KEY', keyless: false, requests_per_second: 1, timeout: 10_000 },
      rpc: { url: 'https://api.mainnet-beta.solana.com' },
      data_dir: '/srv/etc/data',
      strategies_dir: '/srv/etc/strategies',
      http: { listen: { host: '127.0.0.1', port: 9464 } },
      notify: { webhooks: [] },
      log: { level: 'info', format: 'auto' },
      sim: { seed: null, speed: 1, port: null },
      session: { refresh_margin: 3_600_000 },
    });
  });

  it('keyless defaults requests_per_second to the keyless quota', () => {
    expect(parseConfigText('api: { keyless: true }', 'c.yaml', {}, '/').api.requests_per_second).toBe(0.5);
  });
});

describe('paths', () => {
  it('resolves relative paths from the config file directory and ~ from HOME', () => {
    const text = 'data_dir: ./state\nstrategies_dir: ~/strategies\nwallet: { keypair_file: /keys/../keys/id.json }\n';
    const config = parseConfigText(text, 'conf/jupbot.yaml', { HOME: '/home/op' }, '/opt/bot');
    expect(config.data_dir).toBe('/opt/bot/conf/state');
    expect(config.strategies_dir).toBe('/home/op/strategies');
    expect(config.wallet.keypair_file).toBe('/keys/id.json');
  });

  it('reports ~ when HOME is not set, and ~user as unsupported', () => {
    expect(problems(() => parseConfigText('data_dir: ~/data\nstrategies_dir: ~bob/s\n', 'c.yaml', {}, '/'))).toEqual([
      'c.yaml:1:11: data_dir starts with ~ but HOME is not set; write the full path',
      'c.yaml:2:17: strategies_dir: only ~/ (your home directory) is expanded, not ~user/; write the full path',
    ]);
  });

  it("lock_dir: as written, else systemd's runtime directory, else the session's, else a per-user one under the temporary directory", () => {
    const lockDir = (text: string, env: Record<string, string>): string => parseConfigText(text, 'conf/jupbot.yaml', env, '/opt/bot').lock_dir;
    const uid = process.getuid?.() ?? 'user';
    expect(lockDir('lock_dir: ../locks\n', { RUNTIME_DIRECTORY: '/run/jupbot' })).toBe('/opt/bot/locks');
    expect(lockDir('', { RUNTIME_DIRECTORY: '/run/jupbot:/run/other', XDG_RUNTIME_DIR: '/run/user/1000' })).toBe('/run/jupbot');
    expect(lockDir('', { XDG_RUNTIME_DIR: '/run/user/1000', TMPDIR: '/var/tmp' })).toBe('/run/user/1000/jupbot');
    expect(lockDir('', { TMPDIR: '/var/tmp' })).toBe(`/var/tmp/jupbot-${uid}`);
    expect(lockDir('', { XDG_RUNTIME_DIR: 'relative', TMPDIR: '' })).toBe(`/tmp/jupbot-${uid}`);
  });
});

describe('environment', () => {
  it('live mode without the key named by api.key_env is an error naming the variable', () => {
    const text = 'mode: live\napi:\n  key_env: MY_JUP_KEY\nwallet: { keypair_file: /k.json }\n';
    expect(problems(() => parseConfigText(text, 'c.yaml', {}, '/'))).toEqual([
      'c.yaml:3:12: live mode needs an API key: the environment variable MY_JUP_KEY (named by api.key_env) is not set; set it, or set api.keyless: true to use the keyless tier (0.5 requests/s)',
    ]);
  });

  it('a blank key counts as unset', () => {
    const text = 'mode: live\nwallet: { keypair_file: /k.json }\n';
    expect(problems(() => parseConfigText(text, 'c.yaml', { JUPITER_API_KEY: '  ' }, '/'))[0]).toContain('JUPITER_API_KEY (named by api.key_env) is not set');
  });

  it('live mode with keyless: true needs no key', async () => {
    const config = await loadConfig({ file: `${fixtures}/live-keyless.yaml`, env: {}, cwd: repo });
    expect(config.api).toMatchObject({ keyless: true, key: null, requests_per_second: 0.5 });
    expect(config.wallet.keypair_file).toBe(join(repo, fixtures, 'keys/placeholder-keypair.json'));
  });

  it('keyless refuses a quota above the keyless tier', () => {
    expect(problems(() => parseConfigText('api:\n  keyless: true\n  requests_per_second: 10\n', 'c.yaml', {}, '/'))).toEqual([
      'c.yaml:3:24: api.requests_per_second is 10 but the keyless tier allows 0.5 per second; lower it, or set a key and remove api.keyless',
    ]);
  });

  it('JUPBOT_KEYPAIR, base58 or JSON, stands in for wallet.keypair_file', async () => {
    for (const key of [BASE58_KEY, JSON_KEY]) {
      const text = 'mode: live\nwallet: { keypair_file: /does/not/exist.json }\n';
      const file = join(tempDir('cfg-'), 'live.yaml');
      writeFileSync(file, text);
      const config = await loadConfig({ file, env: { JUPITER_API_KEY: 'k', JUPBOT_KEYPAIR: key }, cwd: '/' });
      expect(config.wallet.keypair?.reveal()).toBe(key);
    }
  });

  it("wallet.keypair_file expands ${NAME}: systemd's credentials directory", async () => {
    const credentials = tempDir('credentials-');
    writeFileSync(join(credentials, 'wallet-key'), JSON_KEY);
    const file = join(tempDir('cfg-'), 'live.yaml');
    writeFileSync(file, 'mode: live\nwallet: { keypair_file: "${CREDENTIALS_DIRECTORY}/wallet-key" }\n');
    const config = await loadConfig({ file, env: { JUPITER_API_KEY: 'k', CREDENTIALS_DIRECTORY: credentials }, cwd: '/' });
    expect(config.wallet.keypair_file).toBe(join(credentials, 'wallet-key'));
    // Outside the unit the variable is unset: a start is refused with the reason, a reader is not.
    const unset = await loadConfig({ file, env: { JUPITER_API_KEY: 'k' }, cwd: '/' }).catch((e: unknown) => e);
    expect((unset as ConfigError).message).toBe(
      `${file}:2:25: wallet.keypair_file names \${CREDENTIALS_DIRECTORY}, which is not set: systemd sets it for a unit with LoadCredential= (docs/going-live.md); set it, or write the path out`,
    );
    const read = await loadConfig({ file, env: {}, cwd: '/', purpose: 'read' });
    // Left as written (and so relative to the file): nothing reads it without the variable.
    expect(read.wallet.keypair_file).toBe(join(dirname(file), '${CREDENTIALS_DIRECTORY}/wallet-key'));
  });

  it('live mode needs a wallet', () => {
    expect(problems(() => parseConfigText('mode: live\n', 'c.yaml', { JUPITER_API_KEY: 'k' }, '/'))).toEqual([
      'c.yaml:1:7: live mode needs a wallet: set wallet.keypair_file or the JUPBOT_KEYPAIR environment variable',
    ]);
  });

  it('a malformed JUPBOT_KEYPAIR is reported without its value', () => {
    const lines = problems(() => parseConfigText('mode: paper\n', 'c.yaml', { JUPBOT_KEYPAIR: 'not-a-key-0OIl' }, '/'));
    expect(lines).toEqual([
      'c.yaml: the environment variable JUPBOT_KEYPAIR does not hold a secret key (expected base58 text or a JSON array of 64 numbers, as in a solana-keygen file)',
    ]);
  });

  it('JUPBOT_CONFIG names the file when no file is given; --config wins over it', async () => {
    const fromEnv = await loadConfig({ env: { JUPBOT_CONFIG: `${fixtures}/minimal.yaml` }, cwd: repo });
    expect(fromEnv.source.file).toBe(join(repo, fixtures, 'minimal.yaml'));
    const fromOption = await loadConfig({ file: 'config/default.yaml', env: { JUPBOT_CONFIG: `${fixtures}/nope.yaml` }, cwd: repo });
    expect(fromOption.source.file).toBe(join(repo, 'config/default.yaml'));
  });
});

describe('file errors', () => {
  it('a missing file is CONFIG_NOT_FOUND, naming the path and where the name came from', async () => {
    const error = await loadConfig({ env: { JUPBOT_CONFIG: 'missing.yaml' }, cwd: repo }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigFileError);
    expect(error).toMatchObject({ code: 'CONFIG_NOT_FOUND', message: `config file not found: missing.yaml (${repo}/missing.yaml), named by JUPBOT_CONFIG` });
  });

  it('the default file, when missing, says how to name another', async () => {
    const error = await loadConfig({ env: {}, cwd: tmpdir() }).catch((e: unknown) => e);
    expect((error as Error).message).toContain('the default; pass --config FILE or set JUPBOT_CONFIG');
  });

  it('a directory is CONFIG_UNREADABLE', async () => {
    await expect(loadConfig({ file: 'config', env: {}, cwd: repo })).rejects.toMatchObject({ code: 'CONFIG_UNREADABLE' });
  });

  it('invalid content is CONFIG_INVALID with the diagnostics attached', async () => {
    const error = await loadConfig({ file: `${fixtures}/three-problems.yaml`, env: {}, cwd: repo }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'CONFIG_INVALID' });
    expect((error as ConfigError).diagnostics.map((d) => [d.line, d.col, d.path])).toEqual([
      [4, 24, ['api', 'requests_per_second']],
      [6, 11, ['poll', 'prices']],
      [7, 3, ['poll', 'positons']],
    ]);
  });
});

describe('the result', () => {
  it('is deeply frozen: assignments throw in strict mode', () => {
    const config = parseConfigText('notify:\n  webhooks:\n    - url: https://hooks.example.com/x\n', 'c.yaml', {}, '/');
    expect(Object.isFrozen(config.notify.webhooks[0])).toBe(true);
    expect(() => {
      (config as { mode: string }).mode = 'live';
    }).toThrow(TypeError);
    expect(() => {
      (config.poll as { prices: number }).prices = 1;
    }).toThrow(TypeError);
    expect(() => {
      (config.notify.webhooks as unknown[]).push({});
    }).toThrow(TypeError);
  });
});
