"""The notebooks run top to bottom (their code cells, executed in order, without Jupyter).

Each notebook checks its own results with ``assert`` in its last code cell."""

import json
import pathlib

import pytest

NOTEBOOKS = sorted((pathlib.Path(__file__).parent.parent / "notebooks").glob("*.ipynb"))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_runs(path, monkeypatch, tmp_path):
    # the training notebook trains for seconds here (a user's run takes its default minutes)
    monkeypatch.setenv("DOMINION_NOTEBOOK_MINUTES", "0.25")
    monkeypatch.chdir(tmp_path)
    if path.name == "training.ipynb":
        pytest.importorskip("torch", reason="the train extra (torch) is not installed")
    cells = json.loads(path.read_text())["cells"]
    code = [
        c["source"] if isinstance(c["source"], str) else "".join(c["source"])
        for c in cells
        if c["cell_type"] == "code"
    ]
    assert code, f"{path.name} has no code cells"
    scope: dict = {}
    for i, src in enumerate(code):
        exec(compile(src, f"{path.name}[cell {i}]", "exec"), scope)  # noqa: S102
    assert "assert" in code[-1], f"{path.name}: the last code cell should check its results"
