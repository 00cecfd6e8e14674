"""Turns `suggest()`'s kinds of word into words: the only part of completion that knows prompt-toolkit.

The rule set spells its own kinds (`Vocabulary.words_for`); this module spells only the session's.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator

from prompt_toolkit.completion import CompleteEvent, Completer, Completion, PathCompleter
from prompt_toolkit.document import Document

from crux_cli import rulesets
from crux_cli.repl import commands, words
from crux_cli.repl import suggest as kinds
from crux_cli.repl.session import Session


def session_words(kind: str) -> tuple[str, ...]:
    """The words of a kind that depends on nothing else."""
    return {kinds.COUNTDOWN: ("add", "clear")}.get(kind, ())


def is_sheet_or_folder(path: str) -> bool:
    return path.endswith(".toml") or os.path.isdir(path)


class CruxCompleter(Completer):
    def __init__(self, session: Session) -> None:
        self.session = session
        self.paths = PathCompleter(expanduser=True, file_filter=is_sheet_or_folder)

    def get_completions(self, document: Document, complete_event: CompleteEvent) -> Iterator[Completion]:
        fight = self.session.fighting.complete(document.text_before_cursor)
        if fight is not None:  # names, reaction kinds and files in a fight line, already matched to the word
            word, candidates, paths = fight
            yield from (Completion(w, start_position=-len(word), display_meta=meta) for w, meta in candidates)
            if paths:
                yield from self.paths.get_completions(Document(word), complete_event)
            return
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
            yield from ((w, "fight") for w in self.session.fight_words())
            yield from (("undo", "take back the last change"), ("redo", "make it again"))  # the session's own
        elif kind == kinds.DECLARED:
            yield from ((w, "") for w in words.vocabulary(rules).following(suggestion.keyword) or ())
        elif kind == kinds.COMMAND:
            yield from ((commands.PREFIX + c.name, c.summary) for c in commands.COMMANDS.values())
            yield from ((commands.PREFIX + a, f"= /{c.name}") for c in commands.COMMANDS.values() for a in c.aliases)
        elif kind == kinds.TOPIC:
            yield ("notation", f"the statements of the {rules.name} rules")
            yield ("fight", "the words of an encounter")
            yield from ((c.name, c.summary) for c in commands.COMMANDS.values())
        elif kind == kinds.RULES:
            yield from ((name, summary) for name, summary in rulesets.summaries())
        elif kind == kinds.TABLE:
            from crux_cli.state.tables import table_names

            yield from ((name, "table") for name in table_names(self.session.runner.sheet))
        elif kind in kinds.SESSION_KINDS:
            yield from ((w, "") for w in session_words(kind))
        else:  # a kind the rule set named
            yield from words.vocabulary(rules).words_for(kind, suggestion.word)


def matching(candidates: Iterable[tuple[str, str]], word: str) -> Iterator[Completion]:
    """Candidates that start with `word`, ignoring case, each replacing it."""
    typed = word.lower()
    seen: set[str] = set()
    for candidate, meta in candidates:
        if candidate.lower().startswith(typed) and candidate not in seen:
            seen.add(candidate)
            yield Completion(candidate, start_position=-len(word), display_meta=meta)
