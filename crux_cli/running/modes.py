"""The ways of running without a prompt: one statement line, a batch from a stream, odds.

Each returns the exit status (0 all answered, 2 any refused) rather than exiting, so the
faces decide how to leave and tests can call them in-process. Every answer is written
to the journal and printed as soon as its statement is done, so a line whose later part
is refused still shows what the earlier parts did to the sheet.
"""

from __future__ import annotations

import codecs
import gc
from collections.abc import Callable, Iterator
from itertools import islice
from time import monotonic
from typing import TYPE_CHECKING, Any

from crux_cli import rulesets
from crux_cli.core.errors import CruxError
from crux_cli.core.lines import COMMENT, ODDS, is_blank
from crux_cli.core.memo import Met
from crux_cli.core.rng import Draws, learn_draws
from crux_cli.rulesets import BUILT_IN
from crux_cli.running.settings import make_runner

if TYPE_CHECKING:
    from crux_cli.running.output import Output
    from crux_cli.running.runner import Runner
    from crux_cli.running.settings import Settings
    from crux_cli.state.journal import Journal


def journaled_runner(settings: Settings) -> Runner:
    """The settings' runner, writing each answer to the user's journal before it is shown."""
    runner = make_runner(settings)
    journal = runner.journal = settings.journal()
    runner.keep_faces = journal.mode == "on"
    journal.keys(runner)
    if runner.sheet is not None:
        journal.watch(runner)
    return runner


def run_one(settings: Settings, text: str, output: Output) -> int:
    """One line's answers. Plain rolls are shown together once the journal holds them (`999x 50` is one
    commit, not 999); an answer that changed a sheet is journaled at once and shown before any error."""
    runner = None
    held: list[Any] = []

    def show() -> None:
        if runner is not None and runner.journal is not None:
            runner.journal.sync()
        if held:
            output.answers(held[:])
            held.clear()

    try:
        runner = journaled_runner(settings)
        runner.journal.defer_sync = True
        for answer in runner.each(with_aliases(settings, text, runner, output)):
            held.append(answer)
            if answer.sheet is not None:
                show()
        show()
    except CruxError as error:
        show()
        output.refused(command_hint(error, text), None, text)
    finally:
        if runner is not None and runner.journal is not None:
            runner.journal.close()
    warn_about_journal(runner.journal if runner is not None else None, output)
    return 2 if output.failures else 0


COMMAND_WORDS = ("log", "odds", "sheet", "repl")  # crux's commands a one-shot's first word may be a slip of


def command_hint(error: CruxError, text: str) -> CruxError:
    """A one-shot refused at its first word, a word close to one of crux's commands (`crux lgo`): the hint says
    which command was perhaps meant. Only ever on a refusal: a roll pays nothing for it."""
    word = text.split(maxsplit=1)[0].lower() if text.strip() else ""
    if error.position not in (None, 0) or not word.isalpha() or len(word) < 3:
        return error
    from difflib import get_close_matches

    close = get_close_matches(word, COMMAND_WORDS, n=1, cutoff=0.6)
    if not close:
        return error
    return error.with_hint(f"did you mean the command `crux {close[0]}`?" + (f" {error.hint}" if error.hint else ""))


def run_batch(settings: Settings, stream: Any, output: Output) -> int:
    """One statement per line; a bad line is reported with its number and the batch goes on."""
    if stream is None or getattr(stream, "closed", False):
        output.error(CruxError("standard input is closed: there are no statements to read",
                               hint="give a statement as an argument, or pipe statements in: crux - < rolls.txt"))
        return 2
    try:
        runner = make_runner(settings)
    except CruxError as error:
        output.error(error)
        return 2
    # The batch journals each answer itself rather than through the runner, so an answer's JSON is
    # built once for the journal and for `--json` output alike.
    journal = settings.journal()
    journal.defer_sync = True
    journal.keys(runner)
    if runner.sheet is not None:
        journal.watch(runner)
    aliases = usable_aliases(settings, runner, output)
    thresholds = gc.get_threshold()
    gc.set_threshold(max(thresholds[0], COLLECT_AFTER), *thresholds[1:])  # PERFORMANCE.md, "A batch of different lines"
    try:
        with journal.holding_sheets(runner.sheet is not None), output.batch():  # buffered unless stdout is a terminal
            answer_lines(runner, journal, output, stream, aliases)
    finally:
        gc.set_threshold(*thresholds)
    journal.close()
    warn_about_journal(journal, output)
    return 2 if output.failures else 0


