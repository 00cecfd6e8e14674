"""Where a Crux fight left running stands, read off its file's text without the rules: what the REPL says
when it offers the fight before its first prompt ("round 1, Bram's turn: Ann, Bram, ogre, goblin").

Reading the fight whole (`fight_file.load`) needs a TOML reader, the ledger, the hero and the rules'
fights: some 40 M instructions, a tenth of the first prompt (tests/bench/bench_repl_startup.py). The
offer needs the round, whose turn it is and who is in it, so `summary` reads those off the lines crux
writes (`fight_file.encounter_text`: one `key = value` a line) and nothing else. A text of any other
shape (a file edited by hand, a format it does not know) gives None: the whole reading says then.
Whatever it gives is what `FightState.summary()` gives of the same text (tests/test_fight_summary.py);
whether the rest of the fight reads is found when the offer is answered.
"""

from __future__ import annotations

import json

FORMAT = 3  # 1: sheet paths relative to the folder crux ran in when saving; 2: relative to the file;
# 3: as 2, with the values of heroes held in memory (`held`), `fallen` and `over`
FORMATS = (1, 2, FORMAT)


def summary(text: str) -> str | None:
    """Where the fight in `text` stands, as `FightState.summary()` says it; None: not a text crux wrote.

    Read with string methods, not regular expressions: compiling those cost more than reading the text."""
    top: dict[str, str] = {}
    combatants: list[dict[str, str]] = []
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line == "[[combatant]]":
            combatants.append({})
            continue
        key, equals, value = line.partition("=")
        key, value = key.strip(), value.strip()
        # a line crux writes is `key = value`, the value on that line (a multi-line string or array is not)
        if not equals or not key.isascii() or not key.replace("_", "").isalpha() or value.startswith(('"""', "'''")):
            return None
        (combatants[-1] if combatants else top).setdefault(key, value)
    return described(top, combatants)


def described(top: dict[str, str], combatants: list[dict[str, str]]) -> str | None:
    """The summary of the top keys and the combatants' keys (values as written), or None."""
    if top.get("format") not in {str(number) for number in FORMATS}:
        return None
    round_, turn = top.get("round", "0"), top.get("turn", "0")
    if not (round_.isascii() and round_.isdigit() and turn.isascii() and turn.isdigit()):
        return None
    names: list[str] = []
    order: dict[str, list[str]] = {"hero": [], "enemy": []}  # the turn order: heroes, then enemies
    for entry in combatants:
        name, side = text_of(entry.get("name", "")), text_of(entry.get("side", '"hero"'))
        if name is None or not name.strip() or side not in order:
            return None
        names.append(name.strip())
        order[side].append(name.strip())
    acting = [*order["hero"], *order["enemy"]]
    if acting and int(turn) >= len(acting):
        return None
    where = f"round {int(round_)}, {acting[int(turn)]}'s turn" if int(round_) > 0 and acting else "not begun yet"
    return f"{where}: {', '.join(names)}"


def text_of(value: str) -> str | None:
    """A TOML string as written on one line (basic, read as JSON reads it, or literal), or None."""
    if len(value) < 2 or value[0] != value[-1] or value[0] not in "\"'":
        return None
    if value[0] == "'":
        inner = value[1:-1]
        return inner if "'" not in inner and inner.isprintable() else None
    try:
        decoded = json.loads(value)
    except ValueError:
        return None
    return decoded if isinstance(decoded, str) else None
