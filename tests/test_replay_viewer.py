"""The replay viewer page in a real headless Chromium (selenium): stepping by decision and by
turn, switching views, what each view shows. A screenshot is kept in tests/artifacts/ (ignored
by git) and its path printed.

Needs the system's chromium and chromedriver (Debian: ``apt-get install chromium
chromium-driver``; ``.ci/run`` installs them and sets DOMINION_REQUIRE_BROWSER=1, so that there
a missing browser fails instead of skipping)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from dominion_env import Game
from dominion_env.agents import compile_bots
from dominion_env.analysis import replay
from dominion_env.analysis.arena import play_games, record_games

ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
BOTS = ["Militia", "Big Money Ultimate"]


def _driver():
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    chromedriver = shutil.which("chromedriver")
    if not (chromium and chromedriver):
        if os.environ.get("DOMINION_REQUIRE_BROWSER"):
            pytest.fail("chromium and chromedriver are required here (DOMINION_REQUIRE_BROWSER)")
        pytest.skip(
            "no chromium/chromedriver on this machine (apt-get install chromium "
            "chromium-driver; .ci/run installs them)"
        )
    webdriver = pytest.importorskip("selenium.webdriver", reason="selenium (the dev extra)")
    from selenium.webdriver.chrome.service import Service

    opts = webdriver.ChromeOptions()
    opts.binary_location = chromium
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1300,1500"):
        opts.add_argument(a)
    return webdriver.Chrome(service=Service(chromedriver), options=opts)


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    table = compile_bots(BOTS)
    res = play_games(table, 4, 2, "First Game", seed=5)
    rec = record_games(table, BOTS, res, [1], 2, "First Game", seed=5)[0]
    path = replay.write_html(rec, tmp_path_factory.mktemp("viewer") / "game.html")
    driver = _driver()
    driver.get(path.as_uri())
    yield driver, rec
    driver.quit()


def test_step_turn_and_views(page):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    driver, rec = page
    text = lambda id_: driver.find_element(By.ID, id_).text  # noqa: E731
    click = lambda id_: driver.find_element(By.ID, id_).click()  # noqa: E731
    n = len(rec["decisions"])
    assert text("position").startswith(f"step 0 / {n}")
    assert text("chosen") == rec["decisions"][0]["action"]
    click("next")
    click("next")
    assert text("position").startswith(f"step 2 / {n}")
    assert text("chosen") == rec["decisions"][2]["action"]
    click("prev")
    assert text("chosen") == rec["decisions"][1]["action"]
    # a turn forward lands on a decision of a later turn, and back again
    turn = int(text("position").split("turn ")[1])
    click("nextTurn")
    later = int(text("position").split("turn ")[1])
    assert later > turn
    click("prevTurn")
    assert int(text("position").split("turn ")[1]) < later
    # the full view shows every hand by name; P1's view shows P0's hand as a count only
    frames = replay.frames(rec)
    i = int(text("position").split()[1])
    p0_hand = frames[i]["views"]["all"]["hands"]["0"]
    assert p0_hand, "P0 holds cards at every decision of this game"
    assert p0_hand[0][0] in text("seat0")
    Select(driver.find_element(By.ID, "view")).select_by_value("1")
    assert "cards" in text("seat0") and p0_hand[0][0] not in text("seat0").split("cards")[0]
    decider = frames[i]["decision"]["player"]
    if decider == 0:
        assert "not shown in this view" in text("decision")
    else:
        assert text("chosen") == rec["decisions"][i]["action"]
    # to the end: the result, the VP chart with a line per player
    click("last")
    assert text("position").startswith(f"step {n} / {n}")
    assert "Game terminated" in text("result")
    lines = driver.find_elements(By.CSS_SELECTOR, "#chart polyline.vp-line")
    assert len(lines) == 2
    ARTIFACTS.mkdir(exist_ok=True)
    shot = ARTIFACTS / "replay_viewer.png"
    click("prevTurn")
    assert driver.save_screenshot(str(shot))
    print(f"\nreplay viewer screenshot: {shot}")
    assert shot.stat().st_size > 10_000


def test_page_needs_no_network(page):
    driver, rec = page
    src = driver.page_source
    assert "src=" not in src and "href=" not in src  # no external script, style or link
    assert Game.from_record(rec).result() == rec["result"]
