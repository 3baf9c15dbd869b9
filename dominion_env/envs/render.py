"""A game as text or as a picture: what the envs' ``render()`` returns.

``render_game`` is the text, by card names, that ``render_mode="ansi"`` returns (and "human"
prints):

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

``render_image`` draws the same table as an (H, W, 3) uint8 array (``IMAGE_SHAPE``): what
``render_mode="rgb_array"`` returns, and what gymnasium's ``RecordVideo`` films. A header bar
(turn, whose turn, phase, Actions/Buys/$), the Supply as tiles (name, cost, cards left, coloured
by type), the trash, one row per seat (hand/deck/discard sizes, VP, turns, cards in play; the
seat whose turn it is marked), the viewer's hand as tiles and its set-aside cards, the pending
decision with its legal actions, and the viewer's last events. It shows exactly what the text
shows from the same ``viewer`` (a test checks that an opponent's hand and anyone's deck order
leave the picture unchanged), except that another seat's pending decision is only named
("waiting for P1"), never its details. Drawn with Pillow (a dependency of matplotlib) in the
DejaVu fonts matplotlib ships: no display, no new dependency. Words are rasterised once and
pasted after (``_text``): about 20 ms a frame on a loaded 2-core machine, 0.4 s for the first.
"""

from __future__ import annotations

import functools
import os

import numpy as np

from ..cards import ACTION, ATTACK, BASIC, COST, CURSE, REACTION, TABLE, TREASURE, TYPES, VICTORY
from ..cards import ID as CARD_ID
from ..engine.layout import TURNS_TAKEN
from ..names import decision_text
from ..names import log_lines as event_lines


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
    who = _viewer(game, viewer)
    if who is not None:
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
        log = game.log(who)[-log_lines:]
        if log:
            lines.append("Last events:")
            lines.extend("  " + x for x in log)
    return "\n".join(lines) + "\n"


def _viewer(game, viewer: int | None) -> int | None:
    """Whose hand a render shows: ``viewer``, else who decides now, else nobody (game over)."""
    who = game.current_player if viewer is None else viewer
    return who if who is not None and who >= 0 else None


IMAGE_SHAPE = (720, 960, 3)  # height, width, RGB: both sides multiples of 16, as video codecs want
_MARGIN = 12
_BG, _INK, _DIM = (246, 243, 236), (33, 33, 33), (120, 120, 120)
_HEAD_BG, _HEAD_INK = (38, 50, 56), (255, 255, 255)
# tile colours by card type, first match wins (Harem drawn as a Treasure, Nobles as a Victory)
_TYPE_COLOURS = (
    (CURSE, (186, 148, 206)),
    (REACTION, (144, 190, 235)),
    (ATTACK, (236, 154, 146)),
    (TREASURE, (240, 206, 102)),
    (VICTORY, (152, 200, 112)),
    (ACTION, (226, 226, 222)),
)
_EMPTY_TILE = (205, 205, 205)
_fonts: dict = {}
# text drawn once as a mask and pasted after: a frame repeats most of the last one's words
# (card names, costs, labels), and rasterising them anew was most of a frame's time
_stamps: dict = {}
_MAX_STAMPS = 4096


def _font(size: int, bold: bool = False):
    """DejaVu Sans from matplotlib's data folder, loaded once per size."""
    key = (size, bold)
    if key not in _fonts:
        import matplotlib
        from PIL import ImageFont

        name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
        path = os.path.join(matplotlib.get_data_path(), "fonts", "ttf", name)
        _fonts[key] = ImageFont.truetype(path, size)
    return _fonts[key]


def _text(img, xy, text: str, size: int, bold: bool = False, fill=_INK, anchor: str = "la"):
    """Draw ``text`` at ``xy`` (Pillow's ``anchor``) from the mask cache."""
    key = (text, size, bold, anchor)
    hit = _stamps.get(key)
    if hit is None:
        from PIL import Image, ImageDraw

        font = _font(size, bold)
        left, top, right, bottom = font.getbbox(text, anchor=anchor)
        mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
        ImageDraw.Draw(mask).text((-left, -top), text, font=font, fill=255, anchor=anchor)
        if len(_stamps) >= _MAX_STAMPS:
            _stamps.clear()
        hit = _stamps[key] = (mask, left, top)
    mask, left, top = hit
    img.paste(fill, (round(xy[0] + left), round(xy[1] + top)), mask)


