"""The real WordPress fixture answers as WordPress does, in each of its modes.

These pin the bodies the bot's diagnosis reads (the JSON ``code``s, the REST index's
``authentication``) and the fake WordPress of the fast tiers must give the same.
"""

from __future__ import annotations

import xmlrpc.client
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.real_wordpress import RealWordPress

pytestmark = pytest.mark.slow

ME = "/wp-json/wp/v2/users/me"
EDIT = {"context": "edit"}


@pytest.fixture
def client(real_wordpress: RealWordPress) -> Iterator[httpx.Client]:
    """A plain HTTP client on the site, signed in as nobody."""
    with httpx.Client(base_url=real_wordpress.base_url, timeout=10) as http:
        yield http


def editor(site: RealWordPress) -> tuple[str, str]:
    """The editor's Basic credentials."""
    return site.username, site.app_password


def users_blogs(client: httpx.Client, username: str, password: str) -> Any:
    """XML-RPC's wp.getUsersBlogs, which takes the application password from the body."""
    body = xmlrpc.client.dumps((username, password), "wp.getUsersBlogs")
    answer = client.post("/xmlrpc.php", content=body, headers={"Content-Type": "text/xml"})
    return xmlrpc.client.loads(answer.content)[0][0]


def error_code(answer: httpx.Response) -> tuple[int, str]:
    """The status and WordPress's error ``code`` of a REST answer."""
    return answer.status_code, answer.json()["code"]


def test_the_editor_signs_in_with_the_application_password(
    real_wordpress: RealWordPress, client: httpx.Client
) -> None:
    me = client.get(ME, params=EDIT, auth=editor(real_wordpress))

    assert me.status_code == 200
    assert me.json()["username"] == real_wordpress.username
    assert me.json()["roles"] == ["editor"]
    assert real_wordpress.base_url.startswith("http://127.0.0.1:")
    assert len(real_wordpress.app_password.split(" ")) == 6


def test_a_wrong_password_or_username_is_401_rest_not_logged_in(
    real_wordpress: RealWordPress, client: httpx.Client
) -> None:
    wrong_password = client.get(
        ME, params=EDIT, auth=(real_wordpress.username, "abcd " * 5 + "efgh")
    )
    wrong_user = client.get(ME, params=EDIT, auth=("Makale Bot", real_wordpress.app_password))

    assert error_code(wrong_password) == (401, "rest_not_logged_in")
    assert error_code(wrong_user) == (401, "rest_not_logged_in")


def test_where_a_plugin_reads_the_user_early_the_codes_name_the_wrong_part(
    real_wordpress: RealWordPress, client: httpx.Client
) -> None:
    with real_wordpress.mode("early_user"):
        wrong_password = client.get(ME, auth=(real_wordpress.username, "abcd " * 5 + "efgh"))
        wrong_user = client.get(ME, auth=("Makale Bot", real_wordpress.app_password))
        right = client.get(ME, auth=editor(real_wordpress))

    assert error_code(wrong_password) == (401, "incorrect_password")
    assert error_code(wrong_user) == (401, "invalid_username")
    assert right.status_code == 200


def test_a_revoked_application_password_is_refused_and_a_new_one_works(
    real_wordpress: RealWordPress, client: httpx.Client
) -> None:
    fresh = real_wordpress.new_app_password()
    old = real_wordpress.app_password
    assert client.get(ME, auth=(real_wordpress.username, fresh)).status_code == 200

    real_wordpress.revoke_app_passwords()

    for revoked in (fresh, old):
        answer = client.get(ME, auth=(real_wordpress.username, revoked))
        assert error_code(answer) == (401, "rest_not_logged_in")
    # The fixture's own password is replaced, so the tests after this one still sign in.
    assert real_wordpress.app_password != old
    assert client.get(ME, auth=editor(real_wordpress)).status_code == 200


def test_a_stripped_authorization_header_is_401_but_xml_rpc_still_signs_in(
    real_wordpress: RealWordPress, client: httpx.Client
) -> None:
    with real_wordpress.mode("strip_authorization"):
        me = client.get(ME, params=EDIT, auth=editor(real_wordpress))
        blogs = users_blogs(client, *editor(real_wordpress))
        with pytest.raises(xmlrpc.client.Fault) as refused:
            users_blogs(client, real_wordpress.username, "wrong password")

    assert error_code(me) == (401, "rest_not_logged_in")
    assert blogs[0]["url"].rstrip("/") == real_wordpress.base_url
    assert refused.value.faultCode == 403
    assert client.get(ME, auth=editor(real_wordpress)).status_code == 200


