"""Turns `suggest()`'s kinds of word into words: the only part of completion that knows prompt-toolkit."""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator

from prompt_toolkit.completion import CompleteEvent, Completer, Completion, PathCompleter
from prompt_toolkit.document import Document

from crux_cli import rulesets
from crux_cli.repl import commands, words
from crux_cli.repl import suggest as kinds
from crux_cli.repl.session import Session


def fixed_words(kind: str) -> tuple[str, ...]:
    """The words of a kind that does not depend on the session."""
    if kind == kinds.MODIFIER:
        return ("+1b", "-1B", *words.modifiers())
    if kind == kinds.ATTACK:
        return words.attack_words()
    if kind == kinds.CONDITION:
        return words.conditions()
    return {kinds.ATTRIBUTE: words.ATTRIBUTES, kinds.SAVE: words.SAVE_WORDS, kinds.INIT: words.INIT_WORDS,
            kinds.CONDITION_ACTION: ("add", "remove"), kinds.REST: ("field", "safe"), kinds.DAMAGE: ("crit",),
            kinds.COUNTDOWN: ("add", "clear")}.get(kind, ())


def fight_words(fighting: bool) -> tuple[str, ...]:
    from crux_cli.repl import fight

    return (*fight.ALWAYS, *(fight.DURING if fighting else ()))


def is_sheet_or_folder(path: str) -> bool:
    return path.endswith(".toml") or os.path.isdir(path)


class CruxCompleter(Completer):
    def __init__(self, session: Session) -> None:
        self.session = session
        self.paths = PathCompleter(expanduser=True, file_filter=is_sheet_or_folder)

    def get_completions(self, document: Document, complete_event: CompleteEvent) -> Iterator[Completion]:
        suggestion = kinds.suggest(document.text_before_cursor, self.session.runner.rules)
        for kind in suggestion.kinds:
            if kind == kinds.PATH:
                yield from self.paths.get_completions(Document(suggestion.word), complete_event)
            else:
                yield from matching(self.candidates(kind, suggestion), suggestion.word)

    def candidates(self, kind: str, suggestion: kinds.Suggestion) -> Iterable[tuple[str, str]]:
        """(word, what it is) pairs for one kind of word."""
        rules = self.session.runner.rules
        if kind == kinds.STATEMENT:
            yield from ((w, "") for w in words.statement_words(rules))
            yield from self.session.aliases.items()
            yield from ((w, "fight") for w in fight_words(self.session.fight is not None))
        elif kind == kinds.SIGNED_ATTRIBUTE:
            yield from ((suggestion.word[0] + a, "attribute modifier") for a in words.ATTRIBUTES)
        elif kind == kinds.DECLARED:
            yield from ((w, "") for w in words.following_words(rules, suggestion.keyword) or ())
        elif kind == kinds.COMMAND:
            yield from ((commands.PREFIX + c.name, c.summary) for c in commands.COMMANDS.values())
            yield from ((commands.PREFIX + a, f"= /{c.name}") for c in commands.COMMANDS.values() for a in c.aliases)
        elif kind == kinds.TOPIC:
            yield ("notation", f"the statements of the {rules.name} rules")
            yield ("fight", "the words of an encounter")
            yield from ((c.name, c.summary) for c in commands.COMMANDS.values())
        elif kind == kinds.RULES:
            yield from ((name, summary) for name, summary in rulesets.summaries())
        else:
            yield from ((w, "") for w in fixed_words(kind))


def matching(candidates: Iterable[tuple[str, str]], word: str) -> Iterator[Completion]:
    """Candidates that start with `word`, ignoring case, each replacing it."""
    typed = word.lower()
    seen: set[str] = set()
    for candidate, meta in candidates:
        if candidate.lower().startswith(typed) and candidate not in seen:
            seen.add(candidate)
            yield Completion(candidate, start_position=-len(word), display_meta=meta)
