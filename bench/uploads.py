"""Resumable uploads for make bench: the tus path as the library page drives it (create, then
8 MiB pieces on one kept-alive connection) beside the one-request `POST /api/assets`, for one
1 GB movie and for 100 photos, each path on a fresh server so that neither finds the other's
bytes, the median of three rounds; and what cut connections cost, through the tests' own
cutting proxy with tuspy (the protocol's Python client) resuming by itself."""
import http.client
import math
import os
import statistics
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tusclient import client as tus
from tusclient.uploader import Uploader

import serving

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "Tests" / "support"))
from cutting_proxy import CuttingProxy  # noqa: E402

PIECE = 8 << 20
ROUNDS = 3


def movie(work, size=1 << 30):
    """An H.264 MP4 of about `size` bytes: a lossless clip, its stream copied end to end."""
    clip = work / "clip.mp4"
    subprocess.run(
        ["ffmpeg", "-nostdin", "-loglevel", "error", "-f", "lavfi", "-i", "testsrc2=size=1280x720:rate=30:duration=20",
         "-c:v", "libx264", "-preset", "ultrafast", "-qp", "0", "-pix_fmt", "yuv420p", str(clip)], check=True, timeout=600)
    listing = work / "clips.txt"
    listing.write_text(f"file '{clip}'\n" * math.ceil(size / clip.stat().st_size))
    path = work / "large.mp4"
    subprocess.run(["ffmpeg", "-nostdin", "-loglevel", "error", "-f", "concat", "-safe", "0", "-i", str(listing), "-c", "copy",
                    str(path)], check=True, timeout=600)
    clip.unlink()
    return path


def one_request(port, path):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=600, blocksize=1 << 20)
    with path.open("rb") as body:
        connection.request("POST", "/api/assets", body=body, headers={
            "Content-Length": str(path.stat().st_size), "X-Filename": path.name})
        response = connection.getresponse()
        response.read()
    connection.close()
    if response.status != 201:
        raise RuntimeError(f"POST /api/assets answered {response.status} for {path.name}")


class Piece:
    """The next `count` bytes of an open file, read as http.client sends a body."""

    def __init__(self, file, count):
        self.file, self.left = file, count

    def read(self, size):
        data = self.file.read(min(size, self.left))
        self.left -= len(data)
        return data


def resumable(port, path):
    """The library page's way (uploads.js): create, then pieces in turn on one connection."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=600, blocksize=1 << 20)
    size = path.stat().st_size
    tus_headers = {"Tus-Resumable": "1.0.0"}
    connection.request("POST", "/api/uploads", headers={**tus_headers, "Upload-Length": str(size)})
    created = connection.getresponse()
    created.read()
    location = created.getheader("Location")
    offset, asset = 0, None
    with path.open("rb") as file:
        while offset < size:
            count = min(PIECE, size - offset)
            connection.request("PATCH", location, body=Piece(file, count), headers={
                **tus_headers, "Upload-Offset": str(offset), "Content-Length": str(count),
                "Content-Type": "application/offset+octet-stream"})
            reply = connection.getresponse()
            reply.read()
            if reply.status != 204:
                raise RuntimeError(f"PATCH answered {reply.status} for {path.name}")
            offset, asset = int(reply.getheader("Upload-Offset")), reply.getheader("X-Asset-ID")
    connection.close()
    if asset is None:
        raise RuntimeError(f"the last piece of {path.name} named no asset")


def throughput(cameraroll, work, label, files, send):
    """MB/s for `files` sent one after another by `send(port, path)` to a server of their own."""
    shutil.rmtree(work / f"data-{label}", ignore_errors=True)
    served = serving.Served(cameraroll, work / f"data-{label}")
    try:
        # What the round before left for the disk to write would otherwise slow this one down.
        os.sync()
        started = time.perf_counter()
        for path in files:
            send(served.port, path)
        elapsed = time.perf_counter() - started
    finally:
        served.stop()
    shutil.rmtree(work / f"data-{label}", ignore_errors=True)
    return sum(path.stat().st_size for path in files) / 1e6 / elapsed


def both_paths(cameraroll, work, label, files):
    """Rounds alternate the paths, so that neither always meets a disk the other left busy."""
    single, resumed = [], []
    for _ in range(ROUNDS):
        single.append(throughput(cameraroll, work, f"{label}-single", files, one_request))
        resumed.append(throughput(cameraroll, work, f"{label}-tus", files, resumable))
    ratios = sorted(r / s for r, s in zip(resumed, single))
    return dict(single=statistics.median(single), resumable=statistics.median(resumed),
                ratio=statistics.median(resumed) / statistics.median(single), lowest=ratios[0], highest=ratios[-1])


def cut_costs(cameraroll, work, path, budgets):
    """Bytes carried toward the server beyond the file's own, when `budgets` cut pieces part-way
    and tuspy's own retry goes on (HEAD, then the rest)."""
    served = serving.Served(cameraroll, work / "data-cuts")
    proxy = CuttingProxy(served.port, budgets)
    try:
        uploader = Uploader(file_path=str(path), client=tus.TusClient(proxy.base + "/api/uploads"), chunk_size=PIECE,
                            retries=20, retry_delay=1, metadata={"filename": path.name})
        uploader.upload()
    finally:
        proxy.close()
        served.stop()
    return dict(cuts=proxy.cuts, resent=proxy.forwarded - path.stat().st_size, whole_pieces=sum(budgets))


