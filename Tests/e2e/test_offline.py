"""The installable web app: a manifest, a service worker that keeps the shell, and a capture
taken while the server is down kept in the browser and uploaded once the server is back."""
import hashlib
import json
import sqlite3

from selenium.webdriver.common.by import By

from conftest import outbox_digests
from pages import back_to_app, button, in_picker, shell_kept_offline, wait




def test_the_app_is_installable(server, browser):
    browser.get(server.base + "/")
    manifest = json.loads(server.fetch("/manifest.webmanifest")[0])
    assert manifest["start_url"] == "/" and manifest["display"] == "standalone"
    for icon in manifest["icons"]:
        body, headers = server.fetch(icon["src"])
        assert headers["Content-Type"].startswith("image/") and len(body) > 100
    assert browser.find_element(By.CSS_SELECTOR, "link[rel=manifest]").get_attribute("href").endswith("/manifest.webmanifest")
    worker, headers = server.fetch("/sw.js")
    assert headers["Content-Type"].startswith("text/javascript")
    assert b'"/app/camera.js"' in worker and b'"/picker/offline"' in worker


def test_a_capture_taken_offline_is_uploaded_when_the_server_is_back(server, camera_browser, screenshots):
    browser = camera_browser
    browser.get(server.base + "/")
    shell_kept_offline(browser)

    server.halt()
    button(browser, "New Photo or Video").click()
    in_picker(browser)
    wait(browser).until(lambda driver: "cannot be reached" in driver.find_element(By.ID, "status").text)
    button(browser, "Take Photo").click()
    button(browser, "Use Photo").click()
    back_to_app(browser)
    wait(browser).until(lambda driver: "Waiting for the server" in driver.find_element(By.ID, "status").text)
    assert browser.find_element(By.ID, "image").is_displayed()
    screenshots(browser, "queued")
    kept = outbox_digests(browser)
    assert len(kept) == 1

    browser.refresh()  # the shell comes from the service worker; the capture from the outbox
    wait(browser).until(lambda driver: "Waiting for the server" in driver.find_element(By.ID, "status").text)

    server.start()
    wait(browser, 60).until(lambda driver: driver.find_element(By.ID, "status").text == "Saved to Camera Roll")
    assert outbox_digests(browser) == []
    saved = server.call("GET", "/api/assets?source=savedPhotosAlbum")["assets"]
    assert len(saved) == 1 and saved[0]["source"] == "camera"
    original, _ = server.fetch(f"/media/{saved[0]['id']}/original")
    assert hashlib.sha256(original).hexdigest() == kept[0], "the bytes taken are the bytes stored"
    with sqlite3.connect(f"file:{server.data / 'data' / 'library.sqlite'}?mode=ro", uri=True, timeout=10) as db:
        sent = db.execute("SELECT state, asset_id, source, save_to_camera_roll FROM uploads").fetchall()
    assert sent == [("done", saved[0]["id"], "camera", 1)], "sent as a resumable upload to the Camera Roll"
    wait(browser).until(lambda driver: (driver.find_element(By.ID, "image").get_attribute("src") or "").find(
        f"/media/{saved[0]['id']}/display?") >= 0)
    screenshots(browser, "uploaded")
