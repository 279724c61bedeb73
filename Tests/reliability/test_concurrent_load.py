"""Concurrent load: the same file from 20 clients at once, wrk on thumbnails while uploads and
a video rendition run, and a bounded soak sampling memory, open files and child processes."""
import random
import re
import statistics
import subprocess
import threading
import time
from concurrent.futures import ThreadPoolExecutor

from conftest import CORPUS, OUTPUT, assert_client_error, scaled

PHOTOS = sorted((CORPUS / "photos").glob("recurser__*.jpg")) + sorted((CORPUS / "photos").glob("exifsamples__*.jpg"))[:8]
UNPLAYABLE = ["videos/androidx-media__bbb_176x144_128kbps_15fps_h263.3gp", "videos/pigallery2__video_mkv.mkv",
              "videos/photoprism__earth.avi"]


def test_the_same_file_from_20_clients_is_one_asset(server, figures):
    data = (CORPUS / "photos" / "lychee__aarhus.jpg").read_bytes()
    start = threading.Barrier(20)

    def client(_):
        start.wait()
        return server.upload(data, name="same.jpg")
    with ThreadPoolExecutor(20) as pool:
        replies = list(pool.map(client, range(20)))
    assert sorted(reply.status for reply in replies) == [200] * 19 + [201]
    assert len({reply.json()["id"] for reply in replies}) == 1
    assert len([path for path in (server.data / "blobs").rglob("*") if path.is_file()]) == 1
    server.assert_sound()
    figures.record("Concurrent load", "same file from 20 clients", cases=20, failures=0)


class Background:
    """Uploads in a loop on a thread until stopped, counting answers."""

    def __init__(self, server, seed):
        self.server, self.rng, self.stopped = server, random.Random(seed), threading.Event()
        self.statuses, self.errors = {}, []
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self):
        while not self.stopped.is_set():
            data = self.rng.choice(PHOTOS).read_bytes() + self.rng.randbytes(8)
            try:
                reply = self.server.upload(data, name="load.jpg")
                self.statuses[reply.status] = self.statuses.get(reply.status, 0) + 1
            except (OSError, AssertionError) as error:
                self.errors.append(str(error))

    def stop(self):
        self.stopped.set()
        self.thread.join()


def run_wrk(server, ids, seconds):
    script = OUTPUT / "thumbnails.lua"
    OUTPUT.mkdir(parents=True, exist_ok=True)
    paths = ", ".join(f'"/media/{asset_id}/thumbnail?size=256"' for asset_id in ids)
    script.write_text(f"local paths = {{{paths}}}\nlocal n = 0\n"
                      "request = function() n = n + 1; return wrk.format('GET', paths[n % #paths + 1]) end\n")
    result = subprocess.run(["wrk", "-t2", "-c16", f"-d{seconds}s", "--latency", "-s", str(script),
                             f"http://127.0.0.1:{server.port}"], capture_output=True, text=True, check=True)
    output = result.stdout
    requests = int(re.search(r"(\d+) requests in", output).group(1))
    bad = int(m.group(1)) if (m := re.search(r"Non-2xx or 3xx responses: (\d+)", output)) else 0
    socket_errors = sum(map(int, re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", output)
                            .groups())) if "Socket errors" in output else 0
    value, unit = re.search(r"99%\s+([\d.]+)(us|ms|s)", output).groups()
    return requests, bad, socket_errors, float(value) * {"us": 0.001, "ms": 1, "s": 1000}[unit]