def remembering(runner: Runner, output: Output) -> tuple[AnswerLines | None, AnswerLines | None, bool]:
    """The batch's remembered answer lines (text output), the same on a sheet (built-in rules only), and whether
    the rule set's answers are its faces' alone (PERFORMANCE.md, "A text batch remembers its answer lines")."""
    # the batch journals each answer itself, by its faces; text output remembers answer lines by them
    on_a_sheet = runner.sheet is not None and runner.rules_name in BUILT_IN
    # a line on a sheet is kept by the hero too (and by the one standing for its Grit, a change by the hero before):
    # the same statements make some twice the lines, which kept as many as without a sheet were all dropped twice
    # as often (PERFORMANCE.md, "A sheet batch keeps twice the lines")
    limit = REMEMBERED_LINES * (SHEET_LINES if on_a_sheet else 1)
    remembered = AnswerLines(output.batch_renderer(), limit) if not output.json and limit > 0 else None
    # on a sheet, a roll that left the hero as it was: its line is remembered by its hero too (built-in rules only)
    on_sheet = remembered if on_a_sheet else None
    keeping = runner.rules.sheet if on_sheet is not None else None
    if on_sheet is not None and keeping is not None and keeping.shared is not None and SHARED_LINES:
        palette, suffix = output.palette, keeping.suffix  # a line shared by heroes ends with its own hero's suffix
        on_sheet.shared, on_sheet.suffix = keeping.shared, lambda answer: suffix(answer, palette)
        on_sheet.body = output.batch_body_renderer()
    # the rule set's answers are its faces' alone: no sheet or hero (generic dice that read no sheet value are,
    # always), and built in (a rule set of a package may draw in ways its faces do not show)
    pure = runner.rules_name in BUILT_IN and runner.sheet is None and runner.hero is None
    return remembered, on_sheet, pure


