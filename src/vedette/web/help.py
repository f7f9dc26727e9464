"""Help in the app: per ruleset, its procedures (each one's help, rule and fields, from the
request specs) and its players' page (``Ruleset.help_page``: ``help.md`` in the ruleset's data;
the developers' notes are docs/rules/<name>.md), and its tables on one printable page.

The Markdown is rendered with raw HTML off (every ``<`` in it is escaped) and links limited to
http(s) and relative ones: nothing in a document can run in the page."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from vedette import rules
from vedette.rules.quickref import sheet

router = APIRouter()


def markdown_html(text: str) -> str:
    """CommonMark with tables, raw HTML disabled (escaped), unsafe link schemes refused."""
    from markdown_it import MarkdownIt

    md = MarkdownIt("commonmark", {"html": False, "linkify": False}).enable("table")
    return str(md.render(text))


def doc_text(ruleset: str) -> str:
    """The players' page on a ruleset (``Ruleset.help_page``)."""
    return rules.get(ruleset).help_page()


def procedures(rs: Any) -> list[dict[str, Any]]:
    out = []
    for p in rs.protocol_procedures().values():
        out.append(
            {
                "name": p.name,
                "help": p.help,
                "rule": p.rule,
                "query": p.query,
                "fields": [
                    {
                        "name": x.name,
                        "describe": x.describe(),
                        "help": x.help,
                        "required": x.required,
                    }
                    for x in sorted(p.params, key=lambda x: not x.required)
                ],
            }
        )
    return out


def tables(rs: Any) -> list[dict[str, Any]]:
    out = []
    for name, t in rs.tables().items():
        out.append(
            {
                "name": name,
                "title": t.title or name,
                "rule": t.rule,
                "dice": t.dice,
                "rows": [{"range": r.range_text, "result": r.result} for r in t.rows],
            }
        )
    return out


@router.get("/help", response_class=HTMLResponse)
def help_index(request: Request) -> HTMLResponse:
    found = [{"name": n, "title": rules.get(n).title or n} for n in rules.names()]
    return _page(request, "help_index.html", rulesets=found)


@router.get("/help/{ruleset}", response_class=HTMLResponse)
def help_page(request: Request, ruleset: str) -> HTMLResponse:
    rs = _unknown_404(ruleset)
    return _page(
        request,
        "help.html",
        ruleset=rs.name,
        title=rs.title or rs.name,
        procedures=procedures(rs),
        notes=markdown_html(doc_text(rs.name)),
    )


@router.get("/help/{ruleset}/tables", response_class=HTMLResponse)
def tables_page(request: Request, ruleset: str) -> HTMLResponse:
    """The quick-reference sheet: the result tables, then every number of the rule data
    (``rules.quickref``), one printable page."""
    rs = _unknown_404(ruleset)
    return _page(
        request,
        "tables.html",
        ruleset=rs.name,
        title=rs.title or rs.name,
        tables=tables(rs),
        sections=sheet(rs),
    )


def _unknown_404(name: str) -> Any:
    from starlette.exceptions import HTTPException

    if name not in rules.names():
        try:
            return rules.get(name)  # an alias (nab, asl) is the same ruleset
        except Exception:
            raise HTTPException(404, f"no ruleset named {name!r}") from None
    return rules.get(name)


def _page(request: Request, name: str, **ctx: Any) -> HTMLResponse:
    app = request.app
    return app.state.templates.TemplateResponse(  # type: ignore[no-any-return]
        request, name, {"csrf": app.state.csrf, **ctx}
    )
