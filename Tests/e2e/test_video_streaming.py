"""Movies Chromium cannot play as they are, in the library's viewer: an HEVC movie is streamed in
segments made as they are asked for (Media Source Extensions, stream-player.js), an H.264 AVI or
MKV is copied into an MP4 in a moment; both play, a seek to 80% plays, a second play gets the
same segments from the server's cache, and leaving the page leaves no segment's ffmpeg running
(the whole rendition, started by the first play, goes on at the lowest priority)."""
import subprocess
import time
from pathlib import Path

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as seen

from conftest import open_library
from pages import wait

# The SHA-256 of every stream segment the page receives, by URL, in the order received: the
# page's fetch is wrapped before any of its scripts run.
SEGMENT_DIGESTS = r"""
window.segmentDigests = [];
const original = window.fetch;
window.fetch = async (...args) => {
  const response = await original(...args);
  const url = String(args[0]);
  if (/\/stream\/\d+\.mp4/.test(url) && response.ok) {
    const bytes = await response.clone().arrayBuffer();
    const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
    window.segmentDigests.push([url, Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('')]);
  }
  return response;
};
"""

PLAYED_PAST = "const v = document.querySelector('#viewer .stage video'); return v !== null && v.currentTime > arguments[0]"


def hevc_movie(tmp_path, seconds):
    """A 720p HEVC movie with sound, made by ffmpeg: Chromium on Linux plays no HEVC."""
    path = tmp_path / "hevc.mov"
    subprocess.run(["ffmpeg", "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=1280x720:rate=30", "-f", "lavfi", "-i",
                    "sine=frequency=440", "-t", str(seconds), "-c:v", "libx265", "-preset", "ultrafast", "-x265-params",
                    "log-level=error", "-tag:v", "hvc1", "-c:a", "aac", "-y", str(path)], check=True)
    return path.read_bytes()


def open_in_viewer(browser, server, asset_id):
    open_library(browser, server)
    browser.find_element(By.CSS_SELECTOR, f"#grid .tile[data-asset='{asset_id}']").click()
    return wait(browser).until(lambda driver: driver.find_element(By.CSS_SELECTOR, "#viewer .stage video"))


def plays(browser, past, timeout=60):
    browser.execute_script("const v = document.querySelector('#viewer .stage video'); v.muted = true; v.play().catch(() => {});")
    wait(browser, timeout).until(lambda driver: driver.execute_script(PLAYED_PAST, past))


def ffmpeg_children(server, making):
    """The server's ffmpeg children whose command line has `making` in it, with their nice values."""
    found = subprocess.run(["pgrep", "-P", str(server.process.pid), "ffmpeg"], capture_output=True, text=True)
    children = {}
    for pid in found.stdout.split():
        try:
            command = (Path("/proc") / pid / "cmdline").read_bytes().decode(errors="replace")
            nice = int((Path("/proc") / pid / "stat").read_text().rsplit(")", 1)[1].split()[16])
        except (OSError, ValueError):
            continue
        if making in command:
            children[pid] = nice
    return children


def test_the_corpus_hevc_avi_and_mkv_movies_play(server, browser):
    hevc = server.upload("videos/photoprism__quicktime-hvc1.mov")
    avi = server.upload("videos/photoprism__earth.avi")
    mkv = server.upload("videos/pigallery2__video_mkv.mkv")
    assert not any(asset["browserPlayable"] for asset in (hevc, avi, mkv))

    video = open_in_viewer(browser, server, hevc["id"])
    plays(browser, 0.3)
    # Streamed: a Media Source, not a file.
    assert video.get_attribute("src").startswith("blob:")
    # The first play starts the whole rendition, in the background, for the next one.
    assert server.call("GET", f"/api/assets/{hevc['id']}/rendition")["status"] in ("pending", "ready")

    for remuxed in (avi, mkv):
        browser.execute_script("document.querySelector('#viewer').close()")
        video = open_in_viewer(browser, server, remuxed["id"])
        plays(browser, 0.5)
        # The H.264 is copied into an MP4, which is played as a file.
        assert video.get_attribute("src").endswith(f"/media/{remuxed['id']}/video")
        movie, _ = server.fetch(f"/media/{remuxed['id']}/video")
        path = server.data / "remuxed.mp4"
        path.write_bytes(movie)
        codecs = subprocess.run(["ffprobe", "-v", "error", "-show_entries", "stream=codec_name", "-of", "csv=p=0", str(path)],
                                capture_output=True, text=True, check=True).stdout.split()
        assert codecs == ["h264", "aac"]


