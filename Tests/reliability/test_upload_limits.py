"""The limits of resumable uploads (tus 1.0) on the built server: a piece that meets a full disk is
507 and the upload stays where it was, to finish once there is room; a piece whose headers
declare more bytes than the upload may have is 413 before a byte of it is stored."""
import hashlib

from conftest import CORPUS, Server, assert_client_error
from test_storage_faults import exchange, fill, small_disk  # noqa: F401 (a fixture)

PHOTO = CORPUS / "photos" / "lychee__train.jpg"
TUS = {"Tus-Resumable": "1.0.0"}
PIECE = {**TUS, "Content-Type": "application/offset+octet-stream"}


def request_head(method, path, headers):
    lines = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1", "Connection: close"] + [f"{name}: {value}" for name, value in headers.items()]
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


def test_a_piece_that_meets_a_full_disk_is_507_and_the_upload_finishes_once_there_is_room(small_disk):  # noqa: F811
    server = Server(data=small_disk / "data")
    try:
        data = PHOTO.read_bytes()
        created = server.request("POST", "/api/uploads", headers={**TUS, "Upload-Length": str(len(data))})
        assert created.status == 201, created.body
        path = created.headers["Location"]
        first = server.request("PATCH", path, body=data[:1 << 20], headers={**PIECE, "Upload-Offset": "0"})
        assert first.status == 204 and first.headers["Upload-Offset"] == str(1 << 20)

        filler = fill(small_disk, 256 << 10)
        rest = data[1 << 20:]
        refused = exchange(server.port, request_head("PATCH", path, {
            **PIECE, "Upload-Offset": str(1 << 20), "Content-Length": str(len(rest))}), rest, timeout=60)
        assert_client_error(refused, {507}, code="no_space")
        where = server.request("HEAD", path, headers=TUS)
        assert where.status == 200 and where.headers["Upload-Offset"] == str(1 << 20), "the offset stays"
        server.assert_sound()

        filler.unlink()
        last = server.request("PATCH", path, body=rest, headers={**PIECE, "Upload-Offset": str(1 << 20)})
        assert last.status == 204, last.body
        asset = last.headers["X-Asset-ID"]
        server.uploads[asset] = hashlib.sha256(data).hexdigest()
        server.assert_sound()
    finally:
        server.close()


FOUR_GIB = 4 << 30


def test_a_piece_declaring_more_than_the_upload_may_have_is_413_before_its_body(server):
    """Each request sends its head alone, no byte of the body it declares: a server that waited
    for the body (to store it, then refuse) would give no answer before the timeout."""
    opened = server.request("POST", "/api/uploads", headers={**TUS, "Upload-Defer-Length": "1"})
    assert opened.status == 201
    stream = opened.headers["Location"]
    cases = {
        "a creation whose length is past the limit": ("POST", "/api/uploads", {"Upload-Length": str(FOUR_GIB + 1)}),
        "a creation whose bytes are more than its length": ("POST", "/api/uploads", {"Upload-Length": "1000"}),
        "a piece of a stream that grows past the limit": ("PATCH", stream, {"Upload-Offset": str(FOUR_GIB - 1000)}),
        "a piece that tells a length past the limit": ("PATCH", stream, {"Upload-Offset": "0", "Upload-Length": str(FOUR_GIB + 1)}),
        "a piece past the length it tells": ("PATCH", stream, {"Upload-Offset": "0", "Upload-Length": "1000"}),
    }
    for case, (method, path, headers) in cases.items():
        reply = exchange(server.port, request_head(method, path, {**PIECE, **headers, "Content-Length": str(1 << 20)}))
        assert_client_error(reply, {413}, code="too_large")
        assert reply.headers.get("Tus-Resumable") == "1.0.0", case
    # The stream is where it was, and takes a piece that fits.
    assert server.request("HEAD", stream, headers=TUS).headers["Upload-Offset"] == "0"
    fits = server.request("PATCH", stream, body=b"\0" * 1000, headers={**PIECE, "Upload-Offset": "0"})
    assert fits.status == 204 and fits.headers["Upload-Offset"] == "1000"
    server.assert_sound()
