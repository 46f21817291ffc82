import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import { reusedFor } from '../../../src/ops/reusedFor.js';

describe('reusedFor', () => {
  it('renders once per period, however often it is asked', async () => {
    const clock = new ManualClock(0);
    let renders = 0;
    const page = reusedFor(30_000, clock, () => `page ${++renders}`);
    expect([page(), page(), page()]).toEqual(['page 1', 'page 1', 'page 1']);
    await clock.advance(29_999);
    expect(page()).toBe('page 1');
    await clock.advance(1);
    expect([page(), page()]).toEqual(['page 2', 'page 2']);
    expect(renders).toBe(2);
  });
});
