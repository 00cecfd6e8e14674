"""A statement of the active rule set rolled on a sheet (`Runner.roll`): read, roll and write back under the sheet's
lock, and the update the answer carries. Loaded at the first statement on a sheet (running.runner `on_sheet`): a roll
without a sheet never imports it."""

from __future__ import annotations

from time import monotonic
from typing import TYPE_CHECKING, Any

from crux_cli.core.errors import CruxError
from crux_cli.core.rng import drawn_along
from crux_cli.core.ruleset import Context, SheetUpdate
from crux_cli.state import store as sheets  # sheets in play: a batch on a sheet asks at every line

if TYPE_CHECKING:
    from collections.abc import Callable

    from crux_cli.core.rng import DiceStream, Roller
    from crux_cli.core.ruleset import RuleSet, SheetHero, SheetKeeping
    from crux_cli.running.runner import Runner


# long: a batch on a sheet rolls here at every line: the held run, the roll, the change and its update spelled out
# in one function, with no call a line more (PERFORMANCE.md, "A line on a held sheet")
def roll_on_sheet(runner: Runner, rules: RuleSet, keeping: SheetKeeping, statement: Any, roller: Roller, text: str,
                  path: str) -> tuple[Any, SheetUpdate]:
    """Read the sheet, roll, and write back what changed, all under the sheet's lock (`Runner.roll`), so two crux
    spending Grit from one sheet never both start from the same value. `rules`, the active rule set, keeps state on
    the sheet (its `keeping`). A batch on a sheet rolls here at every line: the run it holds is used as it is, with
    no `with`, and the roll is spelled out in this one function (PERFORMANCE.md, "A batch holds its sheet")."""
    sheet: Any = sheets.HELD_NAMES.get(path)  # a held run, used as it is until a look is due (`HeldRun.quiet_until`)
    transaction = None
    if sheet is None or monotonic() >= sheet.quiet_until:
        # The lock is let go once the answer is journaled (`answered`), not before: another crux then never
        # meets the write without its entry (state.recovery would settle it), and the journal holds a sheet's
        # changes in the order they were made (issue 37).
        transaction = sheets.sheet_transaction(path)
        sheet = transaction.__enter__()
    try:
        before = sheet.hero
        ctx = runner.contexts.get(text)  # the same for the same text and hero, on the shared roller (`Runner.roll`)
        if ctx is None or ctx.roller is not roller or ctx.hero is not before:
            ctx = context_of(runner, roller, before, text)
        try:  # `run`, spelled out
            result = rules.run(statement, ctx)
        except CruxError as error:
            raise error.at(text) from None
        after = keeping.apply(result, before)
        if after is not before:  # a save of the very hero read changes nothing
            # one object a state (state.store `interned`): a change met again gives the very update, its line and
            # suffix found again (PERFORMANCE.md, "A change on a held sheet, met again")
            after = sheets.interned(after)
            if after is not before:
                save_change(runner, sheet, path, before, after, text)
    except BaseException as error:
        if transaction is not None:
            transaction.__exit__(type(error), error, error.__traceback__)
        raise
    if transaction is not None:
        runner.locked_sheet = transaction
    runner.hero = after
    update = runner.last_update  # the usual statement on a sheet leaves the very hero the last one did
    if update is None or update.after is not after or update.before is not before or update.path != path:
        update = runner.last_update = sheet_update(path, before, after)
    return result, update


