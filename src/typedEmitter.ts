type Listener<T> = (payload: T) => void;

/**
 * A tiny typed event emitter: the daemon's and the clients' events, for metrics and for tests that
 * await what happened instead of sleeping. A throwing listener is isolated: reporting an event
 * must never break the work that reported it.
 */
export class TypedEmitter<E extends object> {
  #listeners = new Map<keyof E, Set<Listener<never>>>();

  /** Subscribes; returns the unsubscribe function. */
  on<K extends keyof E>(name: K, listener: Listener<E[K]>): () => void {
    let set = this.#listeners.get(name);
    if (!set) this.#listeners.set(name, (set = new Set()));
    set.add(listener);
    return () => set.delete(listener);
  }

  /** Resolves with the next payload of `name` that satisfies `predicate`. */
  next<K extends keyof E>(name: K, predicate: (payload: E[K]) => boolean = () => true): Promise<E[K]> {
    return new Promise((resolve) => {
      const off = this.on(name, (payload) => {
        if (!predicate(payload)) return;
        off();
        resolve(payload);
      });
    });
  }

  emit<K extends keyof E>(name: K, payload: E[K]): void {
    const set = this.#listeners.get(name);
    if (!set) return;
    for (const listener of [...set]) {
      try {
        (listener as Listener<E[K]>)(payload);
      } catch {
        // Isolated on purpose, see the class comment.
      }
    }
  }
}