def measure(cameraroll, photos):
    print("resumable uploads beside one request ...", flush=True)
    work = Path(tempfile.mkdtemp(prefix="cameraroll-uploads-"))
    try:
        large = movie(work)
        pictures = serving.distinct_jpeg_files(Path(photos["source"]), work / "photos", 100, 0.5, 92)
        figures = {
            "movie": dict(both_paths(cameraroll, work, "movie", [large]), bytes=large.stat().st_size),
            "photos": dict(both_paths(cameraroll, work, "photos", pictures), bytes=sum(p.stat().st_size for p in pictures)),
            "cuts": cut_costs(cameraroll, work, large, [(3 << 20) + 4321, 5 << 20, (1 << 20) + 17, 7 << 20]),
        }
        return figures
    finally:
        shutil.rmtree(work, ignore_errors=True)


def lines(figures):
    movie_figures, photo_figures, cuts = figures["movie"], figures["photos"], figures["cuts"]

    def row(what, measured):
        # This machine's disk swings a round's figures by a factor of three or more; a target is
        # met only when every round met it.
        ok = measured["lowest"] >= 0.8
        return (f"| {what} | {measured['resumable']:.0f} MB/s | one request {measured['single']:.0f} MB/s | "
                f"{measured['ratio']:.2f}x (rounds {measured['lowest']:.2f}-{measured['highest']:.2f}x) | at least 0.8x in every round | "
                f"{'met' if ok else '**not met**'} |")

    return [
        "## Resumable uploads (tus, `/api/uploads`)",
        "",
        "The resumable path as the library page drives it: create, then 8 MiB pieces on one kept-alive connection; one",
        "request is `POST /api/assets`. Each path runs on a fresh server, one file after another, until the import's",
        f"answer; the median of {ROUNDS} rounds that alternate the paths.",
        "",
        "| what | resumable | reference | ratio | target | |",
        "|---|---|---|---|---|---|",
        row(f"one {movie_figures['bytes'] / 1e9:.2f} GB movie", movie_figures),
        row(f"100 photos ({photo_figures['bytes'] / 1e8:.1f} MB on average)", photo_figures),
        f"| bytes sent twice when {cuts['cuts']} pieces are cut part-way (a proxy closes the connection; tuspy resumes) | "
        f"{cuts['resent']:,} bytes (request heads, and what was in flight at each cut) | {cuts['whole_pieces']:,} bytes had cut pieces been sent again | | "
        f"for information | |",
        "",
    ]
