"""The fight words that set a fight up and keep it: `fight`, `hero`, `enemy`, `minions`, `remove`,
`status`, `end`, `save FILE` and `load FILE`.

Each is a function from the fight's value and the line read once (`fight_words.FightWord`) to the
fight after it and what to say (`fight_step.Said`); `fight.WORDS` finds them by their word.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from crux_cli.core.errors import CruxError
from crux_cli.core.vocabulary import MAX_HIT_DICE, MAX_HP
from crux_cli.rulesets.crux import encounter as ledger
from crux_cli.rulesets.crux import fight_view as view
from crux_cli.rulesets.crux.encounter import possessive as possessive_of
from crux_cli.rulesets.crux.engine import GRIT_MAX
from crux_cli.rulesets.crux.fight_line import ARMOUR, check_name, folded, is_count, reserved, resolve, shadowed
from crux_cli.rulesets.crux.fight_state import FightState, frozen_map
from crux_cli.rulesets.crux.fight_step import Said, current, held, required, said_by, step, sync, turn_begins
from crux_cli.rulesets.crux.fight_words import FightWord, Token, is_file
from crux_cli.rulesets.crux.hero import Hero
from crux_cli.rulesets.crux.sheet_render import change_text

if TYPE_CHECKING:
    from crux_cli.core.ruleset import FightHost

BEGUN = ("a fight begins: add enemies (enemy NAME hp N), minions (minions NAME COUNT), more heroes "
         "(hero FILE.toml), then roll init")


def fight(state: FightState, word: FightWord, host: FightHost) -> Said:
    """`fight`: a new fight, with the session's hero (if a sheet is loaded); `fight on` after a win."""
    if word.args and word.args[0].text.lower() == "on":
        return fight_on(state, word, host)
    said = [BEGUN]
    sheet = host.runner.sheet
    if sheet is None:
        return FightState(), said
    state, joined = add_hero(FightState(), host, sheet, word.line)
    return state, said + joined


def fight_on(state: FightState, word: FightWord, host: FightHost) -> Said:
    """`fight on`: a won fight goes on (more enemies join); the turn passes on from a fallen enemy's."""
    if not state.over:
        raise CruxError("the fight is still on", text=word.line, position=word.args[0].at)
    state = state.replace(over=False)
    said = ["the fight goes on: add enemies, or `next`"]
    active = state.encounter.active()
    if active is not None and active.down and any(not c.down for c in state.encounter.combatants):
        state, turn = turn_begins(state, ledger.next_turn(state.encounter), host)
        said += turn
    return state, said


def hero(state: FightState, word: FightWord, host: FightHost) -> Said:
    """`hero FILE.toml`, or `hero NAME [hp N[/M]] [wounds N] [grit N] [hd N[/M]]`: another hero joins (one the
    party holds comes back as they were); the numbers set a hero held by name, in the fight or joining it;
    `hero NAME sheet FILE.toml` gives a hero held by name a sheet."""
    if not word.args:
        raise CruxError("which hero? a sheet file or a name", text=word.line, position=len(word.line),
                        hint="hero wren.toml, or hero \"Bram Ironfoot\"")
    words = list(word.args)
    given = sheet_given(word)
    if given:  # `hero Pip sheet pip.toml`: a hero held by name keeps a sheet from now on
        return give_sheet(state, host, word, given)
    if is_file(word.rest):
        return add_hero(state, host, word.rest, word.line)
    cut = next((i for i, w in enumerate(words) if i and not w.quoted and w.text.lower() in reserved()), len(words))
    typed, numbers = " ".join(w.text for w in words[:cut]), words[cut:]
    settings = hero_numbers(numbers, word.line)
    present = next((c for c in state.encounter.combatants if folded(c.name) == folded(typed)), None)
    if present is None and settings:  # numbers name someone in the fight by any beginning of their name too
        present = resolve(state.encounter, typed, word.line, words[0].at)
    if present is not None and present.side != "hero" and settings:
        raise CruxError(f"{present.name} is not a hero", text=word.line, position=words[0].at,
                        hint="an enemy's HP moves with damage NAME N and heal NAME N")
    if present is not None and settings:  # `hero Pip hp 7` in the fight: Pip's numbers set
        return numbers_set(state, host, present.name, settings, word.line, numbers[0].at)
    kept = next((h for name, h in host.party.items() if folded(name) == folded(typed)), None)
    if kept is not None and present is None:
        after, changed = set_numbers(kept, settings)
        state, said = add_hero(state, host, typed, word.line, after)
        back = f"{after.name} is back as the party left them" + (", then set" if changed else "")
        return state, [host.palette.dim(f"{back}: {numbers_text(after)}"), *said]
    if settings:
        after, changed = set_numbers(Hero(name=" ".join(typed.split())), settings)
        state, said = add_hero(state, host, typed, word.line, after)
        return state, [*said, numbers_said(state.heroes.get(after.name, after), changed, host)]
    return add_hero(state, host, typed, word.line)


