"""Where answers and errors go: streams and environment are injected, the renderer chosen once."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:
    from crux_cli.core.errors import CruxError
    from crux_cli.core.style import Palette
    from crux_cli.running.settings import Settings


class Output:
    """Answers to `stdout` (text or JSON Lines), errors to `stderr`; colour decided once per stream."""

    def __init__(self, settings: Settings, stdout: TextIO | None = None, stderr: TextIO | None = None,
                 environ: Mapping[str, str] | None = None) -> None:
        from crux_cli.core.style import wants_colour

        self.stdout = stdout if stdout is not None else sys.stdout
        self.stderr = stderr if stderr is not None else sys.stderr
        environ = environ if environ is not None else os.environ
        self.json = settings.json
        self.palette = settings.palette(wants_colour(self.stdout.isatty(), settings.no_color, environ))
        self.error_palette = settings.palette(wants_colour(self.stderr.isatty(), settings.no_color, environ))
        self.failures = 0

    def answers(self, answers: Iterable[Any], line: int | None = None) -> None:
        """Write answers; `line` is the batch line they came from (a field of each JSON object)."""
        if self.json:
            from crux_cli.render.jsonl import line as json_line

            def render(answer: Any) -> str:
                return json_line(answer, line)
        else:
            from crux_cli.render.text import answer_line

            def render(answer: Any) -> str:
                return answer_line(answer, self.palette)

        for answer in answers:
            self.stdout.write(render(answer) + "\n")
        self.stdout.flush()

    def odds(self, answer: Any) -> None:
        self.stdout.write("\n".join(odds_lines(answer, self.palette, self.json)) + "\n")
        self.stdout.flush()

    def error(self, error: CruxError, where: str = "") -> None:
        from crux_cli.render.text import error_lines

        self.failures += 1
        self.stderr.write("\n".join(error_lines(error, self.error_palette, where)) + "\n")
        self.stderr.flush()


    def refused(self, error: CruxError, number: int, text: str) -> None:
        """A batch line refused: the error on stderr and, with --json, a JSON line on stdout in its place."""
        self.error(error, f"line {number}: ")
        if self.json:
            from crux_cli.render.jsonl import dumps

            record = {"input": text, "line": number,
                      "error": {"message": error.message, "position": error.position, "hint": error.hint}}
            self.stdout.write(dumps(record) + "\n")
            self.stdout.flush()

    def warning(self, message: str) -> None:
        self.stderr.write(f"crux: warning: {message}\n")
        self.stderr.flush()


def odds_lines(answer: Any, palette: Palette, as_json: bool) -> list[str]:
    """An odds answer as printed, by `crux odds` and by `odds …` in the REPL alike."""
    if as_json:

        from crux_cli.render.jsonl import dumps
        from crux_cli.render.odds_json import odds_to_json

        record = {"input": answer.input, "kind": answer.result.kind, "rules": answer.rules,
                  **odds_to_json(answer.result)}
        return [dumps(record)]
    from crux_cli import rulesets
    from crux_cli.render.odds_text import render_odds

    body = render_odds(answer.result, palette, rulesets.handler(answer).colours).splitlines()
    return [f"{palette.bold(answer.input)}: exact odds", *(f"  {line}".rstrip() for line in body)]
