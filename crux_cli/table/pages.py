"""The page's files: a fixed map from a name to a file of this package, so no request ever names a file.

The page itself (index.html, table.js, table.css) is in `page/` beside this module (helper tpage's
part of issue 34). A name not in `STATIC` is a 404, whatever it looks like.
"""

from __future__ import annotations

from functools import cache
from importlib import resources

PAGE = "index.html"
STATIC = {  # the name in /static/NAME -> (the file under page/, its media type)
    "table.js": ("table.js", "text/javascript; charset=utf-8"),
    "table.css": ("table.css", "text/css; charset=utf-8"),
    "favicon.svg": ("favicon.svg", "image/svg+xml"),  # index.html names it, so Chrome asks no /favicon.ico
}
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
       "base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
HEADERS = {"Content-Security-Policy": CSP, "Referrer-Policy": "no-referrer", "X-Content-Type-Options": "nosniff",
           "Cache-Control": "no-store", "X-Frame-Options": "DENY"}
FALLBACK = b"""<!doctype html><meta charset="utf-8"><title>crux table</title>
<p>The crux table is running, but its page is not installed with this crux.</p>"""


@cache
def read(name: str) -> bytes:
    """A file of page/ (read once); the fallback page when this crux has none."""
    try:
        return (resources.files("crux_cli.table") / "page" / name).read_bytes()
    except (OSError, ModuleNotFoundError):
        return FALLBACK if name == PAGE else b""
