"""HTTP abuse over raw sockets: framing conflicts, smuggling, oversized and hostile request
heads, bodies that stop, slowloris beside a real client, Range abuse, and a flood of idle
connections from the LAN."""
import json
import queue
import re
import shutil
import socket
import subprocess
import threading
import time
from pathlib import Path

import pytest

from conftest import CORPUS, LEAK, Reply, Server, assert_client_error, p99, scaled
from veth_namespace import VethNamespace


def exchange(port, data, wait=3.0, pieces=None, pause=0.0):
    """Sends `data` (or `pieces`, `pause` seconds apart), then reads until the server closes or
    `wait` passes in silence. Returns every response, parsed."""
    with socket.create_connection(("127.0.0.1", port), timeout=wait) as connection:
        for piece in pieces or [data]:
            connection.sendall(piece)
            time.sleep(pause)
        received = b""
        try:
            while chunk := connection.recv(65536):
                received += chunk
        except (socket.timeout, ConnectionResetError):
            pass
    return parse_responses(received)


def parse_responses(stream):
    replies = []
    while stream.startswith(b"HTTP/"):
        head, _, rest = stream.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        headers = dict(line.split(": ", 1) for line in lines[1:] if ": " in line)
        length = int(headers.get("Content-Length", 0))
        replies.append(Reply(int(lines[0].split()[1]), headers, rest[:length], 0))
        stream = rest[length:]
    assert stream in (b"",), f"bytes after the last response: {stream[:200]!r}"
    return replies


@pytest.fixture
def photo(server):
    return server.upload((CORPUS / "photos" / "exifsamples__Canon_40D.jpg").read_bytes(), name="p.jpg").json()["id"]


def protocol_refusal(reply, statuses):
    """Answers libmicrohttpd gives itself, before any route runs: a 4xx, nothing leaked."""
    assert reply.status in statuses, (reply.status, reply.body[:200])
    assert not LEAK.search(reply.body.decode("latin-1")), reply.body


HOST = b"Host: 127.0.0.1\r\n"


def framing_cases(photo):
    smuggled = f"DELETE /api/assets/{photo} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode()
    post = b"POST /api/assets HTTP/1.1\r\n" + HOST
    return {
        "duplicate Content-Length, different": post + b"Content-Length: 5\r\nContent-Length: 6\r\n\r\nabcdef",
        "duplicate Content-Length, same": post + b"Content-Length: 5\r\nContent-Length: 5\r\n\r\nabcde",
        "Content-Length list": post + b"Content-Length: 5, 5\r\n\r\nabcde",
        "negative Content-Length": post + b"Content-Length: -1\r\n\r\n",
        "huge Content-Length": post + b"Content-Length: 99999999999999999999999\r\n\r\n",
        "CL.TE": post + b"Content-Length: 6\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n" + smuggled,
        "TE.CL": post + b"Transfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n" + b"%x\r\n" % len(smuggled) + smuggled
        + b"\r\n0\r\n\r\n",
        "TE obfuscated": post + b"Transfer-Encoding: xchunked\r\n\r\n0\r\n\r\n" + smuggled,
        "TE list": post + b"Transfer-Encoding: chunked, identity\r\n\r\n0\r\n\r\n" + smuggled,
        "TE twice": post + b"Transfer-Encoding: chunked\r\nTransfer-Encoding: identity\r\n\r\n0\r\n\r\n" + smuggled,
        "bad chunk size": post + b"Transfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n",
        "chunk size overflow": post + b"Transfer-Encoding: chunked\r\n\r\nffffffffffffffffff\r\nabc\r\n0\r\n\r\n",
        "GET with a body smuggling a DELETE": b"GET /healthz HTTP/1.1\r\n" + HOST + b"Content-Length: %d\r\n\r\n" % len(smuggled)
        + smuggled,
        # RFC 9112 5.1 and 5.2: a 400, and nothing after the head read as a request.
        "space before the colon": post + b"Content-Length : %d\r\n\r\n" % len(smuggled) + smuggled,
        "tab before the colon": post + b"Content-Length\t: %d\r\n\r\n" % len(smuggled) + smuggled,
        "obs-fold": post + b"Transfer-Encoding:\r\n chunked\r\n\r\n0\r\n\r\n" + smuggled,
    }


