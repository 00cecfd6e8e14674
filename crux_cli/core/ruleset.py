"""The shape of a rule set: one typed `RuleSet` value, and the `Context` a statement runs with.

A rule set is a folder `crux_cli/rulesets/<name>/` (or a package of its own, found through the
entry-point group `crux.rulesets`) whose `ruleset.py` defines `RULESET = RuleSet(...)`: a small
typed core and the facets it has (`Vocabulary` for the REPL, `SheetKeeping` for a rule set that
changes the hero, `FightRules` for encounters), its statements' handlers in one `StatementTable`. Nothing
outside the folder names its statements: the runner, the renderers, the REPL's completion,
highlighting, help and colours all ask this value.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Generic, Protocol

from crux_cli.core.record import Record, field

if TYPE_CHECKING:
    from crux_cli.core.rng import Roller
    from crux_cli.core.style import Palette
    from crux_cli.probability.result import Odds


# S: a rule set's statement (what `parse` gives, `run` and `odds` take); R: its result (what `run` gives,
# `describe`, `to_json` and `apply` take); H: the hero a sheet-keeping rule set changes; Q: the request a
# row of a `StatementTable` makes of a statement (what its `run` and `odds` take).
if TYPE_CHECKING:  # type parameters with defaults (PEP 696): a plain `RuleSet` is any rule set
    from typing_extensions import TypeVar

    S = TypeVar("S", default=Any)
    R = TypeVar("R", default=Any)
    H = TypeVar("H", default=Any)
    Q = TypeVar("Q", default=Any)
    H_co = TypeVar("H_co", covariant=True, default=Any)  # a hero only given out (`FightRunner.current_hero`)
else:  # typing's TypeVar takes no default before Python 3.13, and typing_extensions is not a dependency
    from typing import TypeVar

    S, R, H, Q = TypeVar("S"), TypeVar("R"), TypeVar("H"), TypeVar("Q")
    H_co = TypeVar("H_co", covariant=True)


class Context(Record, Generic[H]):
    """What one statement runs with: the dice, the hero (when the rule set keeps one), the text typed."""

    roller: Roller
    hero: H | None = None
    text: str = ""  # the statement as typed, for error positions found after parsing


class SheetHero(Protocol):
    """What crux asks of any rule set's hero, beyond its own rules: who it is and which rules it plays by."""

    @property
    def name(self) -> str: ...

    @property
    def rules(self) -> str: ...


class FightRunner(Protocol[H_co]):
    """What a fight needs of a runner: answer one statement as its hero, and say who that hero is now."""

    sheet: str | None

    def answer(self, text: str) -> Any: ...

    # a statement value built already (a fight's roll: what was typed, read once, and what the fight adds),
    # answered as `answer(text)` answers the statement `text`, which it is shown and journaled as
    def answer_statement(self, statement: Any, text: str) -> Any: ...

    def odds_statement(self, statement: Any, text: str, exact: bool = False) -> Any: ...  # its odds, nothing rolled

    def odds(self, text: str, at_least: int | None = None, exact: bool = False,
             cumulative: bool = False) -> Any: ...  # the exact odds of a statement, nothing rolled

    def current_hero(self) -> H_co | None: ...


class FightValue(Protocol):
    """A fight as the session holds it: an immutable value that the rule set's fight words take and give
    back (`FightRules.run`), that `undo` keeps, and that the autosave and `save` write whole."""

    @property
    def over(self) -> bool: ...  # won: the words wait for a new fight or for it to go on

    @property
    def sheets(self) -> Mapping[str, str]: ...  # hero name -> the sheet file that keeps their values

    def names(self) -> tuple[str, ...]: ...  # the combatants, as the lexer colours them

    def acting(self) -> str | None: ...  # whose turn it is (None before the first)

    def summary(self) -> str: ...  # where it stands, in a few words: "round 2, Wren's turn: Wren, goblin"

    def ledger_json(self) -> dict[str, Any]: ...  # the ledger as JSON, for the journal


