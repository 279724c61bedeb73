"""Reliability suites: the built `cameraroll serve` on a loopback port with a temp data folder,
attacked with bad files, bad HTTP, kills, full disks and load. After every case the issue's
invariants are checked (`Server.assert_sound`). `make test` runs quick counts; `make soak`
(RELIABILITY_SOAK=1) runs the full ones and writes RELIABILITY.md from the figures."""
import fcntl
import hashlib
import http.client
import json
import os
import re
import shutil
import signal
import socket
import sqlite3
import ssl
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# Helpers both suites use (cutting_proxy, veth_namespace).
sys.path.insert(0, str(ROOT / "Tests" / "support"))
CORPUS = (ROOT / ".." / "shared" / "corpus").resolve()
BINARY = Path(os.environ.get("CAMERAROLL_BIN", ROOT / ".build" / "debug" / "cameraroll")).absolute()
OUTPUT = ROOT / "test-output" / "reliability"
SOAK = os.environ.get("RELIABILITY_SOAK") == "1"

# What a client-facing error body must never show: our paths, source files, crash text.
LEAK = re.compile(r"/(tmp|work|root|home|usr|var|proc|etc|data)/|\.swift\b|Fatal error|Traceback|backtrace|errno", re.I)


def scaled(quick, soak):
    """The quick count for `make test`, the full one for `make soak`."""
    return soak if SOAK else quick


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def sha256_file(path):
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def p99(samples):
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] if ordered else 0.0


def abandoned(lock):
    """A work-folder lock no live process holds."""
    try:
        with open(lock, "rb") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return True
    except (BlockingIOError, FileNotFoundError):
        return False


class Reply:
    def __init__(self, status, headers, body, elapsed):
        self.status, self.headers, self.body, self.elapsed = status, headers, body, elapsed

    def json(self):
        return json.loads(self.body)


def assert_client_error(reply, statuses, code=None):
    """A refusal as the API promises: one of `statuses`, JSON {code, message}, nothing leaked."""
    assert reply.status in statuses, f"status {reply.status}, wanted {statuses}: {reply.body[:300]!r}"
    assert reply.headers.get("Content-Type", "").startswith("application/json"), reply.headers
    body = reply.json()
    assert isinstance(body.get("code"), str) and body["code"], body
    assert isinstance(body.get("message"), str) and len(body["message"]) > 10, body
    assert not LEAK.search(reply.body.decode("utf-8", "replace")), body
    if code is not None:
        assert body["code"] == code, body
    return body