def sheet_given(word: FightWord) -> int:
    """Where `sheet` stands in `hero NAME sheet FILE` (0: the line gives no sheet)."""
    return next((i for i, w in enumerate(word.args) if i and not w.quoted and w.text.lower() == "sheet"), 0)


def sheet_between(state: FightState | None, word: FightWord, host: FightHost) -> tuple[FightState | None, list[str]]:
    """`hero NAME sheet FILE` with no fight running (or after a win): the party's hero keeps a sheet, joining none."""
    after, said = give_sheet(state or FightState(), host, word, sheet_given(word), joins=False)
    return (after if state is not None else None), said


def give_sheet(state: FightState, host: FightHost, word: FightWord, at: int, joins: bool = True) -> Said:
    """`hero NAME sheet FILE`: a hero held by name (in the fight, or the party's) keeps their values on a sheet from
    now on: a new sheet of them where no file is, else that sheet (theirs by name) with their HP, Wounds, Grit,
    Dying, Hit Dice and conditions; one in the party alone joins the fight from it."""
    words, line = list(word.args), word.line
    typed, path = " ".join(w.text for w in words[:at]), " ".join(w.text for w in words[at + 1:])
    if not is_file(path):
        raise CruxError("which sheet? a FILE.toml after `sheet`", text=line, position=words[at].at,
                        hint=f"hero {typed} sheet {typed.split()[0].lower()}.toml")
    present, held = held_by_name(state, host, typed, path, line, words[0].at)
    on_sheet = sheet_of(host, path, held, line, words[at + 1].at)
    kept = host.keep_on_sheet(path, onto_sheet(held, on_sheet))
    moved = [change_text(n, getattr(on_sheet, n), getattr(kept, n)) for n in ("hp", "wounds", "grit", "dying",
             "dead", "hit_dice", "conditions") if on_sheet is not None and getattr(on_sheet, n) != getattr(kept, n)]
    made = "" if on_sheet is not None else " (a new one: fill in its attributes and attack)"
    numbers = numbers_said(kept, moved, host) if on_sheet is not None else f"{kept.name}: {numbers_text(kept)}"
    said = [f"{held.name} keeps a sheet from now on: {path}{made}", numbers]
    if present is None:  # from the party alone: they join the fight from their sheet (one running)
        state, joined = add_hero(state, host, path, line) if joins else (state, [])
        return state, [*said, *joined]
    state = state.replace(sheets=frozen_map({**state.sheets, held.name: path}),
                          heroes=frozen_map({n: h for n, h in state.heroes.items() if n != held.name}))
    state, notes = sync(state, host)
    return state, [*said, *notes]


