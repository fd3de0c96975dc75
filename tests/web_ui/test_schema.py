"""Property tests against the OpenAPI schema (schemathesis): no request, anonymous or from the
logged-in arbiter, gets a server error."""

from __future__ import annotations

from typing import Any

import pytest
import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, settings
from schemathesis.specs.openapi.checks import status_code_conformance

from controller.records.tablelog import action_of
from tests.web_ui.conftest import login, make_app
from tests.web_ui.test_app import LOG
from web_ui.local import LocalTable
from web_ui.security import arbiter_cookie


def _table() -> LocalTable:
    table = LocalTable()
    for obj in LOG:
        table.feed(action_of(obj))
    return table


TABLE = _table()
APP, _ = make_app(TABLE)
COOKIE = arbiter_cookie(None)
schema = schemathesis.openapi.from_asgi("/openapi.json", APP)

with TestClient(APP) as _client:
    _csrf = login(_client)
    ARBITER_HEADERS: dict[str, Any] = {"X-CSRF-Token": _csrf,
                                       "Cookie": f"{COOKIE}={_client.cookies[COOKIE]}"}


def test_the_schema_documents_the_contract() -> None:
    paths = APP.openapi()["paths"]
    for path in ("/api/table", "/api/spectator", "/api/records.pbn", "/api/records.lin", "/api/arbiter/login",
                 "/api/arbiter/logout", "/api/arbiter/state", "/api/arbiter/rulings", "/api/arbiter/actions",
                 "/api/arbiter/claimhelp", "/api/arbiter/records.{fmt}"):
        assert path in paths, path
    body = APP.openapi()["components"]["schemas"]["RulingBody"]
    assert {"id", "option", "suit", "card", "tricks"} <= set(body["properties"])


@schema.parametrize()
@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
def test_anonymous_requests_never_get_a_server_error(case: schemathesis.Case) -> None:
    if case.path == "/api/arbiter/logout":
        pytest.skip("logout would end the shared arbiter session")
    response = case.call()
    assert response.status_code < 500, response.text
    status_code_conformance(None, response, case)  # type: ignore[arg-type]


@schema.parametrize()
@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
def test_the_arbiters_requests_never_get_a_server_error(case: schemathesis.Case) -> None:
    if case.path == "/api/arbiter/logout":
        pytest.skip("logout would end the shared arbiter session")
    response = case.call(headers=ARBITER_HEADERS)
    assert response.status_code < 500, response.text
    if case.path == "/api/arbiter/state" and case.method.upper() == "GET":
        assert response.status_code == 200  # the session is really the arbiter's
