"""Optional dependencies: which extra installs each one, and one way to import them.

    from dominion_env.extras import require
    torch = require("torch", "dominion_env.train")

``require(module, what)`` imports ``module`` (dotted names too) and, when it (or the library it
belongs to) is not installed, raises ``MissingExtra``, a ``ModuleNotFoundError`` that names
what needed it and the command that installs it, e.g.
``the PettingZoo environment needs pettingzoo: pip install 'dominion-env[pettingzoo]'``.
Every optional import in the package goes through here, so the table below is the one place
that says which extra brings which library (it must agree with pyproject's extras: tested).
"""

from __future__ import annotations

import importlib
from types import ModuleType

# top-level import name -> (distribution name, the extra that installs it; None: a core
# dependency, so a plain reinstall of the package brings it back)
EXTRAS: dict[str, tuple[str, str | None]] = {
    "torch": ("torch", "train"),
    "stable_baselines3": ("stable-baselines3", "train"),
    "sb3_contrib": ("sb3-contrib", "train"),
    "pettingzoo": ("pettingzoo", "pettingzoo"),
    "pandas": ("pandas", "notebooks"),
    "jupyter": ("jupyter", "notebooks"),
    "ray": ("ray", "ray"),
    "starlette": ("starlette", "web"),
    "uvicorn": ("uvicorn", "web"),
    # the OpenSpiel game and its ISMCTS player (envs/openspiel_game.py): one distribution,
    # two import names
    "pyspiel": ("open-spiel", "openspiel"),
    "open_spiel": ("open-spiel", "openspiel"),
    "matplotlib": ("matplotlib", None),
    # gymnasium's RecordVideo imports it to film render_mode="rgb_array" (envs/render.py)
    "moviepy": ("moviepy", "dev"),
    # the documentation site's builder and its plugins (mkdocs.yml; tests/test_docs.py)
    "mkdocs": ("mkdocs", "docs"),
    "material": ("mkdocs-material", "docs"),
    "mkdocstrings": ("mkdocstrings", "docs"),
    "mkdocs_jupyter": ("mkdocs-jupyter", "docs"),
}

# torch's default wheel on Linux pulls a CUDA build of several GB: say how to avoid it
_TORCH_NOTE = " (install a CPU torch first to avoid a CUDA build: pip install torch==2.13.0)"


class MissingExtra(ModuleNotFoundError):
    """An optional dependency is not installed; the message says which extra installs it."""


def install_hint(module: str) -> str:
    """The pip command that installs the library ``module`` belongs to."""
    root = module.split(".")[0]
    if root not in EXTRAS:
        raise ValueError(f"{root!r} is not an optional dependency; known: {', '.join(EXTRAS)}")
    dist, extra = EXTRAS[root]
    if extra is None:
        return f"pip install {dist} (a dependency of dominion-env: reinstall it)"
    note = _TORCH_NOTE if extra == "train" else ""
    return f"pip install 'dominion-env[{extra}]'{note}"


def require(module: str, what: str) -> ModuleType:
    """Import ``module``; if an optional library it needs is missing (its own, or one its
    library imports, such as torch under stable_baselines3), raise ``MissingExtra`` naming
    ``what`` needs it and how to install it. Other import errors pass unchanged."""
    install_hint(module)  # refuses a module that is not in the table
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as e:
        missing = (e.name or "").split(".")[0]
        if missing not in EXTRAS:
            raise
        raise MissingExtra(
            f"{what} needs {EXTRAS[missing][0]}, which is not installed: {install_hint(missing)}"
        ) from e
