"""What ``train`` and ``selfplay`` share: a run's folder (--out) started, resumed or refused,
its device checked, and SIGTERM stopping it as Ctrl-C does (the run is saved first).

``--resume`` continues the run saved in --out with that run's settings: a setting given
explicitly that differs from the saved one is refused, naming both values. A new run in a
folder that already holds one is refused unless ``--overwrite`` (a finished run is hours of
work: it is never replaced silently).
"""

from __future__ import annotations

import contextlib
import signal
from pathlib import Path

from ..arguments import writable_dir
from ..checks import AGENT_SUFFIXES

# what a finished or interrupted run leaves in --out (``Trainer.save``, ``selfplay``)
RUN_FILES = tuple(
    f"{stem}{suffix}" for stem in ("agent", "checkpoint") for suffix in AGENT_SUFFIXES
)


def saved_settings(args, saved_config, given: dict, same=None, option=None) -> dict:
    """The settings of the run saved in --out (``saved_config(out)``); a setting ``given``
    explicitly that is not the saved one (``same(field, saved, given)``, default ==) ends the
    command naming its option (``option(field)``, default --field)."""
    try:
        saved = saved_config(Path(args.out))
    except ValueError as e:
        args.parser.error(f"argument --resume: {e}")
    for field, value in given.items():
        if not (same(field, saved[field], value) if same else saved[field] == value):
            name = option(field) if option else field
            args.parser.error(
                f"argument --{name.replace('_', '-')}: the run in {args.out} was trained with "
                f"{field}={saved[field]!r}, given {value!r}; --resume continues a run "
                "with its own settings (drop the option, or train a new run in another --out)"
            )
    return saved


def check_new_folder(args) -> None:
    """--out may take a new run: not a file, and holding no run unless --overwrite."""
    out = Path(args.out)
    if out.is_file():
        args.parser.error(f"argument --out: {args.out!r} is a file, not a folder")
    held = [f for f in RUN_FILES if (out / f).exists()]
    if held and not args.overwrite:
        args.parser.error(
            f"argument --out: {args.out!r} already holds a run ({', '.join(held)}); "
            "continue it with --resume, train in another --out, or pass --overwrite"
        )


def check_place(args, device: str, check_device) -> None:
    """The run's device (``check_device``) and --out, which must take the run's files."""
    try:
        check_device(device)
    except ValueError as e:
        args.parser.error(f"argument --device: {e}")
    why = writable_dir(Path(args.out))
    if why:
        args.parser.error(f"argument --out: {args.out!r} cannot take the run: {why}")


@contextlib.contextmanager
def terminate_as_interrupt(stopped: list):
    """SIGTERM (a job scheduler's or ``kill``'s stop) saves the run as Ctrl-C does: the
    handler raises KeyboardInterrupt and notes it in ``stopped``; the old handler comes back
    after. A shell starts background jobs with SIGINT ignored, so SIGTERM is how they stop."""

    def handler(signum, frame):
        stopped.append(signum)
        raise KeyboardInterrupt

    old = signal.signal(signal.SIGTERM, handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, old)


def stopped_status(stopped: list) -> int:
    """The exit status of a run stopped by SIGTERM (143) or Ctrl-C (130)."""
    return 128 + (signal.SIGTERM if stopped else signal.SIGINT)
