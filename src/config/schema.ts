import { z } from 'zod';
import { durationSchema, parseDuration } from './duration.js';
import { protectionsSchema } from '../protections/protectionsSchema.js';
import { envNameSchema, forbiddenKey, httpUrlSchema, listenAddressSchema, pathSchema } from './fieldSchemas.js';

/**
 * The config file contract (every key is documented in docs/configuration.md).
 * Every object is strict: an unknown key is an error, never silently ignored. Every key has a
 * default, so an empty file is a valid paper-mode config. This schema reads the file alone;
 * rules that involve several keys or the environment live in configRules.ts.
 */

export const MODES = ['paper', 'live', 'rehearsal'] as const;
export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal'] as const;
export const LOG_FORMATS = ['auto', 'json', 'pretty'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];
export const WEBHOOK_KINDS = ['slack', 'discord', 'generic'] as const;
/** What a webhook can be told about; ops/notify maps daemon events onto these. */
export const NOTIFY_EVENTS = ['trade', 'order', 'error', 'health', 'lifecycle'] as const;

/** The Trigger API's JWT lives 24 h; a refresh margin must leave time to use it. */
export const JWT_LIFETIME_MS = parseDuration('24h');
/** The keyless tier's quota (requests per second); a key's tier is Free at 1 rps and up. */
export const KEYLESS_RPS = 0.5;
export const FREE_TIER_RPS = 1;

export const DEFAULTS = {
  mode: 'paper',
  baseUrl: 'https://api.jup.ag',
  keyEnv: 'JUPITER_API_KEY',
  apiTimeout: '10s',
  rpcUrl: 'https://api.mainnet-beta.solana.com',
  dataDir: './data',
  strategiesDir: './strategies',
  poll: { prices: '10s', scores: '15s', positions: '30s', orders: '30s', strategies: '5s' },
  listen: '127.0.0.1:9464',
  notifyDownAfter: '5m',
  refreshMargin: '1h',
  simSpeed: 1,
  maxSlippageBps: 300,
} as const;

const SECRET_IN_FILE = 'secrets are never written in the config file';

const apiSchema = z.strictObject({
  base_url: httpUrlSchema({ trimTrailingSlash: true }).default(DEFAULTS.baseUrl),
  key_env: envNameSchema.default(DEFAULTS.keyEnv),
  keyless: z.boolean().default(false),
  // No default here: it depends on `keyless` (0.5 without a key, 1 with one), resolved in loadConfig.
  requests_per_second: z.number().positive().max(100_000).optional(),
  timeout: durationSchema({ max: parseDuration('5m') }).default(parseDuration(DEFAULTS.apiTimeout)),
  /** Swap routers never to ask for (`excludeRouters` on every /order). */
  exclude_routers: z.array(z.enum(['metis', 'jupiterz', 'dflow', 'okx', 'iris'])).default([]),
  key: forbiddenKey(`${SECRET_IN_FILE}: put the API key in the environment variable named by api.key_env`),
  api_key: forbiddenKey(`${SECRET_IN_FILE}: put the API key in the environment variable named by api.key_env`),
});

const rpcSchema = z.strictObject({
  url: httpUrlSchema().default(DEFAULTS.rpcUrl),
});

/** A Solana address: base58, 32–44 characters (the guard decodes it again before use). */
const addressSchema = z.string().regex(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/, { error: 'must be a base58 Solana address (32–44 characters)' });

