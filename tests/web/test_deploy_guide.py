"""docs/deploy.md, checked as an operator would follow it: its configuration files and its database commands.

* The ```` ```nginx ```` and ```` ```caddyfile ```` blocks are checked by Debian's own ``nginx -t`` and
  ``caddy validate`` (a self-signed certificate made with openssl stands in for Let's Encrypt's), the
  ```` ```ini ```` block (the systemd unit) by ``systemd-analyze verify``.  Each test is skipped, saying why,
  when its program is missing.  ``./test.sh`` installs Debian's ``nginx`` and ``caddy`` packages and stops
  the servers their installation may start (``nginx -s quit``, ``caddy stop``: in a container, Debian's
  ``policy-rc.d`` keeps them from starting at all).  These tests never start a server: ``caddy validate``
  opens no port, and ``nginx -t`` only binds the guide's ports for a moment (moved to 18080 and 18443).
* The guide's ``sudo -u postgres ...`` lines (createdb, psql, pg_dump, pg_restore) are run as they are
  written, with ``runuser -u postgres --`` for sudo and databases of the test's own
  (``dehla_deploy_test_<random>``, dropped afterwards) for ``dehla`` and ``dehla_restored``: rows written
  through ``dehla.web.storage`` must come back intact from the restore.  Needs root (to act as the postgres
  user) and the server of ``DEHLA_TEST_POSTGRES`` on this machine; skipped otherwise.
* ``dehla.numba_cache``: the choice of numba's cache directory, with writable and read-only directories,
  and a read-only install imported by a process without a writable home.
"""

from __future__ import annotations

import asyncio
import os
import re
import secrets
import shlex
import shutil
import stat
import subprocess
import sys
import textwrap
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

from dehla import numba_cache
from dehla.web.storage import FinishedMatch, PostgresStorage, TableRow, open_storage

ROOT = Path(__file__).resolve().parents[2]
GUIDE = ROOT / "docs" / "deploy.md"
DOMAIN = "cards.example.org"
IS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0


def blocks(language: str) -> list[str]:
    """The guide's fenced code blocks tagged ``language`` (also those indented in a list), dedented."""
    text = GUIDE.read_text(encoding="utf-8")
    found = re.findall(rf"^([ \t]*)```{re.escape(language)}\n(.*?)^\1```[ \t]*$", text, re.M | re.S)
    return [textwrap.dedent(body) for _, body in found]


def one_block(language: str) -> str:
    found = blocks(language)
    assert len(found) == 1, f"docs/deploy.md should have one ```{language} block, not {len(found)}"
    return found[0]


def program(name: str) -> str:
    """The path of a program (also in /usr/sbin, which is not on every user's PATH), or skip the test."""
    found = shutil.which(name) or shutil.which(name, path="/usr/sbin:/sbin:/usr/bin:/bin")
    if not found:
        pytest.skip(f"{name} is not installed (Debian: apt-get install {name})")
    return found


# --- the reverse proxies -------------------------------------------------------------------------------------------