class FightHost(Protocol[H]):
    """What a rule set's fight words ask of the session that runs them (`repl.fighting.Fighting`).

    A rule set may not import the running, state or REPL layers above it, so a fight gets its
    runners, rendering and files through this.
    """

    @property
    def palette(self) -> Palette: ...

    @property
    def runner(self) -> FightRunner[H]: ...  # the session's own runner: the loaded sheet, if any

    def fight_runner(self, sheet: str | None = None, hero: H | None = None) -> FightRunner[H]: ...

    def render(self, answer: Any, who: str | None = None) -> str: ...  # who: the combatant who rolled

    def read_hero(self, path: str) -> H: ...

    def save_fight(self, path: str, fight: FightValue) -> None: ...

    def load_fight(self, path: str) -> FightValue: ...

    # the heroes held by name (no sheet) that the session keeps across fights and in the store, by name: the
    # party `hero NAME` brings back; the session adds each fight's held heroes to it after every word
    @property
    def party(self) -> Mapping[str, H]: ...

    # a hero held by name given a sheet (`hero NAME sheet FILE`): `hero`'s kept values on the sheet at `path` (a new
    # sheet of `hero` where no file is, never over one; else that sheet's hero with them, under its lock), and the
    # party holding them by name no more; the hero as the sheet now has them
    def keep_on_sheet(self, path: str, hero: H) -> H: ...


class FightLine(Record):
    """A fight line as the rule set read it once (`FightRules.read`): what the session's guard asks before
    it runs, and the fight file it saves or loads. A rule set's own reading may carry more (its words).

    - `line`: what runs: the line, or the one that runs once `question` is answered yes (`save!` saves);
    - `question`: asked before it runs ("": nothing to ask); a save asks it only when it would replace
      an earlier save the session did not write;
    - `file`: the fight file it saves or loads ("": none);
    - `saves`: it writes `file` (never over a file that is not a fight);
    - `forced`: it replaces an earlier save without asking (`save!`);
    - `looks`: it only looks (`status`): what it refreshes from the sheets is no change of the fight, so it
      is never a step `undo` takes back.
    """

    line: str
    question: str = ""
    file: str = ""
    saves: bool = False
    forced: bool = False
    looks: bool = False


class FightRules(Protocol):
    """A rule set's fights (`RuleSet.fights`): which lines are fight words, running them, and what the REPL
    shows of a fight. Every call takes the fight as a value and changes nothing but what it returns."""

    def words(self, fighting: bool) -> tuple[str, ...]: ...  # to complete and colour: all of them when fighting

    def help(self) -> tuple[str, ...]: ...  # the lines of `/help fight`

    def claims(self, line: str, fight: FightValue | None) -> bool: ...  # a fight word now?

    # a fight word (the line, or its reading), on the fight as a value: the fight after it, and what to say
    def run(self, line: str | FightLine, fight: FightValue | None,
            host: FightHost) -> tuple[FightValue | None, list[str]]: ...

    # `odds …` in a fight: the odds of that roll as the fight would make it, and what the fight added;
    # None when the statement is no roll of the fight (its plain odds are given)
    def odds(self, text: str, fight: FightValue | None, host: FightHost,
             exact: bool) -> tuple[Any, list[str]] | None: ...

    # a line read once (the session's guard asks its question, the runner runs it and notes its file)
    def read(self, line: str, fight: FightValue | None) -> FightLine: ...

    def resume(self, path: str) -> str: ...  # the line that loads a fight left in `path`

    def takes_path(self, word: str) -> bool: ...  # a file name follows `word`

    def complete(self, text: str, fight: FightValue,
                 host: FightHost) -> tuple[str, tuple[tuple[str, str], ...], bool] | None: ...

    def toolbar(self, fight: FightValue, host: FightHost) -> list[tuple[int, str, str]]: ...

    # the fight as the text of its file (state.encounter writes it), its heroes' sheets as `sheets` stores them
    def dump(self, fight: FightValue, sheets: Mapping[str, str]) -> str: ...

    # the fight in the text of the file `path` (a SheetError with the line when it is none of this rule set's),
    # its heroes' sheets as paths from the current folder: a sheet stored relative is relative to `folder`, the file's
    def load(self, text: str, path: str, folder: str) -> FightValue: ...


