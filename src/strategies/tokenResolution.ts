import type { Diagnostic, DocPath } from '../config/diagnostics.js';
import { diagnosticAt } from '../config/yamlSource.js';
import type { ParsedStrategy } from './parseStrategy.js';
import type { StrategySpec } from './strategySchema.js';

/**
 * What token resolution needs of a search answer. Jupiter's `MintInformation` (src/jupiter/schemas)
 * fits this shape; it is restated here because strategies/ may not import from jupiter/.
 */
export interface TokenCandidate {
  readonly id: string;
  readonly symbol: string;
  readonly name: string;
  readonly decimals: number;
  readonly isVerified?: boolean | null | undefined;
  readonly audit?: { readonly isSus?: boolean | null | undefined } | null | undefined;
}

/**
 * The token search port: the daemon passes Jupiter's search, paper mode the simulator's, tests a fake.
 * `prefetch`, when the search has it, asks about many mints ahead in as few calls as the API allows
 * (Jupiter: 100 comma-separated mints a call), so that `search(mint)` then answers from what was learnt.
 */
export type TokenSearch = ((query: string) => Promise<readonly TokenCandidate[]>) & {
  readonly prefetch?: (mints: readonly string[]) => Promise<void>;
};

/** A symbol already pinned for a strategy: later search answers do not change it. */
export interface TokenPin {
  readonly mint: string;
  readonly decimals: number;
}

/** Read side of the pins table (src/store/tokenPins.ts implements it over SQLite). */
export interface TokenPinLookup {
  get(strategy: string, symbol: string): TokenPin | undefined;
}

export interface ResolvedToken {
  /** As written in the file. */
  readonly ref: string;
  readonly mint: string;
  readonly symbol: string;
  readonly decimals: number;
  /** False when accepted only because of allow_unverified. */
  readonly verified: boolean;
  /** True when the mint came from an earlier pin rather than this search. */
  readonly pinned: boolean;
}

/** A pin to write once the strategy is applied. */
export interface NewPin extends TokenPin {
  readonly strategy: string;
  readonly symbol: string;
}

export type TokenRole = 'sell' | 'receive' | 'buy' | 'pay_with';

export type ResolveResult =
  | { readonly ok: true; readonly tokens: Readonly<Partial<Record<TokenRole, ResolvedToken>>>; readonly newPins: readonly NewPin[] }
  | {
      readonly ok: false;
      readonly diagnostics: readonly Diagnostic[];
      /** A search call failed (network, 5xx): the same file may pass later, unchanged. */
      readonly transient?: boolean;
    };

const MINT = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;

export function isMintAddress(text: string): boolean {
  return MINT.test(text);
}

/** The token fields of a strategy, with where they are in the file. */
export function tokenRefs(spec: StrategySpec): { role: TokenRole; path: DocPath; ref: string }[] {
  switch (spec.kind) {
    case 'price-order':
      return [
        { role: 'sell', path: ['sell'], ref: spec.sell },
        { role: 'receive', path: ['receive'], ref: spec.receive },
      ];
    case 'dca':
      return [
        { role: 'buy', path: ['buy'], ref: spec.buy },
        { role: 'pay_with', path: ['pay_with'], ref: spec.pay_with },
      ];
    case 'prediction-exit':
      return [];
  }
}

/** The token fields written as mints (a symbol is searched on its own: the API batches only mints). */
export function mintRefs(specs: Iterable<StrategySpec>): string[] {
  const out = new Set<string>();
  for (const spec of specs) for (const { ref } of tokenRefs(spec)) if (isMintAddress(ref)) out.add(ref);
  return [...out];
}

/** Jupiter sends `audit.isSus` only when it flags a token: its presence is the flag. */
function isSus(t: TokenCandidate): boolean {
  return t.audit?.isSus !== undefined && t.audit.isSus !== null;
}

/** Verified means isVerified true and no isSus flag (its presence is the flag). */
export function isTrusted(t: TokenCandidate): boolean {
  return t.isVerified === true && !isSus(t);
}

function describe(t: TokenCandidate): string {
  const flags = [t.isVerified === true ? 'verified' : 'unverified', ...(isSus(t) ? ['flagged isSus'] : [])];
  return `${t.symbol} ${t.id} "${t.name}" (${flags.join(', ')})`;
}

