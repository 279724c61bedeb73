"""The picker's camera in Chromium with its fake camera: photos, recordings, retakes, uploads
that fail and are retried or are cut and go on by themselves, and the camera's refusal on a page
that is not secure."""
import sqlite3
import time

from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as seen

import media
from conftest import Server, make_browser, outbox_digests
from cutting_proxy import CuttingProxy
from pages import button, wait


def open_camera(server, browser, **configuration):
    session = server.picker({"sourceType": "camera", **configuration})
    browser.get(server.base + session["url"])
    wait(browser).until(lambda driver: driver.execute_script("return document.querySelector('#preview').videoWidth > 0"))
    assert browser.find_element(By.ID, "picker-title").text == "Camera"
    return session


def test_take_photo_and_use_it(server, camera_browser, screenshots, tmp_path):
    session = open_camera(server, camera_browser)
    assert not camera_browser.find_element(By.CSS_SELECTOR, "[data-mode=video]").is_displayed()
    screenshots(camera_browser, "preview")
    button(camera_browser, "Take Photo").click()
    button(camera_browser, "Use Photo")
    screenshots(camera_browser, "review")
    button(camera_browser, "Use Photo").click()
    finished = server.session(session["id"], wait=30)
    assert finished["status"] == "finished"
    info = finished["info"]
    assert info["mediaType"] == "public.image"
    asset = server.call("GET", f"/api/assets/{info['assetID']}")
    assert asset["source"] == "camera" and asset["unsaved"] is True and asset["inCameraRoll"] is False
    original, _ = server.fetch(info["originalImage"])
    (tmp_path / "photo").write_bytes(original)
    # The still has the camera's full resolution, larger than the preview's element.
    assert media.size(tmp_path / "photo") == (asset["width"], asset["height"])
    assert asset["width"] >= 1280
    listed = server.call("GET", "/api/assets?source=photoLibrary")["assets"]
    assert info["assetID"] not in [item["id"] for item in listed], "a capture is in no album until the app saves it"


def test_retake_discards_the_first_shot(server, camera_browser):
    session = open_camera(server, camera_browser)
    button(camera_browser, "Take Photo").click()
    button(camera_browser, "Retake").click()
    assert camera_browser.find_element(By.ID, "preview").is_displayed()
    assert server.session(session["id"])["status"] == "pending"
    button(camera_browser, "Take Photo").click()
    button(camera_browser, "Use Photo").click()
    assert server.session(session["id"], wait=30)["status"] == "finished"
    # Only the shot that was used reached the server.
    assert len(server.call("GET", "/api/picker/sessions/" + session["id"])["info"]["assetID"]) > 0


def test_record_two_seconds_of_video(server, camera_browser, screenshots, tmp_path):
    session = open_camera(server, camera_browser, mediaTypes=["public.image", "public.movie"], cameraCaptureMode="video",
                          videoMaximumDuration=30)
    modes = camera_browser.find_element(By.ID, "modes")
    assert modes.is_displayed()
    button(camera_browser, "Record").click()
    wait(camera_browser).until(lambda driver: driver.find_element(By.ID, "elapsed").text.startswith("0:02"))
    screenshots(camera_browser, "recording")
    assert camera_browser.find_element(By.ID, "elapsed").text.endswith("/ 0:30")
    button(camera_browser, "Stop").click()
    button(camera_browser, "Use Video").click()
    finished = server.session(session["id"], wait=60)
    assert finished["status"] == "finished"
    info = finished["info"]
    assert info["mediaType"] == "public.movie"
    assert info["mediaURL"].startswith(f"/media/{info['assetID']}/compatible?cap=")
    movie, headers = server.playable_video(info["assetID"])
    assert headers["Content-Type"].startswith("video/")
    (tmp_path / "movie").write_bytes(movie)
    assert 1.5 <= media.duration(tmp_path / "movie") <= 4.0


def test_recording_stops_at_the_maximum_duration(server, camera_browser):
    open_camera(server, camera_browser, mediaTypes=["public.movie"], cameraCaptureMode="video", videoMaximumDuration=1)
    assert not camera_browser.find_element(By.ID, "modes").is_displayed(), "one media type: no mode switch"
    button(camera_browser, "Record").click()
    button(camera_browser, "Use Video")
    assert camera_browser.find_element(By.ID, "review-video").is_displayed()


def test_a_failed_upload_is_kept_and_can_be_retried(server, camera_browser, screenshots):
    session = open_camera(server, camera_browser)
    button(camera_browser, "Take Photo").click()
    camera_browser.set_network_conditions(offline=True, latency=0, download_throughput=0, upload_throughput=0)
    button(camera_browser, "Use Photo").click()
    retry = button(camera_browser, "Retry")
    assert "kept on this device" in camera_browser.find_element(By.ID, "upload-message").text
    assert len(outbox_digests(camera_browser)) == 1, "kept in the outbox too, should the page be closed"
    screenshots(camera_browser, "failed")
    assert server.session(session["id"])["status"] == "pending"
    camera_browser.set_network_conditions(offline=False, latency=0, download_throughput=-1, upload_throughput=-1)
    retry.click()
    assert server.session(session["id"], wait=30)["status"] == "finished"
    assert outbox_digests(camera_browser) == [], "and out of the outbox once the server has it"


