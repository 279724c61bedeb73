"""Recordings streamed while they are shot: Use Video only ends the upload the recording already
made, a page closed mid-recording leaves an asset of all but its last second that plays and
seeks right, and a stream the server finished by itself (idle in review, or cut off by an
outage) still ends in the whole recording, leaving no stray capture behind."""
import sqlite3
import subprocess
import time

import pytest
from selenium.webdriver.common.by import By

import media
from conftest import Server
from pages import button, in_picker, radio, wait


@pytest.fixture
def streaming_server():
    # Streams idle for 2 s are finished by the server, so the test need not wait the default 30.
    running = Server(arguments=["--stream-idle", "2"])
    yield running
    running.stop()


def query(server, sql):
    with sqlite3.connect(f"file:{server.data / 'data' / 'library.sqlite'}?mode=ro", uri=True, timeout=10) as db:
        return db.execute(sql).fetchall()


def uploads(server):
    return query(server, "SELECT id, state, asset_id, source, length, received FROM uploads")


def assets(server):
    return query(server, "SELECT id, unsaved FROM assets")


def recorded_seconds(server, asset_id, tmp_path):
    """The end of the last video packet, as ffprobe reads the stored original."""
    original, _ = server.fetch(f"/media/{asset_id}/original")
    path = tmp_path / "recording"
    path.write_bytes(original)
    packets = subprocess.run(
        ["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pts_time", "-of", "csv=p=0", str(path)],
        check=True, capture_output=True, text=True, timeout=120).stdout.split()
    return max(float(time) for time in packets if time not in ("", "N/A"))


def start_recording(server, browser):
    browser.get(server.base + "/")
    button(browser, "New Photo or Video").click()
    in_picker(browser)
    radio(browser, "Video").click()
    button(browser, "Record").click()


def test_use_video_ends_the_upload_the_recording_streamed(streaming_server, camera_browser):
    start_recording(streaming_server, camera_browser)
    wait(camera_browser).until(lambda driver: driver.find_element(By.ID, "elapsed").text.startswith("0:03"))
    # Pieces are on the server before Stop.
    streamed = uploads(streaming_server)
    assert len(streamed) == 1 and streamed[0][1] == "receiving" and streamed[0][4] is None and streamed[0][5] > 0
    button(camera_browser, "Stop").click()
    button(camera_browser, "Use Video").click()
    wait(camera_browser, 120).until(lambda driver: uploads(streaming_server)[0][1] == "done")
    upload_id, _, asset_id, source, length, received = uploads(streaming_server)[0]
    assert source == "camera" and length == received
    assert len(streaming_server.call("GET", "/api/assets?source=savedPhotosAlbum")["assets"]) <= 1


def test_a_page_closed_mid_recording_leaves_all_but_its_last_second(streaming_server, camera_browser, tmp_path):
    """What a browser gets of the recording (/media/<id>/video) says how long it is, within a
    second of what was recorded, and Chromium seeks in it: a MediaRecorder WebM says neither."""
    start_recording(streaming_server, camera_browser)
    wait(camera_browser, 60).until(lambda driver: driver.find_element(By.ID, "elapsed").text.startswith("0:10"))
    camera_browser.get("about:blank")
    deadline = time.time() + 60
    while time.time() < deadline and [row[1] for row in uploads(streaming_server)] != ["done"]:
        time.sleep(0.5)
    rows = uploads(streaming_server)
    assert [row[1] for row in rows] == ["done"], rows
    asset_id = rows[0][2]
    recorded = recorded_seconds(streaming_server, asset_id, tmp_path)
    assert recorded >= 9

    served, _ = streaming_server.playable_video(asset_id)
    (tmp_path / "served").write_bytes(served)
    assert abs(media.duration(tmp_path / "served") - recorded) <= 1, (media.duration(tmp_path / "served"), recorded)

    camera_browser.get(streaming_server.base + "/healthz")
    camera_browser.set_script_timeout(60)
    seek = camera_browser.execute_async_script("""
        const [url, done] = [arguments[0], arguments[arguments.length - 1]];
        const video = document.createElement('video');
        video.muted = true;
        video.preload = 'auto';
        video.addEventListener('error', () => done({error: video.error?.code ?? -1}));
        video.addEventListener('loadedmetadata', () => {
            const target = video.duration / 2;
            video.addEventListener('seeked', () => done({duration: video.duration, target, at: video.currentTime}), {once: true});
            video.currentTime = target;
        }, {once: true});
        video.src = url;
        document.body.append(video);""", f"/media/{asset_id}/video")
    assert "error" not in seek, seek
    assert abs(seek["duration"] - recorded) <= 1, seek
    assert abs(seek["at"] - seek["target"]) <= 0.5, seek


