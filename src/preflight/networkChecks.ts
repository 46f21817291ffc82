/**
 * The checks of `jupbot live check` that ask Jupiter and the Solana node: whether the key may use
 * each API area the strategies need (one cheap call per area, the one the daemon's area watch makes:
 * jupiter/apiAreas.ts), whether the node answers and serves mainnet, and whether the wallet holds
 * SOL enough for fees.
 */
import type { Config } from '../config/config.js';
import { errorMessage } from '../errors.js';
import { AREA_WORDS, type ApiArea, probeArea } from '../jupiter/apiAreas.js';
import { ApiError } from '../jupiter/errors.js';
import type { JupiterClient } from '../jupiter/transport.js';
import { formatUnits } from '../money/formatUnits.js';
import { TOKEN_PROGRAM } from '../solana/programIds.js';
import type { SolanaRpc } from '../solana/rpc.js';
import { failed, passed, type CheckLine } from './checkLine.js';
import { rpcOrigin } from './startFingerprint.js';

/**
 * The least SOL a live wallet should hold before it trades: the guard lets one transaction pay at
 * most 0.01 SOL of priority fee, and each token the wallet receives for the first time costs about
 * 0.002 SOL of rent for its account. 0.05 SOL covers a few of each; more is better.
 */
export const MIN_FEE_LAMPORTS = 50_000_000n;

/** Genesis hashes of the clusters a node may serve; live mode trades on mainnet-beta. */
const CLUSTERS: Readonly<Record<string, string>> = {
  '5eykt4UsFv8P8NJdTREpY1vzqKqZKvdpKuc147dw2N9d': 'mainnet-beta',
  EtWTRABZaYq6iMfeYKouRu166VU2xqa1wcaWoxPkrZBG: 'devnet',
  '4uhcVJyU9pJkvQyS88uRDiswHXSCkY3zQawwpjk2NsNY': 'testnet',
};

/**
 * One line per area the strategies need (by name), or when none is needed one line saying whether
 * the key is accepted at all (a token search).
 */
export async function apiKeyChecks(
  config: Pick<Config, 'api'>,
  client: JupiterClient | null,
  needs: ReadonlyMap<ApiArea, readonly string[]>,
  wallet: string | null,
): Promise<CheckLine[]> {
  if (client === null)
    return [
      failed(
        'api key',
        `${config.api.key_env} is not set, and live mode sends it with every call to ${config.api.base_url}`,
        `set ${config.api.key_env} to your key from https://portal.jup.ag (systemd: /etc/jupbot/secrets.env; Docker: -e ${config.api.key_env}), or set api.keyless: true`,
      ),
    ];
  const areas: [ApiArea, readonly string[]][] = needs.size > 0 ? [...needs] : [['tokens', []]];
  const lines: CheckLine[] = [];
  for (const [area, users] of areas) {
    const name = needs.size > 0 ? `api area ${area}` : 'api key';
    const whom = users.length > 0 ? ` (needed by ${users.join(', ')})` : '';
    try {
      // The Trigger probe asks for a login challenge, which names a wallet: any address will do without a key.
      await probeArea(client, area, { wallet: wallet ?? '11111111111111111111111111111111' });
      lines.push(
        passed(name, needs.size > 0 ? `the key may use ${AREA_WORDS[area]}${whom}` : `${config.api.base_url} accepts the key (no strategy needs an area yet)`),
      );
    } catch (error) {
      if (error instanceof ApiError && error.code === 'JUPITER_FORBIDDEN')
        lines.push(
          failed(
            name,
            `the key may not use ${AREA_WORDS[area]}${whom}: ${error.message}`,
            `enable that product for this key at https://portal.jup.ag, or remove the strategies that need it`,
          ),
        );
      else if (error instanceof ApiError && error.code === 'JUPITER_UNAUTHORIZED')
        lines.push(failed(name, `the key was refused: ${error.message}`, `check ${config.api.key_env}: it holds no valid key`));
      else lines.push(failed(name, `could not ask ${config.api.base_url}: ${errorMessage(error)}`, 'check the network and api.base_url'));
    }
  }
  return lines;
}

/** The node answers, and serves mainnet-beta (by its genesis hash, when it says). */
export async function rpcCheck(config: Pick<Config, 'rpc'>, rpc: SolanaRpc, network: typeof globalThis.fetch): Promise<CheckLine> {
  const where = rpcOrigin(config.rpc.url);
  let height: number;
  try {
    height = await rpc.getBlockHeight();
  } catch (error) {
    return failed('rpc', `${where} does not answer: ${errorMessage(error)}`, 'check rpc.url and the network');
  }
  const genesis = await genesisHash(config.rpc.url, network);
  const cluster = genesis === null ? null : (CLUSTERS[genesis] ?? `an unknown cluster (genesis ${genesis})`);
  if (cluster !== null && cluster !== 'mainnet-beta')
    return failed('rpc', `${where} serves ${cluster}, and live mode trades on mainnet-beta`, 'set rpc.url to a mainnet-beta node');
  return passed('rpc', `${where} answers, block height ${height}${cluster === null ? ' (its cluster was not told: getGenesisHash failed)' : ', mainnet-beta'}`);
}

/** `getGenesisHash`, or null when the node does not answer it. */
async function genesisHash(url: string, network: typeof globalThis.fetch): Promise<string | null> {
  try {
    const answer = await network(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getGenesisHash' }),
      signal: AbortSignal.timeout(15_000),
    });
    const body = (await answer.json()) as { result?: unknown };
    return typeof body.result === 'string' ? body.result : null;
  } catch {
    return null;
  }
}

/** SOL for fees (at least {@link MIN_FEE_LAMPORTS}) and what else the wallet holds, named by `symbols` where known. */
export async function fundsCheck(rpc: SolanaRpc, wallet: string, symbols: ReadonlyMap<string, string>): Promise<CheckLine> {
  let lamports: bigint;
  let held: string[];
  try {
    lamports = await rpc.getBalance(wallet);
    const accounts = await rpc.getTokenAccountsByOwner(wallet, { programId: TOKEN_PROGRAM.toBase58() });
    held = accounts
      .filter((a) => a.amount > 0n)
      .map((a) => `${formatUnits(a.amount, a.decimals)} ${symbols.get(a.mint) ?? `${a.mint.slice(0, 4)}…${a.mint.slice(-4)}`}`);
  } catch (error) {
    return failed('funds', `could not read the wallet's balances: ${errorMessage(error)}`, 'check rpc.url');
  }
  const sol = formatUnits(lamports, 9);
  const tokens = held.length > 0 ? `; tokens: ${held.join(', ')}` : '; no other token';
  const least = formatUnits(MIN_FEE_LAMPORTS, 9);
  if (lamports < MIN_FEE_LAMPORTS)
    return failed(
      'funds',
      `${wallet} holds ${sol} SOL, less than the ${least} SOL live trading needs for fees and new token accounts${tokens}`,
      `send SOL to ${wallet}`,
    );
  return passed('funds', `${wallet} holds ${sol} SOL (at least ${least} for fees and new token accounts)${tokens}`);
}