/**
 * Resolves every token field: a pinned symbol keeps its pinned mint; otherwise a symbol (or name)
 * must match exactly one verified token. Unverified or flagged tokens need `allow_unverified: true`,
 * and even then the match must be unique. A mint must be known to the search. Every problem of the
 * file is returned, each with the candidates and their mints.
 */
export async function resolveTokens(parsed: ParsedStrategy, search: TokenSearch, pins: TokenPinLookup): Promise<ResolveResult> {
  const { spec, source } = parsed;
  const tokens: Partial<Record<TokenRole, ResolvedToken>> = {};
  const newPins: NewPin[] = [];
  const diagnostics: Diagnostic[] = [];
  const allow = spec.allow_unverified;
  let transient = false;
  for (const { role, path, ref } of tokenRefs(spec)) {
    // A field left out takes its default (USDC); say so, since the file does not show it.
    const written = typeof source.value === 'object' && source.value !== null && role in source.value;
    const label = written ? role : `${role} (default ${ref})`;
    const fail = (message: string): void => {
      diagnostics.push(diagnosticAt(source, path, `${label}: ${message}`));
    };
    const mint = isMintAddress(ref);
    const pin = mint ? undefined : pins.get(spec.name, ref);
    if (pin) {
      tokens[role] = { ref, mint: pin.mint, symbol: ref, decimals: pin.decimals, verified: true, pinned: true };
      continue;
    }
    let answer: readonly TokenCandidate[];
    try {
      answer = await search(ref);
    } catch (error) {
      transient = true;
      fail(`token search for ${JSON.stringify(ref)} failed: ${error instanceof Error ? error.message : String(error)}`);
      continue;
    }
    if (mint) {
      const token = answer.find((t) => t.id === ref);
      if (!token) fail(`no token has the mint ${ref}`);
      else if (!isTrusted(token) && !allow) fail(`${describe(token)} is not a verified token; write allow_unverified: true to trade it anyway`);
      else tokens[role] = { ref, mint: token.id, symbol: token.symbol, decimals: token.decimals, verified: isTrusted(token), pinned: false };
      continue;
    }
    const wanted = ref.toLowerCase();
    const matches = answer.filter((t) => t.symbol.toLowerCase() === wanted || t.name.toLowerCase() === wanted);
    const trusted = matches.filter(isTrusted);
    let chosen: TokenCandidate | undefined;
    if (matches.length === 0) {
      const near = answer.slice(0, 5).map((t) => `${t.symbol} ${t.id}`);
      fail(`no token has the symbol or name ${JSON.stringify(ref)}${near.length > 0 ? ` (search found: ${near.join('; ')})` : ''}`);
    } else if (trusted.length === 1) {
      chosen = trusted[0];
    } else if (trusted.length > 1) {
      fail(`${JSON.stringify(ref)} is ambiguous: ${trusted.length} verified tokens match: ${trusted.map(describe).join('; ')}; write the mint instead`);
    } else if (!allow) {
      fail(
        `${JSON.stringify(ref)} matches no verified token, only: ${matches.map(describe).join('; ')}; write allow_unverified: true (and preferably the mint) to trade it anyway`,
      );
    } else if (matches.length > 1) {
      fail(`${JSON.stringify(ref)} is ambiguous: ${matches.length} unverified tokens match: ${matches.map(describe).join('; ')}; write the mint instead`);
    } else {
      chosen = matches[0];
    }
    if (!chosen) continue;
    tokens[role] = { ref, mint: chosen.id, symbol: chosen.symbol, decimals: chosen.decimals, verified: isTrusted(chosen), pinned: false };
    newPins.push({ strategy: spec.name, symbol: ref, mint: chosen.id, decimals: chosen.decimals });
  }
  if (diagnostics.length > 0) return { ok: false, diagnostics, ...(transient ? { transient } : {}) };
  for (const [role, other] of [
    ['sell', 'receive'],
    ['buy', 'pay_with'],
  ] as const) {
    const a = tokens[role];
    const b = tokens[other];
    if (a && b && a.mint === b.mint)
      return { ok: false, diagnostics: [diagnosticAt(source, [other], `${other}: resolves to the same mint as ${role} (${a.mint})`)] };
  }
  return { ok: true, tokens, newPins };
}