const WALLET_SECRET = `${SECRET_IN_FILE}: use wallet.keypair_file or the JUPBOT_KEYPAIR environment variable`;
const walletSchema = z.strictObject({
  keypair_file: pathSchema.optional(),
  /** Accept a key file readable by group or others (containers whose mounts cannot be chmod-ed). */
  allow_insecure_permissions: z.boolean().default(false),
  /**
   * Others trade this wallet too (by hand, another tool): a Trigger order or Jupiter transaction the
   * journal did not make is adopted or ignored instead of stopping the daemon (docs/operations.md).
   */
  shared: z.boolean().default(false),
  /**
   * Rehearsal mode's wallet: the address whose balances and positions are rehearsed, watch-only. No
   * secret key is read in that mode; the other modes ignore it.
   */
  address: addressSchema.optional(),
  private_key: forbiddenKey(WALLET_SECRET),
  secret_key: forbiddenKey(WALLET_SECRET),
  keypair: forbiddenKey(WALLET_SECRET),
});

const pollInterval = (fallback: string) => durationSchema({ max: parseDuration('1d') }).default(parseDuration(fallback));
const pollSchema = z.strictObject({
  prices: pollInterval(DEFAULTS.poll.prices),
  scores: pollInterval(DEFAULTS.poll.scores),
  positions: pollInterval(DEFAULTS.poll.positions),
  orders: pollInterval(DEFAULTS.poll.orders),
  strategies: pollInterval(DEFAULTS.poll.strategies),
});

const httpSchema = z.strictObject({
  listen: listenAddressSchema.default(listenAddressSchema.parse(DEFAULTS.listen)),
  /** The ops endpoints have no authentication: a non-loopback `listen` needs this explicit opt-in. */
  allow_remote: z.boolean().default(false),
});

const webhookSchema = z.strictObject({
  // One of url / url_env (checked in configRules). A webhook URL is a credential: anyone holding it can post.
  url: z.string().optional(),
  url_env: envNameSchema.optional(),
  kind: z.enum(WEBHOOK_KINDS).default('generic'),
  events: z.array(z.enum(NOTIFY_EVENTS)).min(1).optional(),
});

const notifySchema = z.strictObject({
  webhooks: z.array(webhookSchema).default([]),
  /** Alert when a feed or the Trigger login has been failing this long (one alert per outage). */
  down_after: durationSchema({ min: parseDuration('10s'), max: parseDuration('1d') }).default(parseDuration(DEFAULTS.notifyDownAfter)),
});

const logSchema = z.strictObject({
  level: z.enum(LOG_LEVELS).default('info'),
  format: z.enum(LOG_FORMATS).default('auto'),
});

const simSchema = z.strictObject({
  seed: z.union([z.string().min(1), z.int()]).optional(),
  speed: z.number().positive().max(10_000).default(DEFAULTS.simSpeed),
  port: z.int().min(0).max(65_535).optional(),
});

const sessionSchema = z.strictObject({
  refresh_margin: durationSchema({ min: parseDuration('1m'), max: JWT_LIFETIME_MS - parseDuration('1h') }).default(parseDuration(DEFAULTS.refreshMargin)),
});

const predictionSchema = z.strictObject({
  /**
   * Jupiter's prediction-market program id(s). Jupiter does not publish it; the default is the id
   * public trackers and clients built against captured orders agree on (docs/security.md). The
   * simulator uses the same id.
   */
  program_ids: z.array(addressSchema).min(1).default(['3ZZuTbwC6aJbvteyVxXUS7gtFYdf7AuXeitx6VyvjvUp']),
});

const guardSchema = z.strictObject({
  /** The most slippage a swap route may allow when the strategy sets none lower (basis points). */
  max_slippage_bps: z.int().min(0).max(5_000).default(DEFAULTS.maxSlippageBps),
  /**
   * The most slippage a vault (Trigger V2) price order, or any leg of one, may carry (basis points);
   * unset: `max_slippage_bps`. A strategy asking for more is refused when it loads.
   */
  max_vault_slippage_bps: z.int().min(0).max(10_000).optional(),
  /** Token accounts of ours that may receive a swap's platform fee (a referral fee paid to us). */
  platform_fee_accounts: z.array(addressSchema).default([]),
  /** The highest fee Jupiter may charge inside a swap route or an RFQ fill, whatever its answer declares (basis points). */
  max_fee_bps: z.int().min(0).max(1_000).default(100),
});

