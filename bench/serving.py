"""The server's figures for make bench: cached thumbnails under wrk beside nginx, the first
display render beside vipsthumbnail, and concurrent uploads with the server's peak memory."""
import http.client
import json
import os
import re
import shutil
import socket
import statistics
import subprocess
import tempfile
import threading
import time
from pathlib import Path


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Served:
    """`cameraroll serve` on a fresh data folder, stopped (SIGTERM) on exit."""

    def __init__(self, cameraroll, data):
        self.port = free_port()
        self.log = Path(str(data) + ".log")
        # Access-log lines already taken by `server_milliseconds`, by path.
        self.taken = {}
        self.process = subprocess.Popen(
            [str(cameraroll), "--data", str(data), "serve", "--port", str(self.port)],
            stdout=subprocess.DEVNULL, stderr=self.log.open("w"))
        deadline = time.time() + 30
        while time.time() < deadline:
            try:
                if self.request("GET", "/healthz")[0] == 200:
                    return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("cameraroll serve did not become ready")

    def wait_until_idle(self, limit=600):
        """Waits until the server has used less than a tenth of a CPU second over two seconds: its
        first hourly sweep (every blob and derivative folder of the library) is over, so what is
        measured next is not measured beside it. Returns the seconds waited."""
        started = time.time()

        def used():
            fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

        before = used()
        while time.time() - started < limit:
            time.sleep(2)
            now = used()
            if now - before < 0.1:
                return time.time() - started
            before = now
        raise RuntimeError(f"cameraroll serve was still busy after {limit} s")

    def request(self, method, path, body=None, headers=None):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=300)
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        data = response.read()
        connection.close()
        return response.status, data

    def server_milliseconds(self, path):
        """The server's own time for the latest request to `path`, from its access log. The log
        is written when the response is complete and in batches (up to 50 ms later), so this
        waits for a line of `path` beyond those an earlier call took."""
        target = path.split("?")[0]
        taken = self.taken.get(target, 0)
        deadline = time.time() + 10
        while time.time() < deadline:
            lines = [line.split() for line in self.log.read_text().splitlines()]
            times = [float(fields[-1][:-2]) for fields in lines
                     if len(fields) >= 5 and fields[1] == target and fields[-1].endswith("ms")]
            if len(times) > taken:
                self.taken[target] = len(times)
                return times[-1]
            time.sleep(0.02)
        raise RuntimeError(f"no access-log line for {path}")

    def peak_rss_mb(self):
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
        return 0.0

    def rss_mb(self):
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        return 0.0

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=30)


def wrk(url, script, seconds=10):
    output = subprocess.run(
        ["wrk", "-t2", "-c50", f"-d{seconds}s", "--latency", "-s", str(script), url],
        check=True, capture_output=True, text=True).stdout
    rate = float(next(line.split()[1] for line in output.splitlines() if line.startswith("Requests/sec:")))
    p99 = next(line.split()[1] for line in output.splitlines() if line.strip().startswith("99%"))
    errors = sum(int(part) for line in output.splitlines() if "Non-2xx" in line for part in line.split()[-1:])
    return rate, milliseconds(p99), errors


def milliseconds(text):
    for unit, factor in (("us", 0.001), ("ms", 1.0), ("s", 1000.0)):
        if text.endswith(unit):
            return float(text[: -len(unit)]) * factor
    return float(text)


def lua_rotation(paths, path):
    quoted = ",".join(json.dumps(p) for p in paths)
    path.write_text(
        f"local paths = {{{quoted}}}\nlocal i = 0\n"
        "request = function()\n  i = i % #paths + 1\n  return wrk.format(\"GET\", paths[i])\nend\n")


def thumbnails_against_nginx(cameraroll, photos, work, rounds=9):
    """Requests per second and p99 for cached 256-pixel thumbnails, CameraRoll and nginx
    (Debian's default settings) serving the same files from disk, in the same run: both serve
    at once and take turns under wrk, and each figure is the median of its rounds (one run of
    each swung by a fifth either way on this machine)."""
    data = work / "serve-data"
    # Exit status 1 only says some corpus file was refused; the rest are in.
    subprocess.run([str(cameraroll), "--data", str(data), "import", "--json", *photos], check=False, capture_output=True)
    served = Served(cameraroll, data)
    nginx = None
    try:
        assets = json.loads(served.request("GET", "/api/assets?limit=500")[1])["assets"]
        paths = [asset["urls"]["thumbnail256"] for asset in assets]
        static = work / "static"
        static.mkdir()
        files = []
        for index, path in enumerate(paths):
            status, body = served.request("GET", path)
            (static / f"{index}.webp").write_bytes(body)
            files.append(f"/{index}.webp")
        lua_rotation(paths, work / "ours.lua")
        lua_rotation(files, work / "nginx.lua")
        port = free_port()
        nginx = start_nginx(work, static, port)
        ours, theirs = [], []
        for _ in range(rounds):
            ours.append(wrk(f"http://127.0.0.1:{served.port}", work / "ours.lua", seconds=5))
            theirs.append(wrk(f"http://127.0.0.1:{port}", work / "nginx.lua", seconds=5))
    finally:
        served.stop()
        if nginx:
            nginx.terminate()
            nginx.wait(timeout=10)
    average_size = statistics.mean((static / name.lstrip("/")).stat().st_size for name in files)
    return median_run(ours), median_run(theirs), len(paths), average_size


def median_run(runs):
    """The median rate and the median p99 of wrk runs, with all their errors."""
    return (statistics.median(rate for rate, _, _ in runs), statistics.median(p99 for _, p99, _ in runs),
            sum(errors for _, _, errors in runs))


