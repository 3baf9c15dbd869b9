"""A game as text, by card names: what ``render_mode="ansi"`` returns (and "human" prints).

    Dominion, 2 players: turn 5, P1's turn, buy phase | Actions 0  Buys 1  $6
    Supply: Copper 46, Silver 36, Gold 30, Estate 8, Duchy 8, Province 8, Curse 10 | Cellar 10, ...
    Trash: Copper x2
    seat      hand deck discard  VP turns  in play
    P0           5    7       3   3     2  -
    P1 *         0    2       8   3     2  Copper x3, Silver x2
    P1's hand: Estate x2
    Decision: P1 buy, $ 0..6
    Legal: Cellar, Moat, Silver, ..., PASS
    Last events:
      P1 plays 3 x Copper
      ...

Only the deciding player's hand is shown by names (``viewer`` names another seat); other hands,
decks and discards are sizes. The log lines are what that player may know (``Game.log(viewer)``:
others' draws as counts); once the game is over, the perfect-information log.
"""

from __future__ import annotations

from ..cards import BASIC
from ..engine.layout import TURNS_TAKEN
from ..names import decision_text


def _names(counts: dict) -> str:
    if not counts:
        return "-"
    return ", ".join(name if k == 1 else f"{name} x{k}" for name, k in counts.items())


def render_game(
    game, viewer: int | None = None, log_lines: int = 8, seat_labels: dict | None = None
) -> str:
    """The game as text. ``viewer``: whose hand to show (default: who decides now; nobody once
    the game is over). ``seat_labels``: extra words per seat (e.g. {0: "learner"})."""
    t = game.turn
    P = game.players
    lines = []
    status = "running"
    if game.terminated:
        status = "over"
    elif game.truncated:
        status = "truncated (turn limit)"
    head = (
        f"Dominion, {P} players: turn {t['turn_number']}, P{t['player']}'s turn, "
        f"{t['phase']} phase | Actions {t['actions']}  Buys {t['buys']}  ${t['coins']}"
    )
    if status != "running":
        head += f" | game {status}"
    lines.append(head)
    supply = game.supply
    basic = [f"{n} {supply[n]}" for n in BASIC if n in supply]
    kingdom = [f"{n} {k}" for n, k in supply.items() if n not in BASIC]
    lines.append("Supply: " + ", ".join(basic) + " | " + ", ".join(kingdom))
    lines.append("Trash: " + _names(game.trash))
    decider = game.current_player
    scores = game.scores()
    lines.append(f"{'seat':<14}{'hand':>5}{'deck':>5}{'discard':>8}{'VP':>4}{'turns':>6}  in play")
    for p in range(P):
        z = game.zones(p)
        label = f"P{p}" + (" *" if p == decider else "")
        if seat_labels and p in seat_labels:
            label += f" {seat_labels[p]}"
        turns = int(game.state["player"][0, p, TURNS_TAKEN])
        lines.append(
            f"{label:<14}{sum(z['hand'].values()):>5}{len(z['deck']):>5}"
            f"{sum(z['discard'].values()):>8}{scores[p]:>4}{turns:>6}  "
            f"{_names(z['in_play'])}"
        )
    who = decider if viewer is None else viewer
    if who is not None and who >= 0:
        z = game.zones(who)
        lines.append(f"P{who}'s hand: {_names(z['hand'])}")
        if z["aside"]:
            lines.append(f"P{who}'s set aside / revealed: {_names(z['aside'])}")
    if decider >= 0:
        lines.append(f"Decision: P{decider} {decision_text(game.decision)}")
        lines.append("Legal: " + ", ".join(game.legal_actions()))
    else:
        lines.append("Rewards: " + ", ".join(f"P{p} {r:+.0f}" for p, r in enumerate(game.rewards)))
    if log_lines:
        log = game.log(who if who is not None and who >= 0 else None)[-log_lines:]
        if log:
            lines.append("Last events:")
            lines.extend("  " + x for x in log)
    return "\n".join(lines) + "\n"


def check_render_mode(render_mode, modes):
    """None or one of the env's ``metadata["render_modes"]``, else a ValueError."""
    if render_mode is not None and render_mode not in modes:
        raise ValueError(f"render_mode must be None or one of {modes}, got {render_mode!r}")
    return render_mode


def emit(render_mode, text: str):
    """What an env's ``render()`` returns for its render mode: the text ("ansi"), or None after
    printing it ("human"), or None with Gymnasium's warning when no mode was chosen."""
    if render_mode is None:
        import gymnasium

        gymnasium.logger.warn("render() called without a render_mode (ansi or human)")
        return None
    if render_mode == "human":
        print(text)
        return None
    return text
