/**
 * Every code jupbot can put in a log line, an audit action, an intent's `error_code` or a CLI
 * message: what it means, whether anything is tried again, and the exit code when it ends a command.
 * One list, typed: a code not written here does not compile where codes are taken (JupbotError,
 * the executor's results), and docs/operations.md's table is rendered from it (a test keeps the two
 * equal). Alerting and scripts key on codes, never on message text; a code is never reused.
 *
 * `retry`:
 * - `automatic`: the daemon tries again by itself (the next pass, a backoff, a fresh build);
 * - `never`: final for this intent or command (the intent is failed, the command stops);
 * - `operator`: nothing changes until someone fixes what the message names (a file, a setting).
 */
import { ExitCode } from './exitCodes.js';

export type Retry = 'automatic' | 'never' | 'operator';

export interface ErrorSpec<A extends Area = Area> {
  /** Which part of jupbot raises it. */
  readonly area: A;
  readonly meaning: string;
  readonly retry: Retry;
  /** The process exit code when this error ends a CLI command; absent: 70 (internal) if it ever does. */
  readonly exit?: ExitCode;
  /**
   * An intent failed with this code lets its rule decide again (a retry intent `~rN`, at most
   * three, a minute apart): the transaction did not go through, or the answer was "not now".
   */
  readonly retryRule?: true;
}

export type Area = 'config' | 'start' | 'store' | 'wallet' | 'jupiter' | 'session' | 'rpc' | 'executor' | 'guard' | 'backtest';

const spec = <A extends Area>(area: A, retry: Retry, meaning: string, exit?: ExitCode): ErrorSpec<A> => ({
  area,
  meaning,
  retry,
  ...(exit === undefined ? {} : { exit }),
});
const guard = (meaning: string): ErrorSpec<'guard'> => spec('guard', 'never', meaning);
/** A final failure after which the rule may decide again. */
const again = <A extends Area>(s: ErrorSpec<A>): ErrorSpec<A> => ({ ...s, retryRule: true });