def test_a_security_plugin_answers_401_rest_authentication_error_by_either_address(
    real_wordpress: RealWordPress, client: httpx.Client
) -> None:
    with real_wordpress.mode("block_rest"):
        me = client.get(ME, auth=editor(real_wordpress))
        by_route = client.get("/", params={"rest_route": "/wp/v2/users/me"})
        index = client.get("/wp-json/")

    assert error_code(me) == (401, "rest_authentication_error")
    assert error_code(by_route) == (401, "rest_authentication_error")
    assert error_code(index) == (401, "rest_authentication_error")


def test_a_firewall_answers_403_with_its_own_page(
    real_wordpress: RealWordPress, client: httpx.Client
) -> None:
    with real_wordpress.mode("firewall_rest"):
        me = client.get(ME, auth=editor(real_wordpress))
        by_route = client.get("/", params={"rest_route": "/wp/v2/users/me"})

    for answer in (me, by_route):
        assert answer.status_code == 403
        assert answer.headers["content-type"].startswith("text/html")


def test_application_passwords_switched_off_is_401_and_the_index_lists_no_authentication(
    real_wordpress: RealWordPress, client: httpx.Client
) -> None:
    assert "application-passwords" in client.get("/wp-json/").json()["authentication"]

    with real_wordpress.mode("no_app_passwords"):
        me = client.get(ME, params=EDIT, auth=editor(real_wordpress))
        index = client.get("/wp-json/")
        # Unlike a stripped header: XML-RPC refuses the application password too.
        with pytest.raises(xmlrpc.client.Fault) as refused:
            users_blogs(client, *editor(real_wordpress))

    assert error_code(me) == (401, "rest_not_logged_in")
    assert index.status_code == 200
    assert index.json()["authentication"] == []
    assert refused.value.faultCode == 403


def test_with_plain_links_wp_json_is_404_and_rest_route_works(
    real_wordpress: RealWordPress, client: httpx.Client
) -> None:
    with real_wordpress.mode("plain_links"):
        pretty = client.get(ME, auth=editor(real_wordpress))
        plain = client.get(
            "/", params={"rest_route": "/wp/v2/users/me", **EDIT}, auth=editor(real_wordpress)
        )

    assert pretty.status_code == 404
    assert plain.status_code == 200
    assert plain.json()["username"] == real_wordpress.username
    # WordPress itself has pretty links off: its own links are the plain ones.
    assert "/?author=" in plain.json()["link"]
    assert client.get(ME, auth=editor(real_wordpress)).status_code == 200


def test_an_unknown_mode_is_refused(real_wordpress: RealWordPress) -> None:
    with pytest.raises(ValueError, match="unknown WordPress mode"), real_wordpress.mode("x"):
        pass


def test_a_draft_and_a_scheduled_post_are_read_back_as_stored(
    real_wordpress: RealWordPress, client: httpx.Client
) -> None:
    content = (
        "<!-- wp:paragraph -->\n"
        '<p>Yapay zekâ ile <a href="https://ornek.com">içerik</a></p>\n'
        "<!-- /wp:paragraph -->"
    )
    draft = client.post(
        "/wp-json/wp/v2/posts",
        auth=editor(real_wordpress),
        json={"title": "Yapay zekâ", "slug": "yapay-zeka", "content": content, "status": "draft"},
    )
    future = client.post(
        "/wp-json/wp/v2/posts",
        auth=editor(real_wordpress),
        json={"title": "Plan", "status": "future", "date_gmt": "2035-01-02T03:04:05"},
    )

    assert draft.status_code == 201, draft.text
    stored = real_wordpress.post(draft.json()["id"])
    assert stored["title"]["raw"] == "Yapay zekâ"
    assert stored["status"] == "draft"
    assert stored["slug"] == "yapay-zeka"
    assert stored["content"]["raw"] == content
    scheduled = real_wordpress.post(future.json()["id"])
    assert (scheduled["status"], scheduled["date_gmt"]) == ("future", "2035-01-02T03:04:05")
    assert scheduled["date"] == "2035-01-02T06:04:05"  # the site's zone is Istanbul's
    assert {draft.json()["id"], future.json()["id"]} <= {
        post["id"] for post in real_wordpress.posts()
    }
    with pytest.raises(LookupError):
        real_wordpress.post(999_999)