# long: the batch's loop, run for every line: what it calls is bound to locals once, before it, and the
# usual line takes the fewest steps (PERFORMANCE.md; tests/bench/bench_batch.py --instructions)
def answer_lines(runner: Runner, journal: Journal, output: Output, stream: Any, aliases: dict[str, str]) -> None:
    """Answer each line of `stream`, journaled, and show the answers once the journal holds them."""
    from crux_cli.running.config import expand_aliases  # kept off the shells' Tab (PERFORMANCE.md)
    from crux_cli.running.runner import redrawn

    held_runs: dict[Any, Any] = {}  # the sheets held between statements (state.store `HeldRun`), when any
    if runner.sheet is not None:
        from crux_cli.state.store import HELD_RUNS, HOLDING

        held_runs = HELD_RUNS
    remembered, on_sheet, pure = remembering(runner, output)
    remembered_lines = remembered.lines if remembered is not None else {}
    lines_of = remembered_lines.get  # the remembered lines by statement
    runner.keep_faces = journal.mode == "on" or remembered is not None
    held: list[str] = []  # answers rendered but not shown yet, for one fsync of the journal per chunk

    def show() -> None:  # the journal (and the sheet) is on disk before the answers it holds are shown
        journal.sync()
        if held:
            output.write("".join(held))
            held.clear()
        for failure in journal.take_sheet_failures():
            output.error(failure)

    # bound once: a batch runs this loop for every line
    each, answered, roll, render = runner.each, journal.answered, journal.roll, output.batch_renderer()
    # the usual line's roll, kept in fewer steps: the batch's rule set and seed are every answer's (on a sheet too:
    # a roll that read it carries its hero, `answer.sheet`, or no faces; one that did not is a plain roll)
    usual = journal.usual if journal.mode == "on" and runner.hero is None else None
    usual_on_sheet = journal.usual_on_sheet if journal.mode == "on" and runner.sheet is not None else None
    # text output makes no JSON: the journal keeps what replays a roll, or makes the JSON itself
    answer_json, as_json = output.answer_json, output.json
    # a remembered line's statement drawn again along the draws it made, its engine and renderer skipped, when its
    # faces are journaled as the usual line's (or not at all): PERFORMANCE.md, "A remembered line is drawn again"
    paths_of = remembered.paths.get if REDRAWN and remembered is not None and \
        (usual is not None or journal.mode != "on") else None
    redrawn_on_sheet: Callable[..., str | None] | None = None
    if on_sheet is not None and paths_of is not None:
        from crux_cli.running import sheet_roll

        redrawn_on_sheet = sheet_roll.redrawn_on_sheet
    usual_held = journal.usual_held if journal.mode == "on" else None
    waiting = input_waits(stream)
    lines = number = 0
    for block in blocks_of_lines(stream):
        for raw in block:
            number += 1
            line = raw.rstrip("\r")
            if number == 1:
                line = line.removeprefix("\ufeff")  # a byte-order mark some editors write first
            if not line.strip() or (COMMENT in line and is_blank(line)):  # `is_blank`, a call only past a `#`
                continue
            lines += 1
            try:
                said = expand_aliases(line, aliases) if aliases else line
                drawn_again = None
                if paths_of is not None and said.isascii() and COMMENT not in said:  # `each`'s usual line
                    text = said.strip()
                    paths = paths_of(text)
                    if paths is not None:
                        if (drawn_again := redrawn(runner, text, paths, usual)) is not None:
                            held.append(remembered_lines[text][drawn_again])  # met with its paths, dropped with them
                    elif redrawn_on_sheet is not None and \
                            (again := redrawn_on_sheet(runner, text, on_sheet, usual_held, answered)) is not None:
                        drawn_again = ()
                        held.append(again)  # its line, by its hero (or the hero its rule set shares lines with)
                # kept one by one: a later refusal keeps the earlier ones
                for answer in each(said) if drawn_again is None else ():
                    if answer.odds:  # `odds …`: nothing rolled, so nothing journaled
                        held.append(output.render(answer, number))
                        continue
                    made = answer_json(answer) if as_json else None
                    faces = answer.drawn
                    if answer.sheet is not None:
                        if usual_on_sheet is not None and usual_on_sheet(answer):  # its hero as it was: no more to ask
                            if on_sheet is not None and faces is not None and len(faces) <= REMEMBERED_FACES \
                                    and answer.handler != "table":
                                held.append(on_sheet.line(answer, number, made, answer.sheet.after))
                                continue
                        else:
                            answered(answer, made)
                        if on_sheet is not None:
                            held.append(on_sheet.on_sheet(answer, number, made))
                            continue
                    elif faces is None or answer.comment is not None or answer.index is not None:
                        roll(answer, made)
                    else:  # the usual line: a roll, kept with its chunk by its statement and faces
                        said = answer.input
                        if usual is None or not usual(said, faces):
                            roll(answer, made)
                        # its line is the same for the same statement and faces (PERFORMANCE.md)
                        if remembered is not None and len(faces) <= REMEMBERED_FACES \
                                and (pure or answer.handler == "dice") and answer.handler != "table":
                            shown_as = lines_of(said)  # `remembered.line`'s lookup, spelled out: most lines are found
                            shown = shown_as.get(faces) if shown_as is not None else None
                            held.append(remembered.line(answer, number, made) if shown is None else shown)
                            continue
                    held.append(render(answer, number, made))
            except CruxError as error:
                show()
                output.refused(error, number, line)
            if lines >= CHUNK:
                show()
                lines = 0
            elif held_runs and monotonic() > HOLDING.until:  # others may be waiting for the sheet's lock
                journal.sync()
        if waiting():  # the next line is not there yet: show what is answered before waiting for it
            show()
            lines = 0
    show()


