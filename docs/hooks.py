"""MkDocs hook: pages written from the code's own tables at build time (mkdocs.yml ``hooks``).

``layouts.md``: the observation pieces (``engine.observation.obs_layout``) with their sizes and
offsets for 2 to 6 players, the action space (``engine.layout``: cards, options, PASS) with the
meaning of each option by card (``names.OPTION_TEXT``) and of PASS by decision
(``names.PASS_TEXT``), the decision kinds (``layout.DECISION_NAMES``) and the card-set view's
features (``card_set_layout``).
``rules.md``: the decisions the engine asks where the rulebooks leave a choice of how to ask,
card by card, and the scripted bots' default play, from the docstrings of the modules that play
them.

Nothing is written to docs/: the pages exist only in the build (``File.generated``), so they
cannot go stale; tests/test_docs.py checks the built page against the code.
"""

from __future__ import annotations

import importlib
import inspect

from mkdocs.structure.files import File

PLAYERS = range(2, 7)


def layouts_markdown() -> str:
    from dominion_env.cards import COST, NAMES, NUM_CARDS, TABLE, types_of
    from dominion_env.engine.layout import DECISION_NAMES, NUM_ACTIONS, NUM_OPTIONS, OPTION0, PASS
    from dominion_env.engine.observation import obs_layout, obs_offsets, obs_size
    from dominion_env.names import OPTION_TEXT, PASS_TEXT

    out = [
        "# Observation and action layouts",
        "",
        "Written at build time from `engine/observation.py` (`obs_layout`, `obs_offsets`) and",
        "`engine/layout.py`, so it always says what the code does. What each piece holds is in",
        "the [observation module's docstring](api/engine.md). Seats are rotated: seat 0 is the",
        "viewer. `split(obs, players)` gives the pieces by name.",
        "",
        "## Observation pieces",
        "",
        "| piece | " + " | ".join(f"size, {p}p" for p in PLAYERS) + " | offset, 2p |",
        "| --- | " + " | ".join("---:" for _ in PLAYERS) + " | ---: |",
    ]
    layouts = {p: obs_layout(p) for p in PLAYERS}
    offsets2 = obs_offsets(2)
    for i, (name, _) in enumerate(layouts[2]):
        sizes = " | ".join(str(layouts[p][i][1]) for p in PLAYERS)
        out.append(f"| `{name}` | {sizes} | {int(offsets2[i])} |")
    total = " | ".join(f"**{obs_size(p)}**" for p in PLAYERS)
    out += [f"| total | {total} | |", ""]
    out += [
        "## Action space",
        "",
        f"One space for every decision: `Discrete({NUM_ACTIONS})`. The pending decision (the",
        "observation's `decision`, `dec_source`, `dec_card` pieces) says what an index means.",
        "",
        "| index | action | cost | types |",
        "| ---: | --- | ---: | --- |",
    ]
    for c in range(NUM_CARDS):
        types = ", ".join(types_of(NAMES[c]))
        out.append(f"| {c} | this card: {NAMES[c]} | ${int(TABLE[c, COST])} | {types} |")
    for k in range(NUM_OPTIONS):
        out.append(f"| {OPTION0 + k} | option {k} | | |")
    out += [f"| {PASS} | PASS / DONE / NO | | |", ""]
    out += [
        "### What option k means, by the card that asks",
        "",
        "| card | " + " | ".join(f"option {k}" for k in range(NUM_OPTIONS)) + " |",
        "| --- | " + " | ".join("---" for _ in range(NUM_OPTIONS)) + " |",
    ]
    for card, labels in OPTION_TEXT.items():
        cells = list(labels) + [""] * (NUM_OPTIONS - len(labels))
        out.append(f"| {card} | " + " | ".join(cells) + " |")
    out += ["", "### What PASS means, by decision", "", "| decision | PASS |", "| --- | --- |"]
    for kind in DECISION_NAMES:
        out.append(f"| `{kind}` | {PASS_TEXT.get(kind, 'done / decline')} |")
    out += ["", "## Decision kinds", "", "| id | kind |", "| ---: | --- |"]
    out += [f"| {i} | `{kind}` |" for i, kind in enumerate(DECISION_NAMES)]
    out += card_set_markdown()
    return "\n".join(out) + "\n"


def card_set_markdown() -> list:
    """The card-set view's features (``engine.observation.card_set_layout``), 2 players."""
    from dominion_env.engine.observation import CARD_SET_SIZE, card_set_layout

    lay = card_set_layout(2)
    out = [
        "",
        "## The card-set view",
        "",
        "The same facts card by card (`card_set(obs, players)`; the Gymnasium env's",
        f'`observation="cards"`): the game\'s {CARD_SET_SIZE} cards by id, for each the features',
        "below (its entry of each per-card piece), and the other entries as globals. 2 players:",
        "",
        "| feature | from piece | seat | flat offset (+ card id) |",
        "| --- | --- | ---: | ---: |",
    ]
    for (name, piece, seat), off in zip(lay["card_features"], lay["feature_offsets"], strict=True):
        out.append(f"| {name} | `{piece}` | {'' if seat is None else seat} | {int(off)} |")
    out += ["", f"Globals ({len(lay['globals'])}): " + ", ".join(n for n, _, _ in lay["globals"])]
    return out


# modules whose docstrings state how the engine asks what the rulebooks leave open
RULES_MODULES = (
    ("Base set", "dominion_env.engine.base_cards"),
    ("Intrigue", "dominion_env.engine.intrigue_cards"),
    ("Attacks and Reactions", "dominion_env.engine.attacks"),
    ("The turn", "dominion_env.engine.machine"),
    ("Shuffles and who sees what", "dominion_env.engine.zones"),
    ("The bots' default play", "dominion_env.engine.bots"),
)


def rules_markdown() -> str:
    out = [
        "# Rules decisions",
        "",
        "Every choice the rules give a player is a decision step for that player, including",
        "players who are not taking the turn. Where the rulebooks leave open how a choice is",
        "asked (in which order, one card at a time or all at once, who picks for whom), the",
        "engine's answer is written in the docstring of the module that plays it; this page",
        "gathers them at build time.",
        "",
    ]
    for title, name in RULES_MODULES:
        doc = inspect.cleandoc(importlib.import_module(name).__doc__ or "")
        out += [f"## {title}", "", f"From `{name}`:", "", "```text", doc, "```", ""]
    return "\n".join(out)


def on_files(files, config):
    files.append(File.generated(config, "layouts.md", content=layouts_markdown()))
    files.append(File.generated(config, "rules.md", content=rules_markdown()))
    return files
