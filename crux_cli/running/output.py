"""Where answers and errors go: streams and environment are injected, the renderer chosen once."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from functools import partial
from typing import TYPE_CHECKING, Any, TextIO

from crux_cli.core.style import wants_colour
from crux_cli.running.streams import write_whole

if TYPE_CHECKING:
    import threading

    from crux_cli.core.errors import CruxError
    from crux_cli.core.style import Palette
    from crux_cli.running.settings import Settings


FLUSH_INTERVAL = 0.2  # seconds a batch's answer may wait in the buffer when stdout is not a terminal


class Output:
    """Answers to `stdout` (text or JSON Lines), errors to `stderr`; colour decided once per stream."""

    def __init__(self, settings: Settings, stdout: TextIO | None = None, stderr: TextIO | None = None,
                 environ: Mapping[str, str] | None = None) -> None:
        self.stdout = stdout if stdout is not None else sys.stdout
        self.stderr = stderr if stderr is not None else sys.stderr
        environ = environ if environ is not None else os.environ
        self.json = settings.json
        self.palette = settings.palette(wants_colour(self.stdout.isatty(), settings.no_color, environ, settings.color))
        self.error_palette = settings.palette(wants_colour(self.stderr.isatty(), settings.no_color, environ,
                                                           settings.color))
        self.failures = 0
        self._render: Callable[[Any, int | None], str] | None = None
        self._json_of: Callable[[Any], str] | None = None
        self._lock: threading.Lock | None = None  # set while a batch buffers its answers

    def answers(self, answers: Iterable[Any], line: int | None = None) -> None:
        """Write answers; `line` is the batch line they came from (a field of each JSON object)."""
        self._write("".join([self.render(answer, line) for answer in answers]))

    def render(self, answer: Any, line: int | None = None, answer_json: str | None = None) -> str:
        """One answer as it is printed, with its newline; `answer_json` is its JSON when already made."""
        if answer_json is not None and self.json:
            from crux_cli.render.jsonl import with_line

            return with_line(answer_json, line) + "\n"
        render = self._render or self._choose_renderer()
        return render(answer, line) + "\n"

    def batch_renderer(self) -> Callable[[Any, int, str | None], str]:
        """`render` for a batch, chosen once: (answer, its line, its JSON: made in JSON mode only) -> the
        text printed for it."""
        if self.json:
            from crux_cli.render.jsonl import with_line

            return lambda answer, line, answer_json: with_line(answer_json or "", line) + "\n"
        from crux_cli.render.text import answer_line

        palette = self.palette
        return lambda answer, line, answer_json: answer_line(answer, palette) + "\n"

    def batch_body_renderer(self) -> Callable[[Any], str] | None:
        """An answer's text without its sheet's suffix or line feed (render.text `answer_line`), for a text batch:
        None in JSON mode."""
        if self.json:
            return None
        from crux_cli.render.text import answer_line

        palette = self.palette
        return lambda answer: answer_line(answer, palette, sheet=False)

    def answer_json(self, answer: Any) -> str:
        """The answer's JSON for the journal: as `--json` prints it (outside a batch) when that is the
        output, so it is made once for both; otherwise compact, the quickest to make."""
        if self._json_of is None:
            from crux_cli.core.compact_json import compact
            from crux_cli.render import jsonl

            encode = jsonl.dumps if self.json else partial(compact, large=True)
            record = jsonl.record
            self._json_of = lambda answer: encode(record(answer))  # looked up once, not per answer
        return self._json_of(answer)

    def write(self, text: str) -> None:
        """Text already rendered (`render`), as answers are written."""
        self._write(text)

    def _write(self, text: str) -> None:
        """To stdout: flushed at once, or left in the buffer for the batch's flusher (under its lock)."""
        if self._lock is None:
            write_whole(self.stdout, text, flush=True)
            return
        with self._lock:
            write_whole(self.stdout, text, flush=False)

    def _choose_renderer(self) -> Callable[[Any, int | None], str]:
        """Text or JSON Lines, decided once for the whole run rather than per answer."""
        if self.json:
            from crux_cli.render.jsonl import line as json_line

            self._render = json_line
        else:
            from crux_cli.render.text import answer_line

            palette = self.palette

            def text_line(answer: Any, line: int | None) -> str:
                return answer_line(answer, palette)

            self._render = text_line
        return self._render

    @contextmanager
    def batch(self) -> Iterator[None]:
        """Answers of a batch stay in the stream's buffer rather than being flushed line by line.

        A flush per line is a write to the pipe per line, most of what a cached statement costs.
        A terminal still sees each line at once; otherwise a helper thread flushes what is waiting
        every FLUSH_INTERVAL seconds (so a consumer reading the pipe as lines come still sees them
        while crux waits for more input), and the end of the batch flushes the rest.
        """
        if self.stdout.isatty():
            yield
            return
        import threading

        self._lock = lock = threading.Lock()
        stop = threading.Event()
        flusher = threading.Thread(target=self._flush_every, args=(stop, lock), name="crux-flush", daemon=True)
        flusher.start()
        try:
            yield
        finally:
            stop.set()
            flusher.join()
            self._lock = None
            self.stdout.flush()

    def _flush_every(self, stop: threading.Event, lock: threading.Lock) -> None:
        while not stop.wait(FLUSH_INTERVAL):
            with lock:
                try:
                    self.stdout.flush()
                except (OSError, ValueError):  # the reader went away: the batch's own flush reports it
                    return

    def odds(self, answer: Any) -> None:
        self.stdout.write("\n".join(odds_lines(answer, self.palette, self.json)) + "\n")
        self.stdout.flush()

    def error(self, error: CruxError, where: str = "") -> None:
        from crux_cli.render.text import error_lines

        self.failures += 1
        if self._lock is not None:  # answers before the error come before it where both go to one file
            with self._lock:
                self.stdout.flush()
        self.stderr.write("\n".join(error_lines(error, self.error_palette, where)) + "\n")
        self.stderr.flush()


    def refused(self, error: CruxError, number: int | None, text: str) -> None:
        """A statement refused: the error on stderr and, with --json, a JSON line on stdout in its place.

        `number` is the batch line it came from (None for the one statement of `crux TEXT` or `crux odds`).
        """
        self.error(error, f"line {number}: " if number is not None else "")
        if self.json:
            from crux_cli.render.jsonl import dumps

            record: dict[str, Any] = {"input": text}
            if number is not None:
                record["line"] = number
            record["error"] = {"message": error.message, "position": error.position, "hint": error.hint}
            self._write(dumps(record) + "\n")

    def warning(self, message: str) -> None:
        self.stderr.write(f"crux: warning: {message}\n")
        self.stderr.flush()


def odds_lines(answer: Any, palette: Palette, as_json: bool) -> list[str]:
    """An odds answer as printed, by `crux odds` and by `odds …` in the REPL alike."""
    if as_json:
        from crux_cli.render.jsonl import dumps, odds_record

        return [dumps(odds_record(answer))]
    from crux_cli.render.text import odds_answer_lines

    return odds_answer_lines(answer, palette)
