"""Exact odds: distributions with integer weights (`dist`), the Crux rules' odds (`crux`), and the
`Odds` result every rule set returns (`result`)."""
