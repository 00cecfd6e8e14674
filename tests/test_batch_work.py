"""The work a batch does a line, counted (never timed): what keeps a batch of lines never seen twice quick
(PERFORMANCE.md, "A batch of different lines"; tests/bench/bench_batch.py measures it against a d20 loop)."""

from __future__ import annotations

import gc
import io
import sys
from pathlib import Path
from typing import Any, ClassVar

import pytest

from crux_cli.core.memo import Met, by_identity, kept_property
from crux_cli.core.record import Record
from crux_cli.rulesets.crux import grammar as crux_grammar
from crux_cli.running import modes, read
from crux_cli.running.output import Output
from crux_cli.running.runner import repeats
from crux_cli.running.settings import Settings

sys.path.insert(0, str(Path(__file__).parent / "bench"))
import batch_lines  # the bench's own lines: the test counts what the bench measures


def batch_calls(lines: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[int, str]:
    """Function calls (Python and C) the batch makes over `lines`, journaled, text out; and its output."""
    from helpers import counting

    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    read.clear_cache()
    settings = Settings(seed=1)
    stdout = io.StringIO()
    with counting() as work:
        modes.run_batch(settings, io.StringIO("".join(line + "\n" for line in lines)),
                        Output(settings, stdout, io.StringIO(), environ={}))
    return work.calls, stdout.getvalue()


def test_a_different_line_costs_a_bounded_number_of_calls(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """Each line of the bench's all-different mix read, rolled, rendered and journaled in a few hundred calls
    (about 175 today): a line left to pyparsing costs thousands, and so would a memo or a cache per line
    growing a walk of what it holds. Counted as the difference between 600 and 1,200 lines (start-up out)."""
    lines = [crux for crux, _ in batch_lines.all_different(1200)]
    small, _ = batch_calls(lines[:600], tmp_path / "small", monkeypatch)
    large, out = batch_calls(lines, tmp_path / "large", monkeypatch)
    assert out.count("\n") == 1200 and "not" not in out.split("\n")[0]
    assert (large - small) / 600 < 400, (large - small) / 600


def test_a_crux_statement_of_words_each_once_is_folded_in_one_pass(monkeypatch: pytest.MonkeyPatch):
    """`each_once`: the usual statement is folded from one {tag: value}, no rule's pass (`single`) over its
    words, into the very tree the rule-by-rule fold gives (which still words every refusal)."""
    statements = ["DEX +2b -1B grit risky great", "test +1b help", "save WIL adv vs rushed +1b -2B",
                  "save STR", "init ambush", "init +3b -1B limited", "atk 2d8+3 heavy rushed 2 resist",
                  "atk d6 +2 -1B minion ranged", "atk 3d10-1 vuln medium grit controlled", "INT -1B",
                  "atk 2d6 +1 +2"]  # the last: flat damage twice, summed by the rule-by-rule fold
    from crux_cli.rulesets.crux import ruleset  # noqa: F401  (the rule set's table, as a batch loads it)

    fast = [crux_grammar.parse(text, text.split()[0]) for text in statements]
    passes: list[str] = []
    real_single = crux_grammar.single

    def single(words: list[Any], tag: str, text: str, why: str) -> Any:
        passes.append(text)
        return real_single(words, tag, text, why)

    monkeypatch.setattr(crux_grammar, "single", single)
    for text in statements[:-1]:
        crux_grammar.parse(text, text.split()[0])
    assert passes == []
    crux_grammar.parse(statements[-1], "atk")
    assert passes  # a tag twice: the rule-by-rule fold
    monkeypatch.setattr(crux_grammar, "each_once", lambda words: None)
    assert [crux_grammar.parse(text, text.split()[0]) for text in statements] == fast
    assert [repr(tree) for tree in fast] == [repr(crux_grammar.parse(text, text.split()[0])) for text in statements]


def test_a_dice_line_naming_no_attribute_is_not_walked_for_one(monkeypatch: pytest.MonkeyPatch):
    from crux_cli.dice import grammar as dice_grammar
    from crux_cli.dice import syntax

    walked: list[Any] = []
    real = syntax.names_attribute
    monkeypatch.setattr(syntax, "names_attribute", lambda expr: walked.append(expr) or real(expr))
    assert not dice_grammar.parse("4d6kh3 + 2 - 1d4").reads_sheet and walked == []
    assert dice_grammar.parse("1d20 + dex").reads_sheet and len(walked) == 1
    assert dice_grammar.parse("2d6 + Strength vs 1d20 + WIL").reads_sheet
    assert not dice_grammar.parse("d20 + 3 [str check]").reads_sheet  # a label's word is no sheet value


def test_the_batch_collects_garbage_seldom_and_puts_the_threshold_back(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch):
    seen: list[tuple[int, int, int]] = []
    real = modes.answer_lines

    def answer_lines(*args: Any) -> None:
        seen.append(gc.get_threshold())
        real(*args)

    monkeypatch.setattr(modes, "answer_lines", answer_lines)
    before = gc.get_threshold()
    batch_calls(["d6", "DEX +1b"], tmp_path, monkeypatch)
    assert seen[0][0] == modes.COLLECT_AFTER and seen[0][1:] == before[1:] and gc.get_threshold() == before


def live_objects_after(lines: list[str], runner: Any, journal: Any, output: Output) -> int:
    """The objects the garbage collector tracks once `lines` are answered as a batch answers them."""
    modes.answer_lines(runner, journal, output, io.StringIO("".join(line + "\n" for line in lines)), {})
    gc.collect()
    return len(gc.get_objects())


def test_a_batch_of_different_lines_keeps_nothing_of_them(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """A line met once is kept by nothing (PERFORMANCE.md, "A line met once is kept by nothing"): its tree,
    context and heading die with it, so a batch of different lines reuses memory that is still in the processor's
    cache. Before, the caches held the last 1,024 lines' trees, 17 objects a line. Counted after 200 lines of
    warm-up (what the first lines import), over 200 and then 800 more lines: what stays does not grow with them."""
    from crux_cli.running.settings import make_runner

    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    read.clear_cache()
    settings = Settings(seed=1)
    runner = make_runner(settings)
    journal = settings.journal()
    journal.defer_sync = True
    journal.keys(runner)
    output = Output(settings, io.StringIO(), io.StringIO(), environ={})
    lines = [crux for crux, _ in batch_lines.all_different(1200)]
    live_objects_after(lines[:200], runner, journal, output)
    after_200 = live_objects_after(lines[200:400], runner, journal, output)
    after_1000 = live_objects_after(lines[400:], runner, journal, output)
    journal.close()
    assert after_1000 - after_200 < 100, after_1000 - after_200  # 800 lines: before, about 13,600
    assert not runner.known and not runner.contexts and not read._cache


def test_a_statement_read_again_is_kept_from_its_second_reading():
    from crux_cli.running.settings import make_runner

    read.clear_cache()
    runner = make_runner(Settings(seed=1, no_journal=True))
    first = runner.read("DEX +1b")[1]
    assert "DEX +1b" not in runner.known  # once: read, not kept
    second = runner.read("DEX +1b")[1]
    assert second == first and second is not first and "DEX +1b" in runner.known
    assert runner.read("DEX +1b")[1] is second  # kept: the same tree, with what its memos worked out


def kept_on(tree: Any) -> int:
    """How many values `core.memo.by_identity` keeps on the records of `tree` (its keys begin `_remembered_`)."""
    seen: set[int] = set()
    found = 0
    todo = [tree]
    while todo:
        node = todo.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, tuple | list):
            todo.extend(node)
        elif isinstance(node, Record):
            found += sum(1 for key in vars(node) if key.startswith("_remembered_"))
            todo.extend(value for key, value in vars(node).items() if not key.startswith("_remembered_"))
    return found


def test_nothing_is_worked_out_onto_a_tree_read_once(monkeypatch: pytest.MonkeyPatch):
    """A statement read once is read and answered with `core.memo.KEEPING` off: a value worked out from its tree
    is not kept on it (the tree dies with its line; a dice term's plan holds the term, a cycle only the collector
    frees). Read again, it is kept and its memos are too. The flag is back on after each; the answers are the same
    either way (the goldens)."""
    from crux_cli.core.memo import KEEPING
    from crux_cli.running.settings import make_runner

    read.clear_cache()
    read_once: list[Any] = []
    real = read._read  # the grammar, behind the shared cache
    monkeypatch.setattr(read, "_read", lambda *args: read_once.append(real(*args)) or read_once[-1])
    runner = make_runner(Settings(seed=1, no_journal=True))
    text = "4d6kh3 + 2d8 + 1"
    runner.answer(text)
    assert KEEPING.on and len(read_once) == 1 and kept_on(read_once[0][1]) == 0
    runner.answer(text)
    kept = runner.known[text][2]
    assert KEEPING.on and kept is not read_once[0][1] and kept_on(kept) >= 2  # both dice terms' plans, at least


def test_a_statement_the_shared_cache_holds_is_not_read_again_when_answered_once():
    """The REPL's colours read a statement as it is typed (`parse_statement`, through the shared cache); answered
    once, the runner takes that tree rather than reading it again, and adds nothing to the cache of its own."""
    from crux_cli.running.settings import make_runner

    read.clear_cache()
    runner = make_runner(Settings(seed=1, no_journal=True))
    typed = read.parse_statement("DEX +1b", runner.rules)
    assert runner.read("DEX +1b")[1] is typed and "DEX +1b" not in runner.known
    runner.read("2d6 + 1")  # read once, not typed at a prompt: not added to the shared cache
    assert len(read._cache) == 1


def test_met_says_again_from_a_keys_second_time_and_forgets_all_when_full():
    met = Met(3)
    assert [met.again(key) for key in ("a", "b", "a", "a")] == [False, False, True, True]
    met.again("c")  # three met: full
    assert met.again("d") is False  # forgotten all at once, then "d" met
    assert met.again("a") is False and met.again("d") is True


class Tree(Record):
    value: int


def test_a_memo_keeps_its_value_on_a_record_without_changing_what_it_equals():
    made: list[Tree] = []

    def make(tree: Tree) -> int:
        made.append(tree)
        return tree.value * 2

    remembered = by_identity(make)
    first, second = Tree(3), Tree(3)
    assert remembered(first) == remembered(first) == 6 and made == [first]
    remembered.cache_clear()  # type: ignore[attr-defined]  # the table: a Record's value is not in it
    assert remembered(first) == 6 and made == [first]
    assert remembered(second) == 6 and len(made) == 2  # an equal record is another object
    assert first == second and hash(first) == hash(second) and repr(first) == "Tree(value=3)"
    assert first.as_dict() == {"value": 3} and first.replace(value=4).value == 4


class Request(Record):
    parts: tuple[int, ...]

    @kept_property
    def total(self) -> int:
        self.counted.append(1)
        return sum(self.parts)

    counted: ClassVar[list[int]] = []  # how often `total` was worked out


def test_a_kept_property_is_worked_out_once_and_is_no_field():
    request = Request((1, 2, 3))
    assert request.total == request.total == 6 and Request.counted == [1]
    assert request == Request((1, 2, 3)) and Request.field_names() == ("parts",) and "total" not in repr(request)
    assert isinstance(Request.total, kept_property)


def test_repeats_reads_a_tree_s_count_and_a_crux_statement_is_rolled_once():
    from crux_cli import rulesets

    rules = rulesets.load("crux")
    assert repeats(read.read_uncached("6x 4d6kh3", rules)[1]) == 6
    assert repeats(read.read_uncached("DEX +1b", rules)[1]) == 1
    assert repeats(read.read_uncached("d20", rules)[1]) == 1


def test_crux_own_rules_roll_each_statement_once_on_one_roller_set_anew(monkeypatch: pytest.MonkeyPatch):
    """`Runner.roller(shared=True)`: a statement rolled once in crux's own rules takes the runner's one roller, set
    as a new one is, and the same context for the same text (no hero held): the same answers and faces, line for
    line, as a new roller and context a statement give (PERFORMANCE.md, "A statement's roller and context")."""
    from crux_cli.core import rng
    from crux_cli.running.runner import Runner

    lines = [crux for crux, _ in batch_lines.realistic(400)] + ["6x 2d6", "DEX; 3d6"]
    made: list[Any] = []
    original = rng.Roller.__init__

    def counted(self: Any, *args: Any, **kwargs: Any) -> None:
        made.append(self)
        original(self, *args, **kwargs)

    monkeypatch.setattr(rng.Roller, "__init__", counted)
    shared = Runner(seed=1)
    shared.keep_faces = True
    answers = [answer for line in lines for answer in shared.each(line)]
    rollers = len(made)
    fresh = Runner(seed=1)
    fresh.keep_faces = True
    plain = fresh.roller
    monkeypatch.setattr(fresh, "roller", lambda handler=None, statement=None, shared=False: plain(handler, statement))
    each_fresh = [answer for line in lines for answer in fresh.each(line)]  # a new roller and context a statement
    assert rollers <= 2  # one shared, one for the repetitions (`6x 2d6`, which keep theirs through a generator)
    assert len(made) > rollers + 400  # the plain way: a roller a statement
    assert answers == each_fresh and [a.drawn for a in answers] == [a.drawn for a in each_fresh]
    assert len(shared.contexts) == len(set(lines[:400])) and not fresh.contexts  # a context a text, on its roller