# long: a batch on a sheet asks at most of its lines: the held run, the hero standing for this one, the draws, the
# update and the line's end spelled out in one function, with no call a line more (PERFORMANCE.md)
def redrawn_on_sheet(runner: Runner, text: str, lines: Any,
                     kept: Callable[[str, tuple[int, ...], SheetUpdate], bool] | None,
                     changed: Callable[[Any, str | None], None]) -> str | None:
    """running.runner `redrawn` for a statement of the active rule set on a batch's held sheet: its draws are kept
    as its remembered `lines` are (running.modes `AnswerLines`), by its hero, or by the hero its rule set says rolls
    it alike (`SheetKeeping.shared`: the line then ends with this hero's own suffix, known once a line of its
    update was shown; a line not shared, the hero's own, is found by the hero). Only while the held run needs no
    look (`roll_on_sheet`). A roll that left the hero as it was has its faces journaled by `kept`; one that changed
    it is made again (`changed_again`). Its line given back."""
    known, path = runner.known_again(text), runner.sheet
    if known is None or path is None:
        return None
    rules = known[1]
    held: Any = sheets.HELD_NAMES.get(path)
    if rules is not runner.loaded or rules.sheet is None or held is None or monotonic() >= held.quiet_until:
        return None
    hero = held.hero
    stand = lines.stand  # the last hero asked and the one standing for it: a batch's hero changes seldom
    if stand[0] is not hero:
        stand = lines.stand = (hero, lines.shared(hero, None) if lines.shared is not None else None)
    standing = stand[1]
    key = (id(hero if standing is None else standing), text)
    paths = lines.paths.get(key)
    if paths is None:
        return None
    roller = runner.roller(rules, known[2], True)
    drawn, stream = roller.drawn, roller.stream
    if drawn is None or stream is None:
        return None
    faces = drawn_along(roller, drawn, stream, paths)
    if faces is None:
        return None
    lines_of = lines.lines  # learnt with their paths, dropped with them, as changes are
    bodies = lines_of.get(key)
    shown: str | None = bodies.get(faces) if bodies is not None else None
    if shown is None and standing is not None:  # a line of this hero's own, not shared (`AnswerLines.learn_for`)
        own = lines_of.get((id(hero), text))
        shown, standing = own.get(faces) if own is not None else None, None
    if shown is None:  # faces a change was drawn with (of this hero, or of another it stands for)
        return changed_again(runner, text, lines, held, faces, stream, changed)
    update = runner.last_update  # as `roll_on_sheet` gives it: the very hero, before and after
    if update is None or update.after is not hero or update.before is not hero or update.path != path:
        update = runner.last_update = sheet_update(path, hero, hero)
    if standing is not None:
        tail = lines.tails.get(id(update))
        if tail is None or tail[0] is not update:  # no line of this hero shown yet: its suffix is not known
            stream.rewind()
            return None
        shown += tail[1]
    if kept is not None and not kept(text, faces, update):
        stream.rewind()
        return None
    runner.hero = hero
    return shown


def changed_again(runner: Runner, text: str, lines: Any, held: Any, faces: tuple[int, ...], stream: DiceStream,
                  changed: Callable[[Any, str | None], None]) -> str | None:
    """The change the `held` run's hero was given before by `text` drawn as `faces` (running.modes
    `AnswerLines.keep_change`), made again as `roll_on_sheet` makes it, without its engine: the rule set's engine is
    pure, so the same faces on the same hero give the same answer and hero after. Announced, saved on the held run
    and journaled (`changed`); its line given back. None (`stream` rewound) when this hero was never changed so."""
    hero = held.hero
    known = lines.changes.get((id(hero), text))
    made = known.get(faces) if known is not None else None
    if made is None or made[0].sheet.before is not hero:
        stream.rewind()
        return None
    answer = made[0]
    shown: str = made[1]
    update = answer.sheet
    try:
        save_change(runner, held, update.path, hero, update.after, text)
    except CruxError:
        stream.rewind()  # no answer: the next statement draws that stream afresh, as `Runner.answered` does
        raise
    runner.hero, runner.last_update = held.hero, update
    changed(answer, None)
    return shown


def save_change(runner: Runner, sheet: Any, path: str, before: SheetHero, after: SheetHero, text: str) -> None:
    """`after`, a hero other than `before`, saved on `sheet` (a transaction or held run) when the values the sheet
    keeps differ, compared once (`kept_values`): announced first by the journal (`Runner.on_write`), so a kill in
    between is settled. A statement rolled (`roll_on_sheet`) or a change made again (`changed_again`) alike."""
    written = kept_values(before, after)
    if written is not None:
        if runner.on_write is not None:
            runner.on_write(path, written[0], written[1], text, after.name)
        sheet.save_changed(after)