class AnswerLines:
    """A text batch's answer lines, remembered by statement and faces (PERFORMANCE.md, "A text batch remembers
    its answer lines"): a roll's line is the same for the same statement and faces, so it is looked up rather
    than rendered. A line is remembered from its statement's second time, so a batch of different lines keeps
    none, and all are dropped at once past its limit (REMEMBERED_LINES, SHEET_LINES times that on a sheet).

    On a sheet (`on_sheet`), a roll that left its hero as it was is remembered by its hero too: a sheet's hero
    is one object per state (state.store `interned`), told by identity and held here while its lines are, so
    its id names no other object meanwhile; one that changed it, by its update (one object a pair of heroes),
    and its answer by the hero before (`changes`): the engine is pure, so the same faces on the same hero make
    the same change, drawn again without it (running.sheet_roll `redrawn_on_sheet`). A hero's draws are learnt
    under one key, that of the hero standing for it where its rule set shares lines (`learn_for`), whatever
    line they led to: shared, its own, or a change."""

    def __init__(self, render: Callable[[Any, int, str | None], str], limit: int) -> None:
        self.render = render
        self.limit = limit  # lines kept before all are dropped
        self.lines: dict[Any, dict[tuple[int, ...], str]] = {}  # by statement (or hero id and statement), then faces
        # by statement (or hero id and statement: a roll that left its hero as it was), the draws that led to its
        # remembered lines (running.runner `redrawn`): dropped with them, so faces drawn again by statement always
        # have their line (on a sheet, one key learns a class of heroes' draws: running.sheet_roll looks for its own)
        self.paths: dict[Any, Draws] = {}
        self.met = Met(REMEMBERED_ONCE)  # statements answered once
        self.heroes: dict[int, Any] = {}  # the heroes whose ids key lines
        self.kept = 0
        # on a sheet whose rule set shares a line across heroes (`SheetKeeping.shared`): that hook, the suffix of an
        # answer, and by an update's id the update and the end of its lines (`shared_line`)
        self.shared: Callable[[Any, Any], Any] | None = None
        self.suffix: Callable[[Any], str] = str
        self.body: Callable[[Any], str] | None = None  # an answer's line without its suffix (`shared_line`)
        self.tails: dict[int, tuple[Any, str, bool]] = {}
        self.stand: tuple[Any, Any] = (None, None)  # the last hero drawn again for, and the one standing for it
        # by the id of the hero before and the statement, then faces: a change's answer and line (`keep_change`)
        self.changes: dict[tuple[int, str], dict[tuple[int, ...], tuple[Any, str]]] = {}

    def line(self, answer: Any, number: int, made: str | None, hero: Any = None) -> str:
        """The text printed for `answer`, a roll kept by its faces alone: remembered, or rendered."""
        said, faces = answer.input, answer.drawn
        if hero is not None and self.shared is not None and hero is answer.sheet.after is answer.sheet.before and \
                (standing := self.shared(hero, answer.result)) is not None:
            return self.shared_line(answer, number, made, standing)
        key = said if hero is None else (id(hero), said)
        shown_as = self.lines.get(key)
        if shown_as is None and (shown_as := self.kept_under(key, said, hero)) is None:
            return self.render(answer, number, made)
        shown = shown_as.get(faces)
        if shown is None:
            self.kept += 1
            shown = shown_as[faces] = self.render(answer, number, made)
            if hero is None:  # its answer is its faces' alone: drawn again next time, without its engine
                self.learn(key, faces)
            elif hero is answer.sheet.after:  # its hero's alone, its hero left as it was: drawn again as its hero's
                self.learn_for(hero, said, faces)
        return shown

    def shared_line(self, answer: Any, number: int, made: str | None, standing: Any) -> str:
        """`line` for a roll that left its hero as it was, whose line its rule set shares with the heroes `standing`
        stands for (`SheetKeeping.shared`: a Crux hero at any Grit from 1 to 5): remembered by that hero without its
        suffix, and drawn again by it (running.sheet_roll `redrawn_on_sheet`); the suffix is the answer's own."""
        said, faces = answer.input, answer.drawn
        key, (_, tail, plain) = (id(standing), said), self.tail(answer)
        bodies = self.lines.get(key)
        if bodies is None and (bodies := self.kept_under(key, said, standing)) is None:
            return self.render(answer, number, made)
        body = bodies.get(faces)
        if body is not None:
            return body + tail
        if plain and self.body is not None:  # a suffix scrubbing leaves as it is: the line is its body, then the tail
            body = self.body(answer)
        else:
            shown = self.render(answer, number, made)
            if not shown.endswith(tail) or len(shown) <= len(tail):  # scrubbing changed its end: rendered each time
                return shown
            body = shown[:-len(tail)]
        self.kept += 1
        bodies[faces] = body
        self.learn(key, faces)
        return body + tail

    def kept_under(self, key: Any, said: str, hero: Any) -> dict[tuple[int, ...], str] | None:
        """The lines to keep under `key` (by faces), none kept yet: begun now (all dropped first when full, `hero`
        held alive while its id keys them); None for a statement met once, whose line is kept by nothing."""
        if not self.met.again(said):
            return None
        if self.kept >= self.limit:  # full: begin again
            self.clear()
        shown_as: dict[tuple[int, ...], str] = {}
        self.lines[key] = shown_as
        if hero is not None:
            self.heroes[id(hero)] = hero
        return shown_as

    def learn(self, key: Any, faces: tuple[int, ...]) -> None:
        """The draws that led to the line kept under `key` for `faces` (running.runner `redrawn`)."""
        paths = self.paths.get(key)
        if paths is None:
            paths = self.paths[key] = {}
        learn_draws(paths, faces)

    def tail(self, answer: Any) -> tuple[Any, str, bool]:
        """What the line of `answer`, a roll on a sheet, ends with: its suffix (`SheetKeeping.suffix`, said as the text
        renderer says it) and the line feed, and whether the suffix is printable as it is (no colour, nothing to
        scrub); kept by its update, one object for each pair of heroes, with that update."""
        update = answer.sheet
        known = self.tails.get(id(update))
        if known is not None and known[0] is update:
            return known
        suffix = self.suffix(answer)
        tail = f" · {suffix}\n" if suffix else "\n"
        if len(self.tails) >= KEPT_TAILS:
            self.tails.clear()
        known = self.tails[id(update)] = (update, tail, suffix.isprintable())  # kept alive with it: its id stays its
        return known

    def clear(self) -> None:
        self.lines.clear()
        self.paths.clear()
        self.heroes.clear()
        self.changes.clear()
        self.kept = 0

    def on_sheet(self, answer: Any, number: int, made: str | None) -> str:
        """The text printed for `answer`, given on a sheet: a roll not kept by its faces alone (a comment, a
        repetition, a table, many dice) is rendered afresh. One that changed the sheet is remembered by its update,
        which the runner gives as one object for each pair of heroes (running.sheet_roll `sheet_update`): its line is
        the same for the same statement, faces, hero before and hero after."""
        faces, update = answer.drawn, answer.sheet
        if faces is None or answer.comment is not None or answer.index is not None \
                or len(faces) > REMEMBERED_FACES or answer.handler == "table":
            return self.render(answer, number, made)
        if update.before is update.after:
            return self.line(answer, number, made, update.after)
        shown = self.line(answer, number, made, update)
        if faces in self.lines.get((id(update), answer.input), ()):  # its line kept: its statement met again
            self.keep_change(answer, shown)
        return shown

    def keep_change(self, answer: Any, shown: str) -> None:
        """Keep `answer`, a change, and its line `shown` by the hero before, the statement and the faces, and learn
        its draws where that hero's are drawn again (by the hero standing for it, when its rule set shares lines):
        met again, the change is made again from them (running.sheet_roll `redrawn_on_sheet`). Counted with its
        line by update, which it lives and dies with."""
        before, said, faces = answer.sheet.before, answer.input, answer.drawn
        key = (id(before), said)
        changes = self.changes.get(key)
        if changes is None:
            changes = self.changes[key] = {}
            self.heroes[id(before)] = before  # held while its id keys changes
        if faces not in changes:
            changes[faces] = (answer, shown)
            self.learn_for(before, said, faces)

    def learn_for(self, hero: Any, said: str, faces: tuple[int, ...]) -> None:
        """`learn` the draws of a line of `hero`'s own (not shared with the heroes its rule set says roll alike, or
        a change) where `hero`'s draws are learnt: by the hero standing for it when there is one, as its shared
        lines' are, since a statement is drawn again along one key (running.sheet_roll `redrawn_on_sheet`)."""
        standing = self.shared(hero, None) if self.shared is not None else None
        if standing is None:
            self.learn((id(hero), said), faces)
            return
        self.heroes[id(standing)] = standing  # held while its id keys draws
        self.learn((id(standing), said), faces)