def held_by_name(state: FightState, host: FightHost, typed: str, path: str, line: str,
                 at: int) -> tuple[ledger.Combatant | None, Hero]:
    """The hero held by name that `hero NAME sheet FILE` names: in the fight (any beginning of the name), else the
    party's; refused when they keep a sheet already, are no hero, or nobody holds them."""
    present = next((c for c in state.encounter.combatants if folded(c.name) == folded(typed)), None)
    present = present or resolve(state.encounter, typed, line, at)
    if present is not None and present.name in state.sheets:
        raise CruxError(f"{present.name} keeps a sheet already: {state.sheets[present.name]}", text=line,
                        position=at)
    if present is not None and present.side != "hero":
        raise CruxError(f"{present.name} is not a hero", text=line, position=at)
    if present is not None:
        return present, state.heroes.get(present.name) or Hero(name=present.name)
    kept = next((h for n, h in host.party.items() if folded(n) == folded(typed)), None)
    if kept is None:
        raise CruxError(f"the party holds no hero called {typed}", text=line, position=at,
                        hint=f"hero {path} brings a sheet's hero into the fight")
    return None, kept


def sheet_of(host: FightHost, path: str, held: Hero, line: str, at: int) -> Hero | None:
    """The hero on the sheet at `path`, which must be `held`'s by name (None: no file there, so a new sheet; or one
    that does not read, which the host refuses as it writes, as any reading of it is refused)."""
    try:
        on_sheet: Hero = host.read_hero(os.path.expanduser(path))
    except CruxError:
        return None
    if folded(on_sheet.name) != folded(held.name):
        raise CruxError(f"{path} is {possessive_of(on_sheet.name)} sheet, not {possessive_of(held.name)}",
                        text=line, position=at, hint=f"name = \"{held.name}\" in the sheet makes it theirs, or "
                        "give another file (a new one is made)")
    return on_sheet


def onto_sheet(held: Hero, on_sheet: Hero | None) -> Hero:
    """The values a held hero carries onto a sheet: all of them onto a new one; onto a sheet of theirs, HP and Hit
    Dice within its maxima and Wounds within its cap (the sheet's own attributes, attack and maxima kept)."""
    if on_sheet is None:
        return held
    wounds = min(held.wounds, on_sheet.wound_cap)
    return on_sheet.replace(hp=min(held.hp, on_sheet.hp_max), wounds=wounds, grit=held.grit, dying=held.dying,
                            dead=held.dead or wounds >= on_sheet.wound_cap, conditions=held.conditions,
                            hit_dice=min(held.hit_dice, on_sheet.hit_dice_max))


def numbers_set(state: FightState, host: FightHost, name: str,
                settings: dict[str, tuple[int, int | None, Token]], line: str, at: int) -> Said:
    """`hero Pip hp 7` for Pip in the fight: their numbers set (a sheet's hero's are the sheet's to change)."""
    if name in state.sheets:
        raise CruxError(f"{possessive_of(name)} numbers are on their sheet", text=line, position=at,
                        hint=f"heal {name} N, wound {name} N, or edit the sheet")
    after, changed = set_numbers(state.heroes.get(name) or Hero(name=name), settings)
    state = state.replace(heroes=frozen_map({**state.heroes, name: after}))
    state, notes = sync(state, host)
    return state, [numbers_said(after, changed, host), *notes]


NUMBERS = ("hp", "wounds", "grit", "hd")  # hd: Hit Dice
WITH_MOST = ("hp", "hd")  # numbers with a most: N/MAX sets both


def hero_numbers(words: list[Token], line: str) -> dict[str, tuple[int, int | None, Token]]:
    """`hp 7`, `hp 7/12`, `wounds 3`, `grit 2`, `hd 1/2` (Hit Dice) after a hero's name: what to set (a word that
    is none of them is refused: it is never taken into the name)."""
    chosen: dict[str, tuple[int, int | None, Token]] = {}
    rest = iter(words)
    for word in rest:
        low = word.text.lower()
        if low not in NUMBERS:
            raise CruxError(f"'{word.text}' is not a hero's number: hp N, wounds N, grit N or hd N", text=line,
                            position=word.at, hint="quote a name with such a word in it: hero \"Pip the Grit\"")
        value = next(rest, None)
        if value is None:
            raise CruxError(f"{low} needs a number", text=line, position=len(line), hint=f"e.g. {low} 2")
        whole, _, most = value.text.partition("/")
        if not is_count(whole) or (most and (low not in WITH_MOST or not is_count(most))):
            raise CruxError(f"{low} needs a whole number" + (" (or N/MAX)" if low in WITH_MOST else ""), text=line,
                            position=value.at)
        chosen[low] = (int(whole), int(most) if most else None, value)
    return chosen


