import type { Diagnostic, DocPath } from './diagnostics.js';
import { formatPath } from './diagnostics.js';
import { CREDENTIALS_IN_URL, isLoopbackHost, parseHttpUrl, redactUrl } from './fieldSchemas.js';
import { fleetSizeProblem } from '../fleet/quotaSplit.js';
import { quotaPerWindow } from '../jupiter/limiter.js';
import { DEFAULTS, FREE_TIER_RPS, KEYLESS_RPS } from './schema.js';
import { isSecretKeyText } from './secretKeyText.js';
import { unsetVariables } from './expandVariables.js';
import type { YamlSource } from './yamlSource.js';
import { diagnosticAt } from './yamlSource.js';

export type Env = Readonly<Record<string, string | undefined>>;

/** The environment variable that holds the wallet's secret key, overriding wallet.keypair_file. */
export const KEYPAIR_ENV = 'JUPBOT_KEYPAIR';

const ENV_NAME = /^[A-Z_][A-Z0-9_]*$/;

/**
 * Rules that span several keys or involve the environment. They read the raw document, not the
 * schema's output, so that they run even when the schema found problems elsewhere: the user sees
 * every problem in one pass. Each rule checks the types it relies on and stays silent when a
 * value is malformed, since the schema already reports that.
 *
 * No message here ever includes the value of an environment variable.
 */
export function checkConfigRules(source: YamlSource, env: Env, options: { secrets?: boolean } = {}): Diagnostic[] {
  const raw = source.value;
  const out: Diagnostic[] = [];
  const at = (path: DocPath, message: string): void => {
    out.push(diagnosticAt(source, path, message));
  };
  const has = (path: DocPath): boolean => get(raw, path) !== undefined;
  const mode = get(raw, ['mode']);
  const rehearsal = mode === 'rehearsal';
  // Rehearsal reads the real API and chain as live mode does (it only signs nothing): the same network rules.
  const live = mode === 'live' || rehearsal;

  if (live) {
    for (const [path, fallback] of [
      [['api', 'base_url'], DEFAULTS.baseUrl],
      [['rpc', 'url'], DEFAULTS.rpcUrl],
    ] as const) {
      const text = stringAt(raw, path) ?? fallback;
      const url = parseHttpUrl(text.trim());
      if (url?.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
        at(
          path,
          `${formatPath(path)} must use https in ${rehearsal ? 'rehearsal' : 'live'} mode (got "${redactUrl(text)}"); plain http is allowed only for localhost`,
        );
      }
    }
  }

  // The ops endpoints have no authentication: loopback only, unless the operator says otherwise.
  const listen = stringAt(raw, ['http', 'listen']);
  if (listen !== undefined && get(raw, ['http', 'allow_remote']) !== true) {
    const host = listen.trim().replace(/:\d+$/, '');
    if (host !== '' && !isLoopbackHost(host)) {
      at(
        ['http', 'listen'],
        `http.listen ${listen} is not a loopback address, and /status, /metrics and /readyz have no authentication: listen on 127.0.0.1 (behind a proxy that authenticates, if others need it), or set http.allow_remote: true to accept that anyone who reaches the port reads them`,
      );
    }
  }

  const keyless = get(raw, ['api', 'keyless']) === true;
  const rps = get(raw, ['api', 'requests_per_second']);
  if (keyless && typeof rps === 'number' && rps > KEYLESS_RPS) {
    at(
      ['api', 'requests_per_second'],
      `api.requests_per_second is ${rps} but the keyless tier allows ${KEYLESS_RPS} per second; lower it, or set a key and remove api.keyless`,
    );
  }

  if (live && !keyless && options.secrets !== false) {
    const named = stringAt(raw, ['api', 'key_env']);
    const keyEnv = named ?? DEFAULTS.keyEnv;
    if (ENV_NAME.test(keyEnv) && !isSet(env[keyEnv])) {
      at(
        named !== undefined ? ['api', 'key_env'] : ['mode'],
        `${rehearsal ? 'rehearsal' : 'live'} mode needs an API key: the environment variable ${keyEnv} (named by api.key_env) is not set; set it, or set api.keyless: true to use the keyless tier (${KEYLESS_RPS} requests/s)`,
      );
    }
  }

  const keypairText = rehearsal ? undefined : env[KEYPAIR_ENV];
  if (isSet(keypairText) && !isSecretKeyText(keypairText)) {
    out.push({
      file: source.file,
      line: 0,
      col: 0,
      path: [],
      message: `the environment variable ${KEYPAIR_ENV} does not hold a secret key (expected base58 text or a JSON array of 64 numbers, as in a solana-keygen file)`,
    });
  }
  if (rehearsal && !has(['wallet', 'address'])) {
    at(['mode'], 'rehearsal mode needs wallet.address: the address to rehearse with, watch-only (no secret key is read in this mode)');
  }
  if (live && !rehearsal && !isSet(keypairText) && !has(['wallet', 'keypair_file'])) {
    at(['mode'], `live mode needs a wallet: set wallet.keypair_file or the ${KEYPAIR_ENV} environment variable`);
  }

  // `${NAME}` in the key file's path (systemd's $CREDENTIALS_DIRECTORY): only a start needs it set.
  const keyPath = stringAt(raw, ['wallet', 'keypair_file']);
  if (keyPath !== undefined && live && !rehearsal && options.secrets !== false && !isSet(keypairText)) {
    for (const name of unsetVariables(keyPath, env))
      at(
        ['wallet', 'keypair_file'],
        `wallet.keypair_file names \${${name}}, which is not set${name === 'CREDENTIALS_DIRECTORY' ? ': systemd sets it for a unit with LoadCredential= (docs/going-live.md)' : ''}; set it, or write the path out`,
      );
  }

  for (const path of [['data_dir'], ['strategies_dir'], ['lock_dir'], ['wallet', 'keypair_file']] as const) {
    const text = stringAt(raw, path);
    if (text !== undefined && /^~(?:\/|$)/.test(text) && !isSet(env.HOME)) {
      at(path, `${formatPath(path)} starts with ~ but HOME is not set; write the full path`);
    }
  }

  const webhooks = get(raw, ['notify', 'webhooks']);
  if (Array.isArray(webhooks)) {
    webhooks.forEach((_, i) => checkWebhook(raw, ['notify', 'webhooks', i], live, env, at));
  }
  checkFleetRedis(raw, env, options.secrets !== false, at);
  const size = get(raw, ['fleet', 'size']);
  if (typeof size === 'number' && Number.isInteger(size) && size > 1) {
    const rate = typeof rps === 'number' && rps > 0 ? rps : keyless ? KEYLESS_RPS : FREE_TIER_RPS;
    const problem = fleetSizeProblem(quotaPerWindow(rate), size);
    if (problem !== null) at(['fleet', 'size'], problem);
  }
  return out;
}