/** The polled prices kept in the database: one sample per token per `sample_every`, for `keep`. */
const historySchema = z.strictObject({
  sample_every: durationSchema({ min: parseDuration('10s'), max: parseDuration('1d') }).default(parseDuration('1m')),
  keep: durationSchema({ min: parseDuration('1d'), max: parseDuration('3650d') }).default(parseDuration('90d')),
});

/** A token amount as written: a decimal number of whole tokens ("12.5"), never a float. */
const wholeAmount = z.string().regex(/^\d+(\.\d+)?$/, { error: 'must be an amount of whole tokens as a quoted decimal, e.g. "12.5"' });

const rehearsalSchema = z.strictObject({
  /**
   * The rehearsal ledger's opening balances, by token (a mint, or a symbol the token search resolves
   * as the strategies' tokens are) in whole tokens. Unset: the wallet's real balances when the
   * ledger is first opened.
   */
  balances: z.record(z.string().min(1), wholeAmount).optional(),
});

/**
 * Several daemons on one API key: the rate limiter's windows kept in Redis so the fleet together
 * stays under the key's quota, and a roster `jupbot fleet status` reads. No `redis`: no fleet, the
 * limiter is the daemon's own.
 */
const fleetSchema = z.strictObject({
  /** `redis://host:port/db` (`rediss://` for TLS); a URL with a password goes in `redis_env`. */
  redis: z.string().min(1).optional(),
  /** The environment variable holding the Redis URL, when it carries a password. */
  redis_env: envNameSchema.optional(),
  /** How many daemons share the key: without Redis each keeps to its share, 1/size of the quota less a 5 % headroom. */
  size: z.int().min(1).max(1_000).default(1),
  /** The roster's name: daemons listed together by `jupbot fleet status`. */
  name: z
    .string()
    .regex(/^[A-Za-z0-9_.-]{1,64}$/, { error: 'must be 1–64 letters, digits, dots, dashes or underscores' })
    .default('default'),
  /** How often a daemon tells the roster it is alive; silent after one interval without a word. */
  heartbeat: durationSchema({ min: parseDuration('1s'), max: parseDuration('10m') }).default(parseDuration('15s')),
});

/** The whole file. Sections default to `{}` so their own defaults apply when a section is left out. */
export const configFileSchema = z.strictObject({
  mode: z.enum(MODES).default(DEFAULTS.mode),
  api: apiSchema.prefault({}),
  rpc: rpcSchema.prefault({}),
  wallet: walletSchema.prefault({}),
  data_dir: pathSchema.default(DEFAULTS.dataDir),
  strategies_dir: pathSchema.default(DEFAULTS.strategiesDir),
  /** Where the per-wallet locks live (one daemon per wallet per host); unset: a per-host runtime directory (config.ts). */
  lock_dir: pathSchema.optional(),
  poll: pollSchema.prefault({}),
  http: httpSchema.prefault({}),
  notify: notifySchema.prefault({}),
  log: logSchema.prefault({}),
  sim: simSchema.prefault({}),
  session: sessionSchema.prefault({}),
  prediction: predictionSchema.prefault({}),
  guard: guardSchema.prefault({}),
  history: historySchema.prefault({}),
  rehearsal: rehearsalSchema.prefault({}),
  /** Account-wide limits that pause trading (src/protections/); none set: nothing is watched. */
  protections: protectionsSchema.prefault({}),
  fleet: fleetSchema.prefault({}),
});

/** The file as validated: durations in ms, `http.listen` split, paths still as written. */
export type ConfigFile = z.output<typeof configFileSchema>;
export type Mode = (typeof MODES)[number];
export type LogLevel = (typeof LOG_LEVELS)[number];
export type WebhookKind = (typeof WEBHOOK_KINDS)[number];
export type NotifyEvent = (typeof NOTIFY_EVENTS)[number];
