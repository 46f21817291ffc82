/**
 * The set of keys (mints, event ids) the running strategies need polled, owned per strategy so a
 * hot reload can replace one strategy's keys without touching the others'. A key stays in the set
 * while any owner still wants it. Feeds read `keys()` at the start of every poll.
 */
import { TypedEmitter } from '../../typedEmitter.js';

export interface InterestEvents {
  /** The union of keys changed: `added` are new, `removed` no longer wanted by anyone. */
  changed: { added: readonly string[]; removed: readonly string[]; size: number };
}

export class InterestSet {
  readonly events = new TypedEmitter<InterestEvents>();
  #byOwner = new Map<string, ReadonlySet<string>>();
  #counts = new Map<string, number>();

  /** Replaces what `owner` wants (an empty list is the same as {@link delete}). */
  set(owner: string, keys: Iterable<string>): void {
    const next = new Set(keys);
    const before = this.#byOwner.get(owner) ?? new Set<string>();
    if (next.size === 0) this.#byOwner.delete(owner);
    else this.#byOwner.set(owner, next);
    const added: string[] = [];
    const removed: string[] = [];
    for (const key of next) if (!before.has(key) && this.#inc(key) === 1) added.push(key);
    for (const key of before) if (!next.has(key) && this.#dec(key) === 0) removed.push(key);
    if (added.length > 0 || removed.length > 0) this.events.emit('changed', { added, removed, size: this.#counts.size });
  }

  /** Forgets an owner (a strategy that was removed or disabled). */
  delete(owner: string): void {
    this.set(owner, []);
  }

  /** Every key some owner wants, sorted (stable batches, stable logs). */
  keys(): string[] {
    return [...this.#counts.keys()].sort();
  }

  get size(): number {
    return this.#counts.size;
  }

  has(key: string): boolean {
    return this.#counts.has(key);
  }

  #inc(key: string): number {
    const n = (this.#counts.get(key) ?? 0) + 1;
    this.#counts.set(key, n);
    return n;
  }

  #dec(key: string): number {
    const n = (this.#counts.get(key) ?? 0) - 1;
    if (n <= 0) this.#counts.delete(key);
    else this.#counts.set(key, n);
    return Math.max(0, n);
  }
}
