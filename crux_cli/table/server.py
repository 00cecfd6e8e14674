"""The table's server: a Starlette app on uvicorn, on a thread of its own beside the GM's REPL.

Routes (PROTOCOL.md): `/t/TOKEN` the page, `/t/TOKEN/ws` the live connection, `/static/NAME` the page's
files from a fixed map. A wrong token gets a bare 403; anything else a bare 404. Tokens are compared in
constant time and never logged (uvicorn's access log is off, and its loggers write nowhere).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import socket
import threading

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from crux_cli.core.errors import CruxError
from crux_cli.table import frames, pages
from crux_cli.table.frames import Viewer
from crux_cli.table.hub import Hub
from crux_cli.table.keeping import role_of

HELLO_WITHIN = 10.0  # seconds a new connection has to say hello


def bare(status: int) -> Response:
    return Response(b"", status_code=status, headers=pages.HEADERS)


def make_app(hub: Hub, tokens: dict[str, str]) -> Starlette:
    """The table's app: the page, the live connection and the page's files; nothing else."""

    async def page(request: Request) -> Response:
        if role_of(request.path_params["token"], tokens) is None:
            return bare(403)
        return Response(pages.read(pages.PAGE), media_type="text/html; charset=utf-8", headers=pages.HEADERS)

    async def static(request: Request) -> Response:
        found = pages.STATIC.get(request.path_params["name"])
        if found is None:
            return bare(404)
        return Response(pages.read(found[0]), media_type=found[1], headers=pages.HEADERS)

    async def live(websocket: WebSocket) -> None:
        role = role_of(websocket.path_params["token"], tokens)
        if role is None:
            await websocket.close(code=1008)  # before accepting: uvicorn answers the handshake with a bare 403
            return
        await websocket.accept()
        await serve_connection(hub, websocket, role)

    async def not_found(request: Request, error: Exception) -> Response:
        return bare(404)

    routes = [Route("/t/{token}", page), WebSocketRoute("/t/{token}/ws", live), Route("/static/{name}", static)]
    return Starlette(routes=routes, exception_handlers={404: not_found, 405: not_found})


async def serve_connection(hub: Hub, websocket: WebSocket, role: str) -> None:
    """Read a connection's frames until it goes; too many, or no hello in time, closes it (1008)."""
    connection = hub.opened(websocket, Viewer(role=role, id=secrets.token_hex(6)))
    try:
        while True:
            timeout = None if connection.greeted else HELLO_WITHIN
            message = await asyncio.wait_for(websocket.receive(), timeout)
            if message["type"] == "websocket.disconnect":
                return
            if not await hub.received(connection, message.get("text") or message.get("bytes") or b""):
                await websocket.close(code=1008, reason="too many messages")
                return
    except (WebSocketDisconnect, TimeoutError):
        with contextlib.suppress(Exception):
            await websocket.close(code=1008, reason="no hello")
    finally:
        hub.closed(connection)


class TableServer:
    """uvicorn serving the table's app on a thread of its own, until `stop`."""

    def __init__(self, hub: Hub, tokens: dict[str, str], host: str = "127.0.0.1", port: int = 0,
                 cert: str | None = None, key: str | None = None) -> None:
        self.hub, self.tokens = hub, tokens
        self.host, self.cert = host, cert
        self.socket = bound(host, port)
        self.port = int(self.socket.getsockname()[1])
        quiet()
        config = uvicorn.Config(make_app(hub, tokens), ws="websockets-sansio", ws_max_size=frames.MAX_FRAME,
                                ws_ping_interval=20.0, ws_ping_timeout=20.0, ws_per_message_deflate=False,
                                access_log=False, log_config=None,
                                lifespan="off", ssl_certfile=cert, ssl_keyfile=key, server_header=False)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.run, name="crux-table-server", daemon=True)

    def start(self) -> None:
        self.thread.start()
        while not self.server.started and self.thread.is_alive():
            self.thread.join(0.01)
        if not self.server.started:
            raise CruxError(f"the table could not be served on {self.host}:{self.port}")

    def run(self) -> None:
        asyncio.run(self.serve())

    async def serve(self) -> None:
        self.hub.loop = asyncio.get_running_loop()
        await self.server.serve(sockets=[self.socket])

    def links(self) -> dict[str, str]:
        """The role → link of this table."""
        scheme = "https" if self.cert else "http"
        host = self.host if self.host not in ("0.0.0.0", "::", "") else socket.gethostname()
        host = f"[{host}]" if ":" in host else host
        return {role: f"{scheme}://{host}:{self.port}/t/{token}" for role, token in self.tokens.items()}

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(5)
        self.hub.close()


def bound(host: str, port: int) -> socket.socket:
    """A listening socket on `host:port` (0: a free port), made here so the port is known before serving."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
        family, kind, proto, _, address = infos[0]
        sock = socket.socket(family, kind, proto)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(128)
    except OSError as error:
        raise CruxError(f"cannot serve the table on {host}:{port}: {error.strerror or error}",
                        hint="--port 0 picks a free port") from None
    sock.setblocking(False)
    return sock


def quiet() -> None:
    """uvicorn's loggers write nowhere: the GM's terminal is the REPL's, and a request's path holds a token
    (CRUX_DEBUG=1 leaves them as they are, to see a failure's traceback)."""
    if os.environ.get("CRUX_DEBUG"):
        return
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access", "websockets"):
        logger = logging.getLogger(name)
        logger.handlers = [logging.NullHandler()]
        logger.propagate = False
