/**
 * The limiter's side of a shared quota, with a scripted gate (the fleet's real gate is tested against
 * Redis in test/unit/fleet): the pump asks for the highest class waiting before it releases anything,
 * hands the granted slot to the released request and ends it with the request, gives back a slot
 * nobody is left to take, and asks again at once when a higher class arrives while it waits.
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import type { JupiterEvents } from '../../../src/jupiter/events.js';
import { BucketLimiter, Priority } from '../../../src/jupiter/limiter.js';
import type { SharedGate, SharedGrant } from '../../../src/jupiter/sharedGate.js';
import { TypedEmitter } from '../../../src/typedEmitter.js';

/** A gate that admits while `open` is true, and records what it was asked and which slots ended. */
class ScriptedGate implements SharedGate {
  open = true;
  readonly asked: number[] = [];
  readonly ended: number[] = [];
  #n = 0;

  acquire(priority: number): Promise<SharedGrant> {
    this.asked.push(priority);
    if (!this.open) return Promise.resolve({ admitted: false, retryInMs: 5_000 });
    const id = ++this.#n;
    return Promise.resolve({ admitted: true, slot: { end: () => this.ended.push(id) } });
  }
}

function limiter(gate: SharedGate, clock = new ManualClock()): { clock: ManualClock; limiter: BucketLimiter } {
  return { clock, limiter: new BucketLimiter({ bucket: 'main', quota: 100, clock, events: new TypedEmitter<JupiterEvents>(), guardMs: 0, shared: gate }) };
}

describe('BucketLimiter with a shared gate', () => {
  it('asks the fleet before it releases a request, and ends the fleet slot with the request', async () => {
    const gate = new ScriptedGate();
    const { limiter: l } = limiter(gate);
    const slot = await l.acquire(Priority.PollState, '/a');
    expect(gate.asked).toEqual([Priority.PollState]);
    expect(gate.ended).toEqual([]);
    slot.end();
    slot.end();
    expect(gate.ended).toEqual([1]);
    expect(l.window.count(0)).toBe(1);
    l.close();
  });

  it('waits on the clock while the fleet refuses, then asks at once for a higher class that arrives', async () => {
    const gate = new ScriptedGate();
    gate.open = false;
    const { clock, limiter: l } = limiter(gate);
    const poll = l.acquire(Priority.PollMarket, '/poll');
    await clock.whenSleeping(1);
    expect(gate.asked).toEqual([Priority.PollMarket]);
    // Capped at a second: an entry that ends early frees its slot sooner than the fleet's answer says.
    await clock.advance(999);
    expect(gate.asked).toEqual([Priority.PollMarket]);
    await clock.advance(1);
    expect(gate.asked).toEqual([Priority.PollMarket, Priority.PollMarket]);

    gate.open = true;
    const exit = l.acquire(Priority.Exit, '/exit');
    await clock.advance(0);
    expect(gate.asked.slice(2, 3)).toEqual([Priority.Exit]);
    const order: string[] = [];
    await Promise.all([exit.then(() => order.push('exit')), poll.then(() => order.push('poll'))]);
    expect(order).toEqual(['exit', 'poll']);
    l.close();
  });

  it('gives a granted slot back at once when the request it was for went away', async () => {
    let release: (grant: SharedGrant) => void = () => undefined;
    const ended: string[] = [];
    const gate: SharedGate = { acquire: () => new Promise((resolve) => (release = resolve)) };
    const { clock, limiter: l } = limiter(gate);
    const abort = new AbortController();
    const waiting = l.acquire(Priority.Place, '/place', abort.signal);
    await clock.advance(0);
    abort.abort(new Error('gone'));
    await expect(waiting).rejects.toThrow('gone');
    release({ admitted: true, slot: { end: () => ended.push('given back') } });
    await clock.advance(0);
    expect(ended).toEqual(['given back']);
    expect(l.window.count(0)).toBe(0);
    l.close();
  });
});