def set_numbers(hero: Hero, settings: dict[str, tuple[int, int | None, Token]]) -> tuple[Hero, list[str]]:
    """The hero with the numbers set (HP 0 is Dying, Wounds at the cap dead, §9), and what changed."""
    changes: dict[str, object] = {}
    if "hp" in settings:
        hp, hp_max = with_most("HP", settings["hp"], hero.hp_max, MAX_HP, "hp")
        if hp_max < 1:
            raise CruxError("a hero's most HP is at least 1", hint="hp N/MAX sets both")
        changes.update(hp=hp, hp_max=hp_max, dying=hp == 0 and not hero.dead)
    if "hd" in settings:
        changes["hit_dice"], changes["hit_dice_max"] = with_most("Hit Dice", settings["hd"], hero.hit_dice_max,
                                                                 MAX_HIT_DICE, "hd")
    if "wounds" in settings:
        wounds = settings["wounds"][0]
        if wounds > hero.wound_cap:
            raise CruxError(f"Wounds {wounds} is past the cap, {hero.wound_cap}")
        changes.update(wounds=wounds, dead=wounds >= hero.wound_cap)
    if "grit" in settings:
        if settings["grit"][0] > GRIT_MAX:
            raise CruxError(f"Grit holds 0 to {GRIT_MAX}", hint=f"grit {GRIT_MAX}")
        changes["grit"] = settings["grit"][0]
    after = hero.replace(**changes) if changes else hero
    said = [change_text(name, getattr(hero, name), getattr(after, name)) for name in
            ("hp", "wounds", "grit", "dying", "dead", "hit_dice") if getattr(hero, name) != getattr(after, name)]
    return after, said


def with_most(label: str, setting: tuple[int, int | None, Token], most_now: int, limit: int,
              word: str) -> tuple[int, int]:
    """A number and its most (`hp 7/12`, `hd 1/2`): the most given, else the larger of the hero's and the number;
    the number never past its most, the most never past what a sheet holds."""
    number, given, _ = setting
    most = given if given is not None else max(most_now, number)
    if most > limit:
        raise CruxError(f"{label} past {limit:,} is more than a sheet holds", hint=f"{word} N/MAX with MAX "
                        f"at most {limit:,}")
    if number > most:
        raise CruxError(f"{label} {number} is more than the most, {most}", hint=f"{word} N/MAX sets both")
    return number, most


def numbers_text(hero: Hero) -> str:
    """`HP 7/10 · Wounds 3/6 · Grit 1`: the numbers a hero held by name carries between fights."""
    parts = [f"HP {hero.hp}/{hero.hp_max}", f"Wounds {hero.wounds}/{hero.wound_cap}", f"Grit {hero.grit}",
             f"Hit Dice {hero.hit_dice}/{hero.hit_dice_max}"]
    parts += ["dead"] if hero.dead else ["Dying"] if hero.dying else []
    return " · ".join([*parts, *hero.conditions])


def numbers_said(hero: Hero, changed: list[str], host: FightHost) -> str:
    return f"{hero.name}: " + " · ".join([*(changed or ["nothing changed"]), numbers_text(hero)])


def party(state: FightState | None, word: FightWord, host: FightHost) -> list[str]:
    """`party`: the heroes held by name, with their numbers (those in this fight as the fight has them)."""
    if word.args:
        raise CruxError("party takes nothing after it", text=word.line, position=word.args[0].at,
                        hint="hero NAME hp N sets a hero's numbers in a fight")
    heroes: dict[str, Hero] = {**host.party, **(state.heroes if state is not None else {})}
    if not heroes:
        return ["no hero is held by name: `hero NAME` in a fight adds one (a sheet keeps its own)"]
    fighting = state.hero_names() if state is not None else ()
    return ["the party (heroes held by name):",
            *(f"  {name}: {numbers_text(hero)}" + (" · in the fight" if name in fighting else "")
              for name, hero in heroes.items())]


