"""Golden playthroughs: every game of tests/golden/regenerate.py, played again, must give the
trace stored in tests/golden/<name>.txt line for line.

A failure means the engine's games (or their log, zones, scores) changed. If the change is
intended, run ``python tests/golden/regenerate.py`` and commit the new traces with it.
"""

import difflib
import importlib.util
import sys
from pathlib import Path

import pytest

GOLDEN = Path(__file__).resolve().parent / "golden"
DIFF_LINES = 40


def _load_generator():
    """tests/golden/regenerate.py as a module (tests/ is no package, so load it by path)."""
    name = "golden_regenerate"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, GOLDEN / "regenerate.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up while the class is made
    spec.loader.exec_module(module)
    return module


regenerate = _load_generator()


def test_every_trace_file_belongs_to_a_game():
    """No stale golden file: each .txt is written by a game of GAMES, and each game has one."""
    names = {spec.name for spec in regenerate.GAMES}
    files = {p.stem for p in GOLDEN.glob("*.txt")}
    assert files == names, (
        f"golden files without a game: {sorted(files - names)}; "
        f"games without a file: {sorted(names - files)} "
        "(run python tests/golden/regenerate.py)"
    )


@pytest.mark.parametrize("spec", regenerate.GAMES, ids=lambda s: s.name)
def test_golden_trace(spec):
    path = regenerate.path_of(spec)
    assert path.exists(), f"{path.name} is missing: run python tests/golden/regenerate.py"
    expected = path.read_text(encoding="utf-8").splitlines()
    actual = regenerate.trace(spec).splitlines()
    if actual != expected:
        diff = list(
            difflib.unified_diff(
                expected,
                actual,
                f"{path.name} (stored)",
                f"{path.name} (played now)",
                n=2,
                lineterm="",
            )
        )
        shown = "\n".join(diff[:DIFF_LINES])
        more = f"\n... ({len(diff) - DIFF_LINES} more diff lines)" if len(diff) > DIFF_LINES else ""
        pytest.fail(
            f"golden trace {path.name} differs from the game played now:\n{shown}{more}\n"
            "If the change is intended, run: python tests/golden/regenerate.py",
            pytrace=False,
        )
