"""A real WordPress for the slow tier: Debian's package on PHP's built-in server, its own MariaDB.

The ``real_wordpress`` fixture starts, once per session, a private MariaDB (its own datadir and
socket in a temporary folder, never the system's server), installs WordPress into it with
php-cli, and serves it on a free loopback port with pretty permalinks, the zone
Europe/Istanbul (so a post's ``date`` is not its ``date_gmt``), an editor user and an
application password. ``mode()`` turns on, with a must-use plugin, one of the failures people
meet on real sites. Everything is stopped and removed at the end of the session.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.ports import free_port

__all__ = ["MODES", "RealWordPress", "real_wordpress", "running_wordpress"]

# The packaged WordPress (Debian's `wordpress`); the site's folder links to its files.
_WORDPRESS = Path("/usr/share/wordpress")
_HERE = Path(__file__).parent / "wordpress_site"
_SBIN = os.pathsep.join((os.environ.get("PATH", ""), "/usr/sbin", "/sbin"))
_START_TIMEOUT = 30.0

_CREATE_DATABASE = "CREATE DATABASE wordpress"

# What mode() can turn on; each but "normal" is a must-use plugin in wordpress_site/modes.
MODES = (
    "normal",
    "strip_authorization",  # the host drops the Authorization header (Apache CGI / FastCGI)
    "block_rest",  # a security plugin: 401 rest_authentication_error on every REST request
    "firewall_rest",  # a firewall's own 403 HTML page on /wp-json/ and ?rest_route=
    "no_app_passwords",  # application passwords switched off (Wordfence's default)
    "plain_links",  # pretty permalinks off: /wp-json/ is 404, ?rest_route= works
    "early_user",  # a plugin reads the user early: invalid_username / incorrect_password
)

# Small and unsafe on a crash, which a throwaway test database can afford: start-up in a second.
_MARIADB_OPTIONS = (
    "--no-defaults",
    "--skip-log-bin",
    "--skip-name-resolve",
    "--innodb-log-file-size=4M",
    "--innodb-buffer-pool-size=16M",
    "--innodb-flush-log-at-trx-commit=0",
    "--innodb-doublewrite=0",
)


class RealWordPress:
    """A running WordPress site and the fixture's hands inside it."""

    def __init__(
        self, base_url: str, installed: dict[str, str], mu_plugins: Path, env: dict[str, str]
    ) -> None:
        self.base_url = base_url
        self.username = installed["username"]
        self.app_password = installed["app_password"]
        self._mu_plugins = mu_plugins
        self._env = env

    @contextlib.contextmanager
    def mode(self, name: str) -> Iterator[None]:
        """Run the block with the site in ``name`` (one of ``MODES``); back to normal after it."""
        if name not in MODES:
            raise ValueError(f"unknown WordPress mode {name!r}; one of {MODES}")
        self._switch(name)
        try:
            yield
        finally:
            self._switch("normal")

    def new_app_password(self) -> str:
        """A fresh application password of the editor, in WordPress's "abcd efgh ..." form."""
        password: str = self._php("new-app-password")
        return password

    def revoke_app_passwords(self) -> None:
        """Revoke every application password of the editor, as the Users screen does.

        Every password handed out so far stops working; ``app_password`` becomes a fresh one,
        so that the tests after this one, sharing the site, still sign in.
        """
        self._php("revoke-app-passwords")
        self.app_password = self.new_app_password()

    def post(self, post_id: int) -> dict[str, Any]:
        """The post as stored: its REST body with ``context=edit`` (``["title"]["raw"]``)."""
        answer = self._php("post", str(post_id))
        if answer["status"] != 200:
            raise LookupError(f"no post {post_id} on the site: {answer['data']}")
        post: dict[str, Any] = answer["data"]
        return post

    def posts(self) -> list[dict[str, Any]]:
        """Every post of any status (up to 100), newest first, as ``post`` gives one."""
        posts: list[dict[str, Any]] = self._php("posts")["data"]
        return posts

    def _switch(self, name: str) -> None:
        """Leave in the must-use plugins folder only the plugin of mode ``name``."""
        for plugin in self._mu_plugins.glob("*.php"):
            plugin.unlink()
        if name != "normal":
            shutil.copyfile(_HERE / "modes" / f"{name}.php", self._mu_plugins / f"{name}.php")

    def _php(self, *args: str) -> Any:
        """Run a command of the site's php-cli script."""
        return _site_php(self._env, *args)


