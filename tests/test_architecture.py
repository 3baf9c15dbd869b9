"""The architecture, checked: imports run one way, and the package claims no generic name.

Layers, lowest first (a module may import its own layer or a lower one, never a higher one):

    data       cards, extras                        what the game is made of; which extra
                                                    installs each optional library
    engine     engine/*                             kernels over the state record; what plays
                                                    (kingdoms: the cards the engine implements)
    faces      names, checks, shaping, vector,      Python faces of the engine; take BotTables
               records, game
    agents     agents/*  (dominion_env.agents)      bot language and library
    search     search/*                             the search player (bots as rollouts)
    analysis   analysis/*                           arena, tournaments, ratings, reports
    top        envs/*, arguments, seats, cli, play, web/*, train/* (dominion_env.train)

``dominion_env/__init__.py`` is the package's front door and may import from every layer.
Imports of the package's own modules sit at module top (none inside a function, where they
would hide a cycle); functions may import optional third-party libraries lazily.
"""

from __future__ import annotations

import ast
import importlib.util
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# folder in the repository -> package name it is installed as (pyproject's package-dir)
FOLDERS = {
    "dominion_env": "dominion_env",
    "agents": "dominion_env.agents",
    "train": "dominion_env.train",
}
LAYERS = [
    ("data", ("dominion_env.cards", "dominion_env.extras")),
    ("engine", ("dominion_env.engine",)),
    (
        "faces",
        (
            "dominion_env.names",
            "dominion_env.checks",
            "dominion_env.shaping",
            "dominion_env.snapshot",
            "dominion_env.vector",
            "dominion_env.records",
            "dominion_env.game",
        ),
    ),
    ("agents", ("dominion_env.agents",)),
    ("search", ("dominion_env.search",)),
    ("analysis", ("dominion_env.analysis",)),
    (
        "top",
        (
            "dominion_env.envs",
            "dominion_env.arguments",
            "dominion_env.seats",
            "dominion_env.cli",
            "dominion_env.play",
            "dominion_env.train",
            "dominion_env.web",
        ),
    ),
]
FRONT_DOOR = "dominion_env"
# the engine runs anywhere numpy and Numba do
ENGINE_THIRD_PARTY = {"numpy", "numba", "llvmlite"}


def layer_of(module: str) -> int:
    for rank, (_, prefixes) in enumerate(LAYERS):
        if any(module == p or module.startswith(p + ".") for p in prefixes):
            return rank
    raise AssertionError(f"{module} is in no layer: add it to LAYERS in {__file__}")


def modules() -> dict[str, Path]:
    out = {}
    for folder, package in FOLDERS.items():
        for path in sorted((ROOT / folder).rglob("*.py")):
            rel = path.relative_to(ROOT / folder).with_suffix("")
            parts = [p for p in rel.parts if p != "__init__"]
            out[".".join([package, *parts])] = path
    return out


def resolve(module: str, path: Path, node: ast.ImportFrom | ast.Import) -> list[str]:
    """Absolute names of the package modules an import statement reaches."""
    if isinstance(node, ast.Import):
        return [a.name for a in node.names]
    if node.level == 0:
        base = node.module
    else:
        package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
        parts = package.split(".")
        parts = parts[: len(parts) - (node.level - 1)]
        base = ".".join(parts + ([node.module] if node.module else []))
    # "from . import x" / "from .pkg import mod": each name may be a module itself
    return [base] + [f"{base}.{a.name}" for a in node.names]


def internal_imports(known: dict[str, Path]):
    """(module, imported module, line, at module top?) for every import of a package module."""
    for module, path in known.items():
        tree = ast.parse(path.read_text())
        top = set(map(id, tree.body))
        for node in ast.walk(tree):
            if not isinstance(node, (ast.Import, ast.ImportFrom)):
                continue
            for target in resolve(module, path, node):
                if target in known:
                    yield module, target, node.lineno, id(node) in top


KNOWN = modules()
EDGES = list(internal_imports(KNOWN))


def test_every_module_has_a_layer():
    missing = []
    for module in KNOWN:
        if module != FRONT_DOOR:
            try:
                layer_of(module)
            except AssertionError:
                missing.append(module)
    assert not missing, f"modules in no layer (add them to LAYERS): {missing}"
    assert len(KNOWN) > 40  # the walk found the package, agents/ and train/


def test_no_upward_import():
    bad = [
        f"{KNOWN[m].relative_to(ROOT)}:{line} ({LAYERS[layer_of(m)][0]}) imports {t} "
        f"({LAYERS[layer_of(t)][0]})"
        for m, t, line, _ in EDGES
        if m != FRONT_DOOR and t != FRONT_DOOR and layer_of(t) > layer_of(m)
    ]
    assert not bad, "imports against the layers:\n" + "\n".join(bad)


