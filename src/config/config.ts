import { dirname, isAbsolute, join, resolve } from 'node:path';
import { Secret } from '../secret.js';
import type { Env } from './configRules.js';
import { isSet, KEYPAIR_ENV } from './configRules.js';
import type { DeepReadonly } from './deepFreeze.js';
import { deepFreeze } from './deepFreeze.js';
import { expandPath } from './expandPath.js';
import { expandVariables } from './expandVariables.js';
import type { ConfigFile, NotifyEvent, WebhookKind } from './schema.js';
import { FREE_TIER_RPS, KEYLESS_RPS, NOTIFY_EVENTS } from './schema.js';

/** A notification endpoint, its URL (a credential) read from the file or the environment. */
export interface Webhook {
  url: Secret;
  kind: WebhookKind;
  events: NotifyEvent[];
}

/**
 * The daemon's configuration, checked and complete: every default applied, durations in
 * milliseconds, paths absolute, secrets read from the environment and wrapped in {@link Secret}.
 * Keys keep their YAML names so code, docs and error messages share one vocabulary.
 * Deeply frozen.
 */
export type Config = DeepReadonly<{
  mode: ConfigFile['mode'];
  api: Omit<ConfigFile['api'], 'key' | 'api_key' | 'requests_per_second'> & {
    requests_per_second: number;
    /** From the variable named by `key_env`; null when it is unset or `keyless` is true. */
    key: Secret | null;
  };
  rpc: ConfigFile['rpc'];
  wallet: {
    /** Absolute. Null when not given; JUPBOT_KEYPAIR, when set, takes precedence. */
    keypair_file: string | null;
    /** The JUPBOT_KEYPAIR value (base58 or JSON array), when set. */
    keypair: Secret | null;
    /** Accept a key file readable by group or others (see docs/security.md). */
    allow_insecure_permissions: boolean;
    /** Others trade this wallet too: their orders and transactions do not stop the daemon. */
    shared: boolean;
    /** Rehearsal mode's watch-only address; null when not given. */
    address: string | null;
  };
  data_dir: string;
  strategies_dir: string;
  /** Absolute: `lock_dir` as written, else the per-host runtime directory {@link defaultLockDir} picks. */
  lock_dir: string;
  poll: ConfigFile['poll'];
  http: ConfigFile['http'];
  notify: {
    webhooks: Webhook[];
    /** Milliseconds a feed or the login must be down before the one "down" alert of that outage. */
    down_after: number;
  };
  log: ConfigFile['log'];
  sim: {
    /** Null: draw a seed at start (and log it, so the run can be replayed). */
    seed: string | null;
    speed: number;
    /** Null: run the simulator in-process without a listening socket. */
    port: number | null;
  };
  session: ConfigFile['session'];
  prediction: ConfigFile['prediction'];
  guard: ConfigFile['guard'];
  history: ConfigFile['history'];
  /** Account-wide limits, each resolved with what it pauses; null where not configured. */
  protections: ConfigFile['protections'];
  fleet: {
    /** The Redis URL (from `fleet.redis` or the variable `fleet.redis_env` names); null: no fleet. */
    redis: Secret | null;
    size: number;
    name: string;
    /** Milliseconds between roster heartbeats. */
    heartbeat: number;
  };
  rehearsal: {
    /** Opening balances of the rehearsal ledger by token (mint or symbol), whole tokens; null: the wallet's real balances. */
    balances: Readonly<Record<string, string>> | null;
  };
  source: {
    /** Absolute path of the file this config was read from. */
    file: string;
  };
}>;

/**
 * Where the per-wallet locks live when `lock_dir` is not set: a directory every daemon of this user
 * on this host agrees on, that is writable under the shipped systemd unit and in the image, and that
 * a reboot empties. systemd's `RuntimeDirectory=` (the unit's /run/jupbot, named by
 * $RUNTIME_DIRECTORY), else the login session's $XDG_RUNTIME_DIR/jupbot, else
 * `<$TMPDIR or /tmp>/jupbot-<uid>` (the image, a shell without a session).
 */
export function defaultLockDir(env: Env, uid: number | undefined = process.getuid?.()): string {
  const runtime = env.RUNTIME_DIRECTORY?.split(':')[0];
  if (isSet(runtime) && isAbsolute(runtime)) return resolve(runtime);
  if (isSet(env.XDG_RUNTIME_DIR) && isAbsolute(env.XDG_RUNTIME_DIR)) return join(resolve(env.XDG_RUNTIME_DIR), 'jupbot');
  const tmp = isSet(env.TMPDIR) && isAbsolute(env.TMPDIR) ? resolve(env.TMPDIR) : '/tmp';
  return join(tmp, `jupbot-${uid ?? 'user'}`);
}

export interface ResolveContext {
  readonly env: Env;
  /** Absolute path of the config file; relative paths inside it are resolved from its directory. */
  readonly file: string;
}

/**
 * Completes a schema-checked file into a {@link Config}. Call only after configRules passed:
 * it assumes, for instance, that HOME is set when a path starts with `~`.
 */
export function resolveConfig(file: ConfigFile, context: ResolveContext): Config {
  const { env } = context;
  const configFile = resolve(context.file);
  const baseDir = dirname(configFile);
  const path = (p: string): string => expandPath(p, baseDir, env.HOME);
  const secretFrom = (value: string | undefined): Secret | null => (isSet(value) ? new Secret(value.trim()) : null);

  const { key: _key, api_key: _apiKey, requests_per_second, ...api } = file.api;
  return deepFreeze({
    mode: file.mode,
    api: {
      ...api,
      requests_per_second: requests_per_second ?? (api.keyless ? KEYLESS_RPS : FREE_TIER_RPS),
      key: api.keyless ? null : secretFrom(env[api.key_env]),
    },
    rpc: file.rpc,
    wallet: {
      keypair_file: file.wallet.keypair_file === undefined ? null : path(expandVariables(file.wallet.keypair_file, env)),
      // Rehearsal reads no secret key, not even from the environment: it has nothing to sign with.
      keypair: file.mode === 'rehearsal' ? null : secretFrom(env[KEYPAIR_ENV]),
      allow_insecure_permissions: file.wallet.allow_insecure_permissions,
      shared: file.wallet.shared,
      address: file.wallet.address ?? null,
    },
    data_dir: path(file.data_dir),
    strategies_dir: path(file.strategies_dir),
    lock_dir: file.lock_dir === undefined ? defaultLockDir(env) : path(file.lock_dir),
    poll: file.poll,
    http: file.http,
    notify: {
      webhooks: file.notify.webhooks.map((hook) => ({
        url: new Secret((hook.url ?? (hook.url_env === undefined ? '' : (env[hook.url_env] ?? ''))).trim()),
        kind: hook.kind,
        events: hook.events ?? [...NOTIFY_EVENTS],
      })),
      down_after: file.notify.down_after,
    },
    log: file.log,
    sim: {
      seed: file.sim.seed === undefined ? null : String(file.sim.seed),
      speed: file.sim.speed,
      port: file.sim.port ?? null,
    },
    session: file.session,
    prediction: file.prediction,
    guard: file.guard,
    history: file.history,
    protections: file.protections,
    fleet: {
      redis: secretFrom(file.fleet.redis ?? (file.fleet.redis_env === undefined ? undefined : env[file.fleet.redis_env])),
      size: file.fleet.size,
      name: file.fleet.name,
      heartbeat: file.fleet.heartbeat,
    },
    rehearsal: { balances: file.rehearsal.balances ?? null },
    source: { file: configFile },
  });
}
