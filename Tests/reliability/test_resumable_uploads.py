"""Resumable uploads (tus 1.0) driven by tuspy, the protocol's Python client, unchanged: a large
upload goes on through kill -9 of the server, again and again, and every offset the server
acknowledged survives; the asset is the file, byte for byte."""
import subprocess
import threading

import requests
from tusclient import client as tus
from tusclient.exceptions import TusCommunicationError, TusUploadFailed
from tusclient.uploader import Uploader

from conftest import scaled, sha256_file
from cutting_proxy import CuttingProxy

CHUNK = 1 << 20


class SHA256Uploader(Uploader):
    """tuspy checksums with SHA-1 unless told otherwise; the server takes both."""
    CHECKSUM_ALGORITHM_PAIR = ("sha256", __import__("hashlib").sha256)


def large_movie(folder, seconds):
    """An H.264 MP4 of a few dozen megabytes: big enough for many pieces, quick to make."""
    path = folder / "long.mp4"
    subprocess.run(
        ["ffmpeg", "-nostdin", "-loglevel", "error", "-f", "lavfi", "-i", f"testsrc2=size=1280x720:rate=30:duration={seconds}",
         "-c:v", "libx264", "-preset", "ultrafast", "-qp", "12", "-pix_fmt", "yuv420p", "-movflags", "+faststart", str(path)],
        check=True, timeout=300)
    return path


def test_a_tus_upload_goes_on_through_kill_9_and_keeps_every_acknowledged_byte(server, figures, tmp_path):
    movie = large_movie(tmp_path, scaled(8, 30))
    size = movie.stat().st_size
    kills_at = [size * fraction for fraction in (0.2, 0.45, 0.7, 0.9)]
    acknowledged = 0
    sent = 0
    kills = 0
    upload_path = None
    last_headers = {}
    while True:
        endpoint = f"http://127.0.0.1:{server.port}/api/uploads"
        try:
            # Each restart has a new port: the same upload, asked for where the server is now.
            uploader = SHA256Uploader(
                file_path=str(movie), client=tus.TusClient(endpoint), chunk_size=CHUNK, upload_checksum=True,
                url=f"http://127.0.0.1:{server.port}{upload_path}" if upload_path else None,
                metadata={"filename": "long.mp4", "album": "cameraRoll"})
            assert uploader.offset >= acknowledged, f"offset {uploader.offset} after a restart, {acknowledged} acknowledged"
            while uploader.offset < size:
                killer = None
                if kills < len(kills_at) and uploader.offset >= kills_at[kills]:
                    # kill -9 while the next piece is on its way or being kept.
                    killer = threading.Timer(0.002 * kills, server.kill)
                    killer.start()
                    kills += 1
                sent += min(CHUNK, size - uploader.offset)
                try:
                    uploader.upload_chunk()
                finally:
                    if killer:
                        killer.join()
                upload_path = "/" + uploader.url.split("/", 3)[3]
                assert uploader.offset > acknowledged
                acknowledged = uploader.offset
                last_headers = uploader.request.response_headers
                if killer:
                    # The piece beat the kill: the server is gone all the same.
                    raise ConnectionError("killed after the piece was acknowledged")
            break
        except (TusCommunicationError, TusUploadFailed, requests.RequestException, ConnectionError):
            if server.process.poll() is None:
                raise
            server.start()

    assert kills == len(kills_at)
    status = server.request("GET", upload_path).json()
    assert status["state"] == "done", status
    asset_id = status["assetID"]
    # tuspy keeps header names lowercased; a last piece sent again after a kill may find the upload done.
    assert last_headers.get("x-asset-id") in (None, asset_id)
    asset = server.request("GET", f"/api/assets/{asset_id}").json()
    assert asset["originalFilename"] == "long.mp4" and asset["inCameraRoll"]
    digest = sha256_file(movie)
    server.uploads[asset_id] = digest
    server.assert_sound()
    assert list((server.data / "uploads").iterdir()) == [], "the upload's bytes are gone once it is an asset"
    figures.record("Resumable uploads", "tuspy through kill -9", cases=1, failures=0, bytes=size, kills=kills,
                   pieces=-(-size // CHUNK), bytes_resent=sent - size)


def test_pieces_cut_mid_body_keep_the_bytes_that_came_and_tuspy_goes_on_by_itself(server, figures, tmp_path):
    """A proxy cuts four pieces part-way (no checksum: a cut part cannot match one). The server
    keeps what came, so tuspy's own retry (HEAD, then the rest) sends almost nothing twice."""
    movie = large_movie(tmp_path, scaled(8, 30))
    size = movie.stat().st_size
    piece = 4 << 20
    # Each cut piece is followed by one that starts where the server kept the bytes.
    budgets = [(3 << 19) + 12345, (3 << 20) + 777, (1 << 19) + 5, 5 << 19]
    assert size > sum(budgets) + (1 << 20), "bytes enough for every cut"
    proxy = CuttingProxy(server.port, budgets)
    try:
        uploader = Uploader(
            file_path=str(movie), client=tus.TusClient(proxy.base + "/api/uploads"), chunk_size=piece, retries=12, retry_delay=1,
            metadata={"filename": "cut.mp4"})
        uploader.upload()
    finally:
        proxy.close()
    assert proxy.cuts == len(budgets)
    path = "/" + uploader.url.split("/", 3)[3]
    status = server.request("GET", path).json()
    assert status["state"] == "done", status
    digest = sha256_file(movie)
    server.uploads[status["assetID"]] = digest
    server.assert_sound()
    resent = proxy.forwarded - size
    # Request heads and what libmicrohttpd held unread at each cut; without keeping cut pieces
    # every budget would be sent again.
    assert resent < len(budgets) * (256 << 10), f"{resent} bytes sent twice"
    figures.record("Resumable uploads", "tuspy through a proxy cutting pieces", cases=1, failures=0, bytes=size, cuts=proxy.cuts,
                   bytes_resent=resent, bytes_resent_without_keeping=sum(budgets))
