"""bench/ holds the benchmarks the docs cite: every script there takes ``--quick`` (a small,
fast run that checks it still works), and every script the docs or the code name is there, or
named with the commit that holds it (``git show COMMIT:bench/NAME``) once it has left.

Read from the sources (an AST walk), not by running each script: importing them all would
cost the suite a minute."""

from __future__ import annotations

import ast
import pathlib
import re

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
BENCH = ROOT / "bench"
SCRIPTS = sorted(p.name for p in BENCH.glob("*.py"))
# scripts that take no --quick yet (bench_selfplay.py sizes its run by --generations)


def options(path: pathlib.Path) -> set[str]:
    """The option strings of every ``add_argument`` call in the script."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "add_argument"
        ):
            found |= {
                a.value
                for a in node.args
                if isinstance(a, ast.Constant) and isinstance(a.value, str)
            }
    return found


def test_bench_holds_only_python_scripts():
    assert SCRIPTS and sorted(p.name for p in BENCH.iterdir() if p.is_file()) == SCRIPTS


@pytest.mark.parametrize("name", SCRIPTS)
def test_a_bench_script_takes_quick(name):
    opts = options(BENCH / name)
    assert opts, f"bench/{name} parses no arguments"
    assert "--quick" in opts, f"bench/{name} has no --quick"


def sources() -> list[pathlib.Path]:
    """The files that may name a bench script: the docs, the README, the package's sources."""
    files = [ROOT / "README.md", *ROOT.glob("docs/**/*.md")]
    for folder in ("dominion_env", "agents", "train", "tests"):
        files += (ROOT / folder).rglob("*.py")
    return files


def gone(files) -> list[str]:
    """Each file's mentions of a bench script that is not in bench/ and that the file does not
    name with the commit holding it (``git show COMMIT:bench/NAME``)."""
    out = []
    for path in files:
        text = path.read_text(encoding="utf-8")
        for name in sorted(set(re.findall(r"bench/(\w+\.(?:py|sh))\b", text))):
            held = re.search(rf"git\s+show\s+[0-9a-f]{{7,40}}:bench/{re.escape(name)}", text)
            if not (BENCH / name).is_file() and not held:
                out.append(f"{path.name} names bench/{name}, which is not there")
    return out


def test_every_cited_script_is_there_or_named_with_its_commit():
    assert gone(sources()) == []


def test_a_script_that_left_is_named_with_its_commit(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("measured by `python bench/left.py`, and `bench/audit.py` runs\n")
    assert gone([page]) == ["page.md names bench/left.py, which is not there"]
    page.write_text("measured by `python bench/left.py` (`git show 1bfe356:bench/left.py`)\n")
    assert gone([page]) == []
