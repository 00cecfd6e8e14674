"""The history file: in the user's data directory, readable by the user alone, and kept small.

Everything in the data folder is crux's own: a history or aliases file that is a
symbolic link (to ~/.bashrc, say), a FIFO or another user's file is refused, never
followed, chmod-ed or appended to. The history is cut to its last entries when it
grows past a size, so an old history never slows a session's start, and a
history that can no longer be written mid-session is said once, then the session
goes on without it.
"""

from __future__ import annotations

import asyncio
import bisect
import datetime
import os
from collections import deque
from collections.abc import AsyncGenerator, Collection, Iterable, Mapping
from pathlib import Path

from prompt_toolkit.history import FileHistory, History, InMemoryHistory

from crux_cli.core.errors import CruxError
from crux_cli.state.files import open_regular, private_file, user_folder

HISTORY_LIMIT = 2_000_000  # bytes: past this the history is cut when a session starts
KEEP_ENTRIES = 10_000  # the entries kept when it is cut...
KEEP_BYTES = 1_000_000  # ...from at most its last megabyte
ENTRY_START = b"\n# "  # FileHistory writes "\n# <time>\n+line\n" per entry
LOAD_CHUNK = 1_000  # entries read per turn of the event loop (about 1 ms): keys typed meanwhile go between


def data_dir(environ: Mapping[str, str] = os.environ) -> Path:
    """$XDG_DATA_HOME/crux, or ~/.local/share/crux: the history and the aliases."""
    return Path(user_folder("DATA", environ))


def read_tail(path: Path, size: int) -> tuple[bytes, bool]:
    """The last `size` bytes of the history, and whether they are the whole file."""
    descriptor = open_regular(path, os.O_RDONLY, follow=False)
    try:
        length = os.fstat(descriptor).st_size
        start = max(0, length - size)
        os.lseek(descriptor, start, os.SEEK_SET)
        chunks, left = [], length - start
        while left > 0 and (chunk := os.read(descriptor, left)):
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks), start == 0
    finally:
        os.close(descriptor)


def whole_entries(data: bytes, complete: bool) -> list[bytes]:
    """The entries in `data`, each from its "\\n# time" line; a first one cut in half is dropped."""
    before, *entries = data.split(ENTRY_START)
    whole = [ENTRY_START + entry for entry in entries]
    return [before, *whole] if complete and before.strip() else whole


def entry_string(entry: bytes, header: bool = True) -> str | None:
    """The line (or lines) one entry holds: its `+` lines without the `+`; None for an entry without any.

    `entry` follows its "\n# " (its first line, the time, is skipped), unless `header` is false:
    the start of a whole file, before any "\n# ".
    """
    lines = entry.decode("utf-8", errors="replace").split("\n")
    kept = [line[1:] for line in (lines[1:] if header else lines) if line[:1] == "+"]
    return "\n".join(kept) if kept else None


class TailReader:
    """The entries of a history's tail, newest first, LOAD_CHUNK at a time: as `whole_entries` reads them.

    Each chunk is found by searching back from where the last one began, so a first line typed
    need not wait for the whole file to be split (~15 ms near HISTORY_LIMIT).
    """

    def __init__(self, data: bytes, complete: bool) -> None:
        self.data = data
        self.complete = complete
        self.end: int | None = len(data)  # where the entries not read yet end (None: all read)

    @property
    def done(self) -> bool:
        return self.end is None

    def next_chunk(self) -> list[str]:
        """The strings of up to LOAD_CHUNK more entries, newest first (entries without a `+` line have none)."""
        if self.end is None:
            return []
        start = self.end
        for _ in range(LOAD_CHUNK):
            start = self.data.rfind(ENTRY_START, 0, start)
            if start < 0:
                break
        if start >= 0:
            entries = self.data[start + len(ENTRY_START):self.end].split(ENTRY_START)
            self.end = start
            return _strings(reversed(entries))
        before, *entries = self.data[:self.end].split(ENTRY_START)
        self.end = None
        strings = _strings(reversed(entries))
        first = entry_string(before, header=False) if self.complete and before.strip() else None
        return [*strings, first] if first is not None else strings