class Handlers(Record, Generic[S, Q, R]):
    """What a rule set does with one kind of statement `S`: one row of its `StatementTable`.

    - `result`: the type of the engine's result `R` (what `describe`, `to_json` and `apply` are chosen by),
      or "module:Name" for a type of a module a plain roll does not load;
    - the engine's request `Q`, from one of: `request(statement)`, the statement's fields alone, or
      `compile(statement, hero, text)`, when it needs the hero (ratings, conditions) or the text (the
      position of a refusal found after parsing);
    - `run(roller, request)`: roll it, giving a `result`;
    - `odds(request)`: its exact odds (or a refusal that says why there are none);
    - `describe(result, palette)` / `to_json(result)`: the result as one line and as JSON fields;
    - `apply(result, hero)`: the hero after the result, in a rule set that keeps state on a sheet (None:
      the result changes nothing).

    Build a row with `row(...)`, which mypy checks as one: the request is what `run` and `odds` take, the
    result what `describe`, `to_json` and `apply` take (a `Handlers(...)` written inside the table's
    mapping is read as `Handlers[Any, Any, Any]`, and is not checked).
    """

    result: type[R] | str
    run: Callable[[Roller, Q], R]
    odds: Callable[[Q], Odds]
    describe: Callable[[R, Palette], str]
    to_json: Callable[[R], dict[str, Any]]
    request: Callable[[S], Q] | None = None
    compile: Callable[[S, Any, str], Q] | None = None
    apply: Callable[[R, Any], Any] | None = None


def row(*, result: type[R] | str, run: Callable[[Roller, Q], R], odds: Callable[[Q], Odds],
        describe: Callable[[R, Palette], str], to_json: Callable[[R], dict[str, Any]],
        request: Callable[[S], Q] | None = None, compile: Callable[[S, Any, str], Q] | None = None,
        apply: Callable[[R, Any], Any] | None = None) -> Handlers[Any, Any, Any]:
    """One row of a `StatementTable`, its parts checked against each other (mypy infers `S`, `Q` and `R` from
    this call alone: a row wired to another statement's engine function is an error here).

    It returns the row as the table holds it, of any types, because a table's rows differ in their
    types: a `Handlers[S, Q, R]` returned would take its types from the table's mapping instead (Any),
    and nothing would be checked.
    """
    return Handlers(result=result, run=run, odds=odds, describe=describe, to_json=to_json, request=request,
                    compile=compile, apply=apply)


class StatementTable(Generic[S, R]):
    """A rule set's rows by statement type, and the same rows by result type; its methods are the
    `run`, `odds`, `describe` and `to_json` of a `RuleSet[S, R]` (and `apply`, of its `SheetKeeping`).

    A new statement is one syntax node, one grammar rule and one row, all in the rule set's folder;
    nothing else dispatches on the statement's type. The odds and renderers of a row are usually
    `lazy` functions, so a roll never imports the odds and `crux odds` never imports the renderer.
    A statement type (or a row's result type) may be named "module:Name", for a module a plain roll
    does not load: it is imported when a value of no type known yet is met.

    `S` and `R` are the rule set's statement and result types (unions), declared where the table is
    made (`STATEMENTS: StatementTable[Statement, Result] = StatementTable(...)`): each key is checked to
    be one of the statements, and the `RuleSet` made of its methods is a `RuleSet[S, R]`.
    """

    __slots__ = ("by_result", "by_statement", "later", "name")

    def __init__(self, name: str, rows: Mapping[type[S] | str, Handlers[Any, Any, Any]]) -> None:
        self.name = name  # the rule set's, for the refusal of a value that is none of its statements
        for handlers in rows.values():
            if (handlers.request is None) == (handlers.compile is None):
                raise TypeError(f"a {name} row needs one of request and compile: {handlers!r}")
        self.by_statement: dict[type, Handlers[Any, Any, Any]] = {}
        self.by_result: dict[type, Handlers[Any, Any, Any]] = {}
        self.later: list[tuple[type | str, Handlers[Any, Any, Any]]] = list(rows.items())
        self.resolve(named=False)

    def resolve(self, named: bool = True) -> None:
        """Index the rows by their types; with `named`, import the types named "module:Name" too."""
        waiting: list[tuple[type | str, Handlers[Any, Any, Any]]] = []
        for key, handlers in self.later:
            statement, result = (named_type(key), named_type(handlers.result)) if named else (key, handlers.result)
            if isinstance(statement, type) and isinstance(result, type):
                self.by_statement[statement] = handlers
                self.by_result[result] = handlers
            else:
                waiting.append((key, handlers))
        self.later = waiting

    def row(self, statement: Any) -> Handlers[Any, Any, Any]:
        found = self.by_statement.get(type(statement))
        if found is None and self.later:
            self.resolve()
            found = self.by_statement.get(type(statement))
        if found is None:
            raise TypeError(f"not a {self.name} statement: {statement!r}")
        return found

    def result_row(self, result: Any) -> Handlers[Any, Any, Any]:
        found = self.by_result.get(type(result))
        if found is None and self.later:
            self.resolve()
            found = self.by_result.get(type(result))
        if found is None:
            raise TypeError(f"not a {self.name} result: {result!r}")
        return found

    def request(self, statement: S, hero: Any = None, text: str = "") -> Any:
        """The engine's request for a statement (what `run` and `odds` start from)."""
        return made(self.row(statement), statement, hero, text)

    def run(self, statement: S, ctx: Context) -> R:
        row = self.by_statement.get(type(statement)) or self.row(statement)  # the first: a batch's every line
        compile_request = row.compile  # `made`, spelled out
        request = made(row, statement, ctx.hero, ctx.text) if compile_request is None else \
            compile_request(statement, ctx.hero, ctx.text)
        result: R = row.run(ctx.roller, request)  # the row's own R (Any here)
        return result

    def odds(self, statement: S, ctx: Context | None = None) -> Odds:
        row = self.row(statement)
        if ctx is None:
            return row.odds(self.request(statement))
        return row.odds(self.request(statement, ctx.hero, ctx.text))

    def describe(self, result: R, palette: Palette) -> str:
        return (self.by_result.get(type(result)) or self.result_row(result)).describe(result, palette)

    def to_json(self, result: R) -> dict[str, Any]:
        return self.result_row(result).to_json(result)

    def apply(self, result: R, hero: Any) -> Any:
        """The hero after `result` (the same hero when its row changes nothing)."""
        apply = (self.by_result.get(type(result)) or self.result_row(result)).apply  # the first: a batch's every line
        return hero if apply is None else apply(result, hero)