export const ERROR_CATALOGUE = {
  // Configuration.
  CONFIG_INVALID: spec(
    'config',
    'operator',
    'the file has problems; the error carries `diagnostics` (`{ file, line, col, message, path }`), printed as `file:line:col: message`',
    ExitCode.InvalidInput,
  ),
  REHEARSAL_BALANCE_INVALID: spec(
    'config',
    'operator',
    'a `rehearsal.balances` entry is not an amount, or names no single verified token (write the mint)',
    ExitCode.InvalidInput,
  ),
  CONFIG_NOT_FOUND: spec('config', 'operator', 'the config file does not exist', ExitCode.NotFound),
  CONFIG_UNREADABLE: spec('config', 'operator', 'the config file exists but cannot be read (a directory, no permission)', ExitCode.NotFound),

  // A start's resources and its preflight (src/preflight/).
  OPS_PORT_IN_USE: spec(
    'start',
    'operator',
    '`http.listen` is in use (another jupbot with this config, or another program): nothing was called or written; stop the other one or change `http.listen`',
    ExitCode.PortInUse,
  ),
  OPS_LISTEN_FAILED: spec(
    'start',
    'operator',
    '`http.listen` cannot be listened on (an address this host does not have, a port below 1024 without the right): nothing was called or written',
    ExitCode.PortInUse,
  ),
  PREFLIGHT_REQUIRED: spec(
    'start',
    'operator',
    'a live start with no passing `jupbot live check` recorded for this wallet, data directory, strategies directory and endpoints (or the latest check failed): nothing was called; run the check, or `run --skip-preflight`',
    ExitCode.PreflightRequired,
  ),

  // Backtests.
  BACKTEST_PRICES_INVALID: spec(
    'backtest',
    'operator',
    'the price file has problems (a missing column, a bad time or price, an unknown token); printed as `file:line:col: message`',
    ExitCode.InvalidInput,
  ),
  BACKTEST_OUT_EXISTS: spec(
    'backtest',
    'operator',
    'the output directory already holds a backtest: name another one, or pass --force to replace it',
    ExitCode.Usage,
  ),

  // The database.
  STORE_OPEN_FAILED: spec('store', 'operator', 'the database file cannot be opened or created', ExitCode.StoreUnusable),
  STORE_WAL_UNAVAILABLE: spec('store', 'operator', 'the database refused write-ahead logging (e.g. a network file system)'),
  STORE_MIGRATIONS_INVALID: spec('store', 'operator', 'the migration files have a gap, a duplicate or a bad name'),
  STORE_MIGRATION_CHANGED: spec('store', 'operator', 'a migration that was already applied has been edited since'),
  STORE_MIGRATION_FAILED: spec('store', 'operator', 'a migration failed; its transaction was rolled back'),
  STORE_SCHEMA_TOO_NEW: spec('store', 'operator', "the database's schema is newer than this jupbot; nothing was written", ExitCode.DatabaseTooNew),
  STORE_CANONICAL_JSON: spec('store', 'never', "an audit action's data cannot be encoded canonically (undefined, NaN, a function)"),
  STORE_ACTION_INVALID: spec('store', 'never', 'an audit action is malformed (amount without decimals, bad kind)'),
  STORE_ACTION_SECRET: spec('store', 'never', "an audit action's data carries a secret-named field: refused, nothing written"),
  STORE_INTENT_UNKNOWN: spec('store', 'never', 'the journal has no intent with that id'),
  STORE_INTENT_TRANSITION: spec('store', 'never', "an intent state change the journal's state machine refuses (docs/audit.md)"),
  STORE_SIGNATURE_TAKEN: spec(
    'store',
    'automatic',
    "an intent's signed transaction is byte-identical to another intent's: not recorded, signed again on the next pass",
  ),
  STORE_INTENT_ROW_INVALID: spec('store', 'operator', 'an `intents` row does not parse (damaged, or written by a newer jupbot)'),
  STORE_ROW_INVALID: spec(
    'store',
    'operator',
    'a row of another table does not parse (damaged, hand-edited, or written by a newer jupbot); the query is named',
  ),
  STORE_LOCKED: spec(
    'store',
    'operator',
    "another jupbot process holds the data directory's lock (`jupbot.lock`, its pid in the message)",
    ExitCode.AlreadyRunning,
  ),
  STORE_READ_ONLY: spec(
    'store',
    'operator',
    "the data directory or database file cannot be written (read-only mount, permissions): make it writable by the daemon's user",
    ExitCode.StoreUnusable,
  ),
  STORE_FULL: spec(
    'store',
    'operator',
    "the database's disk is full (or its quota used up): writes fail until space is freed; /readyz fails meanwhile",
    ExitCode.StoreFull,
  ),
  STORE_IO_ERROR: spec('store', 'operator', "the database's disk reported an I/O error on a write: check the disk", ExitCode.StoreUnusable),
  STORE_NOT_A_DIRECTORY: spec('store', 'operator', '`data_dir` names a file, not a directory', ExitCode.StoreUnusable),
  STORE_INSTANCE_ID_INVALID: spec(
    'store',
    'operator',
    '`<data_dir>/instance-id` does not hold an instance id (1 to 64 letters, digits, `.`, `_` or `-`): fix it, or delete it for a new one',
    ExitCode.StoreUnusable,
  ),
  STORE_BUSY: spec(
    'store',
    'operator',
    "another connection held the database's write lock past the busy timeout: stop it and start again",
    ExitCode.StoreUnusable,
  ),

  // The key.
  WALLET_FILE_INSECURE: spec('wallet', 'operator', 'the key file is readable by group or others; `chmod 600` it', ExitCode.InvalidInput),
  WALLET_FILE_UNREADABLE: spec('wallet', 'operator', 'the key file is missing or unreadable (or live mode has no key)', ExitCode.NotFound),
  WALLET_FILE_EXISTS: spec('wallet', 'operator', '`wallet new` would overwrite an existing key file', ExitCode.InvalidInput),
  WALLET_KEY_INVALID: spec('wallet', 'operator', 'not a 64-byte Solana keypair', ExitCode.InvalidInput),
  WALLET_ADDRESS_INVALID: spec('wallet', 'operator', "rehearsal mode's `wallet.address` is not a Solana address", ExitCode.InvalidInput),
  WALLET_NOT_A_SIGNER: spec('wallet', 'operator', 'asked to sign a transaction that does not list the wallet as a signer', ExitCode.InvalidInput),
  WALLET_IN_USE: spec(
    'wallet',
    'operator',
    'another jupbot on this host drives the wallet (its pid and data_dir in the message): one wallet, one daemon',
    ExitCode.AlreadyRunning,
  ),
  WALLET_LOCK_UNUSABLE: spec(
    'wallet',
    'operator',
    "`lock_dir` cannot hold the wallet's lock (not a directory, not writable, read-only)",
    ExitCode.StoreUnusable,
  ),
  WALLET_SHARED: spec(
    'wallet',
    'operator',
    'another trader uses the wallet while the daemon runs (a Trigger order or a second Jupiter transaction the journal did not make; named in the message): trading stopped',
    ExitCode.WalletShared,
  ),

  // Jupiter's HTTP APIs (the client's own codes and each product's refusals).
  JUPITER_BAD_REQUEST: spec('jupiter', 'never', '400: Jupiter rejected the request parameters'),
  JUPITER_UNAUTHORIZED: spec('jupiter', 'operator', '401 from the gateway: the API key is invalid or unknown'),
  JUPITER_FORBIDDEN: spec('jupiter', 'operator', '403: the key lacks access to this product, or a firewall rule denied it'),
  JUPITER_NOT_FOUND: spec('jupiter', 'never', '404: wrong path or unknown resource'),
  JUPITER_CONFLICT: spec('jupiter', 'never', '409: the resource already exists'),
  JUPITER_RATE_LIMITED: spec('jupiter', 'automatic', '429: over the plan quota; the bucket pauses until the window frees a slot'),
  JUPITER_SERVER_ERROR: spec('jupiter', 'automatic', '5xx: Jupiter failed; reads retry, state-changing calls reconcile'),
  JUPITER_HTTP_ERROR: spec('jupiter', 'automatic', 'another non-2xx status'),
  JUPITER_NETWORK_ERROR: spec('jupiter', 'automatic', 'the request failed below HTTP (DNS, connection reset, TLS)'),
  JUPITER_TIMEOUT: spec('jupiter', 'automatic', 'no answer within the timeout'),
  JUPITER_ABORTED: spec('jupiter', 'never', 'the caller aborted the request (the daemon is stopping)'),
  JUPITER_CLIENT_CLOSED: spec('jupiter', 'never', 'the client was closed while the request waited'),
  JUPITER_MALFORMED_RESPONSE: spec('jupiter', 'automatic', 'the body is not valid JSON'),
  JUPITER_UNEXPECTED_RESPONSE: spec('jupiter', 'automatic', 'the body does not match the documented schema'),
  JUPITER_LEGACY_BASE_URL: spec(
    'jupiter',
    'operator',
    '(a warning at start) `api.base_url` ends with the legacy Ultra v1 path; the API root and Swap V2 are used instead',
  ),
  JUPITER_BASE_URL_PATH: spec('jupiter', 'operator', '(a warning at start) `api.base_url` carries a path; it is stripped and the API root is used'),
  JUPITER_INVALID_PARAMS: spec('jupiter', 'never', 'our parameters failed validation; nothing was sent'),
  SWAP_ORDER_INSUFFICIENT_FUNDS: spec('jupiter', 'automatic', 'swap order: the taker lacks the input amount (errorCode 1)'),
  SWAP_ORDER_INSUFFICIENT_SOL: spec('jupiter', 'automatic', 'swap order: the taker lacks SOL for gas (aggregator errorCode 2)'),
  SWAP_ORDER_BELOW_GASLESS_MINIMUM: spec('jupiter', 'automatic', 'swap order: too small for a gasless swap (aggregator errorCode 3)'),
  SWAP_ORDER_MISSING_TOKEN_ACCOUNT: spec('jupiter', 'automatic', 'swap order: missing associated token account (jupiterz errorCode 2)'),
  SWAP_ORDER_RFQ_UNBUILDABLE: spec('jupiter', 'automatic', 'swap order: the RFQ quote could not be built (jupiterz errorCode 3)'),
  SWAP_ORDER_UNBUILDABLE: spec(
    'jupiter',
    'automatic',
    'swap order: a price but no transaction, for an `errorCode` not documented (never read from the message text)',
  ),
  SWAP_EXECUTE_FAILED: spec(
    'jupiter',
    'automatic',
    'swap execute: `Failed` or a 400 with a `code` (below 0: Jupiter or landing; above 0: an on-chain program error); the signature decides',
  ),
  TRIGGER_UNAUTHORIZED: spec('jupiter', 'automatic', 'Trigger: the JWT is missing or expired (`{"error":"Unauthorized"}`): the session logs in again'),
  TRIGGER_CHALLENGE_REJECTED: spec('jupiter', 'automatic', 'Trigger: auth verify answered 400 ("Challenge not found", also a bad signature) or 401'),
  TRIGGER_VALIDATION_FAILED: spec('jupiter', 'never', 'Trigger: "Request validation failed", per-field reasons in details'),
  TRIGGER_BAD_REQUEST: spec('jupiter', 'never', 'Trigger: another 400 (state, amount, price rules)'),
  TRIGGER_FORBIDDEN: spec('jupiter', 'never', "Trigger: the wallet does not match the JWT, or the order is another wallet's"),
  TRIGGER_NOT_FOUND: spec('jupiter', 'never', 'Trigger: unknown order'),
  TRIGGER_VAULT_NOT_FOUND: spec('jupiter', 'automatic', 'Trigger: `GET /vault` 404, no vault yet: one is registered'),
  TRIGGER_HISTORY_INCOMPLETE: spec(
    'jupiter',
    'automatic',
    'Trigger: looking for one order, the bounded history read (orders of its mint created since the intent began, newest first, at most 5 pages of 100) did not reach back that far: the order is neither found nor shown absent; the next pass reads again',
  ),
  TRIGGER_VAULT_EXISTS: spec('jupiter', 'never', 'Trigger: register answered 409, a vault already exists; it is taken from `details`'),
  PREDICTION_INVALID_REQUEST: spec('jupiter', 'never', 'Prediction: a 400 ErrorResponse (see errorType, apiCode, param)'),
  PREDICTION_NOT_FOUND: spec('jupiter', 'never', 'Prediction: unknown event, market, position or order history'),
  PREDICTION_UPSTREAM_ERROR: spec('jupiter', 'automatic', 'Prediction: 502, the provider behind Jupiter failed'),
  PREDICTION_EXECUTE_FAILED: spec('jupiter', 'automatic', 'Prediction: execute answered `Failed` or a 400 `execute_failed`; the signature decides'),

  // The Trigger V2 login.
  TRIGGER_LOGIN_REJECTED: spec('session', 'operator', '`/auth/verify` refused the signature (400 or 401); the session backs off'),
  TRIGGER_LOGIN_FAILED: spec(
    'session',
    'automatic',
    'the login failed otherwise (network, 5xx, an unexpected challenge, a guard refusal); tried again with backoff',
  ),
  TRIGGER_LOGIN_BACKOFF: spec('session', 'automatic', 'a recent login failed; the next attempt is at `nextAttemptAt`, vault intents wait'),

  // The Solana node.
  RPC_ERROR: spec('rpc', 'automatic', 'the node answered a JSON-RPC error (its code in `rpcCode`)'),
  RPC_HTTP_ERROR: spec('rpc', 'automatic', 'the node answered a non-2xx HTTP status'),
  RPC_NETWORK_ERROR: spec('rpc', 'automatic', 'the node could not be reached (DNS, connection reset, TLS)'),
  RPC_TIMEOUT: spec('rpc', 'automatic', 'the node did not answer within the timeout'),
  RPC_ABORTED: spec('rpc', 'never', 'the call was aborted (the daemon is stopping)'),
  RPC_MALFORMED_RESPONSE: spec('rpc', 'automatic', "the node's answer is not the JSON-RPC shape expected"),

  // The executor: why an intent failed, waits, or was not sent this time.
  GUARD_REFUSED: again(
    spec(
      'executor',
      'never',
      'the guard refused to sign one transaction (the `guard.refused` action has the `reason`, listed below): a verdict on that transaction, not on the rule, which asks again with a fresh answer; a refusal about the moment is tried again at once',
      ExitCode.GuardRefused,
    ),
  ),
  PARAMS_INVALID: spec(
    'executor',
    'never',
    "the intent's stored params do not parse for its kind, or the API client refused them before sending: nothing sent",
  ),
  RISK_PRICE_IMPACT: spec('executor', 'never', "the quote's price impact exceeds the intent's `maxPriceImpactBps`"),
  RISK_PRICE_IMPACT_UNKNOWN: spec('executor', 'never', 'the intent limits price impact but the quote reports none'),
  RISK_MIN_SELL_PRICE: spec('executor', 'never', "a prediction sell's build may fill below the strategy's minimum sell price: nothing signed"),
  RISK_MIN_SELL_PRICE_UNKNOWN: spec('executor', 'never', 'the strategy limits the sell price but the sell build states no floor: nothing signed'),
  QUOTE_MISMATCH: spec('executor', 'never', "the quote is not for the intent's mints or amount"),
  QUOTE_DISAGREES_WITH_FEED: again(
    spec(
      'executor',
      'never',
      "the quote's price is further from the feed's price that fired the rule than `risk.max_quote_deviation` (default 5%): nothing traded; the rule decides again on the next prices",
    ),
  ),
  ROUTE_VENUES_UNREADABLE: again(
    spec(
      'executor',
      'never',
      'every route `/order` offered (the first, then twice without the venue in the way) went through a venue the guard cannot read in that form: nothing signed; the rule decides again later',
    ),
  ),
  QUOTE_UNBUILDABLE: again(
    spec('executor', 'never', '`/order` had a price but no transaction (funds, gas, gasless minimum); the `SWAP_ORDER_*` code is in `data`'),
  ),
  LANDED_FAILED: again(spec('executor', 'never', 'landed and failed on chain (e.g. 6001 slippage); fees were paid')),
  ATTEMPTS_EXHAUSTED: again(spec('executor', 'never', 'every allowed attempt expired without landing')),
  STALE_INTENT: again(spec('executor', 'never', '(cancelled) planned too long ago to act on')),
  NO_HANDLER: spec(
    'executor',
    'operator',
    "(`intent.deferred`) no handler executes the intent's kind in this setup (e.g. vault orders without a Trigger login): recorded once, never journaled",
  ),
  EXECUTOR_ERROR: spec(
    'executor',
    'automatic',
    '(`intent.error`) an unexpected error while preparing or sending; the intent stays where it was and the next pass tries again',
  ),
  SUBMIT_ERROR: spec('executor', 'automatic', 'a submit failed with an error of no known kind: the outcome is unknown, the signature decides'),
  SENT_VIA_RPC: spec(
    'executor',
    'automatic',
    '(`intent.outcome_unknown`) the bytes were sent through the node (no Jupiter context after a restart): the chain decides',
  ),
  CALL_ERROR: spec('executor', 'automatic', 'an unsigned call (a PATCH) failed with an error of no known kind: the row stays `sent`, the next pass settles it'),
  NO_DEPOSIT_REQUEST: spec(
    'executor',
    'automatic',
    'a vault create found no deposit request id journaled: this send is refused; the bytes expire and a new deposit is crafted',
  ),
  NO_CANCEL_REQUEST: spec(
    'executor',
    'automatic',
    'a vault cancel found no cancel request id journaled: this send is refused; the withdrawal is asked for again',
  ),
  ORDER_NOT_IN_HISTORY: spec(
    'executor',
    'automatic',
    '(`intent.outcome_unknown`) the create answered but order history does not show the order yet: the next pass looks again',
  ),
  DEPOSIT_MISMATCH: spec('executor', 'never', "Trigger V2 crafted a deposit that is not the intent's mint and amount into our vault: nothing signed"),
  VAULT_ORDER_EXPIRED: again(
    spec('executor', 'never', "the vault order's `expiresAt` passed before it could be placed (or a renewal's replacement's): nothing sent"),
  ),
  VAULT_SLIPPAGE_EXCEEDS_CAP: again(
    spec(
      'executor',
      'never',
      'a vault order (or a PATCH) would carry more slippage, on the order or one of its legs, than `guard.max_vault_slippage_bps` (else `guard.max_slippage_bps`) allows, e.g. journaled before the cap was lowered: nothing signed or sent',
    ),
  ),
  VAULT_ORDER_ADOPTED: spec('executor', 'never', 'a cancel named an adopted order (placed elsewhere): the daemon never acts on one, nothing sent'),
  VAULT_ORDER_NOT_OPEN: spec(
    'executor',
    'never',
    'a cancel (or renewal) of an order the mirror shows filled, completed or cancelled, or a PATCH left sent whose order is no longer open: nothing left to act on, nothing sent',
  ),
  VAULT_ORDER_GONE: spec(
    'executor',
    'never',
    'a cancel (or renewal) of an order the Trigger API no longer knows: the mirror marked it `gone`, or its cancel answered 404 three times, backing off between them; nothing is asked again (the `order.gone` action says whether the vault still holds funds)',
  ),
  VAULT_ORDER_NOT_FOUND: spec(
    'executor',
    'automatic',
    "a cancel's first step answered 404 (the order is unknown to the Trigger API): the intent stays `planned` and is asked again after 30 s, then 60 s; the third 404 fails it `VAULT_ORDER_GONE`",
  ),
  VAULT_ORDER_NOT_YET_OPEN: spec(
    'executor',
    'automatic',
    'a PATCH was refused while the order is still `pending` (its deposit settling): the row stays `sent`, tried again on a later pass',
  ),
  VAULT_ORDER_ENDED: again(
    spec(
      'executor',
      'never',
      'a placement confirmed but its order ended unfilled (expired while the daemon was down, cancelled elsewhere): the rule places it again',
    ),
  ),
  PREDICTION_BUILD_MISMATCH: spec(
    'executor',
    'never',
    "a sell or claim build is not the intent's (position, market, side, contracts) or carries no transaction: nothing signed",
  ),
  PREDICTION_POSITION_GONE: spec('executor', 'never', 'a sell found nothing to sell: the position is unknown, empty or claimed'),
  PREDICTION_MARKET_CLOSED: spec('executor', 'never', "a sell's market is closed or cancelled and cannot be traded (a winner is claimed instead)"),
  PREDICTION_ORDER_FAILED: again(
    spec('executor', 'never', 'a sell landed but the keeper failed or closed its order (the price moved past its floor): nothing sold, the fee paid'),
  ),
  PREDICTION_NOTHING_TO_CLAIM: spec('executor', 'never', 'a claim found nothing to claim: the position is unknown, lost, empty, cancelled or already claimed'),
  IDENTICAL_BYTES: spec(
    'executor',
    'automatic',
    '(`intent.waiting`) its transaction came out byte for byte like one signed or landed in this slot (two equal deposits or swaps): built again at the next pass, with a newer blockhash',
  ),
  PREDICTION_AWAITING_KEEPER: spec('executor', 'automatic', '(`intent.waiting`) a sell landed and its order waits for the keeper; the intent stays `sent`'),
  PREDICTION_PAYOUT_NOT_IN_HISTORY: spec(
    'executor',
    'automatic',
    '(`intent.waiting`) a claim landed but history does not show its payout yet; the next pass looks again',
  ),

  // The guard's reasons (the `reason` of GUARD_REFUSED; docs/security.md explains each check).
  MALFORMED_TRANSACTION: guard('the bytes do not decode as a Solana transaction'),
  UNRESOLVED_LOOKUP_TABLE: spec('guard', 'automatic', 'a lookup table could not be read from the node now: a fresh attempt follows'),
  LOOKUP_TABLE_MISSING: guard('a lookup table the transaction names does not exist'),
  LOOKUP_TABLE_INVALID: guard('a lookup table account is not lookup-table state'),
  LOOKUP_TABLE_DEACTIVATED: guard('a lookup table the transaction names is deactivated'),
  LOOKUP_TABLE_INDEX_OUT_OF_RANGE: guard('an index points past the end of its lookup table'),
  FEE_PAYER_MISMATCH: guard('the fee payer is neither our wallet nor the payer the intent allows'),
  WALLET_NOT_SIGNER: guard('our wallet is not among the required signers'),
  UNEXPECTED_SIGNER: guard('another signer is required that the intent does not allow'),
  SIGNATURE_INVALID: guard('a signature already present does not verify'),
  GASLESS_FEE_EXCEEDS_DECLARED: guard('a gasless transaction charges more than its answer declared'),
  RFQ_MAKER_MISMATCH: guard("an RFQ swap's empty signer slot is not the maker's"),
  PROGRAM_NOT_ALLOWED: guard('an instruction calls a program the intent does not allow'),
  MEMO_ONLY_VIOLATION: guard('a memo-only transaction does more than a memo'),
  LOGIN_TEXT_UNEXPECTED: guard("a Trigger login message to sign is not Jupiter's challenge text"),
  INSTRUCTION_NOT_ALLOWED: guard('an allowed program is called with an instruction the intent does not allow'),
  TRANSFER_TO_STRANGER: guard("funds leave our accounts for an account that is not ours or the intent's"),
  AMOUNT_EXCEEDS_INTENT: guard('more leaves our accounts than the intent allows'),
  AMOUNT_MISMATCH: guard("the amount is not the intent's"),
  MINT_MISMATCH: guard("the token is not the intent's"),
  WITHDRAWAL_OUTFLOW: guard('a vault withdrawal sends funds out of our wallet'),
  OUTFLOW_NOT_ALLOWED: guard('funds leave our wallet where the intent allows none'),
  DELEGATE_APPROVAL: guard('a token account of ours would get a delegate'),
  AUTHORITY_CHANGE: guard('a token account of ours would change its owner or close authority'),
  CLOSE_TO_STRANGER: guard('a token account of ours would be closed with its rent to a stranger'),
  TOKEN_BURN: guard('tokens of ours would be burned'),
  ACCOUNT_REASSIGN: guard('an account of ours would be assigned to another program'),
  ATA_FOR_STRANGER: guard('our wallet pays to create a token account for a stranger'),
  SWAP_ACCOUNT_MISMATCH: guard("a swap instruction's accounts are not ours or the route's"),
  PRIORITY_FEE_EXCEEDS_CAP: guard('the priority fee exceeds `guard.max_priority_fee_lamports`'),
  ROUTE_PLAN_UNDECODABLE: guard('a Jupiter route step is of a kind the guard cannot decode'),
  ROUTE_DATA_MALFORMED: guard("a Jupiter route instruction's data is not exactly its layout"),
  SWAP_MODE_NOT_ALLOWED: guard('an exact-out or token-ledger route, which the daemon never asks for'),
  SWAP_DESTINATION_NOT_OURS: guard("a route's output goes to an account that is not ours"),
  PLATFORM_FEE_NOT_ALLOWED: guard('a route names a platform fee account that is not in `guard.platform_fee_accounts`, with no fee the answer declared'),
  PLATFORM_FEE_UNDECLARED: guard('a route charges Jupiter a fee the `/order` answer did not declare (`feeBps`)'),
  PLATFORM_FEE_EXCEEDS_DECLARED: guard("a route charges a higher fee than the answer's `feeBps`"),
  PLATFORM_FEE_EXCEEDS_CAP: guard("a route's fee exceeds `guard.max_fee_bps`"),
  RFQ_FEE_EXCEEDS_DECLARED: guard("an RFQ fill's fee transfer exceeds the answer's `feeBps` of the output, or goes to more than one place"),
  SLIPPAGE_EXCEEDS_CAP: guard("the route's slippage exceeds the intent's cap"),
  QUOTED_OUT_BELOW_MINIMUM: guard("the route's quoted output is below the intent's minimum"),
  PREDICTION_LAYOUT_UNKNOWN: guard("a prediction instruction's layout is not one the guard knows"),
  PREDICTION_BUY_NOT_ALLOWED: guard('a prediction order buys where the intent sells'),
  PREDICTION_OWNER_MISMATCH: guard('the prediction order is not for our wallet'),
  PREDICTION_POSITION_MISMATCH: guard("the prediction order's position is not the intent's"),
  PREDICTION_SIDE_MISMATCH: guard("the prediction order's side is not the intent's"),
  PREDICTION_CONTRACTS_EXCEED_POSITION: guard('the prediction order sells more contracts than the intent decided'),
  PREDICTION_PRICE_BELOW_FLOOR: guard("the prediction order's price floor is below the intent's minimum"),
  PREDICTION_ORDER_ID_MISMATCH: guard("the prediction order's id is not the one the build named"),
  PREDICTION_FUNDS_NOT_OURS: guard('prediction proceeds go to an account that is not ours'),
  SIMULATION_UNAVAILABLE: spec('guard', 'automatic', 'the node could not simulate the transaction now: a fresh attempt follows'),
  SIMULATION_ALREADY_PROCESSED: spec('guard', 'automatic', 'identical bytes have just landed: a fresh build follows'),
  SIMULATION_FAILED: guard('the simulation failed: the transaction would not succeed'),
  EFFECT_OUTFLOW_EXCEEDS_INTENT: guard('simulated: more leaves our accounts than the intent allows'),
  EFFECT_INFLOW_BELOW_MINIMUM: guard("simulated: less arrives than the intent's minimum"),
  EFFECT_SOL_EXCEEDS_BUDGET: guard('simulated: our SOL falls by more than the fee budget'),
  EFFECT_AUTHORITY_CHANGED: guard('simulated: an account of ours changes owner or authority'),
  EFFECT_STATE_MOVED: spec(
    'guard',
    'automatic',
    'our accounts kept changing while the transaction was simulated (transfers landing from elsewhere): its effect cannot be told apart; built again on the next pass',
  ),
} as const satisfies Record<string, ErrorSpec>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

/** The codes of one area, as a type (e.g. the guard's reasons). */
export type CodeOf<A extends Area> = { [C in ErrorCode]: (typeof ERROR_CATALOGUE)[C]['area'] extends A ? C : never }[ErrorCode];

/** The codes of one area, in catalogue order. */
export function codesOf<A extends Area>(area: A): CodeOf<A>[] {
  return (Object.keys(ERROR_CATALOGUE) as ErrorCode[]).filter((code): code is CodeOf<A> => ERROR_CATALOGUE[code].area === area);
}

export function isErrorCode(value: string): value is ErrorCode {
  return Object.hasOwn(ERROR_CATALOGUE, value);
}

/** The exit code a CLI command ends with when this error stops it. */
export function exitCodeOf(code: string): ExitCode {
  return isErrorCode(code) ? ((ERROR_CATALOGUE[code] as ErrorSpec).exit ?? ExitCode.Internal) : ExitCode.Internal;
}

/** Whether an intent failed with `code` lets its rule decide again. */
export function retriesRule(code: string): boolean {
  return isErrorCode(code) && (ERROR_CATALOGUE[code] as ErrorSpec).retryRule === true;
}
