/** The simulator's view of our price orders and vault deposits, where the tick loop's tests look for it. */
export { depositAmounts, simOrder } from '../../../support/simViews.js';