@functools.lru_cache(maxsize=4096)
def _length(text: str, size: int, bold: bool = False) -> float:
    """The width of ``text`` in pixels (cached: the same words come back every frame)."""
    return _font(size, bold).getlength(text)


def _colour(name: str):
    t = int(TABLE[CARD_ID[name], TYPES])
    for bit, colour in _TYPE_COLOURS:
        if t & bit:
            return colour
    return _TYPE_COLOURS[-1][1]


def _fit(text: str, size: int, width: float, bold: bool = False) -> str:
    """``text`` cut (with an ellipsis) to ``width`` pixels."""
    if _length(text, size, bold) <= width:
        return text
    lo, hi = 0, len(text)
    while lo < hi:  # the longest prefix that fits with the ellipsis
        mid = (lo + hi + 1) // 2
        if _length(text[:mid] + "...", size, bold) <= width:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo] + "..."


def _tile(img, draw, x, y, w, h, name: str, count: int, cost: int | None, empty: bool):
    """One card as a tile: name on top, $cost bottom left, the count large on the right."""
    draw.rounded_rectangle(
        (x, y, x + w, y + h), 5, fill=_EMPTY_TILE if empty else _colour(name), outline=_DIM
    )
    num = str(count)
    nw = _length(num, 18, True)
    _text(img, (x + w - 6 - nw, y + h / 2), num, 18, True, anchor="lm")
    _text(img, (x + 6, y + 4), _fit(name, 13, w - nw - 16), 13)
    if cost is not None:
        _text(img, (x + 6, y + h - 5), f"${cost}", 12, fill=_DIM, anchor="ld")


