"""Malformed media: every corpus bad/ file through the API and `cameraroll import`, decompression
bombs, active content (SVG, HTML, PDF, polyglots), ffmpeg's playlist tricks under strace, and a
mutation run over corpus seeds."""
import json
import random
import re
import shutil
import tempfile
import time
from pathlib import Path

import pytest

from conftest import CORPUS, Server, assert_client_error, scaled

BAD = sorted(path for path in (CORPUS / "bad").iterdir() if path.is_file())
STATUS_OF = {"too_large": 413, "unsupported_type": 415, "truncated": 422, "corrupt": 422, "empty": 422}


def assert_inert(server, asset_id):
    """A stored file whose harm is in its bytes or metadata is only ever data: JSON for its
    facts, an attachment for its original, WebP for its thumbnail, never sniffed."""
    facts = server.request("GET", f"/api/assets/{asset_id}")
    assert facts.status == 200 and facts.headers["Content-Type"].startswith("application/json")
    assert b"<" not in facts.body, "metadata must reach pages JSON-escaped"
    original = server.request("GET", f"/media/{asset_id}/original")
    assert original.status == 200
    assert original.headers["Content-Disposition"].startswith("attachment"), original.headers
    assert original.headers["X-Content-Type-Options"] == "nosniff"
    assert re.match(r"(image|video)/", original.headers["Content-Type"]), original.headers["Content-Type"]
    thumbnail = server.request("GET", f"/media/{asset_id}/thumbnail?size=256")
    if thumbnail.status == 200:
        assert thumbnail.headers["Content-Type"] == "image/webp"
    else:
        assert_client_error(thumbnail, {404, 415, 422})


def test_every_bad_file_through_the_api_and_the_command_line(server, figures):
    outcomes, failures = {}, []
    for path in BAD:
        data = path.read_bytes()
        first = server.upload(data, name=path.name)
        second = server.upload(data, name=path.name)
        try:
            if first.status in (200, 201):
                assert second.status == 200 and second.json()["id"] == first.json()["id"]
                assert_inert(server, first.json()["id"])
                outcomes[path.name] = "stored"
            else:
                body = assert_client_error(first, set(STATUS_OF.values()))
                assert first.status == STATUS_OF[body["code"]], (first.status, body)
                assert (second.status, second.json()["code"]) == (first.status, body["code"]), "codes must be stable"
                outcomes[path.name] = body["code"]
            server.assert_sound()
        except AssertionError as failure:
            failures.append(f"{path.name}: {failure}")

    imported = server.cli("import", "--json", str(CORPUS / "bad"))
    assert imported.returncode in (0, 1), imported.stderr
    report = json.loads(imported.stdout)
    by_name = {entry["path"].rsplit("/", 1)[-1]: entry.get("code", "stored")
               for entry in report["imported"] + report["rejected"]}
    for name, outcome in outcomes.items():
        if by_name.get(name) != outcome:
            failures.append(f"{name}: the API says {outcome}, import says {by_name.get(name)}")
    assert not any(LEAKS_PATH.search(entry["message"]) for entry in report["rejected"])
    server.assert_sound()
    figures.record("Malformed media", "corpus bad/ via API and import", cases=2 * len(BAD), failures=len(failures),
                   refused=sum(outcome != "stored" for outcome in outcomes.values()),
                   stored_inert=sum(outcome == "stored" for outcome in outcomes.values()))
    assert not failures, "\n".join(failures)


LEAKS_PATH = re.compile(r"/(tmp|work|root|home|shared)/")

BOMBS = ["sharp__65536-uint32-limit.png", "sharp__giant-image.jpg", "libvips__17000x17000.avif",
         "pillow__decompression_bomb.gif", "androidx-media__black_large.webp", "pillow__png_decompression_dos.png"]