def test_retake_forgets_the_streamed_recording(streaming_server, camera_browser):
    start_recording(streaming_server, camera_browser)
    wait(camera_browser).until(lambda driver: driver.find_element(By.ID, "elapsed").text.startswith("0:02"))
    button(camera_browser, "Stop").click()
    button(camera_browser, "Retake").click()
    wait(camera_browser, 30).until(lambda driver: uploads(streaming_server) == [])


def open_video_camera(server, browser):
    """The picker's camera, on its own page (no frame), in video mode."""
    session = server.picker({"sourceType": "camera", "mediaTypes": ["public.movie"], "cameraCaptureMode": "video"})
    browser.get(server.base + session["url"])
    wait(browser).until(lambda driver: driver.execute_script("return document.querySelector('#preview').videoWidth > 0"))
    return session


def until_the_server_finishes_the_stream(server):
    """The server's sweep finishes a stream idle for --stream-idle; its asset."""
    deadline = time.time() + 60
    while time.time() < deadline:
        rows = uploads(server)
        if rows and rows[0][1] == "done":
            return rows[0][2]
        time.sleep(0.3)
    raise AssertionError(f"the stream was not finished: {uploads(server)}")


def test_use_video_after_the_server_finished_the_stream_in_review_picks_it(streaming_server, camera_browser):
    """Longer in review than --stream-idle: the server has finished the stream with every byte,
    and Use Video picks that asset (the page used to ask again and again, forever)."""
    session = open_video_camera(streaming_server, camera_browser)
    button(camera_browser, "Record").click()
    wait(camera_browser).until(lambda driver: driver.find_element(By.ID, "elapsed").text.startswith("0:02"))
    button(camera_browser, "Stop").click()
    button(camera_browser, "Use Video")
    swept = until_the_server_finishes_the_stream(streaming_server)
    button(camera_browser, "Use Video").click()
    finished = streaming_server.session(session["id"], wait=60)
    assert finished["status"] == "finished" and finished["info"]["assetID"] == swept
    assert [row[0] for row in assets(streaming_server)] == [swept]


def test_retake_after_the_server_finished_the_stream_leaves_no_capture(streaming_server, camera_browser):
    open_video_camera(streaming_server, camera_browser)
    button(camera_browser, "Record").click()
    wait(camera_browser).until(lambda driver: driver.find_element(By.ID, "elapsed").text.startswith("0:02"))
    button(camera_browser, "Stop").click()
    swept = until_the_server_finishes_the_stream(streaming_server)
    assert assets(streaming_server) == [(swept, 1)], "an unsaved capture, until Retake"
    button(camera_browser, "Retake").click()
    wait(camera_browser, 30).until(lambda driver: uploads(streaming_server) == [] and assets(streaming_server) == [])


def test_an_outage_longer_than_the_idle_time_still_gives_the_whole_recording(streaming_server, camera_browser, tmp_path):
    """The network goes for longer than --stream-idle mid-recording: the server finishes the
    stream with what it had, and Use Video sends the whole recording instead (the part the
    server made is deleted), which the pick then is."""
    session = open_video_camera(streaming_server, camera_browser)
    button(camera_browser, "Record").click()
    started = time.time()
    wait(camera_browser).until(lambda driver: driver.find_element(By.ID, "elapsed").text.startswith("0:02"))
    camera_browser.set_network_conditions(offline=True, latency=0, download_throughput=0, upload_throughput=0)
    swept = until_the_server_finishes_the_stream(streaming_server)
    camera_browser.set_network_conditions(offline=False, latency=0, download_throughput=-1, upload_throughput=-1)
    time.sleep(2)
    button(camera_browser, "Stop").click()
    recorded_for = time.time() - started
    button(camera_browser, "Use Video").click()
    finished = streaming_server.session(session["id"], wait=60)
    assert finished["status"] == "finished"
    picked = finished["info"]["assetID"]
    assert picked != swept
    assert [row[0] for row in assets(streaming_server)] == [picked], "the part the server made is gone"
    whole = recorded_seconds(streaming_server, picked, tmp_path)
    assert whole >= recorded_for - 2, (whole, recorded_for)
