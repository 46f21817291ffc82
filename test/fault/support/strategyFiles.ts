/**
 * The strategies of the fault day, adapted from strategies/*.yaml: every one of them trades within
 * 24 h on the scripted price path (PRICE_PATH in faultDay.ts).
 */
export const STRATEGY_FILES: Readonly<Record<string, string>> = {
  // Local exits, swapped through /swap/v2: half at 1.20 (JUP goes to 1.25 at 03:00), the rest on the
  // 15% trailing stop from that peak (JUP falls to 1.00 at 18:00).
  'jup-local-exits.yaml': `name: jup-local-exits
kind: price-order
sell: JUP
receive: USDC
amount: "100"
execution: local
take_profit:
  - at: "1.20"
    sell: "50%"
trailing_stop:
  distance: "15%"
slippage_bps: 100
risk:
  max_price_impact: "1%"
`,
  // Vault OCO rungs (Trigger V2): rung 1 fills when SOL reaches 185 at 06:00, rung 2 at 215 at 14:00.
  'sol-take-profit.yaml': `name: sol-take-profit
kind: price-order
sell: SOL
receive: USDC
amount: "50%"
execution: vault
reference_price_usd: "150"
take_profit:
  - at: "+20%"
    sell: "50%"
  - at: "+40%"
    sell: "50%"
stop_loss:
  at: "-10%"
expires_after: 7d
renew_before: 1h
risk:
  max_notional_per_order_usd: "5000"
  min_sell_price_usd: "100"
`,
  // A swap DCA every four hours (UTC), six runs in the simulated day.
  'sol-dca-4h.yaml': `name: sol-dca-4h
kind: dca
buy: SOL
pay_with: USDC
amount: "25"
execution: swap
schedule:
  cron: "0 */4 * * *"
  timezone: UTC
catch_up: run_once
on_time_within: 1h
risk:
  max_price_impact: "0.5%"
  max_notional_per_day_usd: "500"
`,
  // A Trigger V2 DCA order: 10 rounds of 20 USDC into JUP, one every 2 h, filled by the simulator's keeper.
  'jup-dca-vault.yaml': `name: jup-dca-vault
kind: dca
buy: JUP
pay_with: USDC
amount: "20"
execution: vault
vault:
  orders: 10
  interval: 2h
  type: time_based
`,
  // A ratchet trailing stop (vault single order, raised by PATCH as BONK climbs at 03:00 and 09:00),
  // renewed every 5 h (6 h orders, renewed 1 h before expiry), filled when BONK drops at 20:00.
  'bonk-trailing-stop.yaml': `name: bonk-trailing-stop
kind: price-order
sell: BONK
receive: USDC
amount: "25000000"
trailing_stop:
  distance: "12%"
  mode: ratchet
  ratchet_step: "1%"
expires_after: 6h
renew_before: 1h
`,
  // Prediction exits on the paper wallet's seeded "Lakers win" position (simulator event NBA-1001).
  // The take-profit is at the game's opening price, so the sell lands on the first positions poll
  // whichever way the simulated game goes (with a 0.85 target, a game the Lakers lose leaves the
  // position below min_sell_price_usd before any hourly poll could sell it).
  'lakers-exit.yaml': `name: lakers-exit
kind: prediction-exit
positions:
  market: NBA-1001-M1
  side: any
yes_team: home
rules:
  - id: take-profit
    when:
      sell_price_at_least: "0.45"
  - id: trail
    when:
      trailing_from_peak: "20%"
      sell_price_at_least: "0.30"
  - id: big-deficit
    when:
      score:
        deficit_at_least: 15
  - id: before-close
    when:
      before_close: 10m
claim_when_settled: true
require_trading_active: true
risk:
  min_sell_price_usd: "0.05"
`,
};
