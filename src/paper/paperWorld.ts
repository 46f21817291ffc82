/** Paper mode's API key: the simulator accepts any key at the keyed quota; it guards nothing. */
export const PAPER_API_KEY = 'jupbot-paper-mode';

/** What paper mode trades against: a simulated Jupiter and Solana, and whether it continues an earlier run. */
export interface PaperWorld {
  /** The Jupiter API root (its Solana RPC is `<url>/rpc`). */
  readonly url: string;
  readonly seed: string;
  /**
   * The world continues an earlier run (restored from the data directory): the paper database that
   * recorded that run continues with it. A new world gets a new database; the old one is kept aside.
   */
  readonly restored: boolean;
  /** Funds the paper wallet (10 SOL, 1,000 USDC, two prediction positions) unless this world already did. */
  fund(wallet: string): void;
  close(): Promise<void>;
}
