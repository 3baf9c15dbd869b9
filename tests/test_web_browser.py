"""``dominion serve`` in a real headless Chromium (selenium): a whole game against Big Money
played by clicks (the Supply's cards) and keys (a choice's shortcut, 0 for PASS), checked
against the game's record and its replay page. A screenshot is kept in the test's tmp dir.

Needs the system's chromium and chromedriver, as ``tests/test_replay_viewer.py`` (skips
without them, fails under DOMINION_REQUIRE_BROWSER=1, which ``.ci/run`` sets)."""

from __future__ import annotations

import pytest

pytest.importorskip("starlette", reason="dominion serve needs the web extra")

from test_replay_viewer import _driver  # noqa: E402

from dominion_env import Game, play, records  # noqa: E402
from dominion_env.agents import BOTS  # noqa: E402
from dominion_env.cli import resolve_player  # noqa: E402
from dominion_env.web import create_app  # noqa: E402
from dominion_env.web.app import running  # noqa: E402

SEED = 3


def test_a_whole_game_against_big_money_by_clicks_and_keys(tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select, WebDriverWait

    driver = _driver()
    folder = tmp_path / "records"
    try:
        with running(create_app(resolve_player, list(BOTS), folder)) as url:
            driver.get(url + "/")
            wait = WebDriverWait(driver, 30)
            wait.until(lambda d: len(Select(d.find_element(By.ID, "kingdom")).options) > 2)
            Select(driver.find_element(By.ID, "kingdom")).select_by_value("First Game")
            seed = driver.find_element(By.ID, "seed")
            seed.clear()
            seed.send_keys(str(SEED))
            driver.find_element(By.ID, "start").click()
            state = lambda: driver.execute_script(  # noqa: E731
                "return game && {step: game.step, over: !!game.result, "
                "choices: game.decision && game.decision.choices}"
            )
            wait.until(lambda d: state() is not None)
            sent, clicks, keys = [], 0, 0
            while not (s := state())["over"]:
                by_name = {c["label"].split(" (")[0]: c for c in s["choices"]}
                body = driver.find_element(By.TAG_NAME, "body")
                if "Province" in by_name or "Gold" in by_name:  # click the Supply's card
                    name = "Province" if "Province" in by_name else "Gold"
                    driver.find_element(
                        By.CSS_SELECTOR, f'#supply .card.legal[data-card="{name}"]'
                    ).click()
                    choice, clicks = by_name[name], clicks + 1
                elif "Silver" in by_name:  # its shortcut key, as shown on its button
                    choice, keys = by_name["Silver"], keys + 1
                    body.send_keys(choice["key"])
                else:
                    choice, keys = by_name["PASS"], keys + 1
                    assert choice["key"] == "0"
                    body.send_keys("0")
                sent.append(choice["action"])
                wait.until(lambda d, step=s["step"]: state()["step"] > step)
            assert driver.find_element(By.ID, "error").text == ""
            shown = driver.find_element(By.ID, "resultText").text
            driver.save_screenshot(str(tmp_path / "web_game.png"))
            print(f"screenshot: {tmp_path / 'web_game.png'}")
            link = driver.find_element(By.ID, "replayLink")
            name = link.get_attribute("href").rsplit("/", 1)[1]
            rec = records.load(folder / name)
            assert [d["index"] for d in rec["decisions"] if d["player"] == 0] == sent
            assert clicks > 3 and keys > 3
            g = Game.from_record(rec)
            assert shown == play.result_line(g, ["you", "Big Money"])
            assert rec["result"]["status"] == "terminated"
            driver.get(link.get_attribute("href"))  # the record in the replay viewer
            n = len(rec["decisions"])
            assert driver.find_element(By.ID, "position").text.startswith(f"step 0 / {n}")
            assert driver.title.startswith(f"Dominion replay: seed {SEED} game 0")
    finally:
        driver.quit()
    assert (tmp_path / "web_game.png").stat().st_size > 10_000


def test_watching_bots_step_by_step_then_at_speed_in_a_seats_view(tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select, WebDriverWait

    driver = _driver()
    try:
        with running(create_app(resolve_player, list(BOTS), tmp_path)) as url:
            driver.get(url + "/")
            wait = WebDriverWait(driver, 50)
            wait.until(lambda d: len(Select(d.find_element(By.ID, "kingdom")).options) > 2)
            driver.find_element(By.CSS_SELECTOR, "input[name=mode][value=watch]").click()
            rows = driver.find_elements(By.CSS_SELECTOR, "#playerRows select")
            assert len(rows) == 2  # a watched game has every seat, 2 at least
            Select(rows[1]).select_by_value("Militia")
            driver.find_element(By.ID, "start").click()
            step = lambda: driver.execute_script("return game && game.step")  # noqa: E731
            wait.until(lambda d: step() is not None)
            assert step() == 0
            driver.find_element(By.ID, "stepOnce").click()
            wait.until(lambda d: step() == 1)
            driver.find_element(By.TAG_NAME, "body").send_keys("n")
            wait.until(lambda d: step() == 2)
            Select(driver.find_element(By.ID, "viewSelect")).select_by_value("1")
            wait.until(lambda d: driver.execute_script("return game.view") == 1)
            assert driver.find_element(By.ID, "handTitle").text == "P1's hand"
            Select(driver.find_element(By.ID, "speed")).select_by_value("20")
            driver.find_element(By.ID, "autoPlay").click()
            wait.until(lambda d: d.find_element(By.ID, "resultText").text.startswith("Result:"))
            assert driver.find_element(By.ID, "autoPlay").text == "Play"  # stopped at the end
            driver.save_screenshot(str(tmp_path / "web_watch.png"))
            (saved,) = tmp_path.glob("*.json")
            rec = records.load(saved)
            assert rec["meta"]["mode"] == "watch"
            assert [e["name"] for e in rec["players"]] == ["Big Money", "Militia"]
            assert driver.execute_script("return game.step") == len(rec["decisions"])
    finally:
        driver.quit()