# answer lines a text batch remembers by statement and faces (0: none), of rolls whose faces (sides, count,
# face…) are at most REMEMBERED_FACES numbers (a roll of more dice seldom comes up the same again), and of
# statements met before (of the last REMEMBERED_ONCE met once: a batch of different lines remembers none)
REMEMBERED_LINES = 8192
SHEET_LINES = 2  # times REMEMBERED_LINES a batch on a sheet keeps: its lines are kept by hero as well
# a remembered line's statement drawn again along the draws it made, without its engine (False: every line is rolled)
REDRAWN = True
# on a sheet, a line shared by the heroes its rule set says roll it alike (`SheetKeeping.shared`; False: each its own)
SHARED_LINES = True
KEPT_TAILS = 256  # the ends of lines kept, one for each update (pair of heroes) met
REMEMBERED_FACES = 8
REMEMBERED_ONCE = 1024
# objects made (less those freed) before the young generation is collected, in a batch: a line keeps nothing of its
# own once answered (PERFORMANCE.md, "A line met once is kept by nothing"), but the journal's chunk keeps two tuples
# a line until its commit; collected at Python's 700 they are walked every 350 lines, at 50,000 seldom
COLLECT_AFTER = 50_000
CHUNK = 1024  # input lines whose answers are held back for one fsync of the journal when more input is already there
BLOCK = 1 << 16  # bytes asked of the input at a time: one read returns what is there, up to this