def add_hero(state: FightState, host: FightHost, what: str, line: str, kept: Hero | None = None) -> Said:
    """A hero joins: from a sheet, or by name alone (their values held in the fight: `kept`, else a new
    hero's); in round 1 they roll initiative for their actions (§5: it sets the actions "in the first
    round"), later they have 3."""
    if is_file(what):
        path = os.path.expanduser(what)
        name = named(state, host.read_hero(path).name, line)
        runner = host.fight_runner(sheet=path)
        state = state.replace(sheets=frozen_map({**state.sheets, name: what}))
    else:
        name = named(state, kept.name if kept is not None else what, line)
        runner = host.fight_runner(hero=(kept or Hero(name=name)).replace(name=name))
    out, opening = [], ledger.TURN_ACTIONS
    if state.encounter.round == 1:  # from round 2 on there is no initiative to roll, so no Grit either
        answer = runner.answer("init")
        opening = answer.result.actions
        out.append(said_by(host, answer, name))
    if not is_file(what):  # their values are the fight's: initiative's Grit too
        state = state.replace(heroes=frozen_map({**state.heroes, name: runner.current_hero()}))
    dying = kept is not None and kept.dying
    state, joined = step(state, ledger.add_hero(state.encounter, name, dying=dying, opening=opening), host)
    return state, out + joined


def named(state: FightState, name: str, line: str) -> str:
    """A newcomer's name: one a fight line can tell from its other words, hiding nobody already in."""
    at = max(0, line.find(name.split()[0] if name.split() else name))
    try:
        name = check_name(name)
    except CruxError as error:
        raise error.at(line, at) from None
    hidden = shadowed(state.encounter, name)
    if hidden is not None:
        raise CruxError(f"'{name}' begins {possessive_of(hidden.name)} name: `atk {name}` would reach the "
                        f"newcomer, no longer {hidden.name}", text=line, position=at,
                        hint=f"give it a name of its own (e.g. \"{name} 2\")")
    return name


def enemy(state: FightState, word: FightWord, host: FightHost) -> Said:
    """`enemy NAME hp N [medium|heavy] [resist] [vuln] [atk DICE] [grit N]`."""
    words, line = list(word.args), word.line
    at = next((i for i, w in enumerate(words) if w.text.lower() == "hp" and not w.quoted), -1)
    if at < 1 or at + 1 >= len(words) or not is_count(words[at + 1].text):
        raise CruxError("an enemy is: enemy NAME hp N [medium|heavy] [resist] [vuln] [atk DICE] [grit N]",
                        text=line, position=min(len(line), len(line.split()[0]) + 1),
                        hint="enemy goblin hp 7 heavy atk d6")
    name = named(state, " ".join(w.text for w in words[:at]), line)
    chosen = options(words[at + 2:], line)
    chosen.pop("crits", None)
    return step(state, ledger.add_enemy(state.encounter, name, int(words[at + 1].text), **chosen), host)


def minions(state: FightState, word: FightWord, host: FightHost) -> Said:
    """`minions NAME COUNT [medium|heavy] [atk DICE] [crits]`."""
    words, line = list(word.args), word.line
    at = next((i for i, w in enumerate(words) if i and is_count(w.text) and not w.quoted), -1)
    if at < 1:
        raise CruxError("a minion group is: minions NAME COUNT [medium|heavy] [atk DICE] [crits]", text=line,
                        position=min(len(line), len(line.split()[0]) + 1), hint="minions rats 6 atk d4")
    name = named(state, " ".join(w.text for w in words[:at]), line)
    chosen = options(words[at + 1:], line)
    for alone in ("resist", "vuln", "grit"):
        chosen.pop(alone, None)
    return step(state, ledger.add_minions(state.encounter, name, int(words[at].text), **chosen), host)


