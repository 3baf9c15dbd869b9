"""The replay viewer page in a real headless Chromium (selenium): stepping by decision and by
turn, switching views, what each view shows, a page whose names would break careless
embedding (and, without a browser, that such names stay text in the page). A screenshot is
kept in tests/artifacts/ (ignored by git) and its path printed.

Needs the system's chromium and chromedriver (Debian: ``apt-get install chromium
chromium-driver``; ``.ci/run`` installs them and sets DOMINION_REQUIRE_BROWSER=1, so that there
a missing browser fails instead of skipping)."""

from __future__ import annotations

import html
import json
import os
import shutil
from pathlib import Path

import pytest

from dominion_env import Game
from dominion_env.agents import compile_bots
from dominion_env.analysis import replay
from dominion_env.analysis.arena import play_games, record_games
from dominion_env.names import printable

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


# names a record may hold that would break a page embedding them carelessly: a comment or a
# script opened or closed inside the data's <script>, control characters, JavaScript's line
# terminators, the page template's own placeholders, HTML entities and quotes
ODD_NAMES = [
    "<!--<script>",
    "</script><script>document.title='owned'</script>",
    "a\x00b\x07\x1f\x7f\u2028c\u2029d\r\n",
    "%DATA% %SCRIPT% %TITLE%",
    "&lt;b&gt; & <b>bold</b> \"'`",
]


def _odd_record(names=ODD_NAMES[:2]):
    g = Game("First Game", 2, 3)
    for _ in range(12):
        g.step(g.legal_actions()[0])
    return g.record(players=[{"kind": "bot", "name": n} for n in names])


@pytest.mark.parametrize("name", ODD_NAMES)
def test_any_name_stays_text_in_the_page(name):
    rec = _odd_record([name, "Big Money"])
    page = replay.html(rec)
    # the template's pieces each once: nothing in a name ends, opens or fills one
    assert page.count("<script") == 2 and page.count("</script>") == 2
    assert page.count("<!--") == 0 and page.count("<title>") == 1
    start = page.index('<script id="replay-data" type="application/json">')
    data = page[start:].split(">", 1)[1].split("</script>", 1)[0]
    assert not set(data) & set("<>&\u2028\u2029")
    assert json.loads(data)["players"] == rec["players"]
    # the title is text for people: control characters show as their escapes
    assert html.unescape(page.split("<title>")[1].split("</title>")[0]).endswith(
        f"P0 ({printable(name)}) vs P1 (Big Money)"
    )


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


def test_a_page_with_odd_names_draws(page, tmp_path):
    from selenium.webdriver.common.by import By

    driver, _ = page
    rec = _odd_record()
    driver.get(replay.write_html(rec, tmp_path / "odd.html").as_uri())
    try:
        text = lambda id_: driver.find_element(By.ID, id_).text  # noqa: E731
        n = len(rec["decisions"])
        assert text("position").startswith(f"step 0 / {n}")  # the script ran and drew
        driver.find_element(By.ID, "last").click()
        assert text("position").startswith(f"step {n} / {n}")
        assert ODD_NAMES[0] in text("seat0") and "document.title" in text("seat1")
        assert driver.title.endswith(f"P0 ({ODD_NAMES[0]}) vs P1 ({ODD_NAMES[1]})")
    finally:
        driver.back()


def test_page_needs_no_network(page):
    driver, rec = page
    src = driver.page_source
    assert "src=" not in src and "href=" not in src  # no external script, style or link
    assert Game.from_record(rec).result() == rec["result"]
