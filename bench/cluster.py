"""The cluster's figures for make bench, in one run beside the embedded server: two `cameraroll
serve` instances behind haproxy over PostgreSQL 15 and a single-node Ceph radosgw (the tests'
throwaway engines, scripts/throwaway-*), against one server on its data folder. Cached
thumbnails under wrk, 20 concurrent uploads, and the import of the large JPEGs."""
import http.client
import json
import os
import shutil
import statistics
import subprocess
import tempfile
import time
import uuid
from pathlib import Path
from urllib.parse import urlparse

import serving

ROOT = Path(__file__).resolve().parent.parent
PASSWORD = "the benchmark owner's password"


def script(name, *arguments, env=None):
    return subprocess.run([str(ROOT / "scripts" / name), *arguments], check=True, capture_output=True, text=True, env=env).stdout.split()


def requester(base):
    """A `request(method, path, body, headers)` to `base`, as serving.Served has."""
    parts = urlparse(base)

    def request(method, path, body=None, headers=None):
        connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=300)
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        data = response.read()
        connection.close()
        return response.status, data, response
    return request


class Engines:
    """A PostgreSQL database and an S3 bucket of this run's own; the scripts' watchers stop the
    engines when this process ends."""

    def __init__(self):
        _, server = script("throwaway-postgres", "start", str(os.getpid()))
        self.server = server
        _, endpoint, key, secret = script("throwaway-ceph", "start", str(os.getpid()))
        self.env = {**os.environ, "AWS_ENDPOINT_URL": endpoint, "AWS_ACCESS_KEY_ID": key, "AWS_SECRET_ACCESS_KEY": secret,
                    "AWS_REGION": "us-east-1"}

    def fresh(self):
        """A new database URL and bucket name."""
        name = "bench_" + uuid.uuid4().hex
        subprocess.run(["psql", self.server, "-qc", f"CREATE DATABASE {name}"], check=True, capture_output=True)
        bucket = "bench-" + uuid.uuid4().hex[:20]
        # radosgw wants the payload's hash named, which curl's signer leaves out: an empty body's.
        empty = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        subprocess.run(["curl", "--silent", "--fail", "--noproxy", "*", "-H", f"x-amz-content-sha256: {empty}",
                        "--aws-sigv4", "aws:amz:us-east-1:s3", "--user",
                        f"{self.env['AWS_ACCESS_KEY_ID']}:{self.env['AWS_SECRET_ACCESS_KEY']}", "-X", "PUT",
                        f"{self.env['AWS_ENDPOINT_URL']}/{bucket}"], check=True, capture_output=True)
        return self.server[: -len("postgres")] + name, bucket


def import_seconds(cameraroll, files, work, engines, rounds):
    """Median seconds of `cameraroll import` of the files into a fresh library: a data folder,
    and a database and bucket."""
    embedded, cluster = [], []
    for index in range(rounds):
        started = time.perf_counter()
        subprocess.run([str(cameraroll), "--data", str(work / f"import-{index}"), "import", *files], check=True, capture_output=True)
        embedded.append(time.perf_counter() - started)
        database, bucket = engines.fresh()
        started = time.perf_counter()
        subprocess.run([str(cameraroll), "--data", str(work / f"cluster-import-{index}"), "--database", database, "--storage",
                        f"s3://{bucket}", "import", *files], check=True, capture_output=True, env=engines.env)
        cluster.append(time.perf_counter() - started)
    return statistics.median(embedded), statistics.median(cluster)


def thumbnail_rate(base, paths, work, name, headers):
    """wrk over the paths (each already served once, so cached), with the owner's headers."""
    script_path = work / f"{name}.lua"
    serving.lua_rotation(paths, script_path)
    setup = "".join(f"wrk.headers[{json.dumps(k)}] = {json.dumps(v)}\n" for k, v in headers.items())
    script_path.write_text(setup + script_path.read_text())
    return serving.wrk(base, script_path)


