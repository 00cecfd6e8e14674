"""The GM page's box for enemies' numbers (the `numbers` frame, PROTOCOL.md): the GM's only, and every page
gets the fight again. The page's own side is tested in a browser (test_table_page.py)."""

from __future__ import annotations

from test_table import Page, fight_of, links, table

from crux_cli.repl.serving import Sharing

__all__ = ["links", "table"]  # the fixtures, shared with test_table.py


def enemy(page: Page, shown: bool) -> dict[str, object]:
    """The enemy's row of the first fight frame that shows (or hides) its numbers: one sent before the change
    may still be on its way."""
    for _ in range(10):
        row = next(row for row in page.next("fight")["fight"]["order"] if row["side"] == "enemy")
        if ("hp" in row) == shown:
            return row
    raise AssertionError(f"no fight frame with the numbers {'shown' if shown else 'hidden'}")


def test_the_gm_shows_enemies_numbers_to_players_and_hides_them_again(table: Sharing, links: dict[str, str]) -> None:
    fight_of(table, "hero Wren", "enemy ogre hp 20", "init", "damage ogre 5")
    player, gm = Page(links["player"]), Page(links["gm"])
    assert player.welcome["numbers"] is False and gm.welcome["numbers"] is False
    assert "hp" not in next(r for r in player.fight["fight"]["order"] if r["side"] == "enemy")
    gm.send(type="numbers", show=True)
    shown = enemy(player, True)
    assert (shown["hp"], shown["hp_max"], shown["state"]) == (15, 20, "hurt")
    assert Page(links["player"]).welcome["numbers"] is True  # a page joining now is told
    gm.send(type="numbers", show=False)
    hidden = enemy(player, False)
    assert "hp" not in hidden and hidden["state"] == "hurt"


def test_a_player_cannot_show_the_numbers(table: Sharing, links: dict[str, str]) -> None:
    fight_of(table, "hero Wren", "enemy ogre hp 20")
    player = Page(links["player"])
    player.send(type="numbers", show=True)
    assert "GM" in player.next("error")["message"]
    assert table.hub.numbers is False
    player.send(type="numbers", show="yes")
    assert "true or false" in player.next("error")["message"]
