"""The local web app (FastAPI): pages, a JSON API, SVG board views."""
