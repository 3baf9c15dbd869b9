"""The documentation site builds without a warning and holds what it promises.

The site is built once here (``mkdocs build --strict``, as ``.ci/run`` does, into a temporary
folder; about 20 s). Then: every page of the navigation is there; the generated layouts page
says what the code says (every observation piece with its size for 2 to 6 players, every action
index); the rules page holds the decisions of every card with an effect; the API pages hold the
classes they name; the notebook pages show the executed copies' figures, and each copy under
docs/notebooks/ has exactly its notebook's code (else: ``python docs/execute_notebooks.py``).
"""

from __future__ import annotations

import html
import os
import pathlib
import re
import subprocess
import sys

import nbformat
import pytest

from dominion_env.cards import EFFECT_NAMES, NAMES
from dominion_env.engine.layout import NUM_ACTIONS, OPTION0, PASS
from dominion_env.engine.observation import obs_layout, obs_offsets, obs_size
from dominion_env.extras import require

ROOT = pathlib.Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
PAGES = [
    "index.html",
    "training/index.html",
    "benchmarking/index.html",
    "research/index.html",
    "layouts/index.html",
    "rules/index.html",
    "recipes/index.html",
    "guide/index.html",
    "results/leaderboard/index.html",
    "results/agents/index.html",
    "results/training/index.html",
    "results/search/index.html",
    "results/openspiel/index.html",
    "results/leaderboard-quick/index.html",
    "results/speed/index.html",
    "safety/index.html",
    "architecture/index.html",
    "changelog/index.html",
    "api/game/index.html",
    "api/vector/index.html",
    "api/envs/index.html",
    "api/agents/index.html",
    "api/records/index.html",
    "api/analysis/index.html",
    "api/engine/index.html",
] + [f"notebooks/{p.stem}/index.html" for p in NOTEBOOKS]


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> pathlib.Path:
    require("mkdocs", "the documentation site")
    out = tmp_path_factory.mktemp("site")
    build = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )
    assert build.returncode == 0, build.stdout + build.stderr
    return out


def page(site: pathlib.Path, name: str) -> str:
    return (site / name).read_text(encoding="utf-8")


def test_every_page_is_built(site):
    missing = [p for p in PAGES if not (site / p).is_file()]
    assert missing == []


def test_the_layouts_page_agrees_with_the_code(site):
    text = html.unescape(page(site, "layouts/index.html"))
    pieces_table = text[text.index('id="observation-pieces"') : text.index('id="action-space"')]
    row = r"<tr>\s*<td><code>(\w+)</code></td>\s*((?:<td[^>]*>[^<]*</td>\s*)+)"
    rows = dict(re.findall(row, pieces_table))
    players = range(2, 7)
    pieces = [name for name, _ in obs_layout(2)]
    assert list(rows) == pieces
    offsets = obs_offsets(2)
    for i, name in enumerate(pieces):
        cells = re.findall(r"<td[^>]*>([^<]*)</td>", rows[name])
        expected = [str(obs_layout(p)[i][1]) for p in players] + [str(int(offsets[i]))]
        assert cells == expected, name
    assert all(f"<strong>{obs_size(p)}</strong>" in text for p in players)
    actions = re.findall(r"<td[^>]*>(\d+)</td>\s*<td[^>]*>(this card: [^<]+|option \d|PASS)", text)
    expected = [(str(c), f"this card: {n}") for c, n in enumerate(NAMES)]
    expected += [(str(OPTION0 + k), f"option {k}") for k in range(PASS - OPTION0)]
    expected += [(str(PASS), "PASS")]
    assert actions == expected and len(actions) == NUM_ACTIONS


def test_the_rules_page_lists_every_card_with_an_effect(site):
    text = html.unescape(re.sub(r"<[^>]+>", "", page(site, "rules/index.html")))
    # the vanilla cards (Village, Smithy ...) ask nothing; every other card has its line
    missing = [
        name for name in EFFECT_NAMES[1:] if not re.search(rf"^\s*{re.escape(name)}\s", text, re.M)
    ]
    assert missing == []


def test_the_api_pages_hold_the_classes(site):
    for name, ident in [
        ("api/game/index.html", "dominion_env.game.Game"),
        ("api/vector/index.html", "dominion_env.vector.VecGame"),
        ("api/envs/index.html", "dominion_env.envs.gym_env.DominionEnv"),
        ("api/envs/index.html", "dominion_env.envs.render.render_image"),
        ("api/records/index.html", "dominion_env.snapshot.Snapshot"),
        ("api/agents/index.html", "agents.strategy.Bot"),
    ]:
        assert f'id="{ident}"' in page(site, name), (name, ident)


def test_the_stored_notebook_copies_are_the_notebooks_executed():
    for path in NOTEBOOKS:
        copy = ROOT / "docs" / "notebooks" / path.name
        assert copy.is_file(), f"{copy} missing: run python docs/execute_notebooks.py"
        want = [c.source for c in nbformat.read(path, as_version=4).cells]
        cells = nbformat.read(copy, as_version=4).cells
        assert [c.source for c in cells] == want, f"{copy} is stale: run docs/execute_notebooks.py"
        code = [c for c in cells if c.cell_type == "code"]
        assert all(c.get("execution_count") for c in code), f"{copy} is not executed"
        assert not any(o.get("output_type") == "error" for c in code for o in c.outputs)


def test_the_notebook_pages_show_their_figures(site):
    for path in NOTEBOOKS:
        nb = nbformat.read(ROOT / "docs" / "notebooks" / path.name, as_version=4)
        figures = sum(
            "image/png" in o.get("data", {})
            for c in nb.cells
            if c.cell_type == "code"
            for o in c.outputs
        )
        if path.stem != "quickstart":  # test_notebooks.py: every notebook but this one plots
            assert figures >= 1, path.name
        text = page(site, f"notebooks/{path.stem}/index.html")
        shown = len(re.findall(r'<img [^>]*src="data:image/png;base64,', text))
        assert shown == figures, path.name