def test_thumbnails_under_wrk_while_uploads_and_a_rendition_run(server, figures):
    ids = [server.upload(path.read_bytes(), name=path.name).json()["id"] for path in PHOTOS]
    for asset_id in ids:
        assert server.request("GET", f"/media/{asset_id}/thumbnail?size=256").status == 200
    movie = server.upload((CORPUS / UNPLAYABLE[2]).read_bytes(), name="movie.avi").json()["id"]
    uploads = Background(server, seed=3)
    assert server.request("GET", f"/media/{movie}/video").status == 202
    try:
        requests, bad, socket_errors, latency = run_wrk(server, ids, scaled(10, 60))
    finally:
        uploads.stop()
    server.assert_sound(quiet=120)
    figures.record("Concurrent load", "wrk thumbnails (2 threads, 16 connections) + uploads + rendition",
                   cases=requests + sum(uploads.statuses.values()), failures=bad + socket_errors + len(uploads.errors),
                   p99_ms=latency, uploads=uploads.statuses)
    assert bad == 0 and socket_errors == 0, (bad, socket_errors)
    assert not uploads.errors, uploads.errors[:5]
    assert set(uploads.statuses) <= {200, 201}, uploads.statuses


def test_bounded_soak_shows_no_growth(server, figures):
    """Mixed traffic for a while; memory, open files and child processes sampled throughout."""
    seconds, every = scaled(40, 1200), scaled(2, 10)
    ids = [server.upload(path.read_bytes(), name=path.name).json()["id"] for path in PHOTOS[:6]]
    movies = [server.upload((CORPUS / name).read_bytes(), name=name).json()["id"] for name in UNPLAYABLE[:2]]
    bad = [path.read_bytes() for path in sorted((CORPUS / "bad").iterdir())[:20]]
    stop, errors, latencies, samples = threading.Event(), [], [], []

    def traffic(seed):
        local = random.Random(seed)
        while not stop.is_set():
            choice = local.randrange(6)
            asset_id = local.choice(ids)
            try:
                if choice == 0:
                    reply = server.upload(local.choice(PHOTOS).read_bytes() + local.randbytes(8), name="soak.jpg")
                elif choice == 1:
                    reply = server.upload(local.choice(bad), name="bad.bin")
                    if reply.status >= 400:
                        assert_client_error(reply, {413, 415, 422})
                elif choice == 2:
                    w, h = local.randrange(50, 1200), local.randrange(50, 1200)
                    reply = server.request("GET", f"/media/{asset_id}/display?w={w}&h={h}&dpr=1")
                elif choice == 3:
                    reply = server.request("GET", "/api/assets?limit=50")
                elif choice == 4:
                    reply = server.request("GET", f"/media/{local.choice(movies)}/video")
                else:
                    reply = server.request("GET", f"/media/{asset_id}/thumbnail?size=512")
                latencies.append(reply.elapsed)
                if reply.status >= 500:
                    errors.append(reply.status)
            except (OSError, AssertionError) as error:
                errors.append(str(error))

    threads = [threading.Thread(target=traffic, args=(seed,), daemon=True) for seed in range(4)]
    for thread in threads:
        thread.start()
    started = time.time()
    while time.time() - started < seconds:
        time.sleep(every)
        samples.append((server.rss_kb() / 1024, server.open_fds(), server.children()))
    stop.set()
    for thread in threads:
        thread.join()
    server.assert_sound(quiet=120)
    deadline = time.time() + 120
    while server.children() and time.time() < deadline:
        time.sleep(0.5)
    third = max(1, len(samples) // 3)
    rss_drift = statistics.median(s[0] for s in samples[-third:]) - statistics.median(s[0] for s in samples[third:2 * third] or samples)
    fds_after = server.open_fds()
    figures.record("Concurrent load", "bounded soak (4 clients, mixed traffic)", cases=len(latencies), failures=len(errors),
                   minutes=round(seconds / 60, 1), p99_ms=round(sorted(latencies)[int(len(latencies) * 0.99)] * 1000, 1),
                   rss_mb_first=round(samples[0][0], 1), rss_mb_last=round(samples[-1][0], 1),
                   rss_drift_mb=round(rss_drift, 1), fds_min_max=[min(s[1] for s in samples), max(s[1] for s in samples)],
                   fds_after=fds_after, most_children=max(s[2] for s in samples), children_after=server.children())
    assert not errors, errors[:5]
    assert server.children() == 0
    assert fds_after <= samples[0][1] + 8, (samples[0][1], fds_after)
    assert rss_drift < 64, f"memory grew {rss_drift:.0f} MB between the middle and the last third"