/** `redis://` or `rediss://` (TLS), a host, an optional port and database number: what the fleet client opens. */
function redisUrlProblem(text: string, inFile: boolean): string | undefined {
  if (!URL.canParse(text.trim())) return 'is not a URL (expected redis://host:6379/0 or rediss://…)';
  const url = new URL(text.trim());
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') return `uses ${url.protocol.replace(/:$/, '')}, not redis or rediss`;
  if (url.hostname === '') return 'has no host';
  if (url.pathname !== '' && url.pathname !== '/' && !/^\/\d{1,2}$/.test(url.pathname)) return 'has a path that is not a database number (/0 to /15)';
  // ioredis also reads a password from the query string (`?password=`).
  if (inFile && (url.password !== '' || url.searchParams.has('password')))
    return 'carries a password, and secrets are never written in the config file: put the URL in an environment variable and name it in fleet.redis_env';
  return undefined;
}

function checkFleetRedis(raw: unknown, env: Env, secrets: boolean, at: (path: DocPath, message: string) => void): void {
  const url = get(raw, ['fleet', 'redis']);
  const urlEnv = get(raw, ['fleet', 'redis_env']);
  if (url !== undefined && urlEnv !== undefined) {
    at(['fleet', 'redis_env'], 'fleet: set redis or redis_env, not both');
    return;
  }
  if (typeof url === 'string') {
    const why = redisUrlProblem(url, true);
    if (why) at(['fleet', 'redis'], `fleet.redis ${why}`);
  } else if (typeof urlEnv === 'string' && ENV_NAME.test(urlEnv) && secrets) {
    const value = env[urlEnv];
    if (!isSet(value)) at(['fleet', 'redis_env'], `fleet.redis_env names ${urlEnv}, which is not set in the environment`);
    else {
      const why = redisUrlProblem(value, false);
      if (why) at(['fleet', 'redis_env'], `the Redis URL in the environment variable ${urlEnv} ${why} (the value is not shown)`);
    }
  }
}

function checkWebhook(raw: unknown, path: DocPath, live: boolean, env: Env, at: (path: DocPath, message: string) => void): void {
  const hook = get(raw, path);
  if (typeof hook !== 'object' || hook === null || Array.isArray(hook)) return;
  const where = formatPath(path);
  const url = get(hook, ['url']);
  const urlEnv = get(hook, ['url_env']);
  if (url !== undefined && urlEnv !== undefined) {
    at([...path, 'url_env'], `${where}: set url or url_env, not both`);
    return;
  }
  if (url === undefined && urlEnv === undefined) {
    at(path, `${where} needs url (or url_env, the name of an environment variable holding it)`);
    return;
  }
  // A webhook URL is a credential (anyone holding it can post), so it is never echoed.
  const problem = (text: string): string | undefined => {
    const parsed = parseHttpUrl(text.trim());
    if (!parsed) return 'is not an http(s) URL';
    if (parsed.username !== '' || parsed.password !== '') return CREDENTIALS_IN_URL;
    if (live && parsed.protocol === 'http:' && !isLoopbackHost(parsed.hostname)) return 'must use https in live mode';
    return undefined;
  };
  if (typeof url === 'string') {
    const why = problem(url);
    if (why) at([...path, 'url'], `${where}.url ${why} (the value is not shown: a webhook URL is a credential)`);
  } else if (typeof urlEnv === 'string' && ENV_NAME.test(urlEnv)) {
    const value = env[urlEnv];
    if (!isSet(value)) at([...path, 'url_env'], `${where}.url_env names ${urlEnv}, which is not set in the environment`);
    else {
      const why = problem(value);
      if (why) at([...path, 'url_env'], `the URL in the environment variable ${urlEnv} ${why}`);
    }
  }
}

/** An environment variable counts as set when it holds something other than blanks. */
export function isSet(value: string | undefined): value is string {
  return value !== undefined && value.trim() !== '';
}

function get(raw: unknown, path: DocPath): unknown {
  let node = raw;
  for (const segment of path) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string | number, unknown>)[segment];
  }
  return node;
}

function stringAt(raw: unknown, path: DocPath): string | undefined {
  const value = get(raw, path);
  return typeof value === 'string' ? value : undefined;
}