def context_of(runner: Runner, roller: Roller, hero: SheetHero, text: str) -> Context[Any]:
    """The context of `text` for `hero` on `roller`, kept by hero as well as by text: a batch's Grit goes 2, 3, 2, 3,
    and a context kept by text alone was made again at each line after a change (4 lines in 10 of the realistic
    mix on a sheet). The runner's `contexts` holds the last hero's, asked first; a sheet's heroes are one object a
    state (state.store `interned`), each kept here with its contexts, so its id names no other meanwhile."""
    kept = CONTEXTS.get(id(hero))
    if kept is None or kept[0] is not hero:
        if len(CONTEXTS) >= KEPT_HEROES:
            CONTEXTS.clear()
        kept = CONTEXTS[id(hero)] = (hero, {})
    contexts = kept[1]
    ctx = contexts.get(text)
    if ctx is None or ctx.roller is not roller:
        ctx = Context(roller, hero, text)
        if roller is not runner.shared or text not in runner.known:  # a statement read once: kept by nothing
            return ctx
        if len(contexts) >= KEPT_CONTEXTS:
            contexts.clear()
        contexts[text] = ctx
    if roller is runner.shared:
        if len(runner.contexts) >= KEPT_CONTEXTS:
            runner.contexts.clear()
        runner.contexts[text] = ctx
    return ctx


def kept_values(before: SheetHero, after: SheetHero) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """The values the sheet keeps, before and after a change from `before` to `after` (None when they are the same):
    worked out once for each pair of heroes met (a sheet's heroes are one object a state, so a hero whose Grit goes
    2, 3, 2 changes between the same two again and again). Read only, by the journal (`Journal.note_write`)."""
    key = (id(before), id(after))
    known = KEPT_VALUES.get(key)
    if known is not None and known[0] is before and known[1] is after:
        return known[2]
    old, new = sheets.file_for(before.rules).kept(before), sheets.file_for(after.rules).kept(after)
    written = (old, new) if old != new else None
    if len(KEPT_VALUES) >= KEPT_UPDATES:
        KEPT_VALUES.clear()
    KEPT_VALUES[key] = (before, after, written)  # kept alive with them: their ids name no other meanwhile
    return written


def sheet_update(path: str, before: SheetHero, after: SheetHero) -> SheetUpdate:
    """The update from `before` to `after` on the sheet at `path`: one object for each pair of heroes met (a sheet's
    heroes are one object a state), so what is remembered by an update (a line's suffix, its answer line) is found
    again when a hero's Grit goes 2, 3, 2, 3. Each update kept holds its heroes, so their ids name no other."""
    key = (id(before), id(after))
    known = UPDATES.get(key)
    if known is not None and known.before is before and known.after is after and known.path == path:
        return known
    if len(UPDATES) >= KEPT_UPDATES:
        UPDATES.clear()
    update = UPDATES[key] = SheetUpdate(path, before, after)
    return update


UPDATES: dict[tuple[int, int], SheetUpdate] = {}  # by the ids of the heroes before and after (`sheet_update`)
# the values a sheet keeps before and after, by the ids of the heroes before and after (`kept_values`)
KEPT_VALUES: dict[tuple[int, int], tuple[Any, Any, tuple[dict[str, Any], dict[str, Any]] | None]] = {}
KEPT_UPDATES = 256


KEPT_CONTEXTS = 1024  # as running.runner MAX_KNOWN: the contexts a runner keeps by text
CONTEXTS: dict[int, tuple[Any, dict[str, Context[Any]]]] = {}  # by a hero's id: the hero, its contexts by text
KEPT_HEROES = 64  # heroes whose contexts are kept (a batch's Grit takes six values; HP and wounds more)
