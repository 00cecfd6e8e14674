"""The standard streams as they really are: closed, full, or unable to encode what crux prints.

`guard_streams` runs first thing: a closed stdin or stderr becomes /dev/null (nothing to read,
nowhere to complain), a closed stdout is remembered so the first write fails plainly, and a
stream whose encoding cannot carry crux's typography (−, ·, →, █) gets ASCII spellings
instead of an internal error halfway through a batch.
"""

from __future__ import annotations

import codecs
import contextlib
import errno
import io
import os
import signal
import sys
from typing import IO, Any

# What crux prints beyond ASCII, spelled for streams that cannot carry it (ISO-8859-1, ascii).
ASCII_SPELLINGS = str.maketrans({
    "−": "-", "·": "|", "→": "->", "←": "<-", "×": "x", "█": "#", "▏": "|", "▎": "|", "▍": "|",
    "▌": "|", "▋": "|", "▊": "|", "▉": "#", "▶": ">", "…": "...", "–": "-", "—": "-", "≥": ">=",
    "≤": "<=", "‘": "'", "’": "'", "“": '"', "”": '"',
})
TYPOGRAPHY = "−·→█▶"


class ClosedOutput:
    """Stands in for a closed stdout: writing to it fails as writing to a closed descriptor does."""

    encoding = "utf-8"

    def write(self, text: str) -> int:
        raise OSError(9, "standard output is closed")

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return False


class AsciiOutput:
    """A text stream that spells crux's typography in ASCII and replaces what is still unencodable."""

    def __init__(self, stream: Any) -> None:
        self.stream = stream
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="replace")

    def write(self, text: str) -> int:
        return int(self.stream.write(text.translate(ASCII_SPELLINGS)))

    def __getattr__(self, name: str) -> Any:  # flush, isatty, fileno, encoding… as the stream has them
        return getattr(self.stream, name)


def write_whole(stream: Any, text: str, flush: bool) -> None:
    """Write `text` (and flush it) with Ctrl-C held until it is all written, then raised.

    An answer larger than the stream's buffer goes to the pipe in one system call after another;
    a Ctrl-C while one of them waits for the reader raised KeyboardInterrupt in the middle, and the
    output ended halfway through a line (a JSON line no reader can parse). Held, it comes after the
    line: the output stops at the end of a line, whatever Python's handler of Ctrl-C is then."""
    caught: list[int] = []
    try:
        if signal.getsignal(signal.SIGINT) is None:  # a handler set outside Python: it cannot be put back
            raise ValueError
        before = signal.signal(signal.SIGINT, lambda signum, frame: caught.append(signum))
    except ValueError:  # that, or not the main thread, which alone handles signals
        _write(stream, text, flush)
        return
    try:
        _write(stream, text, flush)
    finally:
        signal.signal(signal.SIGINT, before)
    if caught and callable(before):
        before(signal.SIGINT, None)  # as it would have run: KeyboardInterrupt, for Python's own handler
    elif caught and before == signal.SIG_DFL:
        os.kill(os.getpid(), signal.SIGINT)


def _write(stream: Any, text: str, flush: bool) -> None:
    """`stream.write(text)`, all of it. Unbuffered (PYTHONUNBUFFERED, `python -u`), a text stream hands its
    bytes to one write(2), and a signal during a write to a full pipe makes that write partial: the text
    stream drops the rest without a word. Then the bytes are written here until all are out."""
    target = stream.stream if isinstance(stream, AsciiOutput) else stream
    raw = getattr(target, "buffer", None)
    if not isinstance(raw, io.RawIOBase):  # buffered: the buffer writes on after a partial write itself
        stream.write(text)
        if flush:
            stream.flush()
        return
    if target is not stream:
        text = text.translate(ASCII_SPELLINGS)
    target.flush()
    data = memoryview(text.encode(target.encoding or "utf-8", target.errors or "strict"))
    while data:
        written = raw.write(data)
        data = data[written or 0:]


