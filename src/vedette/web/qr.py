"""The address a phone opens, as a QR code (issue 26: a phone beside the table reaches the
server on the player's computer over the LAN): printed in the terminal by ``vedette serve`` in
LAN mode, and shown on the index page. segno draws it (pure Python)."""

from __future__ import annotations

import base64
import io


def terminal(url: str, encoding: str = "utf-8") -> str:
    """The QR code of ``url`` in block characters (two rows a line), dark on light; on a
    terminal whose ``encoding`` has no block characters, in ANSI colours (spaces)."""
    import segno  # start-up time: only a LAN server draws one

    qr = segno.make(url, error="m")
    out = io.StringIO()
    qr.terminal(out=out, compact=True, border=2)
    try:
        out.getvalue().encode(encoding)
    except (UnicodeEncodeError, LookupError):
        out = io.StringIO()
        qr.terminal(out=out, compact=False, border=2)
    return out.getvalue()


def data_uri(url: str) -> str:
    """The QR code of ``url`` as an SVG ``data:`` URI (an ``<img>`` source: no markup of ours
    is built from it)."""
    import segno  # start-up time

    out = io.BytesIO()
    segno.make(url, error="m").save(out, kind="svg", scale=5, border=2, xmldecl=False)
    return "data:image/svg+xml;base64," + base64.b64encode(out.getvalue()).decode("ascii")
