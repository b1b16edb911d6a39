"""The FastAPI app of the sandbox."""

from __future__ import annotations

from fastapi import FastAPI

from bot.sandbox import account_routes, article_routes, auth_routes, catalog_routes
from bot.sandbox.errors import install_error_handlers
from bot.sandbox.middleware import FaultMiddleware, RequestLogMiddleware
from bot.sandbox.state import SandboxState

__all__ = ["DOCS_PATH", "create_app"]

DOCS_PATH = "/docs"


def create_app(state: SandboxState | None = None) -> FastAPI:
    """An app serving the article service's interface from `state` (a fresh one if None)."""
    state = state or SandboxState()
    # The interactive API page lets a newcomer try the service from a browser.
    app = FastAPI(title="Makale sandbox", docs_url=DOCS_PATH, redoc_url=None)
    app.state.sandbox = state
    install_error_handlers(app)
    for module in (auth_routes, account_routes, catalog_routes, article_routes):
        app.include_router(module.router)
    app.add_middleware(FaultMiddleware, faults=state.faults)
    # Added last, so outermost: it sees injected failures too.
    app.add_middleware(RequestLogMiddleware, log=state.request_log)
    return app