def test_decompression_bombs_are_refused_quickly_without_a_memory_spike(server, figures):
    server.upload((CORPUS / "photos" / "exifsamples__Canon_40D.jpg").read_bytes(), name="warm.jpg")
    baseline = server.rss_kb("VmHWM")
    slowest = 0.0
    for name in BOMBS:
        reply = server.upload((CORPUS / "bad" / name).read_bytes(), name=name)
        slowest = max(slowest, reply.elapsed)
        if reply.status >= 400:
            assert_client_error(reply, {413, 415, 422})
        assert reply.elapsed < 2.0, f"{name} took {reply.elapsed:.2f}s"
        server.assert_sound()
    growth_mb = (server.rss_kb("VmHWM") - baseline) / 1024
    figures.record("Malformed media", "decompression bombs", cases=len(BOMBS), failures=0,
                   slowest_s=round(slowest, 3), peak_rss_growth_mb=round(growth_mb, 1))
    assert growth_mb < 150, f"peak memory grew {growth_mb:.0f} MB"
    for name in BOMBS[:3]:
        assert server.upload((CORPUS / "bad" / name).read_bytes()).json()["code"] == "too_large"


def small_jpeg():
    return (CORPUS / "photos" / "exifsamples__Canon_40D.jpg").read_bytes()


ACTIVE_CONTENT = {
    "page.html": b"<!DOCTYPE html><html><body><script>alert(document.domain)</script></body></html>",
    "page.htm": b"\xef\xbb\xbf  <html><script>alert(1)</script>",
    "doc.pdf": b"%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n",
    "image.svg": b'<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
    "gif.js": b"GIF89a/*\x01\x00\x01\x00\x00\x00\x00*/=1;alert(document.domain)//;",
    "xml.jpg": b'<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>',
}


def test_active_content_is_never_served_inline(server, figures):
    cases = 0
    for name, data in ACTIVE_CONTENT.items():
        assert_client_error(server.upload(data, name=name), {415, 422})
        cases += 1
    for path in sorted((CORPUS / "bad").glob("*.svg")):
        assert_client_error(server.upload(path.read_bytes(), name=path.name), {415}, code="unsupported_type")
        cases += 1
    # Polyglots that are also valid images are kept, and only ever served as images.
    polyglots = {"jpeg-html.jpg": small_jpeg() + b"<html><script>alert(1)</script></html>",
                 "looks-like-svg.webp": (CORPUS / "bad" / "libvips__looks-like-svg.webp").read_bytes()}
    for name, data in polyglots.items():
        reply = server.upload(data, name=name)
        assert reply.status in (200, 201), reply.body
        assert_inert(server, reply.json()["id"])
        cases += 1
    server.assert_sound()
    figures.record("Malformed media", "SVG, HTML, PDF, polyglots", cases=cases, failures=0)


# ffmpeg's classic local-file and network tricks, beside the corpus ones.
PLAYLISTS = {
    "hls.mp4": b"#EXTM3U\n#EXT-X-MEDIA-SEQUENCE:0\n#EXTINF:10.0,\nfile:///etc/passwd\n#EXT-X-ENDLIST\n",
    "hls-net.mkv": b"#EXTM3U\n#EXTINF:1,\nhttp://127.0.0.1:9/x.ts\n#EXT-X-ENDLIST\n",
    "concat.mov": b"ffconcat version 1.0\nfile /etc/passwd\nfile 'concat:/etc/hostname|/etc/passwd'\n",
    "subfile.avi": b"RIFF\x00\x00\x00\x00AVI LIST" + b"concat:file:///etc/passwd|subfile,,start,0,end,0,,:/etc/passwd",
}
# What ffmpeg and ffprobe may open besides our data folder: their own libraries and system facts.
SYSTEM_READS = re.compile(r"^(/usr/|/lib|/etc/ld\.so|/etc/localtime|/etc/gnutls|/etc/ssl/|/dev/(null|urandom)|"
                                  r"/etc/gcrypt/|/proc/sys/crypto/|/proc/self/|/proc/\d+/|/proc/filesystems$|/sys/devices/system/(cpu|node)|/sys/fs/cgroup)")