def blocks_of_lines(stream: Any) -> Iterator[list[str]]:
    """The stream's lines without their line feeds, as many at a time as one read of the input gives.

    The batch asks whether more input is waiting once a block rather than once a line. A read
    returns what is there without waiting for more, so each line a person types comes at once. Lines
    end at a line feed only (a carriage return before it is the caller's to drop), as they do on the
    standard input of a POSIX process. Undecodable bytes become U+FFFD rather than a crash.
    """
    read = getattr(getattr(stream, "buffer", None), "read1", None)
    if read is None:  # an in-memory stream: every line is there already
        each_line = (raw.rstrip("\n") for raw in stream)
        while block := list(islice(each_line, CHUNK)):
            yield block
        return
    decoder = codecs.getincrementaldecoder(getattr(stream, "encoding", None) or "utf-8")(errors="replace")
    tail: list[str] = []  # the line still being written, in the pieces read so far: joined once, when it ends
    while data := read(BLOCK):
        lines = decoder.decode(data).split("\n")
        if len(lines) == 1:  # no line feed in this block: input without newlines stays linear
            tail.append(lines[0])
            continue
        if tail:
            lines[0] = "".join(tail) + lines[0]
        tail = [lines.pop()]
        yield lines
    last = "".join(tail) + decoder.decode(b"", final=True)
    if last:
        yield [last]  # the last line, with no line feed after it


def input_waits(stream: Any) -> Callable[[], bool]:
    """Would the next line of `stream` have to wait (a person or program typing)? Then a batch shows what
    is answered now. Asked after every block, so the descriptor and `select` are looked up once."""
    try:
        descriptor = stream.fileno()
    except (AttributeError, OSError, ValueError):
        return lambda: False  # an in-memory stream: everything is there already
    import select

    poll = select.select

    def waits() -> bool:
        try:
            return not poll([descriptor], [], [], 0)[0]
        except (OSError, ValueError):
            return True

    return waits


def warn_about_journal(journal: Journal | None, output: Output) -> None:
    """Say once, at the end, when the journal could not be written (the answers stand)."""
    if journal is not None:
        for warning in journal.take_warnings():
            output.warning(warning)


def run_odds(settings: Settings, text: str, output: Output, at_least: int | None = None,
             cumulative: bool = False) -> int:
    try:
        runner = make_runner(settings)
        answer = runner.odds(with_aliases(settings, text, runner, output), at_least=at_least, exact=settings.json,
                             cumulative=cumulative)
    except CruxError as error:
        output.refused(error, None, text)
        return 2
    output.odds(answer)
    return 0


def with_aliases(settings: Settings, text: str, runner: Runner, output: Output) -> str:
    """The line with the config file's aliases spelled out (`smite goblin` → `atk 2d8+3 heavy goblin`)."""
    aliases = usable_aliases(settings, runner, output)
    if not aliases:
        return text
    from crux_cli.running.config import expand_aliases

    return expand_aliases(text, aliases)


def usable_aliases(settings: Settings, runner: Runner, output: Output) -> dict[str, str]:
    """The config file's aliases, less any named like a statement word of the rules in use (which it would
    hide): each of those is left out with a warning naming its line, as /alias refuses such a name."""
    aliases = settings.aliases
    if not aliases or settings.config is None:
        return aliases
    from crux_cli.running.config import alias_problem, shadowing

    words = runner.rules.keywords | rulesets.dice_handler().keywords | {ODDS}
    for name in shadowing(aliases, words):
        output.warning(alias_problem(settings.config, name, "a statement word"))
        del aliases[name]
    return aliases
