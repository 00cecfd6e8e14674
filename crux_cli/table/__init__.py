"""The shared table (issue 34): the GM's session served to players' browsers and `crux join` terminals.

An optional extra (`pip install 'crux-dice[table]'`: Starlette, uvicorn, websockets), a layer above
`api` and below the faces, which import it only for `crux serve`, `/serve` and `crux join`. The
protocol between the server and its clients is PROTOCOL.md beside this file. The table never
imports a face: the REPL hands it a `host.TableHost` (apply a statement as a hero, the fight's
view, the words), and the table makes every roll through it; clients only send text.

Modules, each importing only those before it: `frames` (the frames, read and checked; what each
viewer may see: pure), `host` (the interface the session gives), `keeping` (links, the lease and
the shared log in the state store), `hub` (connections, one statement at a time, fan-out),
`pages` (the page's fixed files), `server` (the Starlette app and uvicorn), `client` (`crux join`'s
end of the connection).
"""