def _strings(entries: Iterable[bytes]) -> list[str]:
    return [string for string in map(entry_string, entries) if string is not None]


def trim_history(path: Path) -> None:
    """Cut the history to its last entries when it has grown past HISTORY_LIMIT, replacing it whole."""
    if os.lstat(path).st_size <= HISTORY_LIMIT:
        return
    from crux_cli.state.store import write_atomically

    data, complete = read_tail(path, KEEP_BYTES)
    kept = b"".join(whole_entries(data, complete)[-KEEP_ENTRIES:])
    write_atomically(path, kept.decode("utf-8", errors="replace"), str(path), what="history", new_mode=0o600)


class LineIndex:
    """The history's lines (each entry's last line) for suggestions: the newest one starting with a text,
    found in a time that does not grow with the history (tests/bench/bench_repl_history.py, a key).

    Each distinct line is kept once, with the stamp of its newest use (new lines count up from 0, lines
    read from the file count down), in a list sorted by text: the lines starting with a text are one
    slice of it. A short slice is searched for its newest line; a long one means a common start, and
    the lines newest first reach one of them after about len(all) / len(slice) steps.
    """

    SHORT = 64

    def __init__(self) -> None:
        self.stamp: dict[str, int] = {}
        self.by_text: list[str] = []
        self.unsorted: list[str] = []  # added while the file is read: sorted in at the next search
        self.newer: list[tuple[int, str]] = []  # (stamp, line) of lines entered, oldest first
        self.older: list[tuple[int, str]] = []  # ... and of lines read from the file, newest first
        self.top, self.bottom = 0, 0

    def add_newest(self, string: str) -> None:
        line = last_line(string)
        if line is None:
            return
        self.top += 1
        if line not in self.stamp:
            if self.unsorted:
                self.unsorted.append(line)
            else:
                bisect.insort(self.by_text, line)
        self.stamp[line] = self.top
        self.newer.append((self.top, line))

    def add_older(self, strings: Iterable[str]) -> None:
        """Strings read from the file, newest first, all older than any added before."""
        for string in strings:
            line = last_line(string)
            if line is None or line in self.stamp:
                continue
            self.bottom -= 1
            self.stamp[line] = self.bottom
            self.unsorted.append(line)
            self.older.append((self.bottom, line))

    def newest_starting_with(self, text: str, failed: Collection[str]) -> str | None:
        """The newest line starting with `text` and not in `failed` (stripped), or None."""
        if self.unsorted:
            self.by_text += self.unsorted
            self.by_text.sort()
            self.unsorted = []
        start = bisect.bisect_left(self.by_text, text)
        end = bisect.bisect_left(self.by_text, text + "\U0010ffff", start)
        if end - start <= self.SHORT:
            found = [line for line in self.by_text[start:end] if line.startswith(text) and line.strip() not in failed]
            return max(found, key=self.stamp.__getitem__, default=None)
        stamp = self.stamp
        for entries in (reversed(self.newer), self.older):
            for number, line in entries:
                if stamp[line] == number and line.startswith(text) and line.strip() not in failed:
                    return line
        return None


def last_line(string: str) -> str | None:
    """The line of an entry that suggestions offer (its last), None for an entry of blanks."""
    return string.splitlines()[-1] if string.strip() else None