def test_the_camera_needs_a_secure_page(screenshots):
    # camera.test resolves to loopback, but Chromium treats only localhost and loopback
    # addresses as secure over plain HTTP: this is how a LAN address looks to it. The server
    # answers to that name only because it is told to (--name).
    server = Server(names="camera.test")
    browser = make_browser(camera=True, host_rules="MAP camera.test 127.0.0.1")
    try:
        session = server.picker({"sourceType": "camera"})
        browser.get(f"http://camera.test:{server.port}{session['url']}")
        alert = wait(browser).until(seen.visibility_of_element_located((By.CSS_SELECTOR, "[role=alertdialog]")))
        assert "HTTPS" in alert.find_element(By.ID, "alert-message").text
        screenshots(browser, "alert")
        button(browser, "Drat!").click()
        assert server.session(session["id"], wait=10)["status"] == "cancelled"
    finally:
        browser.quit()
        server.stop()


def test_cancel_while_recording_gives_nothing(server, camera_browser):
    session = open_camera(server, camera_browser, mediaTypes=["public.movie"], cameraCaptureMode="video")
    button(camera_browser, "Record").click()
    time.sleep(0.5)
    button(camera_browser, "Cancel").click()
    assert server.session(session["id"], wait=10)["status"] == "cancelled"
    assert server.call("GET", "/api/assets?source=photoLibrary")["assets"] == []


def test_a_photo_taken_for_editing_goes_through_move_and_scale(server, camera_browser, screenshots):
    session = open_camera(server, camera_browser, allowsEditing=True)
    button(camera_browser, "Take Photo").click()
    button(camera_browser, "Use Photo").click()
    back = wait(camera_browser).until(seen.element_to_be_clickable((By.ID, "editor-back")))
    assert back.text == "Retake"
    back.click()
    # The page reports Back as an event of its own: the session moves once the server has it.
    wait(camera_browser).until(lambda driver: server.session(session["id"])["state"] == "capturing")
    wait(camera_browser).until(lambda driver: driver.execute_script("return document.querySelector('#preview').videoWidth > 0"))
    button(camera_browser, "Take Photo").click()
    button(camera_browser, "Use Photo").click()
    wait(camera_browser).until(seen.visibility_of_element_located((By.ID, "editor-title")))
    camera_browser.find_element(By.ID, "crop-stage").send_keys("+")
    screenshots(camera_browser, "move-and-scale")
    button(camera_browser, "Choose").click()
    info = server.session(session["id"], wait=30)["info"]
    assert info["mediaType"] == "public.image"
    assert info["editedImage"].startswith(f"/media/{info['assetID']}/edited?cap=") and info["cropRect"]["width"] == info["cropRect"]["height"]


def test_switch_camera_cycles_through_cameras_that_do_not_say_which_way_they_face(server, two_camera_browser):
    browser = two_camera_browser
    session = open_camera(server, browser)
    flip = button(browser, "Switch Camera")
    device = "return document.querySelector('#preview').srcObject?.getVideoTracks()[0]?.getSettings().deviceId"
    wait(browser).until(lambda driver: driver.execute_script(device))
    first = browser.execute_script(device)
    cameras = browser.execute_script(
        "return navigator.mediaDevices.enumerateDevices()"
        ".then((devices) => devices.filter((d) => d.kind === 'videoinput').map((d) => d.deviceId))")
    assert len(cameras) == 2 and first in cameras
    flip.click()
    wait(browser).until(lambda driver: driver.execute_script(device) not in (None, first))
    second = browser.execute_script(device)
    assert second in cameras, "the other camera, not the same one asked for the other side"
    flip.click()
    wait(browser).until(lambda driver: driver.execute_script(device) == first)
    button(browser, "Take Photo").click()
    button(browser, "Use Photo").click()
    assert server.session(session["id"], wait=30)["status"] == "finished"


def test_a_photo_goes_up_resumably_and_a_cut_connection_does_not_stop_it(server, camera_browser):
    """Through a proxy that cuts the piece part-way, as a phone's network would: the capture is a
    tus upload (/api/uploads, source=camera, no album), which goes on by itself from the bytes
    the server kept, and the pick finishes with it."""
    proxy = CuttingProxy(server.port, [30000])
    try:
        session = server.picker({"sourceType": "camera"})
        camera_browser.get(proxy.base + session["url"])
        wait(camera_browser).until(lambda driver: driver.execute_script("return document.querySelector('#preview').videoWidth > 0"))
        button(camera_browser, "Take Photo").click()
        button(camera_browser, "Use Photo").click()
        finished = server.session(session["id"], wait=60)
    finally:
        proxy.close()
    assert finished["status"] == "finished"
    assert proxy.cuts == 1
    with sqlite3.connect(f"file:{server.data / 'data' / 'library.sqlite'}?mode=ro", uri=True, timeout=10) as db:
        rows = db.execute("SELECT state, asset_id, source, save_to_camera_roll, length, received FROM uploads").fetchall()
    assert len(rows) == 1, rows
    state, asset_id, source, saved, length, received = rows[0]
    assert (state, asset_id, source, saved) == ("done", finished["info"]["assetID"], "camera", 0)
    assert length == received > 30000
    asset = server.call("GET", f"/api/assets/{asset_id}")
    assert asset["unsaved"] is True and asset["byteSize"] == length
