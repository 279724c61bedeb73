"""Movies browsers cannot play, for make bench: the time from pressing play to the first frame and
from a seek to the first frame after it, in Chromium against the release binary, for a generated
5-minute 1080p HEVC movie and a 3-minute MPEG-4 Part 2 (Xvid) AVI, beside the wait for the whole
rendition (what the player waited for before streaming); and the CPU time of a minute streamed
beside a minute of the whole rendition.

Run alone: /usr/bin/python3 bench/streaming.py (after `make build` or `make bench`, which build the release binaries)."""
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import photos_app
import serving

SEEKS = (0.8, 0.35, 0.6, 0.15, 0.95)
# A minute of segments, made for a twin of the movie (nothing of it made before).
STREAMED = range(15, 45)

# Plays the movie as the viewer does (playableVideoURL with the <video>) and resolves with the
# milliseconds from the call to the first frame shown, and from each seek to the first frame
# shown at or after its target (requestVideoFrameCallback: frames presented, not decoded).
PLAY = """
const [id, seeks, done] = arguments;
const { playableVideoURL } = await import('/app/video-source.js');
const video = document.createElement('video');
video.muted = true;
document.body.append(video);
const frameFrom = (target) => new Promise((resolve) => {
  const check = (now, frame) => frame.mediaTime >= target - 0.05 ? resolve(performance.now()) : video.requestVideoFrameCallback(check);
  video.requestVideoFrameCallback(check);
});
try {
  const pressed = performance.now();
  video.src = await playableVideoURL({ id }, () => {}, { video });
  const shown = frameFrom(0);
  video.play();
  const first = (await shown) - pressed;
  const afterSeeks = [];
  for (const fraction of seeks) {
    const target = fraction * video.duration;
    const asked = performance.now();
    const after = frameFrom(target);
    video.currentTime = target;
    afterSeeks.push((await after) - asked);
  }
  done({ first, seeks: afterSeeks, streamed: video.src.startsWith('blob:') });
} catch (error) {
  done({ error: String(error) });
}
"""


