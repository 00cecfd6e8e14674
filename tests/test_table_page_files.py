"""The table's page as files (fast): small, no build step, nothing from elsewhere, no HTML made from data.

The browser tests (test_table_page.py, slow) show the page working; these read its three files and say
what must stay true of them whatever the page grows into.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from crux_cli.table import pages

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "crux_cli" / "table" / "page"
BUDGET = 24 * 1024  # bytes, all files together: a phone on a poor connection loads it at once


def text(name: str) -> str:
    return (PAGE / name).read_text(encoding="utf-8")


def test_the_page_is_small() -> None:
    size = sum(path.stat().st_size for path in PAGE.iterdir())
    assert size <= BUDGET, f"the page is {size} bytes, over its budget of {BUDGET}"


def test_every_file_is_served_and_every_served_name_is_a_file() -> None:
    files = {path.name for path in PAGE.iterdir()}
    served = {pages.PAGE} | {file for file, _ in pages.STATIC.values()}
    assert files == served
    html = text("index.html")
    for name in pages.STATIC:
        assert f'"/static/{name}"' in html, f"index.html does not use /static/{name}"


def test_the_package_ships_the_page() -> None:
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert "table/page/*" in pyproject["tool"]["setuptools"]["package-data"]["crux_cli"]


def test_the_script_never_reads_text_as_html() -> None:
    script = text("table.js")
    for sink in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "new Function",
                 "setAttribute(\"on", "srcdoc"):
        assert sink not in script, f"table.js uses {sink}: put text in with textContent"
    assert "textContent" in script


def test_the_html_has_nothing_inline_and_nothing_from_elsewhere() -> None:
    html = text("index.html")
    assert re.findall(r"<script\b([^>]*)>(.*?)</script>", html, re.S) == [(' src="/static/table.js" defer', "")]
    assert re.search(r"\son\w+\s*=", html) is None, "an inline event handler: the CSP forbids it"
    assert re.search(r"\sstyle\s*=", html) is None and "<style" not in html, "inline style: the CSP forbids it"
    for page in ("index.html", "table.js", "table.css", "favicon.svg"):
        assert re.search(r"(https?:)?//[\w.-]+\.\w", text(page).replace("http://www.w3.org/2000/svg", "")) is None, \
            f"{page} names another site: the page must work on a LAN without the internet"


def test_the_box_to_roll_in_is_labelled_for_screen_readers() -> None:
    html = text("index.html")
    assert re.search(r'<label for="statement">Roll[^<]*</label>', html)
    assert '<input id="statement"' in html and 'aria-live="polite"' in html
