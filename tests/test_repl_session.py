"""The session without a terminal: statements answered as the one-shot command answers them, and /commands."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import crux_here
from prompt_toolkit.document import Document

from crux_cli.core.rng import ScriptedSource
from crux_cli.repl import commands
from crux_cli.repl.session import Session
from crux_cli.repl.toolbar import toolbar_fragments
from crux_cli.rulesets.crux.hero import Hero
from crux_cli.running.runner import Runner

STATEMENTS = ["DEX +2b -1B grit", "save WIL adv", "init", "atk 2d8+3 heavy rushed", "DEX; atk d8 # goblin"]


def one_shot(*args: str) -> list[str]:
    done = crux_here(*args)
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def scripted(*faces: int) -> Session:
    return Session(Runner(source=ScriptedSource(faces)))


@pytest.mark.parametrize("statement", STATEMENTS)
def test_statements_answer_as_the_one_shot_command_does(statement: str) -> None:
    session = Session(Runner(seed=7))
    assert session.handle(statement) == one_shot("--seed", "7", "--no-color", statement)


def test_json_lines_as_the_one_shot_command() -> None:
    session = Session(Runner(seed=3), json=True)
    [line] = session.handle("save WIL adv")
    assert json.loads(line) == json.loads(one_shot("--seed", "3", "--json", "save WIL adv")[0])


def test_an_error_shows_the_caret_and_the_session_goes_on() -> None:
    session = scripted(5)
    assert session.handle("save XYZ") == [
        "crux: error: unknown attribute 'XYZ'", "  save XYZ", "       ^",
        "  hint: the attributes are STR, DEX, INT and WIL (or strength, dexterity, intelligence, will)"]
    assert session.handle("DEX")[0].startswith("DEX: success (5)")
    assert not session.done


def test_blank_lines_and_comments_say_nothing() -> None:
    session = scripted()
    assert session.handle("   ") == []
    assert session.handle("# the goblins arrive") == []


def test_help_is_generated_from_the_registry() -> None:
    listing = "\n".join(scripted().handle("/help"))
    for entry in commands.COMMANDS.values():
        assert entry.usage in listing and entry.summary in listing
        assert entry.summary, f"/{entry.name} has no docstring"
    assert scripted().handle("/help alias")[0] == "/alias [NAME = STATEMENT]"
    assert any("save WIL adv" in line for line in scripted().handle("/help notation"))


def test_an_unknown_command_points_at_itself_and_suggests() -> None:
    assert scripted().handle("/sed 3") == ["crux: error: there is no session command /sed", "  /sed 3", "  ^",
                                           "  hint: did you mean /seed?"]


def test_seed_makes_the_rolls_repeat() -> None:
    session = Session(Runner())
    session.handle("/seed 11")
    first = session.handle("atk 3d6; DEX +1b")
    assert session.handle("/seed 11") == ["seed: 11"]
    assert session.handle("atk 3d6; DEX +1b") == first
    assert session.handle("/seed") == ["seed: 11"]
    assert session.handle("/seed off") == ["no seed: the dice are fresh"]
    assert session.runner.seed is None
    error = session.handle("/seed many")
    assert error[0] == "crux: error: 'many' is not a whole number" and error[2] == "        ^"


def test_rules_lists_and_switches() -> None:
    session = scripted()
    assert session.handle("/rules")[0].startswith("* crux ")
    assert session.handle("/rules crux") == ["rules: crux"]
    error = session.handle("/rules nope")
    assert error[0] == "crux: error: there is no rule set called 'nope'"
    assert session.runner.rules_name == "crux"


def test_an_alias_rolls_its_statement_with_more_words() -> None:
    session = scripted(6, 1, 2, 4)
    assert session.handle("/alias sneak = DEX +1b") == ["sneak = DEX +1b"]
    assert session.handle("sneak grit")[0].startswith("DEX +1b grit: success (6) · 3d6 keep highest [6, 1, 2]")
    assert session.handle("odds sneak") != []  # expanded before odds is asked, whatever odds answers
    assert session.expand("sneak; Sneak help # quietly") == "DEX +1b; DEX +1b help # quietly"


def test_aliases_are_spelled_out_listed_and_forgotten() -> None:
    session = scripted()
    session.handle("/alias sneak = DEX +1b")
    assert session.handle("/alias quiet = sneak help") == ["quiet = DEX +1b help"]
    assert session.handle("/alias") == ["quiet = DEX +1b help", "sneak = DEX +1b"]
    assert session.handle("/alias sneak =") == ["alias sneak forgotten"]
    assert "sneak" not in session.aliases


@pytest.mark.parametrize(("line", "message"), [
    ("/alias save = DEX", "'save' is already a statement word"),
    ("/alias two words = DEX", "'two words' cannot be an alias name: use one word of letters"),
    ("/alias sneak", "an alias is NAME = STATEMENT"),
])
def test_bad_aliases_are_refused(line: str, message: str) -> None:
    assert scripted().handle(line)[0] == f"crux: error: {message}"


def test_history_shows_recent_rolls_numbered() -> None:
    session = scripted(1, 2, 3, 4)
    assert session.handle("/history") == ["no rolls yet"]
    for _ in range(4):
        session.handle("test")
    recent = session.handle("/history 2")
    assert [line.split()[:2] for line in recent] == [["3", "test:"], ["4", "test:"]]
    assert "partial (3)" in recent[0] and "partial (4)" in recent[1]


def test_countdowns_shrink_on_a_one_and_end_on_a_one_on_d4() -> None:
    session = scripted(1, 3, 1, 1)
    assert session.handle("/countdown") == ["no countdowns: /countdown add Cd8 torch"]
    assert session.handle("/countdown add Cd6 torch") == ["countdown added: Cd6 torch"]
    assert session.handle("/cd add d4 ritual") == ["countdown added: Cd4 ritual"]
    assert session.handle("/countdown") == ["Cd6 torch: 1 · shrinks to d4", "Cd4 ritual: 3 · stays d4"]
    assert session.handle("/countdown") == ["Cd4 torch: 1 · ends", "Cd4 ritual: 1 · ends"]
    assert session.countdowns == []


def test_countdowns_are_cleared_by_label_or_all() -> None:
    session = scripted()
    for line in ("/countdown add Cd8 torch", "/countdown add Cd8 rope", "/countdown add Cd12 rope"):
        session.handle(line)
    assert session.handle("/countdown clear rope") == ["2 countdowns cleared"]
    assert session.handle("/countdown clear") == ["1 countdown cleared"]
    assert session.handle("/countdown add Cd7")[0] == "crux: error: 'Cd7' is not a countdown die"
    assert session.handle("/countdown roll")[0] == "crux: error: /countdown does not take 'roll'"


def test_quit_ends_the_session() -> None:
    session = scripted()
    assert session.handle("/quit") == []
    assert session.done
    exit_too = scripted()
    exit_too.handle("/exit")
    assert exit_too.done


def test_toolbar_shows_rules_seed_hero_and_countdowns() -> None:
    session = Session(Runner(seed=42))
    text = "".join(piece for _, piece in toolbar_fragments(session))
    assert "rules crux" in text and "seed 42" in text and "no hero" in text
    session.runner.hero = Hero(name="Aria", grit=2, hp=3, hp_max=12, wounds=1)
    session.handle("/countdown add Cd8 torch")
    fragments = toolbar_fragments(session)
    text = "".join(piece for _, piece in fragments)
    assert "hero Aria" in text and "Grit 2/5" in text and "HP 3/12" in text and "Wounds 1/6" in text
    assert "countdowns d8" in text
    assert ("class:toolbar.low", "3/12") in fragments  # a quarter of HP or less stands out


def test_dice_expressions_and_rule_sets_answer_as_the_one_shot_command() -> None:
    session = Session(Runner(seed=9))
    assert session.handle("6x 4d6kh3") == one_shot("--seed", "9", "--no-color", "6x 4d6kh3")
    stepdice = Session(Runner(seed=4))
    stepdice.handle("/rules stepdice")
    assert stepdice.handle("save d8 vs d6") == one_shot("--seed", "4", "--rules", "stepdice", "--no-color",
                                                        "save d8 vs d6")


def test_odds_lines_print_as_crux_odds_does() -> None:
    session = Session(Runner())
    assert session.handle("odds atk 2d8+3 heavy") == one_shot("--no-color", "odds", "atk 2d8+3 heavy")
    session.handle("/alias sneak = DEX +1b")
    assert session.handle("odds sneak") == one_shot("--no-color", "odds", "DEX +1b")
    as_json = Session(Runner(), json=True)
    assert as_json.handle("odds save WIL adv") == one_shot("--json", "odds", "save WIL adv")


def test_statements_before_a_bad_one_still_print() -> None:
    lines = scripted(4).handle("DEX; save XYZ")
    assert lines[0].startswith("DEX: partial (4)")
    assert lines[1] == "crux: error: unknown attribute 'XYZ'"


def new_sheet(folder: Path) -> str:
    path = folder / "aria.toml"
    assert crux_here("sheet", "new", str(path), "--name", "Aria", "--attr", "DEX=+1/1", "--hp", "12",
                     "--no-ask").returncode == 0
    return str(path)


def test_load_rolls_as_the_hero_and_writes_the_sheet_back(tmp_path: Path) -> None:
    path = new_sheet(tmp_path)
    session = scripted(1, 1, 3)
    assert session.handle(f"/load {path}") == [f"Aria loaded from {path} (crux rules)"]
    assert session.hero is not None and session.hero.grit == 0
    line = session.handle("DEX")[0]
    assert "net +1: DEX rating" in line and "Grit +1 earned" in line
    assert session.hero.grit == 1  # re-read from the sheet, which the roll wrote back
    session.handle("damage 5")
    text = "".join(piece for _, piece in toolbar_fragments(session))
    assert "hero Aria" in text and "Grit 1/5" in text and "HP 7/12" in text
    assert one_shot("--sheet", path, "--no-color", "show")[3].startswith("  Grit 1/5 · HP 7/12")


def test_the_toolbar_follows_a_sheet_changed_elsewhere(tmp_path: Path) -> None:
    path = new_sheet(tmp_path)
    session = scripted()
    session.handle(f"/load {path}")
    assert crux_here("--sheet", path, "damage 3").returncode == 0  # as another crux command would
    session.handle("/seed")  # any line: the session looks at the sheet after each one
    assert session.hero is not None and session.hero.hp == 9


def test_a_missing_sheet_is_an_error_pointing_at_the_file() -> None:
    lines = scripted().handle("/load nowhere.toml")
    assert lines[0] == "crux: error: nowhere.toml: no such sheet"
    assert lines[2] == "        ^"


def test_a_session_draws_its_toolbar_before_building_the_runner() -> None:
    built: list[Runner] = []

    def build() -> Runner:
        built.append(Runner(seed=3))
        return built[-1]

    session = Session(build, rules_name="crux", seed=3)
    text = "".join(piece for _, piece in toolbar_fragments(session))
    assert "rules crux" in text and "seed 3" in text and not built
    session.warm_up()
    assert len(built) == 1 and session.runner is built[0]
    assert session.handle("DEX") == one_shot("--seed", "3", "--no-color", "DEX")


def test_a_fight_takes_its_words_until_it_ends() -> None:
    session = Session(Runner(seed=5))
    assert session.handle("fight")[0].startswith("a fight begins")
    session.handle("enemy goblin hp 7 atk d6")
    session.handle("hero Bram")
    assert session.handle("init")[0] == "Bram: init: 3 actions (6)"
    text = "".join(piece for _, piece in toolbar_fragments(session))
    assert "▶ Bram  3 actions" in text and "round 1" in text  # the active combatant, not the loaded hero
    assert session.claims("atk goblin d8+1") and not session.claims("/seed 3")
    attack = session.handle("atk goblin d8+1")
    assert attack[0].startswith("Bram → goblin: atk d8+1: hit") and attack[-1] == "goblin takes 3: 4/7 HP"
    assert any(line.startswith("hero FILE.toml | NAME") for line in session.handle("/help fight"))
    assert session.handle("end")[0] == "the fight is over after 1 round"  # with the summary
    assert session.fight is None and not session.claims("atk goblin")
    assert session.handle("init")[0].startswith("init: ")  # a plain statement again


def test_fight_words_are_not_marked_as_errors_while_fighting() -> None:
    from crux_cli.repl.lexer import CruxLexer

    session = Session(Runner(seed=5))
    lexer = CruxLexer(lambda: session.runner.rules, lambda: frozenset(), session.claims)
    styles = lambda text: {style for style, _ in lexer.lex_document(Document(text))(0)}  # noqa: E731
    assert "class:error" in styles("atk goblin d8 ")
    session.handle("fight")
    assert "class:error" not in styles("atk goblin d8 ")


def test_aliases_are_kept_for_the_next_session(tmp_path: Path) -> None:
    from crux_cli.repl.aliases import load_aliases

    kept = tmp_path / "crux" / "aliases"
    session = scripted()
    session.aliases_file = kept
    session.handle("/alias sneak = DEX +1b")
    session.handle("/alias quiet = sneak help")
    session.handle("/alias quiet =")
    assert load_aliases(kept) == {"sneak": "DEX +1b"}
    assert oct(kept.stat().st_mode & 0o777) == "0o600"
    kept.write_text(kept.read_text() + "not an alias\n= DEX\nbad name = DEX\nLoud = STR +2b\n")
    assert load_aliases(kept) == {"sneak": "DEX +1b", "loud": "STR +2b"}
    assert load_aliases(tmp_path / "none") == {}


def test_aliases_that_cannot_be_kept_still_work_with_a_warning(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    session = scripted(4, 2)
    session.aliases_file = blocker / "aliases"
    said = session.handle("/alias sneak = DEX +1b")
    assert said[0] == "sneak = DEX +1b" and said[1].startswith("the aliases are not kept for next time")
    assert session.handle("sneak")[0].startswith("DEX +1b: partial (4)")


def test_a_plain_roll_at_the_prompt_loads_neither_the_fight_ledger_nor_the_sheet_reader(tmp_path: Path) -> None:
    """The first answer at the prompt waits only for what it uses; a fight word still loads the rest."""
    probe = (
        "import sys\n"
        "from crux_cli.core.style import PLAIN\n"
        "from crux_cli.repl import lexer, toolbar\n"
        "from crux_cli.repl.app import new_session\n"
        "from crux_cli.running.settings import Settings\n"
        "session = new_session(Settings(), PLAIN)\n"
        "offered = session.resume_offer()\n"
        "lexer.fragments('DEX +1b', session.runner.rules, judge=not session.claims('DEX +1b'))\n"
        "toolbar.toolbar_fragments(session, 80)\n"
        "answered = session.handle('DEX +1b')\n"
        "heavy = ('crux_cli.rulesets.crux.hero', 'crux_cli.state.encounter', 'crux_cli.state.sheet',\n"
        "         'crux_cli.rulesets.crux.sheet_file')\n"
        "print(offered, answered[0].split(':')[0], [m for m in heavy if m in sys.modules])\n"
        "print(session.handle('fight')[0].split(':')[0], 'crux_cli.rulesets.crux.hero' in sys.modules)\n")
    environ = {**os.environ, "XDG_DATA_HOME": str(tmp_path), "XDG_STATE_HOME": str(tmp_path)}
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=20, env=environ)
    assert done.returncode == 0, done.stderr
    plain, fight = done.stdout.splitlines()
    assert plain == "[] DEX +1b []"
    assert fight.endswith(" True") and "error" not in fight


def test_a_pasted_line_of_more_statements_than_the_limit_is_refused_as_the_one_shot_refuses_it() -> None:
    """A 210 KB paste of `;`-separated statements took 237 s and 435 MB: each one was answered."""
    from helpers import counting

    from crux_cli.core.limits import MAX_STATEMENTS

    session = Session(Runner(seed=1))
    line = ";".join(["DEX +1b"] * 26_000)
    with counting() as work:
        out = session.handle(line)
    assert work.calls < 500_000  # about 52,000: refused before a statement is read
    assert out == ["crux: error: 26,000 statements on one line is more than 100 (the limit)",
                   "  hint: put them on separate lines: crux - reads one statement per line"]
    assert not session.recent  # nothing rolled
    assert len(session.handle(";".join(["d6"] * MAX_STATEMENTS))) == MAX_STATEMENTS  # the limit itself is taken
    refused = session.handle("d6\n" + ";".join(["d6"] * (MAX_STATEMENTS + 1)) + "\nd8")  # a paste: line by line
    assert refused[0].startswith("d6: ") and any("more than 100" in line for line in refused)
    assert refused[-1].startswith("d8: ")


def test_an_alias_is_said_not_kept_when_the_aliases_file_could_not_be_read_at_start(tmp_path: Path) -> None:
    """The session went on without the file and later /alias kept nothing, silently."""
    from crux_cli.repl.app import keep_aliases_in

    fifo = tmp_path / "aliases"
    os.mkfifo(fifo)
    session = scripted(4, 2)
    warnings = keep_aliases_in(session, fifo)
    assert warnings and "cannot be read" in warnings[0]
    said = session.handle("/alias sneak = DEX +1b")
    assert said[0] == "sneak = DEX +1b" and said[1].startswith("the aliases are not kept for next time")
    assert "named pipe" in said[1]
    assert session.handle("sneak")[0].startswith("DEX +1b: partial (4)")  # it works for this session


def test_config_aliases_that_would_hide_a_word_are_left_out_as_alias_refuses_them(tmp_path: Path) -> None:
    from crux_cli.repl.app import usable_config_aliases
    from crux_cli.running.config import load_config

    path = tmp_path / "config.toml"
    path.write_text('[aliases]\nroll = "DEX +1b"\nsmite = "atk 2d8+3 heavy"\nhelp = "DEX"\natk = "DEX"\n')
    config = load_config({"CRUX_CONFIG": str(path)})
    session = scripted()
    warnings: list[str] = []
    assert usable_config_aliases(session, config, warnings) == {"smite": "atk 2d8+3 heavy"}
    assert warnings == [
        f"the config file's alias 'roll' is not used: {path}:2: 'roll' is already a statement word (pick another name)",
        f"the config file's alias 'help' is not used: {path}:4: 'help' is already a session command (/help) "
        "(pick another name)",
        f"the config file's alias 'atk' is not used: {path}:5: 'atk' is already a statement word (pick another name)"]
    for name in ("roll", "atk"):  # /alias says the same
        assert "is already a statement word" in session.handle(f"/alias {name} = DEX")[0]


def test_vi_keys_show_their_mode_first_in_the_toolbar() -> None:
    """vi shows whether it inserts or moves; so does the toolbar, and a narrow terminal keeps it longest."""
    from types import SimpleNamespace

    from prompt_toolkit.enums import EditingMode
    from prompt_toolkit.key_binding.vi_state import InputMode

    from crux_cli.repl.toolbar import toolbar_fragments, vi_mode

    vi = SimpleNamespace(editing_mode=EditingMode.VI, vi_state=SimpleNamespace(input_mode=InputMode.NAVIGATION))
    assert vi_mode(vi) == "NORMAL"
    vi.vi_state.input_mode = InputMode.INSERT
    assert vi_mode(vi) == "INSERT"
    assert vi_mode(SimpleNamespace(editing_mode=EditingMode.EMACS)) is None
    session = Session(Runner(seed=1))
    shown = "".join(text for _, text in toolbar_fragments(session, 12, mode="NORMAL"))
    assert shown.startswith(" NORMAL ")


def test_no_grey_suggestion_continues_a_whole_combatants_name() -> None:
    """With `rat` in the fight and `atk rats` in the history (an earlier fight), `atk rat` + a grey `s` would
    show `atk rats` while Enter runs `atk rat`."""
    from prompt_toolkit.buffer import Buffer
    from prompt_toolkit.document import Document
    from prompt_toolkit.history import InMemoryHistory

    from crux_cli.repl.app import SuggestFromGoodLines

    session = Session(Runner(source=ScriptedSource([5, 5])))
    for line in ("fight", "hero Wren", "minions rat 2", "init"):
        session.handle(line)
    history = InMemoryHistory()
    history.append_string("atk rats")
    suggest = SuggestFromGoodLines(session)
    buffer = Buffer(history=history)
    assert suggest.get_suggestion(buffer, Document("atk rat")) is None
    assert suggest.get_suggestion(buffer, Document("atk ra")).text == "ts"  # not yet a whole name
