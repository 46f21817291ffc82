/**
 * The wire schemas of the four Jupiter API areas, one namespace per area. The simulator (src/sim)
 * imports these to check its own answers; the clients parse every response with them.
 * See ./common.ts for the conventions (loose objects, nullish optionals, open enums, money types).
 */
export * from './common.js';
export * as tokens from './tokens.js';
export * as swap from './swapWire.js';
export * as trigger from './trigger.js';
export * as prediction from './prediction.js';