def _site_php(env: dict[str, str], *args: str) -> Any:
    """Run a command of the site's php-cli script and return what it prints, as JSON."""
    done = subprocess.run(
        ["php", "-d", "display_errors=stderr", str(_HERE / "site.php"), *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=_START_TIMEOUT,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"site.php {' '.join(args)} failed: {done.stderr.strip()}")
    return json.loads(done.stdout)


def _missing_packages() -> list[str]:
    """The Debian packages a real WordPress needs that are not installed here."""
    php = shutil.which("php")
    checks: dict[str, Callable[[], bool]] = {
        "wordpress": (_WORDPRESS / "wp-settings.php").is_file,
        "php-cli": lambda: php is not None,
        "php-mysql": lambda: php is not None and _php_has("mysqli", php),
        "php-xml": lambda: php is not None and _php_has("xml", php),
        "mariadb-server": lambda: all(
            shutil.which(tool, path=_SBIN) for tool in ("mariadbd", "mariadb-install-db")
        ),
    }
    return [package for package, installed in checks.items() if not installed()]


def _php_has(extension: str, php: str) -> bool:
    """Whether php-cli loads ``extension`` (mysqli: WordPress's database; xml: its XML-RPC)."""
    modules = subprocess.run([php, "-m"], capture_output=True, text=True, check=False).stdout
    return extension in modules.split()


def _wait_for(ready: Callable[[], bool], process: subprocess.Popen[bytes], log: Path) -> None:
    """Poll ``ready`` until true; fail at once, with its log, if ``process`` has died."""
    deadline = time.monotonic() + _START_TIMEOUT
    while not ready():
        if process.poll() is not None or time.monotonic() > deadline:
            tail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
            raise RuntimeError(f"{log.stem} did not start (exit {process.poll()}):\n{tail}")
        time.sleep(0.02)


def _connects(address: str | tuple[str, int], family: socket.AddressFamily) -> bool:
    """Whether something accepts connections at ``address``."""
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        try:
            probe.connect(address)
        except OSError:
            return False
        return True


def _stop(process: subprocess.Popen[bytes]) -> None:
    """Stop ``process`` and its children (PHP's server forks workers), killing if it lingers."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)


@contextlib.contextmanager
def _started(
    command: list[str], log: Path, env: dict[str, str] | None = None
) -> Iterator[subprocess.Popen[bytes]]:
    """Run ``command`` in a process group of its own, its output to ``log``; stop it after."""
    with log.open("ab") as output:
        process = subprocess.Popen(
            command, stdout=output, stderr=subprocess.STDOUT, env=env, start_new_session=True
        )
    try:
        yield process
    finally:
        _stop(process)


def _as_root() -> list[str]:
    """MariaDB refuses to run as root unless told to."""
    return ["--user=root"] if os.geteuid() == 0 else []


@contextlib.contextmanager
def _mariadb(folder: Path) -> Iterator[Path]:
    """A private MariaDB with an empty ``wordpress`` database; yields its socket."""
    datadir, sock, log = folder / "mysql", folder / "mysql.sock", folder / "mysql.log"
    install = shutil.which("mariadb-install-db", path=_SBIN) or "mariadb-install-db"
    server = shutil.which("mariadbd", path=_SBIN) or "mariadbd"
    root_login = ("--auth-root-authentication-method=normal", "--skip-test-db")
    subprocess.run(
        [install, *_MARIADB_OPTIONS, f"--datadir={datadir}", *_as_root(), *root_login],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        check=True,
        timeout=_START_TIMEOUT,
    )
    command = [server, *_MARIADB_OPTIONS, f"--datadir={datadir}", f"--socket={sock}"]
    command += ["--skip-networking", f"--pid-file={folder / 'mysql.pid'}", f"--log-error={log}"]
    with _started(command + _as_root(), log) as process:
        _wait_for(lambda: _connects(str(sock), socket.AF_UNIX), process, log)
        subprocess.run(
            ["mariadb", "--no-defaults", f"--socket={sock}", "-uroot", "-e", _CREATE_DATABASE],
            check=True,
            timeout=_START_TIMEOUT,
        )
        yield sock


def _site_folder(folder: Path) -> tuple[Path, Path]:
    """The site's document root: links to the packaged files, our wp-config.php and content."""
    root, mu_plugins = folder / "site", folder / "site" / "wp-content" / "mu-plugins"
    mu_plugins.mkdir(parents=True)
    for entry in _WORDPRESS.iterdir():
        if entry.name not in {"wp-config.php", "wp-content", ".htaccess"}:
            (root / entry.name).symlink_to(entry)
    (root / "wp-config.php").symlink_to(_HERE / "wp-config.php")
    for shared in ("plugins", "themes"):
        (root / "wp-content" / shared).symlink_to(_WORDPRESS / "wp-content" / shared)
    return root, mu_plugins


@contextlib.contextmanager
def running_wordpress() -> Iterator[RealWordPress]:
    """Start a WordPress site with its database; stop both and remove their files after."""
    with contextlib.ExitStack() as stack:
        folder = Path(tempfile.mkdtemp(prefix="wordpress-"))
        stack.callback(shutil.rmtree, folder, ignore_errors=True)
        sock = stack.enter_context(_mariadb(folder))
        root, mu_plugins = _site_folder(folder)
        port = free_port()
        base_url = f"http://127.0.0.1:{port}"
        env = dict(os.environ)
        env.update(
            TEST_WP_ROOT=f"{root}/",
            TEST_WP_URL=base_url,
            TEST_WP_DB_SOCKET=str(sock),
            TEST_WP_MU_PLUGINS=str(mu_plugins),
            TEST_WP_SECRET=os.urandom(24).hex(),
            PHP_CLI_SERVER_WORKERS="4",
        )
        site = RealWordPress(base_url, _site_php(env, "install"), mu_plugins, env)
        log = folder / "php.log"
        command = ["php", "-d", "display_errors=stderr", "-S", f"127.0.0.1:{port}"]
        command += ["-t", str(root), str(_HERE / "router.php")]
        server = stack.enter_context(_started(command, log, env))
        _wait_for(lambda: _connects(("127.0.0.1", port), socket.AF_INET), server, log)
        yield site


@pytest.fixture(scope="session")
def real_wordpress() -> Iterator[RealWordPress]:
    """A real WordPress for the session; skipped without Debian's packages, failed under CI."""
    missing = _missing_packages()
    if missing:
        reason = f"a real WordPress needs Debian's {', '.join(missing)} (.ci/run installs them)"
        if os.environ.get("CI") == "true":
            pytest.fail(reason)
        pytest.skip(reason)
    with running_wordpress() as site:
        yield site