def children_cpu_seconds(process):
    """User and system time of the server's finished children (ffmpeg, ffprobe)."""
    fields = Path(f"/proc/{process.pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = int(fields[13]) + int(fields[14])
    return ticks / 100


def generate(work):
    """The two movies: 20 s made by ffmpeg's encoders, looped by copying their packets. The HEVC
    has a keyframe every second, as phone cameras write them (x265's default, one in 250 frames,
    makes every seek decode up to eight seconds before its target)."""
    hevc_part, hevc = work / "hevc-20s.mov", work / "hevc-5min.mov"
    subprocess.run(["ffmpeg", "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=1920x1080:rate=30", "-f", "lavfi", "-i",
                    "sine=frequency=440:sample_rate=48000", "-t", "20", "-c:v", "libx265", "-preset", "ultrafast",
                    "-x265-params", "log-level=error:keyint=30", "-tag:v", "hvc1", "-pix_fmt", "yuv420p", "-c:a", "aac", "-y",
                    str(hevc_part)], check=True)
    subprocess.run(["ffmpeg", "-v", "error", "-stream_loop", "14", "-i", str(hevc_part), "-c", "copy", "-t", "300",
                    "-y", str(hevc)], check=True)
    avi_part, avi = work / "xvid-20s.avi", work / "xvid-3min.avi"
    subprocess.run(["ffmpeg", "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=640x480:rate=30", "-f", "lavfi", "-i",
                    "sine=frequency=440:sample_rate=44100", "-t", "20", "-c:v", "mpeg4", "-vtag", "XVID", "-q:v", "4",
                    "-c:a", "libmp3lame", "-b:a", "128k", "-y", str(avi_part)], check=True)
    subprocess.run(["ffmpeg", "-v", "error", "-stream_loop", "8", "-i", str(avi_part), "-c", "copy", "-t", "180",
                    "-y", str(avi)], check=True)
    return {"a 5-minute 1080p HEVC MOV": hevc, "a 3-minute 640x480 Xvid AVI": avi}


def twin(path):
    """The same movie in other bytes (a container tag), so that the library makes everything of it
    anew: what CPU time is measured on, without the cache of the play before."""
    other = path.with_name("twin-" + path.name)
    subprocess.run(["ffmpeg", "-v", "error", "-i", str(path), "-map", "0", "-c", "copy", "-metadata", "comment=twin", "-y",
                    str(other)], check=True)
    return other


def rendition_wait(served, asset_id):
    """The wait for the whole rendition, as the player knew it before streaming: asked for, then
    polled until ready; and the code it failed with, if it did (a `timeout` when ffmpeg ran into
    the server's limit for it)."""
    started = time.perf_counter()
    served.request("GET", f"/media/{asset_id}/video")
    while True:
        status, body = served.request("GET", f"/api/assets/{asset_id}/rendition")
        state = json.loads(body)
        if state["status"] in ("ready", "failed"):
            return time.perf_counter() - started, state.get("code")
        time.sleep(0.1)


def measure(cameraroll):
    figures = {}
    with tempfile.TemporaryDirectory(prefix="cameraroll-bench-streaming-") as folder:
        work = Path(folder)
        movies = generate(work)
        served = serving.Served(cameraroll, work / "data")
        driver = photos_app.browser()
        try:
            driver.set_script_timeout(300)
            for name, path in movies.items():
                status, body = served.request("POST", "/api/assets", body=path.read_bytes(), headers={"X-Filename": path.name})
                if status != 201:
                    raise RuntimeError(f"POST /api/assets answered {status}: {body!r}")
                asset = json.loads(body)
                driver.get(f"http://127.0.0.1:{served.port}/library")
                started = time.perf_counter()
                played = driver.execute_async_script(PLAY, asset["id"], list(SEEKS))
                if "error" in played:
                    raise RuntimeError(f"{name}: {played['error']}")
                driver.get("about:blank")
                # The first play started the whole rendition in the background: measured to its
                # end, and out of the way of what follows.
                _, failure = rendition_wait(served, asset["id"])
                if failure:
                    raise RuntimeError(f"{name}: the background rendition failed: {failure}")
                background = time.perf_counter() - started
                other = twin(path)
                status, body = served.request("POST", "/api/assets", body=other.read_bytes(), headers={"X-Filename": other.name})
                unseen = json.loads(body)["id"]
                before = children_cpu_seconds(served.process)
                for index in STREAMED:
                    status, _ = served.request("GET", f"/media/{unseen}/stream/{index}.mp4")
                    if status != 200:
                        raise RuntimeError(f"segment {index} answered {status}")
                streamed_cpu = children_cpu_seconds(served.process) - before
                before = children_cpu_seconds(served.process)
                whole, failure = rendition_wait(served, unseen)
                whole_cpu = children_cpu_seconds(served.process) - before
                # A rendition stopped part of the way made part of a minute per minute of its CPU.
                figures[name] = {**played, "rendition": whole, "rendition_failure": failure, "streamed_cpu": streamed_cpu,
                                 "background": background,
                                 "rendition_cpu_per_minute": None if failure else whole_cpu / (asset["duration"] / 60)}
                print(name, figures[name], file=sys.stderr)
        finally:
            driver.quit()
            served.stop()
    return figures


def lines(figures):
    verdict = lambda ok: "met" if ok else "**not met**"
    rows = [
        "## Movies browsers cannot play: streamed while they are made",
        "",
        "Chromium against the release binary; each movie uploaded fresh, so nothing of it is made before it is played. "
        "The player as the viewer uses it (`playableVideoURL`), a frame shown as `requestVideoFrameCallback` reports it; "
        f"seeks to {', '.join(f'{round(fraction * 100)}%' for fraction in SEEKS)} while playing, each to a part not made yet. "
        "The HEVC has a keyframe every second, as phone cameras write them. The first play starts the whole rendition "
        "in the background (at nice 19, beside the stream's segments); the whole rendition's wait is that of a player that "
        "waits for it, as before streaming. CPU time is ffmpeg's (the server's children), "
        "for a minute of segments (720p) beside a minute of the whole rendition (the original's size), both made for a "
        "twin of the movie (the same streams in other bytes) of which nothing was made before.",
        "",
        "| movie | play to first frame | seek to first frame (median, most) | the whole rendition's wait | target | | "
        "the rendition the first play starts, ready | CPU a minute streamed | CPU a minute of the rendition |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for name, figure in figures.items():
        worst = max(figure["first"], statistics.median(figure["seeks"]))
        rendition = (f"never: `{figure['rendition_failure']}` after {figure['rendition']:.0f} s" if figure["rendition_failure"]
                     else f"{figure['rendition']:.1f} s")
        rendition_cpu = "—" if figure["rendition_cpu_per_minute"] is None else f"{figure['rendition_cpu_per_minute']:.1f} s"
        rows.append(
            f"| {name} | {figure['first'] / 1000:.2f} s | {statistics.median(figure['seeks']) / 1000:.2f} s, "
            f"{max(figure['seeks']) / 1000:.2f} s | {rendition} | at most 2 s each | "
            f"{verdict(worst <= 2000 and figure['streamed'])} | {figure['background']:.0f} s after the play began | "
            f"{figure['streamed_cpu']:.1f} s | {rendition_cpu} |")
    rows.append("")
    return rows


if __name__ == "__main__":
    binary = Path(__file__).resolve().parents[1] / ".build" / "release" / "cameraroll"
    print("\n".join(lines(measure(binary))))
    sys.exit(0)