MALFORMED_HEADER_LINES = ("space before the colon", "tab before the colon", "obs-fold")


# libmicrohttpd 0.9.75 answers these itself, before any route runs, and writes its response
# head twice (the second copy lands in the body). Strict xfails, so a fix shows up.
MHD_DOUBLE_HEAD = pytest.mark.xfail(strict=True, reason="libmicrohttpd 0.9.75 writes its own error head twice")


@pytest.mark.parametrize("name", [
    pytest.param(name, marks=MHD_DOUBLE_HEAD) if name in ("negative Content-Length", "huge Content-Length", "Content-Length list")
    else name
    for name in framing_cases("x")])
def test_framing_conflicts_and_smuggling_are_refused(server, photo, figures, name):
    replies = exchange(server.port, framing_cases(photo)[name])
    assert replies, f"{name}: no answer"
    if name in MALFORMED_HEADER_LINES:
        assert len(replies) == 1, f"{name}: {[reply.status for reply in replies]}"
        assert_client_error(replies[0], {400}, code="invalid_header")
    for reply in replies:
        assert reply.status < 500, f"{name}: {reply.status}"
    statuses = {400, 404, 405, 411, 413, 501}
    if replies[0].headers.get("Content-Type", "").startswith("application/json") and replies[0].status >= 400:
        assert_client_error(replies[0], statuses)
    elif replies[0].status >= 400:
        protocol_refusal(replies[0], statuses)
    assert server.request("GET", f"/api/assets/{photo}").json()["trashed"] is False, f"{name}: the DELETE got through"
    server.assert_sound()
    figures.record("HTTP abuse", "framing and smuggling", cases=1, failures=0)


def test_pipelined_requests_each_get_their_answer(server, figures):
    pipelined = exchange(server.port, (b"GET /healthz HTTP/1.1\r\n" + HOST + b"\r\n") * 3, wait=1)
    assert [reply.status for reply in pipelined] == [200, 200, 200]
    server.assert_sound()
    figures.record("HTTP abuse", "framing and smuggling", cases=1, failures=0)


def head_cases():
    get = b"GET /healthz HTTP/1.1\r\n" + HOST
    return {
        "header of 100 KB": (get + b"X-Big: " + b"a" * 100_000 + b"\r\n\r\n", {431, 413, 400}),
        "10000 headers": (get + b"X-A: b\r\n" * 10_000 + b"\r\n", {431, 413, 400}),
        "URL of 100 KB": (b"GET /api/assets?cursor=" + b"a" * 100_000 + b" HTTP/1.1\r\n" + HOST + b"\r\n", {414, 431, 400}),
        "NUL in the path": (b"GET /media/\x00/original HTTP/1.1\r\n" + HOST + b"\r\n", {400}),
        "encoded NUL": (b"GET /media/%00/original HTTP/1.1\r\n" + HOST + b"\r\n", {400, 404}),
        "encoded dot segments": (b"GET /media/%2e%2e/%2e%2e/etc/passwd HTTP/1.1\r\n" + HOST + b"\r\n", {400, 404}),
        "dot segments": (b"GET /media/../../etc/passwd HTTP/1.1\r\n" + HOST + b"\r\n", {400, 404}),
        "encoded slashes": (b"GET /media/..%2f..%2fetc%2fpasswd/original HTTP/1.1\r\n" + HOST + b"\r\n", {400, 404}),
        "double encoding": (b"GET /media/%252e%252e/original HTTP/1.1\r\n" + HOST + b"\r\n", {400, 404}),
        "overlong UTF-8 dot": (b"GET /media/%c0%ae%c0%ae/original HTTP/1.1\r\n" + HOST + b"\r\n", {400, 404}),
        "backslashes": (b"GET /media/..\\..\\etc\\passwd HTTP/1.1\r\n" + HOST + b"\r\n", {400, 404}),
        "absolute URI elsewhere": (b"GET http://evil.example/healthz HTTP/1.1\r\n" + HOST + b"\r\n", {200, 400, 404}),
        "CR in a header value": (b"GET /healthz HTTP/1.1\r\n" + HOST + b"X-A: a\rb\r\n\r\n", {200, 400}),
        "header without a colon": (b"GET /healthz HTTP/1.1\r\n" + HOST + b"Nonsense\r\n\r\n", {200, 400}),
        "unknown method": (b"BREW /healthz HTTP/1.1\r\n" + HOST + b"\r\n", {405, 501, 400}),
        "no Host": (b"GET /healthz HTTP/1.1\r\n\r\n", {400}),
        "HTTP/0.9": (b"GET /healthz\r\n\r\n", {400}),
        "garbage": (b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + bytes(range(256)) + b"\r\n\r\n", {400}),
    }


