/** The mints the test wallet is funded with, and their decimals (what the strategies' token pins would say). */
export const SOL = 'So11111111111111111111111111111111111111112';
export const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';

/** SOL has 9 decimals; every other mint the tests use (USDC, prediction contracts) has 6. */
export const decimalsOf = (mint: string): number => (mint === SOL ? 9 : 6);
