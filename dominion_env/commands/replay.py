"""``dominion replay``: a game record replayed and checked decision by decision, shown in the
terminal or written as one HTML page to step through (``analysis.replay``)."""

from __future__ import annotations

from .. import records
from ..analysis import replay
from ..arguments import int_in
from ..cards import MAX_PLAYERS


def add_parser(sub) -> None:
    rep = sub.add_parser(
        "replay",
        help="show a game record: in the terminal, or as an HTML page (--html)",
        description="Replay a game record (dominion_env/records.py), checking every decision: "
        "print it, or write one self-contained HTML page to step through it "
        "(dominion_env/analysis/replay.py).",
    )
    rep.add_argument("record", help="a game record (.json)")
    rep.add_argument("--html", metavar="OUT.html", help="write the viewer page here")
    rep.add_argument(
        "--viewer",
        type=int_in(0, MAX_PLAYERS - 1),
        default=None,
        help="terminal: show only what this seat may know (default: everything)",
    )
    rep.add_argument(
        "--any-version",
        action="store_true",
        help="replay a record from another engine version anyway",
    )
    rep.set_defaults(run=run, parser=rep)


def run(args) -> int:
    check = not args.any_version
    try:
        rec = records.load(args.record, check_version=check)
        if args.html:
            print(f"wrote {replay.write_html(rec, args.html, check_version=check)}")
        else:
            print(replay.text(rec, args.viewer, check_version=check), end="")
    except (records.RecordError, ValueError, OSError) as e:
        args.parser.error(str(e))
    return 0
