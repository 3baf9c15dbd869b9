"""Store executed copies of the notebooks under docs/notebooks/, for the documentation site.

The notebooks in notebooks/ are kept without outputs (tests/test_notebooks.py checks that, and
runs them); the site shows these copies, figures and tables included, without executing
anything at build time, so a site build takes seconds. Run this after changing a notebook:

    python docs/execute_notebooks.py            # every notebook
    python docs/execute_notebooks.py quickstart # one, by name

Sample sizes are the environment variables the notebooks read (DOMINION_NOTEBOOK_MINUTES,
DOMINION_NOTEBOOK_GAMES), set here to a few thousand games and half a minute of training so
a run takes minutes; tests/test_docs.py checks that each copy's code is the notebook's code.
"""

from __future__ import annotations

import json
import os
import pathlib
import sys
import tempfile

import nbformat
from jupyter_client.kernelspec import KernelSpecManager
from jupyter_client.manager import KernelManager
from nbclient import NotebookClient

ROOT = pathlib.Path(__file__).resolve().parent.parent
SOURCE = ROOT / "notebooks"
TARGET = ROOT / "docs" / "notebooks"
SIZES = {"DOMINION_NOTEBOOK_MINUTES": "0.5", "DOMINION_NOTEBOOK_GAMES": "4000"}


def clean(nb) -> None:
    """Drop what the run wrote to stderr (the kernels' compile notice naming this machine's
    cache folder, progress bars): the page shows results, not one machine's run."""
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs = [
                o for o in cell.outputs if not (o.output_type == "stream" and o.name == "stderr")
            ]


def execute(path: pathlib.Path, kernels: KernelSpecManager, cwd: str) -> None:
    nb = nbformat.read(path, as_version=4)
    km = KernelManager(kernel_name="dominion-env-docs", kernel_spec_manager=kernels)
    NotebookClient(nb, km=km, timeout=1200, resources={"metadata": {"path": cwd}}).execute()
    clean(nb)
    TARGET.mkdir(exist_ok=True)
    nbformat.write(nb, TARGET / path.name)
    print(f"wrote {TARGET / path.name}")


def main(names: list[str]) -> None:
    paths = sorted(SOURCE.glob("*.ipynb"))
    if names:
        known = {p.stem: p for p in paths}
        unknown = [n for n in names if n not in known]
        if unknown:
            sys.exit(f"unknown notebook(s) {unknown}; known: {sorted(known)}")
        paths = [known[n] for n in names]
    os.environ.update(SIZES)
    os.environ["MPLBACKEND"] = "module://matplotlib_inline.backend_inline"
    with tempfile.TemporaryDirectory() as tmp:
        spec = pathlib.Path(tmp) / "kernels" / "dominion-env-docs"
        spec.mkdir(parents=True)
        argv = [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"]
        spec_json = {"argv": argv, "display_name": "dominion-env docs", "language": "python"}
        (spec / "kernel.json").write_text(json.dumps(spec_json))
        kernels = KernelSpecManager(kernel_dirs=[str(spec.parent)])
        for path in paths:
            execute(path, kernels, tmp)


if __name__ == "__main__":
    main(sys.argv[1:])