def options(words: list[Token], line: str) -> dict[str, Any]:
    """An enemy's or a group's options: armour, resist, vuln, crits, atk DICE, grit N."""
    chosen: dict[str, Any] = {}
    rest = iter(words)
    for word in rest:
        low = word.text.lower()
        if low in ARMOUR:
            chosen["armour"] = "unarmoured" if low.startswith("unarm") else low
        elif low in ("resist", "vuln"):
            chosen[low] = True
        elif low in ("crits", "crit"):
            chosen["crits"] = True
        elif low in ("atk", "attack"):
            chosen["attack"] = next(rest, Token("", False, 0)).text
        elif low == "grit":
            chosen["grit"] = grit(next(rest, Token("", False, len(line))).text, word, line)
        else:
            raise CruxError(f"'{word.text}' is not an armour, resist, vuln, atk DICE, grit N or crits",
                            text=line, position=word.at)
    return chosen


def grit(count: str, word: Token, line: str) -> int:
    if not is_count(count) or int(count) > GRIT_MAX:
        raise CruxError("grit needs how much the elite holds: grit 0 to grit 5", text=line, position=word.at)
    return int(count)


def remove(state: FightState, word: FightWord, host: FightHost) -> Said:
    """`remove NAME`: a combatant added by mistake leaves the fight (a hero's sheet with them)."""
    combatant = required(state, word.line, list(word.args))
    state = state.replace(sheets=frozen_map({n: s for n, s in state.sheets.items() if n != combatant.name}),
                          heroes=frozen_map({n: h for n, h in state.heroes.items() if n != combatant.name}))
    return step(state, ledger.remove(state.encounter, combatant.name), host)


def status(state: FightState, word: FightWord, host: FightHost) -> Said:
    """`status`: the round, whose turn, and a line for each combatant."""
    state, notes = sync(state, host)
    return state, [*notes, *view.status_lines(state, lambda name: current(state, host, name))]


def summary_again(state: FightState, word: FightWord, host: FightHost) -> Said:
    """`status` once the fight is won: the summary again, with where everyone stood."""
    return state, [*ledger.summary(state.encounter, state.fallen),
                   *view.status_lines(state, lambda name: current(state, host, name)),
                   "`fight on` goes on with it (more enemies), `fight` starts another"]


def end(state: FightState, word: FightWord, host: FightHost) -> tuple[None, list[str]]:
    """`end`: the fight is over (the summary, once it had begun)."""
    state, _ = sync(state, host)
    if not state.encounter.started:
        return None, ["the fight is over"]
    return None, list(ledger.summary(state.encounter, state.fallen, won=state.over))


def save(state: FightState, word: FightWord, host: FightHost) -> Said:
    """`save FILE.toml`: the fight written whole (a name with spaces is one file: `save my fight.toml`)."""
    state, _ = sync(state, host)
    state = held(state)
    host.save_fight(os.path.expanduser(word.rest), state)
    return state, [f"fight saved to {word.rest}"]


def load(state: FightState, word: FightWord, host: FightHost) -> Said:
    """`load FILE.toml`: a saved fight in place of this one."""
    path = word.rest
    try:
        loaded = host.load_fight(os.path.expanduser(path))
    except CruxError:
        not_a_sheet(host, path, word.line)
        raise
    if not isinstance(loaded, FightState):
        raise CruxError(f"{path} is not a fight of the Crux rules", text=word.line, position=word.args[0].at)
    state, said = status(loaded, word, host)
    return state, [f"fight loaded from {path}", *said]


def not_a_sheet(host: FightHost, path: str, line: str) -> None:
    """A fight file that does not read: if it is a character sheet, say so and which words load one."""
    try:
        hero = host.read_hero(os.path.expanduser(path))
    except (CruxError, OSError):
        return
    raise CruxError(f"{path} is a character sheet ({hero.name}), not a saved fight", text=line,
                    position=line.find(path.split()[0]) if path.split() else 0,
                    hint=f"`hero {path}` brings {hero.name} into the fight; `/load {path}` rolls as them")
