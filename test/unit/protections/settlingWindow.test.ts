import { describe, expect, it } from 'vitest';
import { SettlingWindow } from '../../../src/protections/settlingWindow.js';

describe('a settling window', () => {
  it('judges nothing until its readings span it, then gives the lowest and highest level in force over it', () => {
    const w = new SettlingWindow(60);
    w.add(0, 100n);
    w.add(30, 120n);
    expect([w.spans(), w.lowest(), w.highest()]).toEqual([false, null, null]);
    w.add(60, 110n);
    expect([w.lowest(), w.highest()]).toEqual([100n, 120n]);
    // At 100 the reading of 30 was in force when the window opened (40): it stays, the one of 0 goes.
    w.add(100, 130n);
    expect([w.lowest(), w.highest()]).toEqual([110n, 130n]);
    w.add(160, 130n);
    expect([w.lowest(), w.highest()]).toEqual([130n, 130n]);
  });

  it('starts afresh when the clock goes back', () => {
    const w = new SettlingWindow(60);
    w.add(100, 1n);
    w.add(200, 2n);
    w.add(150, 3n);
    expect(w.spans()).toBe(false);
    w.add(210, 4n);
    expect([w.lowest(), w.highest()]).toEqual([3n, 4n]);
  });
});
