"""Named bots. Each says whose definition it follows."""

from __future__ import annotations

from .strategy import Bot

_LIST = [
    Bot("Random", random=True, source="uniform over the legal actions at every decision"),
    Bot("Big Money", ["Province", "Gold", "Silver"],
        source="the canonical Big Money: Province at $8+, Gold at $6-7, Silver at $3-5"),
    Bot("Big Money Ultimate", [
        ("Province", "money > 18"),
        ("Duchy", "pile Province <= 4"),
        ("Estate", "pile Province <= 2"),
        "Gold",
        ("Duchy", "pile Province <= 6"),
        "Silver",
    ], source="Dominiate's BigMoney Ultimate (BMU)"),
    Bot("Smithy", [
        ("Province", "money > 15"),
        ("Duchy", "pile Province <= 4"),
        ("Estate", "pile Province <= 2"),
        "Gold",
        ("Duchy", "pile Province <= 6"),
        ("Smithy", "count Smithy < 1"),
        ("Smithy", "count Smithy < 2", "cards >= 16"),
        "Silver",
    ], source="Dominiate's Smithy Big Money: BMU plus a Smithy once the deck can carry it"),
]

BOTS: dict[str, Bot] = {b.name: b for b in _LIST}


def get_bot(name: str) -> Bot:
    try:
        return BOTS[name]
    except KeyError:
        raise ValueError(f"unknown bot {name!r}; known bots: {', '.join(BOTS)}") from None