# (importer, imported) pairs allowed inside a function, each with its reason
LAZY_ALLOWED = {
    # the training commands and agents need torch (the `train` extra); the CLI's other
    # commands must run without it
    ("dominion_env.cli", "dominion_env.train"),
    # dominion serve needs starlette and uvicorn (the `web` extra), the other commands do not
    ("dominion_env.cli", "dominion_env.web"),
    # an env opponent named search:AGENT:N loads the agent's network (the `train` extra); the
    # envs need no torch otherwise
    ("dominion_env.envs.common", "dominion_env.train"),
    # a player named ismcts[:N] is OpenSpiel's ISMCTS (the `openspiel` extra); the name is
    # parsed, and a missing extra named, without it
    ("dominion_env.envs.ismcts", "dominion_env.envs.openspiel_game"),
}


def test_no_package_import_inside_functions():
    def allowed(m, t):
        return any(m == a and (t == b or t.startswith(b + ".")) for a, b in LAZY_ALLOWED)

    bad = [
        f"{KNOWN[m].relative_to(ROOT)}:{line} imports {t} inside a function"
        for m, t, line, at_top in EDGES
        if not at_top and t != FRONT_DOOR and not allowed(m, t)
    ]
    assert not bad, "\n".join(bad)


def test_no_import_cycle():
    graph: dict[str, set[str]] = {m: set() for m in KNOWN}
    for m, t, _, _ in EDGES:
        if m != t and FRONT_DOOR not in (m, t) and not m.startswith(t + "."):
            graph[m].add(t)
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(m):
        state[m] = 1
        stack.append(m)
        for t in sorted(graph[m]):
            if state.get(t) == 1:
                cycle = stack[stack.index(t) :] + [t]
                raise AssertionError("import cycle: " + " -> ".join(cycle))
            if t not in state:
                visit(t)
        stack.pop()
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m)
    assert all(v == 2 for v in state.values()) and len(state) == len(graph)


def test_the_terminal_and_the_browser_seat_players_through_one_module():
    # who answers each seat (bots, agents, the search) is dominion_env.seats, not the
    # terminal game's module: the browser seats players exactly as the terminal does
    edges = {(m, t) for m, t, _, _ in EDGES}
    for face in ("dominion_env.play", "dominion_env.web.games"):
        assert (face, "dominion_env.seats") in edges, face
    for module in ("dominion_env.play", "dominion_env.web.games"):
        tree = ast.parse(KNOWN[module].read_text())
        defined = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
        assert not defined & {"seat_players", "check_opponents"}, module


def test_engine_imports_no_adapter_library():
    for module, path in KNOWN.items():
        if module == FRONT_DOOR or LAYERS[layer_of(module)][0] != "engine":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            names = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else [node.module]
                if isinstance(node, ast.ImportFrom) and node.level == 0
                else []
            )
            for name in names:
                root = name.split(".")[0]
                stdlib = root in sys.stdlib_module_names
                assert stdlib or root in ENGINE_THIRD_PARTY or root == "dominion_env", (
                    f"{path.relative_to(ROOT)} imports {name}"
                )


def test_the_checker_sees_an_upward_import(tmp_path):
    # the checks above can fail: an engine module importing the bot library is caught
    src = "from ..agents import Bot\n"
    node = ast.parse(src).body[0]
    targets = resolve("dominion_env.engine.zones", ROOT / "dominion_env/engine/zones.py", node)
    assert "dominion_env.agents" in targets
    assert layer_of("dominion_env.agents") > layer_of("dominion_env.engine.zones")


def test_generic_names_are_not_claimed(tmp_path):
    # installed, the package must not make `agents` or `train` importable as top-level names
    script = (
        "import importlib.util, dominion_env; "
        "print([n for n in ('agents', 'train') if importlib.util.find_spec(n)])"
    )
    out = subprocess.run(
        [sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True, timeout=600
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]", f"top-level names claimed: {out.stdout}"


def test_a_users_own_agents_and_train_do_not_shadow_it(tmp_path):
    for name in ("agents", "train"):
        (tmp_path / f"{name}.py").write_text(
            f"raise ImportError('this is the user\\'s own {name}.py')\n"
        )
    script = textwrap.dedent("""
        import gymnasium
        import dominion_env
        from dominion_env.agents import BOTS, Bot
        import dominion_env.train
        env = gymnasium.make("Dominion-v2", opponents="Big Money")
        env.reset(seed=0)
        print("ok", len(BOTS))
    """)
    out = subprocess.run(
        [sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True, timeout=600
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("ok")


@pytest.mark.parametrize("name", ["agents", "train"])
def test_folders_are_installed_inside_the_package(name):
    spec = importlib.util.find_spec(f"dominion_env.{name}")
    assert spec is not None and Path(spec.origin).parent == ROOT / name
