/**
 * Process exit codes of the `jupbot` command. Documented in docs/operations.md; scripts and
 * systemd units key on them, so a number is never reused for another meaning.
 */
export const ExitCode = {
  /** Success. */
  Ok: 0,
  /** Input is invalid: config or strategy problems were printed (validate, run). */
  InvalidInput: 1,
  /** The command line itself is wrong: unknown command or option, missing argument. */
  Usage: 2,
  /** `audit verify` found a break in the hash chain of the actions table. */
  AuditChainBroken: 3,
  /** The database was written by a newer jupbot (its schema is ahead of this code): refused, untouched. */
  DatabaseTooNew: 4,
  /** A file the command needs (database, key file) is missing or unreadable. */
  NotFound: 5,
  /** `tx explain --expect`: the guard refused the transaction for that intent (the reason code is printed). */
  GuardRefused: 6,
  /** `status`: no daemon answered at the operations address (not running, or another address); `fleet status`: the fleet's Redis did not answer. */
  DaemonUnreachable: 7,
  /**
   * `markets search`, `events`: the Jupiter API could not be asked (no answer, no API key, the key
   * refused, an error answer); the line names the address and the cause.
   */
  ApiUnreachable: 8,
  /** `fleet status`: a daemon of the fleet is silent (no heartbeat for one interval) or not ready, an entry does not read, or fewer are listed than fleet.size. */
  FleetDegraded: 9,
  /** Another jupbot holds the data directory or drives the wallet (its pid is in the message). Not restarted by the unit. */
  AlreadyRunning: 73,
  /** The data directory or database cannot be used (read-only, not a directory, locked): fix it, then start. Not restarted. */
  StoreUnusable: 74,
  /** `run`: an uncaught error stopped the daemon cleanly (recorded in the audit log). The unit restarts it. */
  Crashed: 75,
  /**
   * The database's disk is full: the daemon could not start, or could not record its stop. The unit
   * restarts it: space is often freed without anyone touching jupbot (logs rotate, a cleanup runs),
   * and a start on a full disk fails before it trades.
   */
  StoreFull: 76,
  /**
   * `run`: another trader was seen on the wallet while the daemon ran (another jupbot on another
   * host or with another `lock_dir`, or another tool) and the daemon stopped itself. Not restarted: a
   * restart would meet the other trader again.
   */
  WalletShared: 77,
  /**
   * `run`: the ops address (`http.listen`) cannot be listened on, most often because it is in use
   * (another jupbot with this config?). Checked before any API call and before the database is opened.
   * Not restarted: the port stays taken until someone frees it or changes `http.listen`.
   */
  PortInUse: 78,
  /**
   * `run`: a live data directory with no passing preflight recorded for this wallet and these
   * endpoints (`jupbot live check` first), refused before any API call; `live check`: a check
   * failed, so no pass was recorded. Not restarted: only the operator can run the check.
   */
  PreflightRequired: 79,
  /**
   * `halt --cancel-orders` / `--close-positions`: the wait ended with orders or positions of ours
   * still live (the line says what is left). The halt stands and its cancels go on at the next start.
   */
  ControlUnfinished: 80,
  /** An unexpected internal error; the message says where. */
  Internal: 70,
} as const;

export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/**
 * Exit codes a restart cannot fix (the input or the machine must change first): the service
 * manager must not restart on them. deploy/jupbot.service lists exactly these; a test checks it.
 */
export const NO_RESTART_EXIT_CODES: readonly ExitCode[] = [
  ExitCode.InvalidInput,
  ExitCode.Usage,
  ExitCode.DatabaseTooNew,
  ExitCode.NotFound,
  ExitCode.AlreadyRunning,
  ExitCode.StoreUnusable,
  ExitCode.WalletShared,
  ExitCode.PortInUse,
  ExitCode.PreflightRequired,
];
