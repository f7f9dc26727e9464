"""``vedette RULESET scenarios``: the bundled scenarios and the player's own (issue 30)."""

from __future__ import annotations

from typing import Any

import click

from vedette.cli.common import out, shell
from vedette.errors import BadRequest


def scenarios_command(
    rs: Any,
    import_file: str | None,
    name: str | None,
    replace: bool,
    export_name: str | None,
    delete_name: str | None,
    as_json: bool,
) -> None:
    # start-up: the command line loads this only for a command that needs it
    from vedette.data import read_text_file
    from vedette.engine import scenarios as user

    asked = [x for x in (import_file, export_name, delete_name) if x is not None]
    if len(asked) > 1:
        raise BadRequest("give one of --import, --export and --delete")
    if name is not None and import_file is None:
        raise BadRequest("--name goes with --import FILE")
    with shell().store() as st:
        if import_file is not None:
            if not name:
                raise BadRequest("--import FILE needs --name NAME (the name to keep it under)")
            s = user.import_text(st, rs, name, read_text_file(import_file), replace)
            out(
                as_json,
                f"kept {rs.name} scenario {s.name!r} ({s.title}); start a game from it with"
                f" `vedette {rs.name} new --scenario {s.name}`",
                s.info(),
            )
            return
        if export_name is not None:
            toml = user.export(st, rs, export_name)
            if as_json:
                out(True, "", {"name": export_name, "toml": toml})
            else:
                click.echo(toml, nl=False)
            return
        if delete_name is not None:
            user.delete(st, rs, delete_name)
            out(
                as_json, f"forgot your {rs.name} scenario {delete_name!r}", {"deleted": delete_name}
            )
            return
        infos = user.infos(st, rs)
    width = max((len(i["name"]) for i in infos), default=0)
    text: list[str] = []
    for i in infos:
        mark = "  (yours)" if i.get("yours") else ""
        text.append(f"{i['name']:<{width}}  {i['title']}{mark}")
        if i["description"]:
            text.append(f"{'':<{width}}    {i['description']}")
    out(as_json, text, infos)