def made(row: Handlers[Any, Any, Any], statement: Any, hero: Any, text: str) -> Any:
    """The request of a row for a statement: compiled with the hero and the text, or from the statement."""
    compile_request, request = row.compile, row.request
    if compile_request is not None:
        return compile_request(statement, hero, text)
    if request is None:  # StatementTable refuses such a row when it is made
        raise TypeError(f"a row with neither request nor compile: {row!r}")
    return request(statement)


def named_type(named: type | str) -> type | str:
    """The type itself, or the type a "module:Name" string names (its module imported)."""
    if isinstance(named, type):
        return named
    import importlib

    module, name = named.split(":")
    found: type = getattr(importlib.import_module(module), name)
    return found


def lazy(module: str, name: str, into: dict[str, Any] | None = None) -> Callable[..., Any]:
    """The function `name` of `module`, imported at its first call rather than when the rule set loads.

    A rule set's renderers are not needed to parse a statement (`crux odds` never describes a roll), so
    loading them waits; after the first call the function is called directly, with no import statement
    to run for every answer of a batch. `into`: the namespace (a module's `globals()`) holding this under
    `name`, where the function itself replaces it at the first call, so a module's own calls then skip
    this wrapper too (a batch's every dice line calls the engine through one).
    """
    target: Callable[..., Any] | None = None

    def call(*args: Any) -> Any:
        nonlocal target
        if target is None:
            import importlib

            target = getattr(importlib.import_module(module), name)
            if into is not None and into.get(name) is call:
                into[name] = target
        return target(*args)

    call.__name__ = call.__qualname__ = name
    call.__doc__ = f"{module}.{name}, imported at its first call."
    return call


class LazyModule:
    """The functions of a module, each `lazy`: `LazyModule(module).name` is `lazy(module, "name")`.

    A rule set's `ruleset.py` names its odds and renderers through one, and gives mypy the module itself:

        if TYPE_CHECKING:  # mypy checks every row against the real functions
            from crux_cli.rulesets.omens import render
        else:  # a roll imports them at their first call
            render = LazyModule(RENDER)

    so a row (`describe=render.omen_text`) is typed as the function is, and a roll still loads no renderer.
    """

    __slots__ = ("module",)

    def __init__(self, module: str) -> None:
        self.module = module

    def __getattr__(self, name: str) -> Callable[..., Any]:
        if name.startswith("__"):  # copy, pickle and the like ask for these: the module is not loaded for them
            raise AttributeError(name)
        return lazy(self.module, name)


def lazy_value(module: str, name: str) -> Callable[[], Any]:
    """A loader of the value `name` of `module`, imported at its first call (then kept), as `lazy` does for
    functions: a rule set's fights load when the first fight word is read, never for a plain roll."""
    found: list[Any] = []

    def load() -> Any:
        if not found:
            import importlib

            found.append(getattr(importlib.import_module(module), name))
        return found[0]

    load.__name__ = load.__qualname__ = name
    load.__doc__ = f"{module}.{name}, imported at its first call."
    return load