def start_nginx(work, static, port):
    (work / "nginx.conf").write_text(
        f"worker_processes auto;\npid {work}/nginx.pid;\nerror_log {work}/nginx-error.log;\n"
        "events { worker_connections 768; }\n"
        "http {\n  sendfile on;\n  tcp_nopush on;\n  types { image/webp webp; }\n  default_type application/octet-stream;\n"
        f"  access_log off;\n  client_body_temp_path {work};\n  proxy_temp_path {work};\n  fastcgi_temp_path {work};\n"
        f"  uwsgi_temp_path {work};\n  scgi_temp_path {work};\n"
        f"  server {{ listen 127.0.0.1:{port}; root {static}; }}\n}}\n")
    nginx = subprocess.Popen(["nginx", "-c", str(work / "nginx.conf"), "-g", "daemon off;"],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 10
    while time.time() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return nginx
        except OSError:
            time.sleep(0.05)
    nginx.terminate()
    raise RuntimeError("nginx did not start")


def first_display_render(cameraroll, photos, work, timed):
    """Seconds of server time (its access log) for the first 1170x2532 display render of each
    photo, beside `vipsthumbnail -s 1170x2532` with its process start-up taken off."""
    served = Served(cameraroll, work / "render-data")
    rows = []
    try:
        tiny = work / "tiny.jpg"
        subprocess.run(["vips", "black", str(tiny), "8", "8"], check=True)
        start_up = statistics.median(timed(["vipsthumbnail", str(tiny), "-s", "8", "-o", str(work / "t.jpg")]) for _ in range(5))
        for photo in photos:
            asset = json.loads(served.request("POST", "/api/assets", body=Path(photo).read_bytes(),
                                              headers={"Content-Type": "image/jpeg"})[1])
            path = f"/media/{asset['id']}/display?w=1170&h=2532&dpr=1"
            status, body = served.request("GET", path)
            ours = served.server_milliseconds(path) / 1000
            theirs = statistics.median(
                timed(["vipsthumbnail", photo, "-s", "1170x2532", "-o", f"{work}/d.jpg[Q=85,strip]"]) for _ in range(3)) - start_up
            (work / "ours.jpg").write_bytes(body)
            rows.append((Path(photo).name, ours, theirs, status, ssim(work / "ours.jpg", work / "d.jpg")))
    finally:
        served.stop()
    return rows, start_up


def ssim(ours, theirs):
    """ffmpeg's SSIM of two images of the same size (1.0: the same picture); None when they differ in size."""
    result = subprocess.run(["ffmpeg", "-hide_banner", "-i", str(ours), "-i", str(theirs), "-lavfi", "ssim", "-f", "null", "-"],
                            capture_output=True, text=True)
    found = re.search(r"All:([0-9.]+)", result.stderr)
    return float(found.group(1)) if result.returncode == 0 and found else None


def concurrent_uploads(cameraroll, source, work, clients=20):
    """20 clients each upload a different ~5 MB JPEG at once, then 20 different ~1 MB ones:
    throughput, and the server's peak memory above its idle size for both body sizes."""
    results = {}
    for label, scale, quality in (("5 MB", 1.0, 97), ("1 MB", 0.5, 92)):
        bodies = distinct_jpegs(source, work / f"uploads-{label.replace(' ', '')}", clients, scale, quality)
        served = Served(cameraroll, work / f"upload-data-{label.replace(' ', '')}")
        try:
            idle = served.rss_mb()
            statuses, elapsed = upload_at_once(served.request, bodies)
            peak = served.peak_rss_mb()
        finally:
            served.stop()
        total = sum(len(body) for body in bodies) / 1e6
        results[label] = dict(seconds=elapsed, megabytes=total, peak=peak, idle=idle,
                              ok=sum(1 for status in statuses if status == 201), average=total / clients)
    return results


def distinct_jpegs(source, folder, count, scale=1.0, quality=97):
    """The bytes of `distinct_jpeg_files`."""
    return [path.read_bytes() for path in distinct_jpeg_files(source, folder, count, scale, quality)]


def distinct_jpeg_files(source, folder, count, scale=1.0, quality=97):
    """`count` JPEGs cropped from `source`, each a different crop, so every upload is new bytes."""
    folder.mkdir()
    paths = []
    for index in range(count):
        path = folder / f"{index}.jpg"
        subprocess.run(["vips", "crop", str(source), f"{path}[Q={quality}]", str(index), "0",
                        str(int(4000 * scale)), str(int(3000 * scale))], check=True)
        paths.append(path)
    return paths


def upload_at_once(request, bodies, headers=None):
    """Every body POSTed to /api/assets at once, a thread each: their statuses and the seconds
    until the last was answered."""
    statuses = []
    def send(body):
        statuses.append(request("POST", "/api/assets", body=body, headers={"Content-Type": "image/jpeg", **(headers or {})})[0])
    threads = [threading.Thread(target=send, args=(body,)) for body in bodies]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return statuses, time.perf_counter() - started


def _work():
    return Path(tempfile.mkdtemp(prefix="cameraroll-serving-"))


def thumbnails_against_nginx_in(cameraroll, photos):
    print("cached thumbnails under wrk ...", flush=True)
    work = _work()
    try:
        return thumbnails_against_nginx(cameraroll, photos["all"], work)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def first_display_render_in(cameraroll, photos, timed):
    print("first display renders ...", flush=True)
    work = _work()
    try:
        return first_display_render(cameraroll, photos["large"], work, timed)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def concurrent_uploads_in(cameraroll, photos):
    print("concurrent uploads ...", flush=True)
    work = _work()
    try:
        return concurrent_uploads(cameraroll, Path(photos["source"]), work)
    finally:
        shutil.rmtree(work, ignore_errors=True)
