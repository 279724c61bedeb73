"""Crash consistency: kill -9 at random points of uploads, imports, edits and renditions; after
each restart nothing acknowledged is lost, nothing half-made is left, and jobs resume."""
import hashlib
import json
import random
import shutil
import signal
import subprocess
import threading
import time

from conftest import BINARY, CORPUS, scaled

PHOTOS = ["photos/lychee__train.jpg", "photos/exifsamples__HMD_Nokia_8.3_5G.jpg", "photos/androidx-media__ultraHDR.jpg",
          "photos/recurser__Landscape_3.jpg", "photos/pillow__xmp_test.jpg", "photos/exifsamples__Canon_40D.jpg"]
# A movie browsers cannot play (H.263 in 3GP), so asking for its video starts a rendition.
UNPLAYABLE = "videos/androidx-media__bbb_176x144_128kbps_15fps_h263.3gp"


def unique_photo(rng):
    """Corpus JPEG bytes made new by a trailer after the end of image, so every upload runs the
    whole import path instead of finding a duplicate."""
    return (CORPUS / rng.choice(PHOTOS)).read_bytes() + rng.randbytes(16)


def in_background(work):
    """Runs `work` in a thread; whatever the kill does to it (a reset connection) is expected."""
    def guarded():
        try:
            work()
        except OSError:
            pass
    thread = threading.Thread(target=guarded, daemon=True)
    thread.start()
    return thread


def wait_for_video(server, movie, timeout=180):
    deadline = time.time() + timeout
    while time.time() < deadline:
        reply = server.request("GET", f"/media/{movie}/video")
        if reply.status == 200:
            return reply.body
        assert reply.status == 202, reply.status
        time.sleep(0.3)
    raise AssertionError("the rendition did not resume")


def test_kill_9_at_random_points(server, figures, tmp_path):
    seed = int(time.time()) if scaled(False, True) else 20
    rng = random.Random(seed)
    trials = scaled(20, 200)
    edits = {}
    photo = server.upload(unique_photo(rng), name="first.jpg").json()
    movie = server.upload((CORPUS / UNPLAYABLE).read_bytes(), name="movie.3gp").json()["id"]
    kinds = {"upload": 0, "import": 0, "edit": 0, "rendition": 0}
    resumed, interrupted = 0, 0
    for trial in range(trials):
        kind = rng.choice(["upload", "upload", "import", "edit", "rendition"])
        kinds[kind] += 1
        # Spread over the work each kind does in a debug build, so kills land in every step.
        delay = rng.uniform(0, 0.5) * {"upload": 0.3, "import": 0.6, "edit": 0.1, "rendition": 4}[kind]
        if kind == "upload":
            data = unique_photo(rng)
            before = len(server.uploads)
            thread = in_background(lambda: server.upload(data, name=f"trial-{trial}.jpg"))
            time.sleep(delay)
            server.kill()
            thread.join()
            interrupted += len(server.uploads) == before
        elif kind == "edit":
            width, height = photo["width"], photo["height"]
            crop = {"x": rng.randrange(width // 2), "y": rng.randrange(height // 2), "width": width // 3, "height": height // 3}

            edits.setdefault(photo["id"], [None]).append(crop)

            def edit():
                reply = server.request("PUT", f"/api/assets/{photo['id']}/edit", body=json.dumps({"cropRect": crop}).encode(),
                                       headers={"Content-Type": "application/json"})
                if reply.status == 200:
                    edits[photo["id"]] = [crop]
            thread = in_background(edit)
            time.sleep(delay)
            server.kill()
            thread.join()
        elif kind == "rendition":
            # The derivative cache is safe to delete; emptied so that a rendition is under way.
            server.kill()
            shutil.rmtree(server.data / "derived", ignore_errors=True)
            server.start()
            assert server.request("GET", f"/media/{movie}/video").status == 202
            time.sleep(delay)
            server.kill()
        else:
            source = tmp_path / f"import-{trial}.jpg"
            source.write_bytes(unique_photo(rng))
            importer = subprocess.Popen([str(BINARY), "--data", str(server.data), "import", "--json", str(source)],
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
            time.sleep(delay)
            importer.send_signal(signal.SIGKILL)
            output, _ = importer.communicate()
            interrupted += importer.returncode != 0
            if importer.returncode == 0:
                for entry in json.loads(output)["imported"]:
                    server.uploads[entry["id"]] = hashlib.sha256(source.read_bytes()).hexdigest()
            # The next program to open the library sweeps what the dead importer left.
            assert server.cli("list", "--json").returncode == 0
            server.kill()
        server.start()
        server.assert_sound()
        # The last acknowledged edit, or one asked for after it that was stored before the kill.
        for asset_id, possible in edits.items():
            stored = server.request("GET", f"/api/assets/{asset_id}").json().get("edit")
            assert (stored or {}).get("cropRect") in possible, f"an acknowledged edit was lost: {stored}"
        if kind == "rendition":
            body = wait_for_video(server, movie)
            assert body[4:8] == b"ftyp", "the resumed rendition is not an MP4"
            resumed += 1
    figures.record("Crash consistency", "kill -9 at random points", cases=trials, failures=0, seed=seed,
                   acknowledged_uploads=len(server.uploads), uploads_and_imports_cut=interrupted,
                   renditions_resumed=resumed, **kinds)
