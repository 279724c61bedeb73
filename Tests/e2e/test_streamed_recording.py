"""Recordings streamed while they are shot: Use Video only ends the upload the recording already
made, and a page closed mid-recording leaves an asset of all but its last second."""
import sqlite3
import subprocess
import time

import pytest
from selenium.webdriver.common.by import By

from conftest import Server
from pages import button, in_picker, wait


@pytest.fixture
def streaming_server():
    # Streams idle for 2 s are finished by the server, so the test need not wait the default 30.
    running = Server(arguments=["--stream-idle", "2"])
    yield running
    running.stop()


def uploads(server):
    with sqlite3.connect(f"file:{server.data / 'data' / 'library.sqlite'}?mode=ro", uri=True, timeout=10) as db:
        return db.execute("SELECT id, state, asset_id, source, length, received FROM uploads").fetchall()


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
    browser.find_element(By.XPATH, "//button[@role='radio' and normalize-space()='Video']").click()
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
    start_recording(streaming_server, camera_browser)
    wait(camera_browser, 60).until(lambda driver: driver.find_element(By.ID, "elapsed").text.startswith("0:10"))
    camera_browser.get("about:blank")
    deadline = time.time() + 60
    while time.time() < deadline and [row[1] for row in uploads(streaming_server)] != ["done"]:
        time.sleep(0.5)
    rows = uploads(streaming_server)
    assert [row[1] for row in rows] == ["done"], rows
    assert recorded_seconds(streaming_server, rows[0][2], tmp_path) >= 9


def test_retake_forgets_the_streamed_recording(streaming_server, camera_browser):
    start_recording(streaming_server, camera_browser)
    wait(camera_browser).until(lambda driver: driver.find_element(By.ID, "elapsed").text.startswith("0:02"))
    button(camera_browser, "Stop").click()
    button(camera_browser, "Retake").click()
    wait(camera_browser, 30).until(lambda driver: uploads(streaming_server) == [])
