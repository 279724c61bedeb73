"""The Camera app at / in Chromium: the book's two buttons, the picker presented over the page,
the chosen image at exactly the view's size × devicePixelRatio, a recorded video in a player,
Cancel, reload, resize, and no camera button without a camera."""
import json

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as seen

from conftest import CORPUS, Server, make_browser
from pages import back_to_app, button, in_picker, radio, wait


def shown_image(browser):
    """The image's pixel size and the view's whole CSS size, once the image has loaded."""
    wait(browser).until(lambda driver: driver.execute_script(
        "const i = document.querySelector('#image'); return !i.hidden && i.complete && i.naturalWidth > 0"))
    return browser.execute_script("""
        const image = document.querySelector('#image');
        const view = document.querySelector('#view').getBoundingClientRect();
        return {natural: [image.naturalWidth, image.naturalHeight], view: [Math.round(view.width), Math.round(view.height)],
                dpr: window.devicePixelRatio, src: image.getAttribute('src')};""")


def assert_exact_fit(shown, source_size):
    """The book's shrinkImage: aspect kept, one side equal to the view's side × dpr, the other no
    larger; never larger than the source."""
    box = [round(side * shown["dpr"]) for side in shown["view"]]
    width, height = shown["natural"]
    if width >= source_size[0] and height >= source_size[1]:
        assert (width, height) == tuple(source_size), "not upscaled past the source"
        return
    assert (width == box[0] and height <= box[1]) or (height == box[1] and width <= box[0]), (shown, box)
    assert abs(width / height - source_size[0] / source_size[1]) < 0.02


@pytest.fixture(params=[1, 2], ids=["dpr1", "dpr2"])
def scaled_camera_browser(request):
    driver = make_browser(camera=True, scale=request.param)
    yield driver
    driver.quit()


def test_new_photo_through_move_and_scale_is_shown_at_exact_size(server, scaled_camera_browser, screenshots):
    browser = scaled_camera_browser
    browser.get(server.base + "/")
    assert browser.execute_script("return window.devicePixelRatio") in (1, 2)
    screenshots(browser, "empty")
    button(browser, "New Photo or Video").click()
    in_picker(browser)
    button(browser, "Take Photo").click()
    button(browser, "Use Photo").click()
    wait(browser).until(seen.visibility_of_element_located((By.ID, "editor-title")))
    browser.find_element(By.ID, "crop-stage").send_keys("+")
    screenshots(browser, "move-and-scale")
    crop = browser.find_element(By.ID, "crop-size").text.split(" × ")
    button(browser, "Choose").click()
    back_to_app(browser)
    shown = shown_image(browser)
    assert "/edited?" in shown["src"]
    assert_exact_fit(shown, [int(side) for side in crop])
    assert browser.find_element(By.ID, "status").text == "Saved to Camera Roll"
    screenshots(browser, "photo")
    saved = server.call("GET", "/api/assets?source=savedPhotosAlbum")["assets"]
    assert len(saved) == 1 and saved[0]["source"] == "camera"


def test_a_recorded_video_plays_in_the_view(server, camera_browser, screenshots):
    camera_browser.get(server.base + "/")
    button(camera_browser, "New Photo or Video").click()
    in_picker(camera_browser)
    radio(camera_browser, "Video").click()
    button(camera_browser, "Record").click()
    wait(camera_browser).until(lambda driver: driver.find_element(By.ID, "elapsed").text.startswith("0:02"))
    button(camera_browser, "Stop").click()
    button(camera_browser, "Use Video").click()
    wait(camera_browser, 120).until(seen.element_to_be_clickable((By.ID, "trim-choose"))).click()
    back_to_app(camera_browser)
    assert not camera_browser.find_element(By.ID, "image").is_displayed(), "the image view and the player never show at once"
    video = wait(camera_browser, 120).until(seen.presence_of_element_located((By.CSS_SELECTOR, "#view video")))
    wait(camera_browser, 120).until(lambda driver: driver.execute_script("return arguments[0].readyState >= 2", video))
    camera_browser.execute_script("arguments[0].muted = true; return arguments[0].play()", video)
    start = camera_browser.execute_script("return arguments[0].currentTime", video)
    wait(camera_browser).until(lambda driver: driver.execute_script("return arguments[0].currentTime", video) > start + 0.3)
    assert camera_browser.execute_script("return arguments[0].duration", video) > 1
    assert camera_browser.find_element(By.ID, "status").text == "Saved to Camera Roll", "the wait for the video does not clear it"
    assert not camera_browser.find_element(By.ID, "video-progress").is_displayed()
    screenshots(camera_browser, "video")
    # A new choice replaces the player rather than adding one.
    button(camera_browser, "Pick from Library").click()
    in_picker(camera_browser)
    wait(camera_browser).until(seen.element_to_be_clickable((By.CSS_SELECTOR, "[data-asset]"))).click()
    wait(camera_browser, 120).until(seen.element_to_be_clickable((By.ID, "trim-choose"))).click()
    back_to_app(camera_browser)
    wait(camera_browser, 120).until(lambda driver: len(driver.find_elements(By.CSS_SELECTOR, "#view video")) == 1)