class Server:
    """One `cameraroll serve` on a data folder that outlives restarts. `uploads` is the ledger
    of every upload that got a 2xx: asset id -> sha256 of the bytes sent."""

    def __init__(self, data=None, wrapper=(), environment=None, host=None, password=None):
        self.scratch = Path(tempfile.mkdtemp(prefix="cameraroll-rel-"))
        self.data = Path(data) if data else self.scratch / "data"
        self.wrapper = list(wrapper)
        self.environment = dict(os.environ, **(environment or {}))
        # Any host but loopback is served over HTTPS, and needs the owner's password set first.
        self.host = host
        self.secure = host not in (None, "127.0.0.1", "::1")
        if password:
            subprocess.run([str(BINARY), "--data", str(self.data), "passwd"], input=password + "\n", text=True, check=True,
                           capture_output=True, env=self.environment)
        self.uploads = {}
        self.hashed = {}
        self.process = None
        self.log = None
        self.start()

    @property
    def database(self):
        return self.data / "library.sqlite"

    def start(self, timeout=60):
        # A probed free port can be taken again before the server binds it (another test's client
        # sockets draw from the same ephemeral range), so a port lost that way is drawn again.
        for _ in range(5):
            if self.launch(timeout):
                return
        raise RuntimeError(f"no free port for the server: {self.log_tail()}")

    def launch(self, timeout):
        """True once the server answers; False if its port was taken before it could listen."""
        self.port = free_port()
        self.log = open(self.scratch / "server.log", "ab")
        logged = self.log.tell()
        self.process = subprocess.Popen(
            [*self.wrapper, str(BINARY), "--data", str(self.data), "serve", "--port", str(self.port)]
            + (["--host", self.host] if self.host else []),
            stdout=self.log, stderr=self.log, env=self.environment)
        deadline = time.time() + timeout
        while time.time() < deadline:
            if self.process.poll() is not None:
                self.log.close()
                lately = (self.scratch / "server.log").read_bytes()[logged:]
                if b"it is already in use" in lately:
                    return False
            assert self.process.poll() is None, f"the server exited with {self.process.returncode}: {self.log_tail()}"
            try:
                if self.request("GET", "/healthz", timeout=1).status == 200:
                    self.pid = self.server_pid()
                    return True
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("the server did not start")

    def server_pid(self):
        """The cameraroll process itself, under any wrapper (strace, fiu-run exec it)."""
        if not self.wrapper:
            return self.process.pid
        for pid in [self.process.pid, *self.descendants(self.process.pid)]:
            try:
                if Path(f"/proc/{pid}/exe").resolve() == BINARY.resolve():
                    return pid
            except OSError:
                continue
        return self.process.pid

    def kill(self):
        """kill -9: no cleanup, as in a power cut of the process."""
        os.kill(self.pid, signal.SIGKILL)
        self.process.wait(timeout=30)
        self.log.close()

    def restart(self):
        self.kill()
        self.start()

    def stop(self):
        if self.process and self.process.poll() is None:
            # The server itself: a wrapper such as strace would detach and leave it running.
            os.kill(self.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self.log:
            self.log.close()

    def log_tail(self, size=2000):
        path = self.scratch / "server.log"
        return path.read_bytes()[-size:].decode("utf-8", "replace") if path.exists() else ""

    def request(self, method, path, body=None, headers=None, timeout=60, source=None):
        started = time.monotonic()
        source_address = (source, 0) if source else None
        if self.secure:
            # The certificate is the server's own; these suites test the server, not certificates.
            connection = http.client.HTTPSConnection(
                "127.0.0.1", self.port, timeout=timeout, source_address=source_address, context=ssl._create_unverified_context())
        else:
            connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout, source_address=source_address)
        try:
            connection.request(method, path, body=body, headers=headers or {})
            response = connection.getresponse()
            data = response.read()
            return Reply(response.status, response.headers, data, time.monotonic() - started)
        finally:
            connection.close()

    def upload(self, data, name="upload.bin", query="", timeout=120, disk_may_be_full=False):
        """POSTs the bytes; a 2xx goes into the ledger. No 5xx, but for 507 where a test filled the disk."""
        reply = self.request(
            "POST", f"/api/assets{query}", body=data,
            headers={"Content-Type": "application/octet-stream", "X-Filename": name}, timeout=timeout)
        assert reply.status < 500 or (disk_may_be_full and reply.status == 507), \
            f"{reply.status} for {name}: {reply.body[:300]!r}"
        if reply.status in (200, 201):
            self.uploads[reply.json()["id"]] = hashlib.sha256(data).hexdigest()
        return reply

    def cli(self, *arguments, timeout=300):
        return subprocess.run(
            [str(BINARY), "--data", str(self.data), *arguments], capture_output=True, text=True, timeout=timeout,
            env=self.environment)

    # What the process holds, from /proc.
    def descendants(self, pid):
        children = []
        for task in Path(f"/proc/{pid}/task").glob("*"):
            try:
                children += [int(child) for child in (task / "children").read_text().split()]
            except OSError:
                continue
        return children + [grandchild for child in children for grandchild in self.descendants(child)]

    def rss_kb(self, field="VmRSS"):
        for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1])
        return 0

    def open_fds(self):
        return len(os.listdir(f"/proc/{self.pid}/fd"))

    def children(self):
        return len(self.descendants(self.pid))

    def leftovers(self):
        """Files in tmp/ other than the locks of live processes' work folders (a lock we can
        take belongs to a dead process, and counts)."""
        folder = self.data / "tmp"
        if not folder.exists():
            return []
        left = []
        for path in folder.rglob("*"):
            if not path.is_file():
                continue
            if path.parent == folder and path.suffix == ".lock" and not abandoned(path):
                continue
            left.append(str(path.relative_to(folder)))
        return sorted(left)

    def assert_sound(self, quiet=15.0):
        """The issue's invariants: the same process, answering /healthz within a second; the
        database intact; every acknowledged upload there with its bytes; no temp files left."""
        assert self.process.poll() is None, f"the server died ({self.process.returncode}): {self.log_tail()}"
        assert self.server_pid() == self.pid, "the server is another process"
        health = self.request("GET", "/healthz", timeout=1)
        assert health.status == 200 and health.elapsed < 1.0, (health.status, health.elapsed)
        with sqlite3.connect(f"file:{self.database}?mode=ro", uri=True, timeout=10) as db:
            assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
            assert db.execute("PRAGMA foreign_key_check").fetchall() == []
            rows = dict(db.execute("SELECT id, blob_hash FROM assets").fetchall())
        for asset_id, digest in self.uploads.items():
            assert rows.get(asset_id) == digest, f"acknowledged upload {asset_id} lost or changed"
        for digest in set(rows.values()):
            blob = self.data / "blobs" / digest[:2] / digest[2:4] / digest
            assert blob.exists(), f"blob {digest} missing"
            stat = blob.stat()
            key = (stat.st_ino, stat.st_size, stat.st_mtime_ns)
            if self.hashed.get(digest) != key:
                assert sha256_file(blob) == digest, f"blob {digest} does not hold its bytes"
                self.hashed[digest] = key
        # Derivatives and renditions finish in the background; their work files must go.
        deadline = time.time() + quiet
        while self.leftovers() and time.time() < deadline:
            time.sleep(0.1)
        assert self.leftovers() == [], f"left in tmp/: {self.leftovers()}"

    def close(self):
        self.stop()
        shutil.rmtree(self.scratch, ignore_errors=True)


@pytest.fixture
def server():
    running = Server()
    yield running
    running.close()


class Figures:
    """Each suite's numbers, written to test-output/reliability/figures.json and, for `make
    soak`, rendered into RELIABILITY.md."""

    def __init__(self):
        self.rows = {}

    def record(self, suite, case, cases, failures, **numbers):
        """Adds to the row: parametrized tests record one case each under the same name."""
        row = self.rows.setdefault(suite, {}).setdefault(case, {"cases": 0, "failures": 0})
        row["cases"] += cases
        row["failures"] += failures
        row.update(numbers)

    def write(self):
        OUTPUT.mkdir(parents=True, exist_ok=True)
        figures = {"mode": "soak" if SOAK else "quick", "binary": os.path.relpath(BINARY, ROOT),
                   "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "suites": self.rows}
        (OUTPUT / "figures.json").write_text(json.dumps(figures, indent=2) + "\n")
        if os.environ.get("RELIABILITY_REPORT"):
            from report import render
            Path(os.environ["RELIABILITY_REPORT"]).write_text(render(figures))


@pytest.fixture(scope="session")
def figures():
    collected = Figures()
    yield collected
    collected.write()
