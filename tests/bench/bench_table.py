"""Benchmark, run on demand (pytest does not collect it): the shared table under a full evening's crowd.

    python tests/bench/bench_table.py [PAGES] [ROLLS_PER_SECOND] [SECONDS] [SERVER_SCRIPT]

A GM's session is served by a process of its own (`crux serve`'s table, no terminal: repl/serving.py's
`Sharing` on a `Session`, its journal and shared log in a fresh state store); PAGES WebSocket clients
(200) connect on loopback and say hello, as pages do; a tenth of them are players who send rolls at
ROLLS_PER_SECOND in all (20), for SECONDS (10). Each roll is marked (`d20 # r17`), so every page
notes when that roll's entry reached it: the figure is the delivery latency from a player's send to
each page's receipt (the table rolls, keeps the entry in the store, and fans it out), p50 / p99 / max,
and the server's resident memory (VmRSS) at the end. The goals (issue 34): p99 under 100 ms, the
server under 200 MB.
"""

from __future__ import annotations

import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from websockets.asyncio.client import ClientConnection, connect

sys.path.insert(0, str(Path(__file__).parent))
from benchkit import bench_environment

P99_GOAL_MS, RSS_GOAL_MB = 100.0, 200.0
SERVER = """
import sys, threading
from crux_cli.repl.serving import Sharing
from crux_cli.repl.session import Session
from crux_cli.running.settings import Settings, TableAsked, make_runner
session = Session(make_runner(Settings()))
session.sharing = sharing = Sharing(session, TableAsked())
sharing.host.echo = lambda lines: None  # no terminal here
print(sharing.server.links()["player"], flush=True)
sys.stdin.read()
sharing.stop()
"""


def rss_mb(pid: int) -> float:
    """The resident memory of process `pid` (Linux's /proc; psutil elsewhere)."""
    status = Path(f"/proc/{pid}/status")
    if status.exists():
        for line in status.read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    import psutil  # type: ignore[import-untyped]

    return float(psutil.Process(pid).memory_info().rss) / 2**20


def cpu_seconds(pid: int) -> float:
    """User and system CPU time of process `pid` so far (Linux's /proc; 0 elsewhere)."""
    stat = Path(f"/proc/{pid}/stat")
    if not stat.exists():
        return 0.0
    fields = stat.read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def page(url: str, sent: dict[str, float], latencies: list[float], ready: asyncio.Event,
               counted: list[int]) -> ClientConnection:
    connection = await connect(url, max_size=None)
    await connection.send(json.dumps({"type": "hello"}))
    welcomed = 0
    async def read() -> None:
        nonlocal welcomed
        async for message in connection:
            frame = json.loads(message)
            if frame["type"] == "fight" and not welcomed:
                welcomed = 1
                counted[0] += 1
                if counted[0] == counted[1]:
                    ready.set()
            elif frame["type"] == "entry" and "#" in frame["text"]:
                mark = frame["text"].rsplit("#", 1)[1].strip()
                if mark in sent:
                    latencies.append(time.monotonic() - sent[mark])
    asyncio.get_running_loop().create_task(read())
    return connection


async def crowd(url: str, pages: int, rate: float, seconds: float) -> tuple[list[float], int]:
    sent: dict[str, float] = {}
    latencies: list[float] = []
    ready, counted = asyncio.Event(), [0, pages]
    connections = []
    for start in range(0, pages, 20):  # in waves: the server's backlog is not the subject here
        connections += await asyncio.gather(*(page(url, sent, latencies, ready, counted)
                                              for _ in range(start, min(pages, start + 20))))
    await asyncio.wait_for(ready.wait(), 60)
    players = connections[: max(1, pages // 10)]
    rolls = int(rate * seconds)
    began = time.monotonic()
    for number in range(rolls):
        await asyncio.sleep(max(0.0, began + number / rate - time.monotonic()))
        mark = f"r{number}"
        sent[mark] = time.monotonic()
        await players[number % len(players)].send(json.dumps({"type": "say", "text": f"d20+{number % 7} # {mark}",
                                                              "id": number}))
    waited = time.monotonic() + 15.0  # the last rolls' deliveries: all of them, or what came in 15 s
    while len(latencies) < rolls * pages and time.monotonic() < waited:
        await asyncio.sleep(0.1)
    for connection in connections:
        await connection.close()
    return latencies, rolls


def main() -> None:
    pages = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    rate = float(sys.argv[2]) if len(sys.argv) > 2 else 20.0
    seconds = float(sys.argv[3]) if len(sys.argv) > 3 else 10.0
    with bench_environment() as environ, tempfile.TemporaryDirectory() as state:
        serving = sys.argv[4:5] or ["-c", SERVER]  # a 4th argument: a script of one's own (a profiler around it)
        server = subprocess.Popen([sys.executable, *serving], env={**environ, "XDG_STATE_HOME": state},
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        assert server.stdout is not None and server.stdin is not None
        link = server.stdout.readline().strip()
        url = link.replace("http://", "ws://") + "/ws"
        try:
            cpu_before, own_before = cpu_seconds(server.pid), time.process_time()
            latencies, rolls = asyncio.run(crowd(url, pages, rate, seconds))
            memory = rss_mb(server.pid)
            server_cpu, pages_cpu = cpu_seconds(server.pid) - cpu_before, time.process_time() - own_before
        finally:
            server.stdin.close()
            server.wait(10)
    expected = rolls * pages
    ms = sorted(1000 * latency for latency in latencies)
    p99 = ms[min(len(ms) - 1, int(0.99 * len(ms)))] if ms else float("nan")
    print(f"table: {pages} pages, {rolls} rolls at {rate:g}/s from {max(1, pages // 10)} players "
          f"(cpus: {os.cpu_count()}, load {os.getloadavg()[0]:.1f})")
    print(f"  delivered {len(ms)} of {expected} entries ({100 * len(ms) / max(1, expected):.1f}%)")
    if ms:
        print(f"  latency send → page: p50 {statistics.median(ms):.1f} ms, p99 {p99:.1f} ms, max {ms[-1]:.1f} ms "
              f"(goal p99 < {P99_GOAL_MS:g} ms: {'met' if p99 < P99_GOAL_MS else 'NOT met'})")
    print(f"  CPU: the server {server_cpu:.1f} s, the pages (this process) {pages_cpu:.1f} s: "
          f"{1e6 * server_cpu / max(1, len(ms)):.0f} µs of the server's CPU per entry delivered to a page")
    print(f"  server RSS {memory:.0f} MB (goal < {RSS_GOAL_MB:g} MB: {'met' if memory < RSS_GOAL_MB else 'NOT met'})")


if __name__ == "__main__":
    main()