class KeptHistory(FileHistory):
    """prompt-toolkit's history file, opened without following links, read from its tail, written once wrong.

    A line that cannot be appended (the disk is full, the file was replaced by a
    link) stops the appending and leaves one warning in `warnings` for the session
    to print; the session keeps its history in memory.

    The file is read newest entry first, a chunk per turn of the event loop (`load`):
    prompt-toolkit reads it right after the first prompt is drawn, and read whole in
    one turn, a long history (~35 ms near HISTORY_LIMIT) held up the first line typed.
    """

    def __init__(self, path: Path) -> None:
        super().__init__(str(path))
        self.path = path
        self.warnings: list[str] = []
        self.broken = False
        self.unread: TailReader | None = None  # what is not read yet (None: the file is not opened yet)
        self.read_so_far: list[str] = []  # entries read, newest first, until the whole file is
        self.line_index = LineIndex()  # what suggestions search
        # The entries oldest first once the whole file is read: what a prompt's buffer starts from
        # (KeptBuffer), copied at once rather than fed to it one by one at every prompt.
        self.oldest_first: deque[str] | None = None

    def load_history_strings(self) -> Iterable[str]:
        reader, strings = self.tail(), []
        while not reader.done:
            strings += reader.next_chunk()
        return strings

    def tail(self) -> TailReader:
        """A reader of the file's last HISTORY_LIMIT bytes (nothing to read when it cannot be read)."""
        try:
            return TailReader(*read_tail(self.path, HISTORY_LIMIT))
        except FileNotFoundError:
            return TailReader(b"", True)
        except OSError as error:
            self.stop(error)
            return TailReader(b"", True)

    async def load(self) -> AsyncGenerator[str, None]:
        """The entries, newest first, as prompt-toolkit's `History.load` gives them, read LOAD_CHUNK at a time.

        A prompt left while this reads (its app cancels the task) goes on from where it stopped at the next.
        """
        if self._loaded:
            for string in self._loaded_strings:
                yield string
            return
        if self.unread is None:
            self.unread = self.tail()
            self._loaded_strings = []  # as History.load: lines entered before the file is read are in it
        for string in [*self._loaded_strings, *self.read_so_far]:  # lines entered since, then what is read
            yield string
        while not self.unread.done:
            strings = self.unread.next_chunk()
            self.read_so_far += strings
            self.line_index.add_older(strings)
            for string in strings:
                yield string
            await asyncio.sleep(0)  # keys typed meanwhile are read now
        self._loaded_strings += self.read_so_far  # after the lines entered while it was read: those are newer
        self.read_so_far = []
        self._loaded = True
        self.oldest_first = deque(reversed(self._loaded_strings))

    def append_string(self, string: str) -> None:
        super().append_string(string)
        self.line_index.add_newest(string)
        if self.oldest_first is not None:
            self.oldest_first.append(string)

    def get_strings(self) -> list[str]:
        """Oldest first, what is read so far included (suggestions use it while the rest is read)."""
        return [*self._loaded_strings, *self.read_so_far][::-1]

    def store_string(self, string: str) -> None:
        if self.broken:
            return
        entry = f"\n# {datetime.datetime.now()}\n" + "".join(f"+{line}\n" for line in string.split("\n"))
        data = entry.encode("utf-8", errors="replace")
        try:
            descriptor = open_regular(self.path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600, follow=False)
            try:
                while data:
                    data = data[os.write(descriptor, data):]
            finally:
                os.close(descriptor)
        except OSError as error:
            self.stop(error)

    def stop(self, error: OSError) -> None:
        self.broken = True
        self.warnings.append(f"history is no longer kept: {self.path}: {error.strerror}")

    def take_warnings(self) -> list[str]:
        said, self.warnings = self.warnings, []
        return said


def open_history(environ: Mapping[str, str] = os.environ) -> tuple[History, str | None]:
    """The session's history, and a warning when it cannot be kept on disk (the session goes on)."""
    path = data_dir(environ) / "history"
    try:
        private_file(path)
    except OSError as error:
        return InMemoryHistory(), f"history is not kept this time: {path}: {error.strerror}"
    try:
        trim_history(path)
    except (OSError, CruxError) as error:  # still kept: only its last part is ever read
        reason = error.strerror if isinstance(error, OSError) else error.message
        return KeptHistory(path), f"the history could not be cut to its last entries: {reason}"
    return KeptHistory(path), None