def measure(cameraroll, photos, rounds=3):
    work = Path(tempfile.mkdtemp(prefix="cameraroll-cluster-bench-"))
    try:
        print("cluster: engines ...", flush=True)
        engines = Engines()
        print("cluster: import ...", flush=True)
        imports = import_seconds(cameraroll, photos["large"], work, engines, rounds)

        database, bucket = engines.fresh()
        subprocess.run([str(cameraroll), "--data", str(work / "owner"), "--database", database, "passwd"], input=PASSWORD + "\n",
                       check=True, capture_output=True, text=True)
        folder, balancer, first, second = script("throwaway-cluster", "start", str(os.getpid()), str(cameraroll), database, bucket,
                                                 env=engines.env)
        try:
            through = requester(balancer)
            status, body, response = through("POST", "/api/session", body=json.dumps({"password": PASSWORD}))
            owner = {"Cookie": response.getheader("Set-Cookie").split(";")[0], "X-CSRF-Token": json.loads(body)["csrfToken"]}
            print("cluster: cached thumbnails ...", flush=True)
            for photo in photos["all"]:
                through("POST", "/api/assets", body=Path(photo).read_bytes(), headers={"X-Filename": Path(photo).name, **owner})
            assets = json.loads(through("GET", "/api/assets?limit=500", headers=owner)[1])["assets"]
            paths = [asset["urls"]["thumbnail256"] for asset in assets]
            for base in (first, second):
                for path in paths:
                    requester(base)("GET", path, headers=owner)
            cluster_thumbs = thumbnail_rate(balancer, paths, work, "cluster", owner)

            embedded = serving.Served(cameraroll, work / "embedded")
            try:
                for photo in photos["all"]:
                    embedded.request("POST", "/api/assets", body=Path(photo).read_bytes(), headers={"X-Filename": Path(photo).name})
                local = [asset["urls"]["thumbnail256"] for asset in json.loads(embedded.request("GET", "/api/assets?limit=500")[1])["assets"]]
                for path in local:
                    embedded.request("GET", path)
                embedded_thumbs = thumbnail_rate(f"http://127.0.0.1:{embedded.port}", local, work, "embedded", {})
                print("cluster: concurrent uploads ...", flush=True)
                bodies = serving.distinct_jpegs(Path(photos["source"]), work / "upload-bodies", 20)
                megabytes = sum(len(body) for body in bodies) / 1e6
                embedded_uploads = serving.upload_at_once(embedded.request, bodies)
            finally:
                embedded.stop()
            cluster_uploads = serving.upload_at_once(lambda *a, **k: through(*a, **k)[:2], bodies, owner)
        finally:
            subprocess.run([str(ROOT / "scripts" / "throwaway-cluster"), "stop", folder], check=False)
        return dict(imports=imports, files=len(photos["large"]), thumbs=(embedded_thumbs, cluster_thumbs), thumb_count=len(paths),
                    uploads=(embedded_uploads, cluster_uploads), megabytes=megabytes)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def lines(figures):
    (embedded_import, cluster_import) = figures["imports"]
    (e_rate, e_p99, e_errors), (c_rate, c_p99, c_errors) = figures["thumbs"]
    (e_statuses, e_seconds), (c_statuses, c_seconds) = figures["uploads"]
    mb = figures["megabytes"]
    return [
        "## The cluster (two instances behind haproxy, PostgreSQL 15, Ceph radosgw) beside one embedded server",
        "",
        "All on this machine: the engines, haproxy and both instances share its cores with the load generator, so the",
        "cluster's figures are what one machine does with the cluster's extra hops, not what N machines would.",
        "",
        "| what | embedded | cluster | ratio |",
        "|---|---|---|---|",
        f"| cached 256-pixel thumbnails ({figures['thumb_count']} files), `wrk -t2 -c50 -d10s` (embedded: asked from loopback, "
        f"its owner; cluster: signed in, through haproxy) | {e_rate:,.0f} req/s, "
        f"p99 {e_p99:.1f} ms, {e_errors} errors | {c_rate:,.0f} req/s, p99 {c_p99:.1f} ms, {c_errors} errors | {c_rate / e_rate:.2f}x |",
        f"| 20 concurrent uploads of distinct JPEGs ({mb:.0f} MB) | {mb / e_seconds:.1f} MB/s, {e_statuses.count(201)}/20 stored | "
        f"{mb / c_seconds:.1f} MB/s, {c_statuses.count(201)}/20 stored | {e_seconds / c_seconds:.2f}x the throughput |",
        f"| `cameraroll import` of {figures['files']} camera JPEGs (median of 3; the cluster's import writes rows to "
        f"PostgreSQL and originals to the bucket) | {embedded_import:.2f} s | {cluster_import:.2f} s | "
        f"{embedded_import / cluster_import:.2f}x the throughput |",
        "",
    ]


if __name__ == "__main__":
    import run
    corpus = run.CORPUS
    photos = {"all": sorted(str(path) for path in (corpus / "photos").iterdir()), "large": [str(corpus / n) for n in run.LARGE_JPEGS],
              "source": str(corpus / "photos/lychee__train.jpg")}
    print("\n".join(lines(measure(run.CAMERAROLL, photos))))