def test_a_long_hevc_movie_plays_across_segments_seeks_and_comes_from_the_cache(server, browser, tmp_path):
    browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": SEGMENT_DIGESTS})
    movie = server.upload_bytes(hevc_movie(tmp_path, 12))
    open_in_viewer(browser, server, movie["id"])
    # Past the first segment's end: the next one was fetched and placed after it.
    plays(browser, 2.5)
    duration = browser.execute_script("return document.querySelector('#viewer .stage video').duration")
    assert abs(duration - 12) < 0.2
    browser.execute_script("document.querySelector('#viewer .stage video').currentTime = arguments[0]", 0.8 * duration)
    wait(browser, 60).until(lambda driver: driver.execute_script(PLAYED_PAST, 0.8 * duration + 0.5))
    first = dict(browser.execute_script("return window.segmentDigests"))
    assert any(url.endswith("/stream/0.mp4") for url in first) and any(url.endswith("/stream/4.mp4") for url in first)

    # The seek bar shows the strip's frame for the time under the pointer, and a click there seeks.
    bar = browser.find_element(By.CSS_SELECTOR, "#viewer .seek-bar input")
    width = bar.size["width"]
    ActionChains(browser).move_to_element_with_offset(bar, 0, 0).pause(0.2).perform()
    preview = browser.find_element(By.CSS_SELECTOR, "#viewer .seek-preview")
    wait(browser).until(lambda driver: preview.is_displayed() and preview.get_attribute("data-frame") == "10")
    assert preview.text == "0:06"
    assert "/strip" in preview.value_of_css_property("background-image")
    ActionChains(browser).move_to_element_with_offset(bar, -width // 4, 0).click().perform()
    wait(browser, 60).until(lambda driver: driver.execute_script(
        "const v = document.querySelector('#viewer .stage video'); return v.currentTime > 3 && v.currentTime < 4.5"))
    wait(browser, 60).until(lambda driver: driver.execute_script(PLAYED_PAST, 3.5))

    # Asked again (as a second play asks, unless the rendition is ready by then), every segment
    # is the one given before: made once, then served from the cache.
    again = browser.execute_async_script("""const [urls, done] = arguments;
        Promise.all(urls.map(async (url) => {
          const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', await (await fetch(url)).arrayBuffer()));
          return [url, Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('')];
        })).then(done);""", list(first))
    assert dict(again) == first


def test_leaving_the_page_stops_the_transcode(server, browser, tmp_path):
    movie = server.upload_bytes(hevc_movie(tmp_path, 60))
    open_in_viewer(browser, server, movie["id"])
    plays(browser, 0.5)
    # The whole rendition is being made in the background, at the lowest priority.
    assert list(ffmpeg_children(server, "+faststart").values()) == [19]
    browser.get("about:blank")
    # The segment being made when the page went is finished (a second's work); none follows.
    deadline = time.time() + 10
    while ffmpeg_children(server, "frag_keyframe") and time.time() < deadline:
        time.sleep(0.2)
    assert ffmpeg_children(server, "frag_keyframe") == {}
    time.sleep(2)
    assert ffmpeg_children(server, "frag_keyframe") == {}
    assert server.call("GET", f"/api/assets/{movie['id']}/rendition")["status"] == "pending"


def test_the_trim_screen_plays_a_streamed_movie_with_the_servers_filmstrip(server, browser, tmp_path):
    movie = server.upload_bytes(hevc_movie(tmp_path, 8))
    session = server.picker({"sourceType": "photoLibrary", "mediaTypes": ["public.movie"], "allowsEditing": True})
    browser.get(server.base + session["url"])
    wait(browser).until(seen.element_to_be_clickable((By.CSS_SELECTOR, f"[data-asset='{movie['id']}']"))).click()
    choose = wait(browser, 60).until(seen.element_to_be_clickable((By.ID, "trim-choose")))
    preview = browser.find_element(By.ID, "trim-video")
    assert preview.get_attribute("src").startswith("blob:")
    # The filmstrip is drawn from the scrub strip: eight frames, each of them painted.
    wait(browser).until(lambda driver: len(driver.find_elements(By.CSS_SELECTOR, "#filmstrip-frames canvas")) == 8)
    painted = browser.execute_script("""return [...document.querySelectorAll('#filmstrip-frames canvas')].map((canvas) => {
        const pixels = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
        return pixels.some((value, index) => index % 4 !== 3 && value > 16); })""")
    assert all(painted)
    browser.find_element(By.ID, "trim-start").send_keys(Keys.PAGE_UP, Keys.PAGE_UP)
    browser.execute_script("document.querySelector('#trim-video').muted = true")
    browser.find_element(By.ID, "trim-play").click()
    wait(browser, 60).until(lambda driver: driver.execute_script("return document.querySelector('#trim-video').currentTime") > 2.3)
    choose.click()
    info = server.session(session["id"], wait=30)["info"]
    assert info["trim"]["start"] == 2 and info["mediaURL"].startswith(f"/media/{movie['id']}/trimmed?cap=")


def test_the_camera_app_streams_the_chosen_movie(server, browser):
    movie = server.upload("videos/photoprism__quicktime-hvc1.mov")
    browser.get(server.base + "/")
    browser.execute_script("localStorage.setItem('cameraroll.lastChoice', JSON.stringify(arguments[0]))",
                           {"assetID": movie["id"], "mediaType": "public.movie", "edited": False})
    browser.refresh()
    video = wait(browser, 60).until(lambda driver: driver.find_element(By.CSS_SELECTOR, "#view video"))
    wait(browser, 60).until(lambda driver: (video.get_attribute("src") or "").startswith("blob:"))
    browser.execute_script("arguments[0].muted = true; arguments[0].play().catch(() => {})", video)
    wait(browser, 60).until(lambda driver: driver.execute_script("return arguments[0].currentTime > 0.3", video))
