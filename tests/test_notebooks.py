"""The notebooks run top to bottom in a real Jupyter kernel, and show what they promise.

Each notebook is executed by nbclient in an IPython kernel started with this test's Python
(the virtual environment's, whatever kernels the machine has installed). A code cell tagged
``figure`` must display a PNG figure, one tagged ``table`` a pandas DataFrame (its HTML table);
every notebook shows at least one table, every notebook but the quick start at least one
figure, and its last code cell checks its results with ``assert``. Sample sizes are the tests'
small ones (``DOMINION_NOTEBOOK_*``): the four run in about a minute once the kernels are
compiled.
"""

import json
import pathlib
import sys

import nbformat
import pytest
from jupyter_client.kernelspec import KernelSpecManager
from jupyter_client.manager import KernelManager
from nbclient import NotebookClient

NOTEBOOKS = sorted((pathlib.Path(__file__).parent.parent / "notebooks").glob("*.ipynb"))
FOR_EVERY_USER = {"training_agents.ipynb", "bot_benchmarking.ipynb", "strategy_research.ipynb"}
KERNEL = "dominion-env-tests"


@pytest.fixture(scope="module")
def kernel_specs(tmp_path_factory) -> KernelSpecManager:
    """A kernel spec that runs this interpreter (the venv's python), in a folder of its own."""
    folder = tmp_path_factory.mktemp("kernels") / KERNEL
    folder.mkdir()
    spec = {
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "dominion-env tests",
        "language": "python",
    }
    (folder / "kernel.json").write_text(json.dumps(spec))
    return KernelSpecManager(kernel_dirs=[str(folder.parent)])


def execute(nb, kernel_specs, cwd, timeout: int) -> None:
    """Run every cell of ``nb`` in place (outputs kept), in a fresh kernel working in ``cwd``."""
    km = KernelManager(kernel_name=KERNEL, kernel_spec_manager=kernel_specs)
    NotebookClient(nb, km=km, timeout=timeout, resources={"metadata": {"path": str(cwd)}}).execute()


def shown(cell) -> set[str]:
    """What a code cell displayed: 'figure' (a PNG), 'table' (a DataFrame's HTML)."""
    kinds = set()
    for out in cell.get("outputs", []):
        data = out.get("data", {})
        if "image/png" in data:
            kinds.add("figure")
        if "dataframe" in data.get("text/html", ""):
            kinds.add("table")
    return kinds


def test_the_notebooks_are_one_per_user():
    assert FOR_EVERY_USER <= {p.name for p in NOTEBOOKS}


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_runs_and_shows(path, kernel_specs, monkeypatch, tmp_path):
    # seconds of training, hundreds of games (a user's run takes the notebook's defaults)
    monkeypatch.setenv("DOMINION_NOTEBOOK_MINUTES", "0.25")
    monkeypatch.setenv("DOMINION_NOTEBOOK_GAMES", "2000")
    monkeypatch.setenv("MPLBACKEND", "module://matplotlib_inline.backend_inline")
    if path.name == "training_agents.ipynb":
        pytest.importorskip("torch", reason="the train extra (torch) is not installed")
    nb = nbformat.read(path, as_version=4)
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert code, f"{path.name} has no code cells"
    assert "assert" in code[-1].source, f"{path.name}: the last code cell should check results"
    assert not any(c.get("outputs") for c in code), f"{path.name} is saved with outputs"
    execute(nb, kernel_specs, tmp_path, timeout=600)
    for i, cell in enumerate(code):
        for promised in set(cell.metadata.get("tags", [])) & {"figure", "table"}:
            assert promised in shown(cell), f"{path.name} cell {i} shows no {promised}"
    everything = set().union(*(shown(c) for c in code))
    assert "table" in everything
    if path.name in FOR_EVERY_USER:
        assert "figure" in everything


def test_a_missing_figure_is_noticed(kernel_specs, tmp_path):
    # the check above can fail: a figure closed before it is shown leaves no PNG
    nb = nbformat.v4.new_notebook(
        cells=[
            nbformat.v4.new_code_cell(
                "import matplotlib.pyplot as plt\nfig, ax = plt.subplots()\nax.plot([1, 2])\n"
                "plt.close(fig)"
            ),
            nbformat.v4.new_code_cell("import pandas as pd\npd.DataFrame({'a': [1]})"),
            nbformat.v4.new_code_cell("print({'a': [1]})"),
        ]
    )
    execute(nb, kernel_specs, tmp_path, timeout=120)
    assert [shown(c) for c in nb.cells] == [set(), {"table"}, set()]
