/**
 * The problem the shared quota solves, seen by the fleet harness: three daemons on one key, each with
 * only its own limiter, overrun the key's quota at the gateway. If this ever stops seeing 429s, the
 * fleet tests that expect none prove nothing.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { fleetWorld, MIN, START, type FleetWorld } from './fleetWorld.js';
import { FLEET_CONFIG, FLEET_STRATEGIES, QUOTA } from './fleetStrategies.js';

let world: FleetWorld | undefined;
afterEach(async () => {
  await world?.stop();
  world = undefined;
});

describe('three daemons on one key, each with only its own limiter', () => {
  it('get 429s from the gateway: together they want more than the quota', async () => {
    const w = (world = await fleetWorld({ label: 'baseline', size: 3, quotaPerMinute: QUOTA, strategies: FLEET_STRATEGIES, config: FLEET_CONFIG }));
    await w.drive(5 * MIN);
    const counts = w.gateway.byBucketAndStatus();
    expect(w.gateway.tooMany('main'), JSON.stringify(counts)).toBeGreaterThan(0);
    // Every daemon was refused, not one unlucky one: each believes the whole quota is its own.
    for (const m of w.members) expect(w.gateway.answers.filter((a) => a.daemon === m.index && a.status === 429).length).toBeGreaterThan(0);
    // The refusals are the gateway's, over its quota for the key: it let QUOTA through each minute.
    expect(w.gateway.admittedPerMinute('main', START, 5)).toEqual([QUOTA, QUOTA, QUOTA, QUOTA, QUOTA]);
    // Nothing keeps one daemon's polls from another's order work: the property the fleet must keep can fail.
    expect(w.trace.pollsPastWaitingOrderWork().length).toBeGreaterThan(0);
    // And the daemons really trade: swaps were quoted and executed, in the execute bucket.
    expect(w.gateway.answers.filter((a) => a.bucket === 'execute' && a.status === 200).length).toBeGreaterThan(0);
  }, 120_000);
});
