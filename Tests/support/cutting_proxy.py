"""A loopback TCP proxy of the tests' own that cuts resumable uploads' pieces mid-body, the way a
phone's network drops: each PATCH to /api/uploads/ takes the next budget of bytes, and once its
connection has carried that many toward the server both sides are closed (the client's with a
reset). The bytes it forwarded before the cut are all the server's to read; the proxy counts
every byte it carried toward the server, so a test can tell what was sent twice."""
import socket
import struct
import threading

PIECE = b"PATCH /api/uploads/"


class CuttingProxy:
    def __init__(self, target_port, budgets=()):
        self.target_port = target_port
        self.budgets = list(budgets)
        self.cuts = 0
        self.forwarded = 0
        self.lock = threading.Lock()
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        threading.Thread(target=self._accept, daemon=True).start()

    @property
    def base(self):
        return f"http://127.0.0.1:{self.port}"

    def close(self):
        self.listener.close()

    def _accept(self):
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            try:
                upstream = socket.create_connection(("127.0.0.1", self.target_port))
            except OSError:
                client.close()
                continue
            threading.Thread(target=self._toward_server, args=(client, upstream), daemon=True).start()
            threading.Thread(target=self._toward_client, args=(upstream, client), daemon=True).start()

    def _toward_server(self, client, upstream):
        budget = None
        try:
            while True:
                data = client.recv(1 << 16)
                if not data:
                    upstream.shutdown(socket.SHUT_WR)
                    return
                if budget is None and PIECE in data:
                    with self.lock:
                        budget = self.budgets.pop(0) if self.budgets else None
                    if budget is not None:
                        budget += data.index(PIECE)
                if budget is not None and len(data) >= budget:
                    upstream.sendall(data[:budget])
                    self._count(budget)
                    self._cut(client, upstream)
                    return
                upstream.sendall(data)
                self._count(len(data))
                if budget is not None:
                    budget -= len(data)
        except OSError:
            self._close(client, upstream)

    def _toward_client(self, upstream, client):
        try:
            while data := upstream.recv(1 << 16):
                client.sendall(data)
            client.shutdown(socket.SHUT_WR)
        except OSError:
            self._close(client, upstream)

    def _count(self, count):
        with self.lock:
            self.forwarded += count

    def _cut(self, client, upstream):
        with self.lock:
            self.cuts += 1
        # The server gets an orderly end after every byte forwarded; the client a reset, as from a
        # network that went away.
        upstream.shutdown(socket.SHUT_RDWR)
        client.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self._close(client, upstream)

    @staticmethod
    def _close(*sockets):
        for each in sockets:
            try:
                each.close()
            except OSError:
                pass