def can_encode(stream: Any, text: str = TYPOGRAPHY) -> bool:
    encoding = getattr(stream, "encoding", None) or "utf-8"
    try:
        codecs.encode(text, encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def guard_streams() -> None:
    if sys.stdin is None:
        sys.stdin = open(os.devnull)  # noqa: SIM115  (lives as long as the process)
        sys.stdin.close()  # reading it says "closed", which batch mode reports in plain words
    if sys.stderr is None:
        sys.stderr = open(os.devnull, "w")  # noqa: SIM115
    if sys.stdout is None:
        sys.stdout = ClosedOutput()
    for name in ("stdout", "stderr"):
        stream = getattr(sys, name)
        if not isinstance(stream, ClosedOutput | AsciiOutput) and not can_encode(stream):
            setattr(sys, name, AsciiOutput(stream))


def is_terminal(stream: IO[Any] | None) -> bool:
    try:
        return stream is not None and not stream.closed and stream.isatty()
    except (ValueError, OSError):
        return False


def internal_error(error: Exception) -> int:
    """A bug in crux, not the user's input: said in two lines, exit status 1; under CRUX_DEBUG=1 the error goes
    on, with its traceback. Called in an `except` block (every face's last one)."""
    if os.environ.get("CRUX_DEBUG"):
        raise error
    with contextlib.suppress(OSError, ValueError):
        sys.stderr.write(f"crux: internal error: {type(error).__name__}: {error}\n"
                         "  this is a bug in crux; CRUX_DEBUG=1 shows the traceback\n")
    return 1


def os_error(error: OSError) -> int:
    """An OSError escaped a command: the output's own (it cannot be written: a full disk, a closed descriptor),
    or another file's (a lock, a folder), said as what it is; CRUX_DEBUG=1 shows where it was raised."""
    if os.environ.get("CRUX_DEBUG"):
        import traceback

        with contextlib.suppress(OSError, ValueError):
            traceback.print_exception(error, file=sys.stderr)
    if error.filename is None and (raised_writing_output(error) or not output_writable()):
        return output_failed(error)
    reason = error.strerror or str(error) or type(error).__name__
    code = errno.errorcode.get(error.errno or 0)
    where = "".join(f"{shown(name)}: " for name in (error.filename, error.filename2) if name is not None)
    with contextlib.suppress(OSError, ValueError):
        sys.stderr.write(f"crux: {where}{reason}{f' ({code})' if code else ''}\n")
        if not os.environ.get("CRUX_DEBUG"):
            sys.stderr.write("  CRUX_DEBUG=1 shows where it happened\n")
        sys.stderr.flush()
    return 1


def shown(name: object) -> str:
    """A file name as it can be printed: a byte that is not UTF-8 shown as `\\xe9`."""
    text = os.fsdecode(name) if isinstance(name, str | bytes) else str(name)
    return text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


OUTPUT_WRITERS = ("crux_cli/running/streams.py", "crux_cli/running/output.py", "/click/utils.py", "/click/termui.py")


def raised_writing_output(error: OSError) -> bool:
    """Was `error` raised where crux writes its output (the writers of streams.py and output.py, click's echo)?"""
    trace = error.__traceback__
    while trace is not None and trace.tb_next is not None:
        trace = trace.tb_next
    return trace is not None and trace.tb_frame.f_code.co_filename.replace("\\", "/").endswith(OUTPUT_WRITERS)


def output_writable() -> bool:
    """Can the output still be written? What it holds is flushed: an output that failed fails again."""
    try:
        sys.stdout.flush()
    except (OSError, ValueError):
        return False
    return not isinstance(sys.stdout, ClosedOutput)


def output_failed(error: OSError | None) -> int:
    """The output cannot be written: say why (unless the reader simply left), and stop writing for good."""
    if error is not None:
        reason = error.strerror or str(error)
        try:
            sys.stderr.write(f"crux: cannot write the output: {reason}\n")
            sys.stderr.flush()
        except (OSError, ValueError):
            pass
    try:  # the interpreter's last flush must not fail a second time
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass
    return 1