def test_pick_from_library_cancel_reload_and_resize(server, browser, screenshots):
    photo = server.upload("photos/lychee__aarhus.jpg")
    browser.get(server.base + "/")
    assert not browser.find_element(By.ID, "new").is_displayed(), "no camera: New Photo or Video is hidden"
    button(browser, "Pick from Library").click()
    in_picker(browser)
    screenshots(browser, "picker")
    wait(browser).until(seen.element_to_be_clickable((By.CSS_SELECTOR, f"[data-asset='{photo['id']}']"))).click()
    button(browser, "Choose").click()
    back_to_app(browser)
    shown = shown_image(browser)
    assert shown["src"].startswith(f"/media/{photo['id']}/edited?")
    assert_exact_fit(shown, [3024, 3024])
    choice = browser.execute_script("return localStorage.getItem('cameraroll.lastChoice')")

    button(browser, "Pick from Library").click()
    in_picker(browser)
    button(browser, "Cancel").click()
    back_to_app(browser)
    assert shown_image(browser)["src"] == shown["src"], "Cancel changes nothing"
    assert browser.execute_script("return localStorage.getItem('cameraroll.lastChoice')") == choice

    browser.refresh()
    assert shown_image(browser)["src"] == shown["src"], "a reload shows the last choice"
    assert json.loads(choice)["assetID"] == photo["id"]

    browser.set_window_size(500, 800)
    wait(browser).until(lambda driver: shown_image(driver)["src"] != shown["src"])
    resized = shown_image(browser)
    assert_exact_fit(resized, [3024, 3024])
    screenshots(browser, "narrow")


def test_an_empty_camera_roll_is_an_empty_state_and_cancel_changes_nothing(server, browser):
    server.upload("photos/lychee__train.jpg")
    browser.get(server.base + "/")
    button(browser, "Pick from Camera Roll only").click()
    in_picker(browser)
    empty = wait(browser).until(seen.visibility_of_element_located((By.ID, "empty-state")))
    assert empty.find_element(By.TAG_NAME, "h2").text == "No Photos or Videos"
    assert not browser.find_element(By.ID, "alert").is_displayed()
    button(browser, "Cancel").click()
    back_to_app(browser)
    assert browser.find_element(By.ID, "placeholder").is_displayed()


def test_dark_mode(server, browser, screenshots):
    server.upload("photos/lychee__aarhus.jpg")
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
    browser.get(server.base + "/")
    button(browser, "Pick from Library").click()
    in_picker(browser)
    wait(browser).until(seen.element_to_be_clickable((By.CSS_SELECTOR, "[data-asset]")))
    screenshots(browser, "picker")
    background = browser.execute_script("return getComputedStyle(document.body).backgroundColor")
    assert sum(int(part) for part in background[background.index("(") + 1:-1].split(",")[:3]) < 150, background
    browser.switch_to.default_content()
    screenshots(browser, "app")


@pytest.mark.parametrize("save", [True, False], ids=["saved", "unsaved"])
def test_on_plain_http_the_devices_camera_app_takes_the_photo(save, screenshots):
    # camera.test resolves to loopback, but over plain HTTP Chromium treats it as a LAN address:
    # no secure context, so no getUserMedia; a phone's file input with `capture` still works.
    server = Server(names="camera.test")
    browser = make_browser(camera=True, host_rules="MAP camera.test 127.0.0.1")
    try:
        browser.get(f"http://camera.test:{server.port}/")
        assert browser.execute_script("return window.isSecureContext") is False
        note = wait(browser).until(seen.visibility_of_element_located((By.ID, "camera-note")))
        assert "The live camera needs a secure page" in note.text
        take = wait(browser).until(seen.element_to_be_clickable((By.ID, "take-photo")))
        assert browser.find_element(By.ID, "record-video").is_displayed() and not browser.find_element(By.ID, "new").is_displayed()
        assert browser.find_element(By.ID, "photo-input").get_attribute("capture") == "environment"
        if not save:
            browser.find_element(By.ID, "save-captures").click()
        screenshots(browser, "capture-fallback")
        browser.find_element(By.ID, "photo-input").send_keys(str(CORPUS / "photos" / "exifsamples__Canon_40D.jpg"))
        status = browser.find_element(By.ID, "status")
        wait(browser).until(lambda driver: ("Saved to Camera Roll" if save else "Not saved") in status.text)
        shown = shown_image(browser)
        assert shown["src"].startswith("/media/"), "the library's asset once the server has it"
        kept = server.call("GET", f"/api/assets?{'album=cameraRoll' if save else 'collection=unsavedCaptures'}")["assets"]
        assert [asset["originalFilename"] for asset in kept] == ["exifsamples__Canon_40D.jpg"]
        assert len(server.call("GET", "/api/assets?album=cameraRoll")["assets"]) == (1 if save else 0)
        if not save:
            browser.find_element(By.ID, "save-now").click()
            wait(browser).until(lambda driver: "Saved to Camera Roll" in status.text)
            assert len(server.call("GET", "/api/assets?album=cameraRoll")["assets"]) == 1
        assert take.is_displayed()
    finally:
        browser.quit()
        server.stop()