@pytest.mark.parametrize("name", [
    pytest.param(name, marks=MHD_DOUBLE_HEAD) if name in ("no Host",) else name for name in head_cases()])
def test_hostile_request_heads_are_refused(server, figures, name):
    data, statuses = head_cases()[name]
    replies = exchange(server.port, data, wait=2)
    # What is not HTTP at all may just be hung up on.
    if not replies and name == "garbage":
        server.assert_sound()
        return
    assert len(replies) == 1, f"{name}: {len(replies)} answers"
    reply = replies[0]
    if reply.headers.get("Content-Type", "").startswith("application/json") and reply.status >= 400:
        assert_client_error(reply, statuses)
    else:
        protocol_refusal(reply, statuses)
    assert b"root:" not in reply.body, f"{name}: /etc/passwd served"
    server.assert_sound()
    figures.record("HTTP abuse", "hostile request heads", cases=1, failures=0)


def test_bodies_that_stop_half_way_leave_nothing(server, figures):
    data = (CORPUS / "photos" / "exifsamples__Canon_40D.jpg").read_bytes()
    head = b"POST /api/assets HTTP/1.1\r\n" + HOST + b"Content-Length: %d\r\n\r\n" % len(data)
    cases = 0
    chunked = b"POST /api/assets HTTP/1.1\r\n" + HOST + b"Transfer-Encoding: chunked\r\n\r\n" + b"%x\r\n" % len(data)
    for start, cut, linger in [(head, cut, linger) for cut in (0, 1, len(data) // 2, len(data) - 1) for linger in (0, 0.2)] + [
            (chunked, 100, 0), (chunked, 100, 0.2)]:
        with socket.create_connection(("127.0.0.1", server.port)) as connection:
            connection.sendall(start + data[:cut])
            time.sleep(linger)
        cases += 1
    # A client that closes at once is sometimes noticed only at the connection timeout (30 s):
    # libmicrohttpd's epoll loop misses the end of file, and the body file goes then.
    server.assert_sound(quiet=40)
    assert server.request("GET", "/api/assets").json()["assets"] == []
    figures.record("HTTP abuse", "bodies that stop half way", cases=cases, failures=0)


def range_cases(size):
    return {
        "many ranges": ",".join(f"{n}-{n}" for n in range(2000)),
        "overlapping ranges": "0-100,50-150,0-" + str(size),
        "reversed": "500-100",
        "past the end": f"{size + 10}-{size + 20}",
        "open past the end": f"{size * 2}-",
        "zero suffix": "-0",
        "huge numbers": "0-99999999999999999999999999",
        "negative": "-5-10",
        "not bytes": "lines=0-1",
        "empty": "",
        "no dash": "12",
    }


def test_range_abuse_never_breaks_the_server(server, photo, figures):
    size = (CORPUS / "photos" / "exifsamples__Canon_40D.jpg").stat().st_size
    cases = range_cases(size)
    for name, value in cases.items():
        reply = server.request("GET", f"/media/{photo}/original", headers={"Range": f"bytes={value}" if not value.startswith("lines") else value})
        assert reply.status in (200, 206, 416), f"{name}: {reply.status}"
        if reply.status == 206:
            first, last, total = map(int, re.match(r"bytes (\d+)-(\d+)/(\d+)", reply.headers["Content-Range"]).groups())
            assert len(reply.body) == last - first + 1 and total == size and last < size, name
        if reply.status == 416:
            assert_client_error(reply, {416})
        server.assert_sound()
    figures.record("HTTP abuse", "Range abuse", cases=len(cases), failures=0)


def test_slowloris_leaves_room_for_a_real_client(server, photo, figures):
    """slowhttptest holds many connections open with headers (then bodies) trickling in; a
    client from another address keeps getting answers within 2 seconds."""
    seconds = scaled(15, 60)
    latencies, failures, held = [], [], 0
    for mode in (["-H"], ["-B"]):
        attack = subprocess.Popen(
            ["slowhttptest", *mode, "-c", "1000", "-r", "200", "-i", "5", "-s", "8192", "-t", "POST", "-l", str(seconds),
             "-u", f"http://127.0.0.1:{server.port}/api/assets", "-p", "3", "-x", "24"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(2)
        try:
            while attack.poll() is None:
                for path in ("/healthz", f"/media/{photo}/thumbnail?size=256", "/api/assets?limit=10"):
                    try:
                        reply = server.request("GET", path, timeout=2, source="127.0.0.2")
                        latencies.append(reply.elapsed)
                        if reply.status != 200:
                            failures.append(f"{path}: {reply.status}")
                    except OSError as error:
                        failures.append(f"{path}: {error}")
                held = max(held, server.open_fds())
                time.sleep(0.2)
        finally:
            attack.kill()
            attack.wait()
        server.assert_sound(quiet=40)
    figures.record("HTTP abuse", "slowloris and slow bodies (slowhttptest, 1000 connections)", cases=len(latencies),
                   failures=len(failures), p99_ms=round(p99(latencies) * 1000, 1), seconds=2 * seconds,
                   most_open_fds=held)
    assert held > 40, "the attack never held connections open: the test saw nothing"
    assert not failures, failures[:10]
    assert p99(latencies) < 2.0


class FloodLan(VethNamespace):
    """The namespace playing the LAN: a signed-in device at .2 of its /24, and for the flood
    twelve more IPv4 addresses, three IPv6 addresses in one /64 and one in another. The server
    answers at .1 (`server4`), fd77:0:0:1::1 and fd77:0:0:2::1."""
    network_a = [f"fd77:0:0:1::{host}" for host in (10, 11, 12)]
    network_b = ["fd77:0:0:2::10"]

    def __init__(self):
        super().__init__("flood", "f", client_hosts=[2, *range(10, 22)],
                         ipv6=(["fd77:0:0:1::1/64", "fd77:0:0:2::1/64"], [f"{address}/64" for address in self.network_a + self.network_b]))
        self.server4 = self.server_address
        self.signed_in, *self.ipv4 = self.client_addresses

    def __enter__(self):
        return self

    def __exit__(self, *_):
        self.remove()


def held_connections(port):
    """The server's open connections on `port` by client address, from the kernel's socket table:
    only sockets the server process has accepted name it."""
    table = subprocess.run(["ss", "-Htnp", "state", "established", f"( sport = :{port} )"], capture_output=True, text=True,
                           check=True).stdout
    peers = {}
    for line in table.splitlines():
        if "cameraroll" not in line:
            continue
        peer = line.split()[3].rsplit(":", 1)[0].strip("[]").removeprefix("::ffff:")
        peers[peer] = peers.get(peer, 0) + 1
    return peers


def test_a_connection_flood_from_the_lan_leaves_room_for_loopback_and_signed_in_clients(figures):
    """About a thousand idle connections from sixteen LAN addresses (as in the review, where ~770
    from a dozen addresses starved everyone): this computer and a signed-in device keep being
    served, one IPv6 /64 holds no more than its share, and connections that never send a byte
    are closed within seconds."""
    password = "the owner's password"
    with FloodLan() as lan:
        server = Server(host="::", password=password)
        try:
            flood_beside_trusted_clients(lan, server, password, figures)
        finally:
            server.close()


def flood_beside_trusted_clients(lan, server, password, figures):
    per_address = 64
    plan = {"port": server.port, "password": password, "signed_in": {"source": lan.signed_in, "server": lan.server4},
            "phases": [{"seconds": 3, "flood": [[source, "fd77:0:0:1::1", per_address] for source in lan.network_a]
                        + [[source, "fd77:0:0:2::1", per_address] for source in lan.network_b]},
                       {"seconds": 16, "flood": [[source, lan.server4, per_address] for source in lan.ipv4]}]}
    flood = lan.popen(["/usr/bin/python3", str(Path(__file__).with_name("lan_flood.py")), json.dumps(plan)],
                      stdout=subprocess.PIPE, text=True)
    lines = queue.Queue()

    def read():
        for line in flood.stdout:
            lines.put(json.loads(line))
        lines.put(None)

    def sampling(sample):
        """Calls `sample` until the flood prints its next line, and returns that line."""
        while True:
            sample()
            try:
                line = lines.get(timeout=0.2)
                assert line is not None, "the flood ended early"
                return line
            except queue.Empty:
                pass

    most = {"a": 0, "b": 0, "untrusted": 0}
    latencies, failures = [], []

    def one_64_each():
        peers = held_connections(server.port)
        most["a"] = max(most["a"], sum(peers.get(address, 0) for address in lan.network_a))
        most["b"] = max(most["b"], sum(peers.get(address, 0) for address in lan.network_b))

    def everyone():
        peers = held_connections(server.port)
        untrusted = sum(count for peer, count in peers.items() if peer not in ("127.0.0.1", "::1", lan.signed_in))
        most["untrusted"] = max(most["untrusted"], untrusted)
        try:
            reply = server.request("GET", "/healthz", timeout=2)
            latencies.append(reply.elapsed)
            if reply.status != 200:
                failures.append(f"loopback: {reply.status}")
        except OSError as error:
            failures.append(f"loopback: {error}")

    threading.Thread(target=read, daemon=True).start()
    try:
        assert lines.get(timeout=60) == {"phase": 0}
        assert sampling(one_64_each) == {"phase": 1}
        summary = sampling(everyone)
    finally:
        flood.wait(timeout=60)
    signed_in = summary["signed_in"]
    failures += [f"signed in: {outcome}" for outcome, _ in signed_in if outcome != 200]
    longest = max(summary["lifetimes"] + [summary["oldest_open"]])
    attempted = per_address * (len(lan.ipv4) + len(lan.network_a) + len(lan.network_b))
    figures.record("HTTP abuse", f"connection flood ({attempted} idle connections from {attempted // per_address} LAN addresses)",
                   cases=len(latencies) + len(signed_in), failures=len(failures),
                   p99_ms=round(p99(latencies + [seconds for _, seconds in signed_in]) * 1000, 1),
                   most_untrusted_held=most["untrusted"], most_held_from_one_64=most["a"], longest_idle_held_s=round(longest, 1))
    # The flood reached the server: the per-/64 share filled, and the pool for untrusted clients.
    assert most["a"] > 100 and most["untrusted"] > 300, most
    # Two polling threads may each let one connection past a limit (ConnectionAdmission).
    assert most["a"] <= 128 + 2, f"one /64 held {most['a']} connections"
    assert most["b"] == per_address, f"another /64 got {most['b']} of {per_address}"
    assert most["untrusted"] <= 384 + 2, f"untrusted clients held {most['untrusted']} connections"
    assert not failures, failures[:10]
    assert p99(latencies) < 2.0 and len(signed_in) > 10
    # The head timeout is 10 s: a connection that never speaks is closed soon after.
    assert longest < 15, f"an idle connection was held {longest:.1f} s"
    server.assert_sound()
