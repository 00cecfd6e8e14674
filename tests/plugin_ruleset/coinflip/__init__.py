"""coinflip: a rule set of its own package, found by crux through the entry-point group `crux.rulesets`."""
