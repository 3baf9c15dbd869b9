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
    top        envs/*, arguments, seats, players, commands/*, cli, play, web/*, train/*
               (dominion_env.train)

``dominion_env/__init__.py`` is the package's front door and may import from every layer.
Imports of the package's own modules sit at module top (none inside a function, where they
would hide a cycle; ``LAZY_ALLOWED`` lists the optional extras' few); functions may import
optional third-party libraries lazily. No import circle anywhere: a submodule that imports a
name from its own package's ``__init__`` while the package imports the submodule is one.

No module reaches a private name (``_x``) another module defines; no module is over
``MAX_MODULE_LINES`` lines and no public name is defined in two modules, but for the lists
below, each entry with its reason.
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
            "dominion_env.protocols",
            "dominion_env.shaping",
            "dominion_env.snapshot",
            "dominion_env.vector",
            "dominion_env.records",
            "dominion_env.positions",
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
            "dominion_env.players",
            "dominion_env.commands",
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


def resolve(module: str, path: Path, node: ast.ImportFrom | ast.Import, known=()) -> list[str]:
    """Absolute names of the modules an import statement reaches: ``from P import x`` reaches
    the module ``P.x`` where ``x`` is one (a package's submodule), else ``P`` itself (a name
    ``P`` defines), so a submodule importing a sibling through ``from . import`` does not
    count as importing its package, and one importing a name of its package does."""
    if isinstance(node, ast.Import):
        return [a.name for a in node.names]
    if node.level == 0:
        base = node.module
    else:
        package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
        parts = package.split(".")
        parts = parts[: len(parts) - (node.level - 1)]
        base = ".".join(parts + ([node.module] if node.module else []))
    out = []
    for a in node.names:
        target = f"{base}.{a.name}"
        out.append(target if target in known else base)
    return list(dict.fromkeys(out))


def internal_imports(known: dict[str, Path]):
    """(module, imported module, line, at module top?) for every import of a package module."""
    for module, path in known.items():
        tree = ast.parse(path.read_text())
        top = set(map(id, tree.body))
        for node in ast.walk(tree):
            if not isinstance(node, (ast.Import, ast.ImportFrom)):
                continue
            for target in resolve(module, path, node, known):
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


TORCH_COMMANDS = ("train", "evaluate", "scorecard", "selfplay")
# (importer, imported) pairs allowed inside a function, each with its reason
LAZY_ALLOWED = {
    # the training commands need torch (the `train` extra); the other commands must run
    # without it
    *(("dominion_env.commands", f"dominion_env.commands.{c}") for c in TORCH_COMMANDS),
    # dominion serve needs starlette and uvicorn (the `web` extra), the other commands do not
    ("dominion_env.commands.serve", "dominion_env.web"),
    # a player named search:AGENT:N or a trained agent's name loads the agent (the `train`
    # extra); resolving the other names needs no torch
    ("dominion_env.players", "dominion_env.train"),
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
        if m != t and FRONT_DOOR not in (m, t):
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


# underscore names that are a library's public API (namedtuple's), not a module's private ones
PUBLIC_UNDERSCORED = {"_fields", "_replace", "_asdict", "_make", "_field_defaults"}
# (module, private name of another module) reaches allowed, each with its reason (none now)
PRIVATE_REACH_ALLOWED: set[tuple[str, str]] = set()


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__") and name not in PUBLIC_UNDERSCORED


def private_names(tree: ast.AST) -> set[str]:
    """The private names a module defines: functions, classes, variables and attributes it
    assigns (``self._x = ...``)."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            name = node.name
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            name = node.attr
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            name = node.id
        else:
            continue
        if _private(name):
            out.add(name)
    return out


def private_reaches(trees: dict[str, ast.AST]):
    """(module, line, name) wherever a module reaches a private name another module defines:
    ``x._name`` with x not self or cls, or ``from m import _name``."""
    owners: dict[str, set[str]] = {}
    for module, tree in trees.items():
        for name in private_names(tree):
            owners.setdefault(name, set()).add(module)
    for module, tree in trees.items():
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and _private(node.attr):
                if isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
                    continue
                if module not in owners.get(node.attr, {module}):
                    yield module, node.lineno, node.attr
            elif isinstance(node, ast.ImportFrom):
                for a in node.names:
                    if _private(a.name):
                        yield module, node.lineno, a.name


def test_no_module_reaches_another_modules_private_names():
    trees = {m: ast.parse(path.read_text()) for m, path in KNOWN.items()}
    bad = [
        f"{KNOWN[m].relative_to(ROOT)}:{line} reaches {name}"
        for m, line, name in private_reaches(trees)
        if (m, name) not in PRIVATE_REACH_ALLOWED
    ]
    assert not bad, "private names reached from another module:\n" + "\n".join(bad)
    left = {(m, name) for m, _, name in private_reaches(trees)}
    assert PRIVATE_REACH_ALLOWED <= left, f"allowed but gone: {PRIVATE_REACH_ALLOWED - left}"


def test_the_private_name_check_can_fail():
    trees = {
        "pkg.a": ast.parse("class A:\n    def __init__(self):\n        self._x = 1\n"),
        "pkg.b": ast.parse("from pkg.a import _helper\ndef f(a):\n    return a._x + self_._y\n"),
        "pkg.c": ast.parse("def g(t):\n    return t._fields, t._replace()\n"),
    }
    found = {(m, name) for m, _, name in private_reaches(trees)}
    assert found == {("pkg.b", "_helper"), ("pkg.b", "_x")}


MAX_MODULE_LINES = 800
# modules longer than that, each with its reason
LONG_MODULES = {
    "dominion_env.agents.library": "the bot library's data, one entry per bot",
    "dominion_env.engine.base_cards": "the Base set's card effects, one kernel per card",
}


def test_no_module_is_too_long():
    lengths = {m: len(path.read_text().splitlines()) for m, path in KNOWN.items()}
    long = {m for m, n in lengths.items() if n > MAX_MODULE_LINES}
    assert long <= set(LONG_MODULES), {m: lengths[m] for m in long - set(LONG_MODULES)}
    assert set(LONG_MODULES) <= long, f"short now, drop them: {set(LONG_MODULES) - long}"


MAX_COMMAND_LINES = 400


def test_every_command_module_is_short_and_says_what_it_is_for():
    found = {m: path for m, path in KNOWN.items() if m.startswith("dominion_env.commands")}
    assert len(found) > 10
    for module, path in found.items():
        text = path.read_text()
        assert len(text.splitlines()) <= MAX_COMMAND_LINES, module
        assert ast.get_docstring(ast.parse(text)), f"{module} has no docstring"


# every subcommand's module has the same three functions (dominion_env.commands)
COMMAND_INTERFACE = {"add_parser", "check", "run"}
# public names defined at the top of several modules, each with its reason; a new one is the
# same thing (define it once and import it) or a different one (give it its own name)
SHARED_NAMES = {
    "end_piles": "the rule (cards) and its compiled twin for the kernels (engine.zones)",
    "CARDS": "each card set's effects (base_cards, intrigue_cards) and all of them (effects)",
    "VERSION": "each face's version: the envs' and VecGame's",
    "Decision": "Game's pending decision and the guided search's record of one (search)",
    "ROWS_PER_CALL": "the flat and the guided search's batch sizes (search)",
    "parse_search_name": "the flat search's names and every search's names (search)",
    "INT_BOUNDS": "the trainer's and self-play's settings (selfplay)",
    "NUMBER_BOUNDS": "the trainer's and self-play's settings (selfplay)",
    "check_config": "the trainer's and self-play's settings (selfplay)",
    "check_init": "the trainer's and self-play's settings (selfplay)",
    "Interrupted": "the trainer's and self-play's Ctrl-C (selfplay)",
    "read_checkpoint": "the trainer's and self-play's checkpoints (selfplay)",
    "saved_config": "the trainer's and self-play's checkpoints (selfplay)",
    "write_progress": "the trainer's and self-play's progress logs (selfplay)",
    "MAX_GAMES": "the CLI's games per run and the games the web server holds (web)",
    "Table": "the terminal's and the web server's game at a table (web)",
    "bot_action": "a bot's action by name (agents) and the engine's kernel",
    "describe": "a bot in words (optimize) and a device in words (train.device)",
    "resolve": "the decision machine's kernel and the scorecard's player",
    "load": "a game record (records) and a snapshot (snapshot), module-qualified",
    "save": "a game record (records) and a snapshot (snapshot), module-qualified",
    "evaluate": "the evaluation and the MaskablePPO script's own",
    "main": "the dominion command and the MaskablePPO script",
    "parse_args": "the dominion command and the MaskablePPO script",
}


def public_definitions(tree: ast.Module) -> set[str]:
    """Public names a module's top level defines (functions, classes, assignments)."""
    out = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.add(node.name)
        elif isinstance(node, ast.Assign):
            out.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            out.add(node.target.id)
    return {n for n in out if not n.startswith("_")}


def test_a_public_name_means_one_thing():
    where: dict[str, set[str]] = {}
    for module, path in KNOWN.items():
        if "import warnings" in path.read_text() and "is now dominion_env" in path.read_text():
            continue  # a renamed module's old name, re-exporting the new one
        for name in public_definitions(ast.parse(path.read_text())):
            if name in COMMAND_INTERFACE and module.startswith("dominion_env.commands."):
                continue
            where.setdefault(name, set()).add(module)
    shared = {n: sorted(ms) for n, ms in where.items() if len(ms) > 1}
    new = {n: ms for n, ms in shared.items() if n not in SHARED_NAMES}
    assert not new, f"public names defined in several modules: {new}"
    assert set(SHARED_NAMES) <= set(shared), f"defined once now: {set(SHARED_NAMES) - set(shared)}"


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
