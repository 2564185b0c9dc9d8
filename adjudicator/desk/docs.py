"""The API's documentation page (Swagger UI, served from the package by fastapi-offline),
started by a static script instead of FastAPI's inline one: the desk's CSP allows no
inline script."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import HTMLResponse

from adjudicator.desk import security

router = APIRouter(include_in_schema=False)
ASSETS = "/static-offline-docs"


@router.get("/docs")
async def docs() -> HTMLResponse:
    return HTMLResponse(
        '<!DOCTYPE html><html lang="zh-Hant"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<title>adjudicator 裁判桌 API</title>{security.page_head()}'
        f'<link rel="stylesheet" href="{ASSETS}/swagger-ui.css">'
        f'<link rel="icon" href="{ASSETS}/favicon.png"></head><body>'
        f'<div id="swagger-ui"></div><script src="{ASSETS}/swagger-ui-bundle.js"></script>'
        '<script src="/static/csrf.js"></script><script src="/static/docs.js"></script>'
        '</body></html>')
