"""``dominion serve``: play and watch Dominion in the browser (the ``web`` extra).

    pip install 'dominion-env[web]'
    dominion serve                     # then open http://127.0.0.1:8000/

``games.py`` holds the games (a ``Game`` and who sits where, bounded, records saved);
``app.py`` is the Starlette app over it and ``serve``; ``static/`` is the page.
"""

from .app import create_app, serve
from .games import Table, Tables, WebError

__all__ = ["Table", "Tables", "WebError", "create_app", "serve"]