def test_ffmpeg_playlists_open_nothing_outside_our_folders(figures):
    trace = Path(tempfile.mkdtemp(prefix="cameraroll-strace-")) / "strace.log"
    traced = Server(wrapper=["strace", "-f", "-qq", "-s", "4096", "-e", "trace=openat,connect,execve", "-o", str(trace)])
    try:
        cases = 0
        for path in [*sorted((CORPUS / "bad").glob("payloads__*.avi")), CORPUS / "bad" / "payloads__read_passwd_bypass.mp4"]:
            reply = traced.upload(path.read_bytes(), name=path.name)
            if reply.status >= 400:
                assert_client_error(reply, {415, 422})
            cases += 1
        for name, data in PLAYLISTS.items():
            assert_client_error(traced.upload(data, name=name), {415, 422})
            cases += 1
        movie = traced.upload((CORPUS / "videos" / "photoprism__earth.avi").read_bytes(), name="earth.avi").json()["id"]
        deadline = time.time() + 300
        while traced.request("GET", f"/media/{movie}/video").status == 202 and time.time() < deadline:
            time.sleep(0.5)
        traced.assert_sound()
    finally:
        traced.close()
    log = trace.read_text(errors="replace")
    shutil.rmtree(trace.parent, ignore_errors=True)
    tools, outside, connects = set(), [], []
    data = str(traced.data)
    for line in log.splitlines():
        pid = line.split(" ", 1)[0]
        if "execve(" in line and re.search(r'"/usr/bin/ff(mpeg|probe)"', line):
            tools.add(pid)
    for line in log.splitlines():
        pid = line.split(" ", 1)[0]
        if pid not in tools:
            continue
        if "connect(" in line:
            connects.append(line)
        opened = re.search(r'openat\([^,]+, "([^"]*)"', line)
        if opened and not (opened.group(1).startswith(data) or SYSTEM_READS.match(opened.group(1))):
            outside.append(opened.group(1))
    figures.record("Malformed media", "ffmpeg HLS/concat under strace", cases=cases, failures=len(outside) + len(connects),
                   ffmpeg_runs=len(tools))
    assert tools, "no ffmpeg or ffprobe ran: the test saw nothing"
    assert not connects, connects[:5]
    assert not outside, sorted(set(outside))


SEEDS = ["photos/exifsamples__Canon_40D.jpg", "photos/libpng__basn6a08.png", "photos/pillow__dispose_bgnd.gif",
         "photos/pillow__transparent.webp", "photos/pigallery2__IMG_7943.HEIC", "photos/pigallery2__test.avif",
         "photos/libjpeg-turbo__testimgari.jpg", "videos/mp4parse__video_rotation_90.mp4",
         "videos/pigallery2__20240128_105420.mp4", "videos/androidx-media__bear-vp9.webm"]


def mutate(data, rng):
    """One of the classic fuzzing moves: flipped bits, interesting bytes, a cut, a repeated or
    removed slice, or a header number pushed to an extreme."""
    data = bytearray(data)
    move = rng.randrange(6)
    if move == 0:
        for _ in range(rng.randint(1, 16)):
            data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
    elif move == 1:
        for _ in range(rng.randint(1, 8)):
            data[rng.randrange(len(data))] = rng.choice([0x00, 0x7F, 0x80, 0xFF])
    elif move == 2:
        del data[rng.randrange(1, len(data)):]
    elif move == 3:
        start = rng.randrange(len(data))
        piece = data[start:start + rng.randint(1, 4096)]
        at = rng.randrange(len(data))
        data[at:at] = piece * rng.randint(1, 8)
    elif move == 4:
        start = rng.randrange(len(data))
        del data[start:start + rng.randint(1, 4096)]
    else:
        at = rng.randrange(min(len(data), 512))
        data[at:at + 4] = rng.choice([b"\xff\xff\xff\xff", b"\x7f\xff\xff\xff", b"\x00\x00\x00\x00", b"\x80\x00\x00\x00"])
    return bytes(data)


def test_mutated_uploads_never_crash_the_server(server, figures):
    seed = int(time.time()) if scaled(False, True) else 6
    rng = random.Random(seed)
    seeds = [(CORPUS / path).read_bytes() for path in SEEDS]
    count, statuses, started = scaled(300, 4000), {}, time.time()
    for case in range(count):
        reply = server.upload(mutate(rng.choice(seeds), rng), name=f"mutant-{case}")
        statuses[reply.status] = statuses.get(reply.status, 0) + 1
        if reply.status >= 400:
            assert_client_error(reply, {413, 415, 422}), f"case {case} (seed {seed})"
        assert server.process.poll() is None, f"the server died at case {case} (seed {seed}): {server.log_tail()}"
        if case % 50 == 49:
            server.assert_sound()
    server.assert_sound()
    figures.record("Malformed media", "mutation run (Python mutator, corpus seeds)", cases=count, failures=0,
                   seed=seed, statuses=statuses, minutes=round((time.time() - started) / 60, 1))
