"""Exact odds: every probability a fraction, from the same requests the engine rolls.

- `dist`: `Dist`, an immutable distribution with integer weights over one denominator
  (sums, keep/drop, highest/lowest, explode with a depth cap and its leftover, rerolls,
  success counts, arithmetic of independent terms);
- the rule sets keep their own odds in `crux_cli.rulesets.<name>.odds`;
- `generic`: dice terms (crux-notation(7) DICE EXPRESSIONS) with plain parameters (`dice_term`, `countdown_odds`);
- `result`: `Odds`, the answer every rule set returns, rendered by
  `crux_cli.render.odds_text` and `crux_cli.render.odds_json`.
"""