def _tile_rows(img, draw, y, per_row, h, items, costs: bool):
    """Tiles for ``items`` ((name, count, empty) tuples), ``per_row`` to a row across the
    picture; returns the y below the last row."""
    gap = 6
    w = (IMAGE_SHAPE[1] - 2 * _MARGIN - gap * (per_row - 1)) / per_row
    for i, (name, count, empty) in enumerate(items):
        r, c = divmod(i, per_row)
        cost = int(TABLE[CARD_ID[name], COST]) if costs else None
        x = _MARGIN + c * (w + gap)
        _tile(img, draw, x, y + r * (h + gap), w, h, name, count, cost, empty)
    return y + -(-len(items) // per_row) * (h + gap)


def _last_log(game, who: int | None, n: int) -> list[str]:
    """``game.log(who)[-n:]``, read from the tail of the events only: a long game's whole log
    took longer than the rest of a frame. A tail's first line may be a run cut short, so it is
    kept only when the tail is the whole log."""
    events = game.log_events()
    k = 8 * n
    while True:
        lines = event_lines(events[-k:], who)
        if k >= len(events) or len(lines) > n:
            return lines[-n:]
        k *= 4


def render_image(
    game, viewer: int | None = None, log_lines: int = 8, seat_labels: dict | None = None
) -> np.ndarray:
    """The table as an ``IMAGE_SHAPE`` uint8 RGB array, showing what ``render_game`` shows to
    the same ``viewer`` (see the module docstring)."""
    from PIL import Image, ImageDraw

    H, W, _ = IMAGE_SHAPE
    img = Image.new("RGB", (W, H), _BG)
    d = ImageDraw.Draw(img)
    inner = W - 2 * _MARGIN
    t = game.turn
    P = game.players
    decider = game.current_player
    who = _viewer(game, viewer)

    # header: the turn in progress
    d.rectangle((0, 0, W, 38), fill=_HEAD_BG)
    status = ""
    if game.terminated:
        status = "  |  game over"
    elif game.truncated:
        status = "  |  truncated (turn limit)"
    head = (
        f"Dominion, {P} players  |  turn {t['turn_number']}  |  P{t['player']}'s turn, "
        f"{t['phase']} phase{status}"
    )
    _text(img, (_MARGIN, 19), head, 16, True, _HEAD_INK, "lm")
    counters = f"Actions {t['actions']}   Buys {t['buys']}   ${t['coins']}"
    _text(img, (W - _MARGIN, 19), counters, 16, True, _HEAD_INK, "rm")

    # the Supply: basic piles, then the kingdom by cost (as on the table)
    _text(img, (_MARGIN, 46), "Supply", 14, True)
    supply = game.supply
    basic = [(n, supply[n], supply[n] == 0) for n in BASIC if n in supply]
    kingdom = sorted(
        ((n, k, k == 0) for n, k in supply.items() if n not in BASIC),
        key=lambda it: (int(TABLE[CARD_ID[it[0]], COST]), it[0]),
    )
    y = _tile_rows(img, d, 66, max(len(basic), 7), 40, basic, True)
    y = _tile_rows(img, d, y, 5, 40, kingdom, True)
    _text(img, (_MARGIN, y + 2), _fit("Trash: " + _names(game.trash), 13, inner), 13)
    y += 26

    # one row per seat: public sizes, score, turns taken, cards in play
    scores = game.scores()
    cols = (("seat", 0), ("hand", 190), ("deck", 240), ("discard", 290), ("VP", 360))
    cols += (("turns", 400), ("in play", 460))
    for name, x in cols:
        _text(img, (_MARGIN + x, y), name, 14, True, _DIM)
    y += 22
    for p in range(P):
        z = game.zones(p)
        if p == t["player"] and not game.done:
            d.rectangle((_MARGIN - 4, y - 2, W - _MARGIN + 4, y + 18), fill=(255, 236, 179))
        seat = f"P{p}" + (" (deciding)" if p == decider else "")
        if seat_labels and p in seat_labels:
            seat += f" {seat_labels[p]}"
        turns = int(game.state["player"][0, p, TURNS_TAKEN])
        cells = (
            _fit(seat, 13, 185),
            sum(z["hand"].values()),
            len(z["deck"]),
            sum(z["discard"].values()),
            scores[p],
            turns,
            _fit(_names(z["in_play"]), 13, inner - 460),
        )
        for (_, x), v in zip(cols, cells, strict=True):
            _text(img, (_MARGIN + x, y), str(v), 13)
        y += 22

    # the viewer's hand (and what it has set aside or revealed)
    y += 6
    if who is not None:
        z = game.zones(who)
        _text(img, (_MARGIN, y), f"P{who}'s hand", 14, True)
        y += 20
        hand = [(n, k, False) for n, k in z["hand"].items()]
        if hand:
            y = _tile_rows(img, d, y, 9, 34, hand, False)
        else:
            _text(img, (_MARGIN, y), "(empty)", 13, fill=_DIM)
            y += 20
        if z["aside"]:
            _text(
                img,
                (_MARGIN, y),
                _fit(f"set aside / revealed: {_names(z['aside'])}", 13, inner),
                13,
            )
            y += 20

    # the pending decision, or the result
    y += 4
    if decider < 0:
        rewards = game.rewards
        result = "Result: " + ", ".join(f"P{p} {r:+.0f}" for p, r in enumerate(rewards))
        _text(img, (_MARGIN, y), result, 14, True)
        y += 24
    elif who is None or decider == who:
        text = f"Decision: P{decider} {decision_text(game.decision)}"
        _text(img, (_MARGIN, y), _fit(text, 14, inner, True), 14, True)
        legal = "Legal: " + ", ".join(game.legal_actions())
        _text(img, (_MARGIN, y + 20), _fit(legal, 13, inner), 13)
        y += 44
    else:
        _text(img, (_MARGIN, y), f"Waiting for P{decider}", 14, True)
        y += 24

    # the last events the viewer may know, as many as fit
    step = 17
    room = max(0, (H - _MARGIN - y - 20) // step)
    if log_lines and room:
        log = _last_log(game, who, min(log_lines, room))
        if log:
            _text(img, (_MARGIN, y), "Last events", 14, True, _DIM)
            y += 20
            for line in log:
                _text(img, (_MARGIN + 8, y), _fit(line, 13, inner - 8), 13)
                y += step
    return np.asarray(img, dtype=np.uint8)


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

        gymnasium.logger.warn("render() called without a render_mode (ansi, human or rgb_array)")
        return None
    if render_mode == "human":
        print(text)
        return None
    return text
