/**
 * Strategy texts several tests run as they are: one copy each, so a change of the strategy format
 * is made once.
 */

/** A vault OCO on half the SOL: take-profit at +20 %, stop at -10 % of a $150 reference, a week's expiry. */
export const VAULT_TP = `name: sol-take-profit
kind: price-order
sell: SOL
receive: USDC
amount: "50%"
execution: vault
reference_price_usd: "150"
take_profit:
  - at: "+20%"
    sell: "100%"
stop_loss:
  at: "-10%"
expires_after: 7d
`;