def test_the_nginx_block_passes_nginx_t(tmp_path: Path) -> None:
    nginx = program("nginx")
    openssl = program("openssl")
    site = one_block("nginx")
    # what nginx -t cannot see: the defects an operator's trial found
    assert re.search(r"proxy_set_header\s+Host\s+\$http_host;", site), "Host must keep the port: $http_host"
    assert re.search(r"map \$http_upgrade \$connection_upgrade \{\s*default upgrade;\s*''\s+'';\s*\}", site), (
        "without an upgrade the Connection header must be empty (upstream keepalive)"
    )
    assert "keepalive" in site and "proxy_http_version 1.1;" in site
    cert, key = tmp_path / "fullchain.pem", tmp_path / "privkey.pem"
    subprocess.run(
        [
            openssl,
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-days",
            "1",
            "-subj",
            f"/CN={DOMAIN}",
            "-keyout",
            str(key),
            "-out",
            str(cert),
        ],
        check=True,
        capture_output=True,
        timeout=60,
    )
    live = f"/etc/letsencrypt/live/{DOMAIN}/"
    assert live + "fullchain.pem" in site and live + "privkey.pem" in site
    site = site.replace(live + "fullchain.pem", str(cert)).replace(live + "privkey.pem", str(key))
    # nginx -t binds the ports for a moment (a port in use is no error then): unprivileged ones, for any user
    site, moved = re.subn(r"(listen\s+(?:\[::\]:)?)(80|443)\b", lambda found: f"{found[1]}18{found[2]:0>3}", site)
    assert moved == 4, site
    temp = "".join(
        f"    {kind}_temp_path {tmp_path / kind};\n" for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    config = tmp_path / "nginx.conf"
    config.write_text(
        f"pid {tmp_path / 'nginx.pid'};\nerror_log {tmp_path / 'error.log'};\nevents {{}}\n"
        f"http {{\n    access_log off;\n{temp}{textwrap.indent(site, '    ')}}}\n",
        encoding="utf-8",
    )
    done = subprocess.run(
        [nginx, "-t", "-p", str(tmp_path), "-e", str(tmp_path / "error.log"), "-c", str(config)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, f"nginx -t refuses the guide's configuration:\n{done.stderr}\n{config.read_text()}"
    assert "test is successful" in done.stderr


def test_the_caddyfile_block_passes_caddy_validate(tmp_path: Path) -> None:
    caddy = program("caddy")
    caddyfile = one_block("caddyfile")
    assert DOMAIN in caddyfile and "reverse_proxy 127.0.0.1:8000" in caddyfile
    path = tmp_path / "Caddyfile"
    path.write_text(caddyfile, encoding="utf-8")
    home = tmp_path / "home"
    home.mkdir()
    environment = {
        **os.environ,
        "HOME": str(home),
        "XDG_DATA_HOME": str(home / "data"),
        "XDG_CONFIG_HOME": str(home / "config"),
    }
    done = subprocess.run(
        [caddy, "validate", "--config", str(path), "--adapter", "caddyfile"],
        capture_output=True,
        text=True,
        timeout=60,
        env=environment,
        cwd=tmp_path,
    )
    assert done.returncode == 0, f"caddy validate refuses the guide's Caddyfile:\n{done.stdout}{done.stderr}"
    assert "Valid configuration" in done.stdout + done.stderr


# --- the systemd unit and the container -----------------------------------------------------------------------------


def test_the_systemd_unit_is_valid_and_keeps_the_compiled_kernel(tmp_path: Path) -> None:
    unit = one_block("ini")
    assert re.search(r"^Environment=NUMBA_CACHE_DIR=/var/cache/dehla/numba$", unit, re.M)
    assert re.search(r"^CacheDirectory=dehla$", unit, re.M) and re.search(r"^StateDirectory=dehla$", unit, re.M)
    assert re.search(r"^ProtectSystem=strict$", unit, re.M)  # the case dehla.numba_cache is for
    analyze = program("systemd-analyze")
    dehla = Path(sys.executable).parent / "dehla"
    if not dehla.exists():
        pytest.skip(f"no dehla command beside {sys.executable} to stand for /opt/dehla/venv/bin/dehla")
    assert "/opt/dehla/venv/bin/dehla serve" in unit
    path = tmp_path / "dehla.service"
    path.write_text(unit.replace("/opt/dehla/venv/bin/dehla", str(dehla)), encoding="utf-8")
    done = subprocess.run([analyze, "verify", str(path)], capture_output=True, text=True, timeout=60)
    problems = [line for line in done.stderr.splitlines() if str(path) in line or "dehla.service" in line]
    assert done.returncode == 0 and not problems, f"systemd-analyze verify:\n{done.stderr}"


def test_the_container_file_builds_the_compiled_engine_and_keeps_the_kernel() -> None:
    dockerfile = one_block("dockerfile")
    assert re.search(r"^COPY .*\bsetup\.py\b", dockerfile, re.M), "without setup.py the wheel has no compiled engine"
    assert "ENV NUMBA_CACHE_DIR=/var/cache/dehla/numba" in dockerfile
    run = " ".join(block for block in blocks("sh") if "docker run" in block)
    assert "-v dehla-cache:/var/cache/dehla" in run, "the compiled kernel's directory must be on a volume"


# --- PostgreSQL: the guide's commands for the database, the backup and the restore ----------------------------------


def _postgres_commands() -> list[str]:
    """The guide's ``sudo -u postgres ...`` lines, in order, each as written."""
    lines = [line.strip() for block in blocks("sh") for line in block.splitlines()]
    return [line for line in lines if line.startswith("sudo -u postgres ")]


def _as_run_here(line: str, names: dict[str, str], dump: Path) -> str:
    """A guide line with runuser for sudo, the test's database names and role, and the dump in ``dump``."""
    line = line.split("  #", 1)[0].strip()
    line = line.replace("sudo -u postgres ", "runuser -u postgres -- ", 1)
    line, count = re.subn(r"/var/backups/dehla-(\$\(date \+%F\)|[\w-]+)\.dump", shlex.quote(str(dump)), line)
    assert count or "/var/backups" not in line, f"a dump file the test does not know: {line}"
    line = line.replace("--owner=dehla ", "--owner=@ROLE@ ")
    line = re.sub(r"(?<![\w/.-])dehla_restored(?![\w.-])", names["dehla_restored"], line)
    line = re.sub(r"(?<![\w/.-])dehla(?![\w.-])", names["dehla"], line)
    return line.replace("@ROLE@", names["role"])


def _postgres_url() -> str:
    url = os.environ.get("DEHLA_TEST_POSTGRES")
    if not url:
        pytest.skip("DEHLA_TEST_POSTGRES is not set (./test.sh sets it when it runs Debian's postgresql)")
    if not IS_ROOT or not shutil.which("runuser"):
        pytest.skip("the guide's commands run as the postgres user: needs root and runuser")
    for name in ("pg_dump", "pg_restore", "psql", "createdb", "dropdb"):
        if not shutil.which(name):
            pytest.skip(f"{name} is not installed (Debian: apt-get install postgresql-client)")
    if urlsplit(url).hostname not in ("127.0.0.1", "localhost", "::1"):
        pytest.skip(f"the PostgreSQL server of {url} is not on this machine")
    try:
        import psycopg

        with psycopg.connect(url, connect_timeout=2):
            pass
    except Exception as error:
        pytest.skip(f"no PostgreSQL server at {url}: {error}")
    return url


def _with_database(url: str, database: str) -> str:
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, "/" + database, parts.query, parts.fragment))


def _shell(command: str, port: int) -> None:
    done = subprocess.run(
        ["bash", "-c", command],
        capture_output=True,
        text=True,
        timeout=120,
        cwd="/",
        env={**os.environ, "PGPORT": str(port)},
    )
    assert done.returncode == 0, f"{command}\n{done.stdout}{done.stderr}"


def _table_names(url: str) -> set[str]:
    import psycopg

    with psycopg.connect(url) as connection:
        rows = connection.execute("SELECT tablename FROM pg_tables WHERE schemaname = current_schema()").fetchall()
    return {str(row[0]) for row in rows}


async def _write(url: str) -> None:
    storage = open_storage(url)
    assert isinstance(storage, PostgresStorage)
    await storage.open()
    try:
        await storage.create_table(TableRow("deploy1", {"title": "backed up", "seats": []}, 1.0))
        await storage.append("deploy1", 0, {"k": "match", "no": 1, "first_dealer": 2})
        await storage.append("deploy1", 1, {"k": "act", "seat": 0, "a": "10H"})
        await storage.save_finished(
            FinishedMatch("deploy1", 1, 5.0, {"score": [7, 0]}, {"format": "dehla-record/1", "note": "ä ♠"})
        )
    finally:
        await storage.close()


async def _read(url: str) -> None:
    storage = open_storage(url)
    await storage.open()  # what a server does on a restored database (its schema steps run again)
    try:
        rows = await storage.load_tables()
        assert [(row.table_id, row.meta, row.created) for row in rows] == [
            ("deploy1", {"title": "backed up", "seats": []}, 1.0)
        ]
        assert await storage.load_log("deploy1") == [
            {"k": "match", "no": 1, "first_dealer": 2},
            {"k": "act", "seat": 0, "a": "10H"},
        ]
        found = await storage.get_finished("deploy1", 1)
        assert found is not None and found.finished == 5.0 and dict(found.summary) == {"score": [7, 0]}
        assert dict(found.record) == {"format": "dehla-record/1", "note": "ä ♠"}
        await storage.append("deploy1", 2, {"k": "act", "seat": 1, "a": "AS"})  # play goes on where the log ends
    finally:
        await storage.close()


def test_the_guides_backup_and_restore_commands_keep_the_tables(tmp_path: Path) -> None:
    url = _postgres_url()
    import psycopg

    port = urlsplit(url).port or 5432
    role = urlsplit(url).username or "dehla"
    suffix = secrets.token_hex(4)
    names = {"role": role, "dehla": f"dehla_deploy_test_{suffix}", "dehla_restored": f"dehla_deploy_test_{suffix}_r"}
    dump = tmp_path / "backup.dump"
    commands = _postgres_commands()
    kinds = [shlex.split(line)[3] for line in commands]
    for needed in ("createuser", "createdb", "psql", "pg_dump", "pg_restore"):
        assert needed in kinds, f"the guide gives no sudo -u postgres {needed} command"
    assert all("--if-exists" in line for line in commands if " pg_restore " in line and "--clean" in line)

    def run(kind: str, pattern: str = "") -> None:
        chosen = [line for line in commands if shlex.split(line)[3] == kind and re.search(pattern, line)]
        assert chosen, f"no guide command {kind} matching {pattern!r}"
        for line in chosen:
            _shell(_as_run_here(line, names, dump), port)

    try:
        run("createdb", r"--owner=dehla dehla$")  # not createuser: the test's role exists (and it asks a password)
        run("psql", "ALTER DATABASE dehla ")
        asyncio.run(_write(_with_database(url, names["dehla"])))
        run("psql", "ALTER TABLE tables ")
        run("pg_dump", " dehla > ")
        assert dump.stat().st_size > 0
        made = _table_names(_with_database(url, names["dehla"]))
        assert {"tables", "log", "finished"} <= made
        run("createdb", r"--owner=dehla dehla_restored$")
        for _ in range(2):  # into the fresh database, then again over what it restored (--clean --if-exists)
            run("pg_restore", "--dbname=dehla_restored ")
        assert _table_names(_with_database(url, names["dehla_restored"])) == made  # a restore needs every table
        asyncio.run(_read(_with_database(url, names["dehla_restored"])))
        run("pg_restore", "--dbname=dehla ")  # over the database it was dumped from (the servers stopped)
        asyncio.run(_read(_with_database(url, names["dehla"])))
        with psycopg.connect(_with_database(url, names["dehla_restored"])) as connection:
            row = connection.execute("SELECT reloptions FROM pg_class WHERE relname = 'tables'").fetchone()
            assert row is not None and "autovacuum_vacuum_scale_factor=0.05" in (row[0] or [])
            owner = connection.execute("SELECT tableowner FROM pg_tables WHERE tablename = 'log'").fetchone()
            assert owner is not None and owner[0] == role
    finally:
        for database in (names["dehla"], names["dehla_restored"]):
            subprocess.run(
                ["runuser", "-u", "postgres", "--", "dropdb", "--if-exists", "--force", database],
                capture_output=True,
                timeout=60,
                cwd="/",
                env={**os.environ, "PGPORT": str(port)},
            )


# --- numba's cache directory ----------------------------------------------------------------------------------------


def _read_only(directory: Path) -> Path:
    """A directory nobody here can write: mode 0o500, or, for root (whom modes do not stop), under a file."""
    if IS_ROOT:
        blocker = directory.parent / (directory.name + "-file")
        blocker.write_text("not a directory\n", encoding="utf-8")
        return blocker / "sub"
    directory.mkdir(parents=True, exist_ok=True)
    directory.chmod(0o500)
    return directory


def test_writable_tells_a_read_only_directory(tmp_path: Path) -> None:
    assert numba_cache.writable(tmp_path / "new" / "dir")
    assert (tmp_path / "new" / "dir").is_dir()
    assert not numba_cache.writable(_read_only(tmp_path / "ro") / "__pycache__")


def test_numba_cache_dir_set_by_the_operator_is_kept(tmp_path: Path) -> None:
    chosen = numba_cache.choose_cache_dir(
        {"NUMBA_CACHE_DIR": "/var/cache/dehla/numba"}, [_read_only(tmp_path / "p")], None, tmp_path
    )
    assert chosen == "/var/cache/dehla/numba"


def test_a_writable_package_leaves_numba_its_own_place(tmp_path: Path) -> None:
    package = tmp_path / "package"
    package.mkdir()
    assert numba_cache.choose_cache_dir({}, [package], tmp_path / "home", tmp_path / "tmp") is None
    assert (package / "__pycache__").is_dir()


def test_a_read_only_package_uses_the_users_cache(tmp_path: Path) -> None:
    package = _read_only(tmp_path / "package")
    xdg = tmp_path / "xdg"
    home = tmp_path / "home"
    chosen = numba_cache.choose_cache_dir({"XDG_CACHE_HOME": str(xdg)}, [package], home, tmp_path)
    assert chosen == str(xdg / "dehla" / "numba") and Path(chosen).is_dir()
    chosen = numba_cache.choose_cache_dir(
        {"XDG_CACHE_HOME": str(_read_only(tmp_path / "xdg2"))}, [package], home, tmp_path
    )
    assert chosen == str(home / ".cache" / "dehla" / "numba")
    assert numba_cache.choose_cache_dir({"XDG_CACHE_HOME": "relative"}, [package], home, tmp_path) == chosen


def test_nothing_writable_but_the_temporary_directory(tmp_path: Path) -> None:
    package = _read_only(tmp_path / "package")
    home = _read_only(tmp_path / "home")
    temp = tmp_path / "tmp"
    temp.mkdir()
    chosen = numba_cache.choose_cache_dir({}, [package], home, temp)
    user = os.getuid() if hasattr(os, "getuid") else os.getpid()
    assert chosen == str(temp / f"dehla-numba-{user}")
    assert stat.S_IMODE(Path(chosen).stat().st_mode) == 0o700
    assert numba_cache.choose_cache_dir({}, [package], None, temp) == chosen  # the same one next time


def test_a_temporary_directory_others_may_write_is_not_used(tmp_path: Path) -> None:
    """numba loads pickles from its cache: a directory another user could write is refused, a fresh one made."""
    temp = tmp_path / "tmp"
    user = os.getuid() if hasattr(os, "getuid") else os.getpid()
    planted = temp / f"dehla-numba-{user}"
    planted.mkdir(parents=True)
    planted.chmod(0o777)
    chosen = numba_cache.choose_cache_dir({}, [_read_only(tmp_path / "package")], None, temp)
    assert chosen is not None and Path(chosen) != planted and Path(chosen).parent == temp
    assert stat.S_IMODE(Path(chosen).stat().st_mode) == 0o700


_IMPORT = (
    "import os, dehla.solver.kernel, dehla.batch.kernel, dehla.solver.warm; print(os.environ.get('NUMBA_CACHE_DIR'))"
)
_WITHOUT = (  # dehla.numba_cache without its choice of directory (its stamp kept: dehla.kernel.jit calls it)
    "import sys, types; off = types.ModuleType('off'); off.stamp_kernel_sources = lambda: None; "
    "sys.modules['dehla.numba_cache'] = off; import dehla.solver.kernel"
)


def _read_only_install(tmp_path: Path) -> tuple[list[str], dict[str, str], Path]:
    """A command prefix and environment under which the installed package and the home cannot be written.

    Root: the sources bind-mounted read-only in a mount namespace of their own (``unshare``); others: a copy of
    the package with its directories made read-only (mode 0o555) first on PYTHONPATH.
    """
    temp = tmp_path / "tmp"
    temp.mkdir()
    environment = {key: value for key, value in os.environ.items() if key not in ("NUMBA_CACHE_DIR", "XDG_CACHE_HOME")}
    environment["TMPDIR"] = str(temp)
    package = Path(numba_cache.__file__).resolve().parent
    if IS_ROOT:
        if not shutil.which("unshare") or not shutil.which("mount"):
            pytest.skip("needs unshare and mount to make the installed package read-only for root")
        source = str(package.parent)
        probe = subprocess.run(["unshare", "-m", "true"], capture_output=True, timeout=30)
        if probe.returncode != 0:
            pytest.skip("a mount namespace cannot be made here (unshare -m)")
        script = 'mount --bind "$0" "$0" && mount -o remount,bind,ro "$0" && exec "$@"'
        environment["HOME"] = str(package / "no-home")  # inside the read-only tree
        return ["unshare", "-m", "sh", "-c", script, source], environment, temp
    copy = tmp_path / "site"
    shutil.copytree(package, copy / "dehla", ignore=shutil.ignore_patterns("__pycache__"))
    for directory in [copy, *[path for path in copy.rglob("*") if path.is_dir()]]:
        directory.chmod(0o555)
    home = tmp_path / "home"
    home.mkdir(mode=0o500)
    environment["HOME"] = str(home)
    environment["PYTHONPATH"] = str(copy)
    return [], environment, temp


def test_a_read_only_install_without_a_home_imports_the_kernels(tmp_path: Path) -> None:
    prefix, environment, temp = _read_only_install(tmp_path)
    try:
        without = subprocess.run(
            [*prefix, sys.executable, "-c", _WITHOUT],
            capture_output=True,
            text=True,
            timeout=300,
            env=environment,
            cwd=tmp_path,
        )
        assert without.returncode != 0 and "no locator available" in without.stderr, (
            f"the simulation should fail as the service did without dehla.numba_cache:\n{without.stderr}"
        )
        done = subprocess.run(
            [*prefix, sys.executable, "-c", _IMPORT],
            capture_output=True,
            text=True,
            timeout=300,
            env=environment,
            cwd=tmp_path,
        )
        assert done.returncode == 0, done.stderr
        chosen = Path(done.stdout.strip())
        assert chosen.parent == temp and chosen.name.startswith("dehla-numba-"), done.stdout
    finally:
        for path in [tmp_path, *tmp_path.rglob("*")]:
            if path.is_dir() and not path.is_symlink():
                path.chmod(0o755)  # so that pytest can remove it
