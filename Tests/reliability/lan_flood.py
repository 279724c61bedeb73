"""Idle TCP connections from many LAN addresses, beside a signed-in client: run as `ip netns exec
NAME python3 lan_flood.py JSON` in the namespace that plays the LAN. JSON names `port`,
`password`, `signed_in` ({"source", "server"}: the signed-in device's address and the server's
address it uses) and `phases`: each {"seconds", "flood": [[source, server, count], ...]} holds
`count` connections from `source` to `server` that never send a byte, opening each again a second
after the server closes it. The signed-in client signs in first, then asks for /api/assets with
its cookie every few tenths of a second on a new connection. Prints one JSON line as each phase
starts, then {"signed_in": [[status or error, seconds]], "lifetimes": [seconds of connections the
server closed after holding them], "oldest_open": seconds}."""
import http.client
import json
import resource
import selectors
import socket
import ssl
import sys
import time

plan = json.loads(sys.argv[1])
PORT = plan["port"]
# A refusal (accept, then close) takes milliseconds; a connection the server held lived longer.
HELD = 1.0
# The server's certificate is its own; which certificate it is does not matter here.
CONTEXT = ssl._create_unverified_context()

soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def request(method, path, headers=None, body=None):
    source, server = plan["signed_in"]["source"], plan["signed_in"]["server"]
    connection = http.client.HTTPSConnection(server, PORT, timeout=10, context=CONTEXT, source_address=(source, 0))
    try:
        connection.request(method, path, body=body, headers={**(headers or {}), "Connection": "close"})
        response = connection.getresponse()
        return response.status, response.getheader("Set-Cookie"), response.read()
    finally:
        connection.close()


status, cookie, _ = request("POST", "/api/session", {"Content-Type": "application/json"},
                            json.dumps({"password": plan["password"]}))
assert status == 200, status
cookie = cookie.split(";")[0]
assert request("GET", "/api/assets", {"Cookie": cookie})[0] == 200

selector = selectors.DefaultSelector()
opened = {}  # socket -> when it connected
waiting = []  # (when to open again, source, server)
lifetimes, signed_in = [], []


def open_from(source, server):
    family = socket.AF_INET6 if ":" in server else socket.AF_INET
    connection = socket.socket(family, socket.SOCK_STREAM)
    connection.setblocking(False)
    connection.bind((source, 0))
    connection.connect_ex((server, PORT))
    opened[connection] = (time.monotonic(), source, server)
    selector.register(connection, selectors.EVENT_READ)


def closed(connection):
    started, source, server = opened.pop(connection)
    selector.unregister(connection)
    connection.close()
    lived = time.monotonic() - started
    if lived > HELD:
        lifetimes.append(lived)
    waiting.append((time.monotonic() + 1.0, source, server))


for number, phase in enumerate(plan["phases"]):
    for source, server, count in phase["flood"]:
        for _ in range(count):
            open_from(source, server)
    print(json.dumps({"phase": number}), flush=True)
    end = time.monotonic() + phase["seconds"]
    next_request = time.monotonic()
    while time.monotonic() < end:
        for key, _ in selector.select(timeout=0.05):
            try:
                data = key.fileobj.recv(1024)
            except OSError:
                data = b""
            if not data:
                closed(key.fileobj)
        now = time.monotonic()
        for again in [entry for entry in waiting if entry[0] <= now]:
            waiting.remove(again)
            open_from(again[1], again[2])
        if now >= next_request:
            started = time.monotonic()
            try:
                outcome = request("GET", "/api/assets?limit=1", {"Cookie": cookie})[0]
            except OSError as error:
                outcome = f"{type(error).__name__}: {error}"
            signed_in.append([outcome, time.monotonic() - started])
            next_request = time.monotonic() + 0.3

now = time.monotonic()
print(json.dumps({"signed_in": signed_in, "lifetimes": lifetimes,
                  "oldest_open": max((now - started for started, _, _ in opened.values()), default=0)}), flush=True)