EMPTY: Mapping[str, str] = MappingProxyType({})


class Following(Record):
    """Completion after a statement word from plain lists: the lower-case statement word -> the words
    that may follow it (a statement word not in the table is followed by nothing to complete)."""

    words: Mapping[str, tuple[str, ...]] = field(compare=False)

    def after(self, keyword: str) -> tuple[str, ...] | None:
        return self.words.get(keyword.lower())


class Kinds(Record):
    """Completion after a statement word by kinds of word of the rule set's own naming, for a richer rule set.

    - `suggest(before, word)`: the kinds that fit after the finished words `before` (the statement word first)
      while `word` is typed;
    - `words_for(kind, word)`: the (word, note) pairs of one kind.
    """

    suggest: Callable[[Sequence[str], str], tuple[str, ...]]
    words_for: Callable[[str, str], tuple[tuple[str, str], ...]]


class Vocabulary(Record):
    """The REPL facet of a rule set (`RuleSet.vocabulary`): how its statements are completed, coloured while
    typed and explained. Every field is the rule set's own; none is filled in for it.

    - `words`: the first words of its statements as completion shows them (`DEX` for `dex`);
    - `after`: what may follow a statement word, a `Following` table or `Kinds`;
    - `lexicon()`: lower-case word -> how the REPL colours it while typed ('attribute' or 'keyword'),
      beyond its statement words, which are always keywords (a function: computed on first use);
    - `patterns`: (lexer class, regular expression, verbose syntax) for notation of its own the REPL
      colours too ('bonus', 'penalty'); () when it has none;
    - `help`: the lines of `/help notation`.
    """

    words: tuple[str, ...]
    after: Following | Kinds
    lexicon: Callable[[], Mapping[str, str]] = field(compare=False)
    patterns: tuple[tuple[str, str], ...]
    help: tuple[str, ...]

    def following(self, keyword: str) -> tuple[str, ...] | None:
        """The plain words declared after `keyword` (None when the rule set names kinds instead, or none)."""
        return self.after.after(keyword) if isinstance(self.after, Following) else None

    def kinds(self, before: Sequence[str], word: str) -> tuple[str, ...]:
        return self.after.suggest(before, word) if isinstance(self.after, Kinds) else ()

    def words_for(self, kind: str, word: str) -> tuple[tuple[str, str], ...]:
        return self.after.words_for(kind, word) if isinstance(self.after, Kinds) else ()


class SheetFile(Protocol[H]):
    """A rule set's hero in a sheet file (`SheetKeeping.file`). The state layer reads the file's TOML, picks
    the rule set by its `rules` (the default one when it names none, or one without a file), and locks,
    caches, writes and journals the file; the rule set says what the TOML holds:

    - `read(data, text, path)`: the hero of the sheet's TOML (`data`, as tomllib reads it), or a
      `SheetError` naming `path` and the line of `text` that breaks a rule;
    - `write(text, before, after)`: `text` with the values that changed from `before` to `after`, the
      user's comments and layout kept; `edit(…, found)`: the same by a quick edit in place, or None
      when it cannot be done (`found`: what the rule set keeps between edits of one text, {} at first);
    - `template(hero)`: a new, commented sheet for `hero` (`crux sheet new`), which `read` gives back;
      `new(values)`: a hero of the rule set's own field names (as `crux sheet new` asks them), unchecked;
    - `kept(hero)` / `with_kept(hero, values)`: the values a roll changes and the file keeps, as JSON (what
      the journal keeps of a change and undo compares), and the hero with them set;
    - `dump(hero)` / `load(data)`: all of a hero as JSON and back (a roll on a sheet is replayed with it);
    - `hero`: the hero's type (the Python API's `crux_cli.Hero`, of the default rule set).
    """

    hero: type[H]

    def read(self, data: dict[str, Any], text: str, path: str) -> H: ...

    def write(self, text: str, before: H, after: H) -> str: ...

    def edit(self, text: str, before: H, after: H, found: dict[str, int | None] | None = None) -> str | None: ...

    def template(self, hero: H) -> str: ...

    def new(self, values: Mapping[str, Any]) -> H: ...

    def kept(self, hero: H) -> dict[str, Any]: ...

    def with_kept(self, hero: H, values: Mapping[str, Any]) -> H: ...

    def dump(self, hero: H) -> dict[str, Any]: ...

    def load(self, data: Mapping[str, Any]) -> H: ...


