"""A full disk (the data folder on a small tmpfs) and injected I/O errors (libfiu's POSIX
preload): clear answers, nothing half-written, and the same upload works once the fault goes."""
import json
import os
import random
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

import pytest

from conftest import CORPUS, LEAK, Server, assert_client_error
from test_http_abuse import parse_responses

PHOTO = CORPUS / "photos" / "lychee__train.jpg"


@pytest.fixture
def small_disk():
    if os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root")
    mount = Path(tempfile.mkdtemp(prefix="cameraroll-tmpfs-"))
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64m", "tmpfs", str(mount)], check=True)
    yield mount
    subprocess.run(["umount", "-l", str(mount)], check=False)
    mount.rmdir()


def fill(mount, leave):
    """Grows a filler file until only `leave` bytes are free on the tmpfs."""
    filler = mount / "filler"
    filler.unlink(missing_ok=True)
    free = os.statvfs(mount).f_bavail * os.statvfs(mount).f_frsize
    with open(filler, "wb") as handle:
        handle.truncate(0)
        handle.write(b"\0" * max(0, free - leave))
    return filler


def test_a_full_disk_gives_507_and_the_upload_works_once_space_is_freed(small_disk, figures):
    server = Server(data=small_disk / "data")
    try:
        data = PHOTO.read_bytes() + b"full-disk"
        filler = fill(small_disk, 1 << 20)
        refused = server.upload(data, name="big.jpg", disk_may_be_full=True)
        body = assert_client_error(refused, {507}, code="no_space")
        server.assert_sound()
        assert not [path for path in (small_disk / "data" / "blobs").rglob("*") if path.is_file()], "a blob was written"
        imported = server.cli("import", "--json", str(PHOTO))
        assert imported.returncode == 1 and json.loads(imported.stdout)["rejected"][0]["code"] == "no_space", imported.stdout
        server.assert_sound()

        # Every amount of room from too little to enough: 201 or 507, never anything else.
        rng, statuses = random.Random(7), {}
        for leave in range(len(data) - (1 << 20), len(data) + (6 << 20), 1 << 20):
            fill(small_disk, leave)
            reply = server.upload(data + rng.randbytes(8), name="sweep.jpg", disk_may_be_full=True)
            statuses[reply.status] = statuses.get(reply.status, 0) + 1
            if reply.status not in (200, 201):
                assert_client_error(reply, {507}, code="no_space")
            server.assert_sound()
        filler.unlink()
        accepted = server.upload(data, name="big.jpg")
        assert accepted.status == 201, accepted.body
        server.assert_sound()
        figures.record("Disk full", "data folder on a 64 MB tmpfs", cases=3 + sum(statuses.values()), failures=0,
                       sweep_statuses=statuses, message=body["message"])
    finally:
        server.close()


def exchange(port, head, body=b"", timeout=15):
    """Sends a request's head and `body` on a connection of its own and reads until the server
    closes it; the one reply. The server may answer before the body and close, so a send cut
    short is not an error; a server that waits for more gets `timeout` and no reply."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as connection:
        try:
            connection.sendall(head + body)
        except (BrokenPipeError, ConnectionResetError):
            pass
        received = b""
        try:
            while chunk := connection.recv(65536):
                received += chunk
        except (ConnectionResetError, socket.timeout):
            pass
    replies = parse_responses(received)
    assert len(replies) == 1, f"no single reply: {received[:300]!r}"
    return replies[0]


def post_even_if_cut_off(port, data):
    """An upload whose answer may come (and the connection close) before the body is all sent."""
    head = b"POST /api/assets HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Length: %d\r\n\r\n" % len(data)
    return exchange(port, head, data, timeout=60)


FIU_POINTS = [("posix/io/sync/fsync", 5), ("posix/io/sync/fdatasync", 5), ("posix/io/rw/write", 5),
              ("posix/io/rw/pwrite", 5), ("posix/io/rw/write", 28)]


def test_injected_write_and_fsync_errors_give_clear_answers_and_no_corruption(figures):
    control = Path(tempfile.mkdtemp(prefix="cameraroll-fiu-"))
    server = Server(wrapper=["fiu-run", "-x", "-f", str(control / "ctrl")])
    try:
        statuses, cases = {}, 0
        for point, errno_value in FIU_POINTS:
            data = PHOTO.read_bytes() + point.encode() + bytes([errno_value])
            fiu = subprocess.run(["fiu-ctrl", "-f", str(control / "ctrl"), "-c",
                                  f"enable name={point},failinfo={errno_value}", str(server.pid)], capture_output=True, text=True)
            assert fiu.returncode == 0, fiu.stderr
            reply = post_even_if_cut_off(server.port, data)
            subprocess.run(["fiu-ctrl", "-f", str(control / "ctrl"), "-c", f"disable name={point}", str(server.pid)], check=True)
            statuses[f"{point} errno {errno_value}"] = reply.status
            assert reply.status in (201, 500, 503, 507), reply.body
            if reply.status >= 400:
                body = json.loads(reply.body)
                assert set(body) == {"code", "message"} and not LEAK.search(reply.body.decode()), body
            server.assert_sound()
            again = server.upload(data, name="fiu.jpg")
            assert again.status in (200, 201), again.body
            server.assert_sound()
            cases += 1
        assert any(status >= 500 for status in statuses.values()), f"no fault reached an upload: {statuses}"
        figures.record("Injected I/O errors", "libfiu on write, pwrite, fsync, fdatasync", cases=cases, failures=0,
                       statuses=statuses)
    finally:
        server.close()
        shutil.rmtree(control, ignore_errors=True)
