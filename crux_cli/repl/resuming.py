"""The fight a session that is gone left running, offered when a session starts: "a fight was left running
(round 1, Bram's turn: Ann, Bram, ogre, goblin): resume it? (Y/n; …)".

The offer is said before the first prompt. Reading the fight whole to say where it stands needs the
rule set, its fights and the ledger: a tenth of the first prompt (tests/bench/bench_repl_startup.py). So
the offer is said from the fight's text by the active rule set's quick reader (`rulesets.fight_summary`,
in the rule set's folder), and the rules load after the prompt is drawn, as for any session
(app.warm_up_after_first_draw); whether the fight reads whole is found when the offer is answered, and a
fight that does not is kept as a file, as the offer keeps it when it reads the fight first. A rule set with
no quick reader (a plug-in's, or one without fights) has the fight read whole before the offer, as before.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from crux_cli import rulesets
from crux_cli.core.errors import CruxError
from crux_cli.state.autosave import left_fights

if TYPE_CHECKING:
    from crux_cli.repl.fighting import Fighting
    from crux_cli.state.autosave import Left

YES, NO = ("", "y", "yes"), ("n", "no")


def offer(fighting: Fighting) -> list[str]:
    """At start: the newest fight left by a session that ended or was killed is offered for resuming (the others
    wait for later starts), after what settling statements cut short by a kill did."""
    session = fighting.session
    if session.journal is None:
        return []
    left = left_fights(session.journal, most=1)  # one is offered; the others wait for a later start
    said = session.journal.take_warnings()
    if not left:
        return said  # the usual start: the encounter files and the fight rules stay unloaded
    newest = left[0]
    quick = rulesets.fight_summary(session.rules_name)
    summary = quick(newest.ledger) if quick is not None else None
    if summary is None:
        return [*said, *read_first(fighting, newest)]
    session.pending = lambda line: answer(fighting, line, newest)
    return [*said, question(summary)]


def read_first(fighting: Fighting, newest: Left) -> list[str]:
    """The offer of a fight read whole first, by the active rule set's fights."""
    session = fighting.session
    if fighting.rules() is None:
        newest.release()
        return [f"a fight was left running: the {session.rules_name} rules have no fights, so it waits for a "
                "session in rules that have them"]
    try:
        fight = fighting.load_fight(str(newest.path))
    except CruxError:
        return [f"a fight was left that does not read: kept as {newest.set_aside()}"]
    session.pending = lambda line: answer(fighting, line, newest)
    return [question(fight.summary())]


def question(summary: str) -> str:
    return f"a fight was left running ({summary}): resume it? (Y/n; n keeps it as a file to load later)"


def answer(fighting: Fighting, line: str, newest: Left) -> list[str]:
    """The answer to the offer: resumed (Enter, y), kept as a file (n), or a statement answered instead (the fight
    left running waits for the next start). A fight that does not read whole is kept as a file whatever the
    answer. `newest` is the fight left (state.autosave)."""
    session = fighting.session
    reply = line.strip().lower()
    try:
        fighting.load_fight(str(newest.path))  # the offer may have said it from its summary alone
        rules = fighting.fights_to_file()
    except CruxError:
        kept = [f"a fight was left that does not read: kept as {newest.set_aside()}"]
        return kept if reply in YES + NO else [*kept, *session.handle(line)]
    if reply in NO:
        kept_in = newest.set_aside()
        return [f"the fight is kept in {kept_in}: `{rules.resume(str(kept_in))}` resumes it"]
    if reply not in YES:  # a statement typed instead: answered, and the fight waits
        newest.release()
        return ["not resumed: the fight left running is offered again at the next start", *session.handle(line)]
    out = session.answered(line, lambda: fighting.word(rules.resume(str(newest.path)), undoable=False))
    if fighting.state is not None:
        newest.forget()  # the file it was read from goes: the fight is in the store, where it was kept
        store = str(session.autosave.path) if session.autosave is not None else "the state store"
        out = [said.replace(str(newest.path), f"{store} (the fight left running)") for said in out]
    return out