class SheetUpdate(Record):
    """The loaded sheet around one statement: the hero before and after (equal when nothing changed). Made by the
    runner (running.sheet_roll `sheet_update`, one object for each pair of heroes), read by a rule set's `suffix`."""

    path: str
    before: SheetHero
    after: SheetHero


class SheetKeeping(Record, Generic[R, H]):
    """The sheet facet of a rule set whose rolls change the hero (`RuleSet.sheet`): a roll on a sheet is
    read and written under its lock. A rule set that only reads the sheet (or none) has no such facet.

    - `apply(result, hero)`: the hero after a result;
    - `status(hero)`: the hero's state for the REPL's toolbar, as (tone, text) pairs, the tone one of
      key, value, low, hint;
    - `suffix(answer, palette)` / `json(update)`: what a roll on a sheet adds to its line and its JSON
      (`answer.sheet` and `update` are the runner's `SheetUpdate`: path, before, after);
    - `file()`: its `SheetFile`, loaded on first use (see `lazy_value`): a roll that reads no sheet never
      loads it. None: its sheets are read as the default rule set's.
    - `shared(hero, result)`: for a roll that left `hero` as it was, a hero standing for all those whose roll
      of the same statement and faces gives the same line but for its suffix (one object for each such class,
      so a batch remembers that line once for them all), or None (its line is its own hero's). Asked with
      `result` None, the hero standing for `hero`'s class; with a result, None when that result's line does
      not hold for the whole class. None (no such hook): every hero's lines are its own.
    """

    apply: Callable[[R, H], H] = field(compare=False)
    status: Callable[[H], tuple[tuple[str, str], ...]] = field(compare=False)
    suffix: Callable[[Any, Palette], str] = field(compare=False)
    json: Callable[[Any], dict[str, Any]] = field(compare=False)
    file: Callable[[], SheetFile[H]] | None = field(default=None, compare=False)
    shared: Callable[[H, R | None], H | None] | None = field(default=None, compare=False)


class RuleSet(Record, Generic[S, R]):
    """A rule set as the rest of crux sees it: a small core, and the facets it has (None: it has none).

    The core, which every rule set gives:

    - `name`, `summary`: what `--rules list` shows;
    - `keywords`: the lower-case first words of its statements (dispatch, completion);
    - `parse(text, keyword)`: the statement's immutable syntax tree, an `S` (CruxError when refused);
    - `run(statement, ctx)`: compile it to rule-engine calls and roll, giving a result, an `R`;
    - `describe(result, palette)` / `to_json(result)`: the result as one line and as JSON fields;
    - `colours`: outcome -> colour role of `core.style` (good, mixed, bad, crit), which its renderer
      and the odds tables paint with (an empty mapping paints nothing);
    - `odds(statement, ctx)`: exact odds (`crux_cli.probability.result.Odds`), or None when not offered.

    The facets:

    - `vocabulary`: a `Vocabulary`, what the REPL completes, colours and explains (None: the REPL
      completes its keywords and shows its summary);
    - `sheet`: a `SheetKeeping`, for a rule set whose rolls change the hero on a sheet;
    - `fights`: a loader of its fights (`FightRules`, see `lazy_value`); `fight_rules()` loads them.
    """

    name: str
    summary: str
    keywords: frozenset[str]
    parse: Callable[[str, str], S] = field(compare=False)
    run: Callable[[S, Context], R] = field(compare=False)
    describe: Callable[[R, Palette], str] = field(compare=False)
    to_json: Callable[[R], dict[str, Any]] = field(compare=False)
    colours: Mapping[str, str] = field(compare=False)
    odds: Callable[[S, Context], Odds] | None = field(default=None, compare=False)
    vocabulary: Vocabulary | None = field(default=None, compare=False)
    sheet: SheetKeeping[R, Any] | None = field(default=None, compare=False)
    fights: Callable[[], FightRules] | None = field(default=None, compare=False)

    @property
    def keeps_state(self) -> bool:
        """Does a roll change the hero (so a sheet is written under its lock)?"""
        return self.sheet is not None

    def fight_rules(self) -> FightRules | None:
        """Its fights, loaded on first use; None when it has none."""
        return self.fights() if self.fights is not None else None

    def statement_words(self) -> tuple[str, ...]:
        """First words of a statement, as completion offers them: as its vocabulary spells them, then any
        keyword it does not spell."""
        shown = self.vocabulary.words if self.vocabulary is not None else ()
        spelled = {word.lower() for word in shown}
        return (*shown, *sorted(keyword for keyword in self.keywords if keyword not in spelled))
