"""Move and Scale and trimming in the picker, checked against what the server renders."""
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.actions.wheel_input import ScrollOrigin
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as seen

import media
from conftest import CORPUS
from pages import button, wait


def crop_size(browser):
    width, height = browser.find_element(By.ID, "crop-size").text.split(" × ")
    return int(width), int(height)


def open_editor(server, browser, corpus_path):
    photo = server.upload(corpus_path)
    session = server.picker({"sourceType": "photoLibrary", "allowsEditing": True})
    browser.get(server.base + session["url"])
    wait(browser).until(seen.element_to_be_clickable((By.CSS_SELECTOR, f"[data-asset='{photo['id']}']"))).click()
    wait(browser).until(lambda driver: driver.execute_script("return document.querySelector('#crop-image').complete "
                                                             "&& document.querySelector('#crop-image').naturalWidth > 0"))
    return photo, session


def check_rendered_crop(server, info, corpus_path, tmp_path):
    crop = info["cropRect"]
    rendered, headers = server.fetch(f"{info['editedImage']}&w={crop['width']}&h={crop['height']}&dpr=1")
    (tmp_path / "edited").write_bytes(rendered)
    assert (int(headers["X-Image-Width"]), int(headers["X-Image-Height"])) == (crop["width"], crop["height"])
    assert media.size(tmp_path / "edited") == (crop["width"], crop["height"])
    difference = media.mean_difference(CORPUS / corpus_path, crop, tmp_path / "edited", tmp_path)
    assert difference < 4, f"the rendered crop differs from the original's pixels there by {difference}"


def test_move_and_scale_gives_the_crop_the_server_renders(server, browser, shot, tmp_path):
    corpus_path = "photos/lychee__aarhus.jpg"
    photo, session = open_editor(server, browser, corpus_path)
    assert browser.find_element(By.ID, "editor-title").text == "Move and Scale"
    assert crop_size(browser) == (3024, 3024), "the least zoom fills the square with the image's short side"
    stage = browser.find_element(By.ID, "crop-stage")
    for _ in range(3):
        stage.send_keys("+")
    zoomed = crop_size(browser)
    assert zoomed[0] < 3024 and zoomed[0] == zoomed[1]
    ActionChains(browser).scroll_from_origin(ScrollOrigin.from_element(stage), 0, -200).perform()
    assert crop_size(browser)[0] < zoomed[0], "the wheel zooms in too"
    ActionChains(browser).drag_and_drop_by_offset(stage, 80, 40).perform()
    stage.send_keys(Keys.ARROW_DOWN)
    square = browser.find_element(By.XPATH, "//button[@role='radio' and normalize-space()='Square']")
    assert square.get_attribute("tabindex") == "0", "the chosen aspect is the group's one Tab stop"
    square.send_keys(Keys.ARROW_RIGHT)
    assert browser.switch_to.active_element.text == "Original"
    assert browser.switch_to.active_element.get_attribute("aria-checked") == "true"
    browser.switch_to.active_element.send_keys(Keys.ARROW_RIGHT)
    shown = crop_size(browser)
    assert abs(shown[0] / shown[1] - 4 / 3) < 0.01
    assert browser.find_element(By.XPATH, "//button[@role='radio' and normalize-space()='4:3']").get_attribute("aria-checked") == "true"
    shot("move-and-scale")
    button(browser, "Choose").click()
    finished = server.session(session["id"], wait=30)
    assert finished["status"] == "finished"
    info = finished["info"]
    crop = info["cropRect"]
    assert (crop["width"], crop["height"]) == shown
    assert crop["x"] + crop["width"] <= photo["width"] and crop["y"] + crop["height"] <= photo["height"]
    assert (crop["x"], crop["y"]) != ((photo["width"] - crop["width"]) // 2, (photo["height"] - crop["height"]) // 2), "moved"
    assert info["originalImage"].startswith(f"/media/{photo['id']}/original?cap=")
    assert server.call("GET", f"/api/assets/{photo['id']}").get("edit") is None, "the crop is the pick's; the library's asset never changes"
    check_rendered_crop(server, info, corpus_path, tmp_path)


def test_the_crop_is_in_upright_pixels(server, browser, tmp_path):
    corpus_path = "photos/exifsamples__canon_hdr_YES.jpg"  # stored 2048x1536, EXIF orientation 6
    photo, session = open_editor(server, browser, corpus_path)
    assert (photo["width"], photo["height"]) == (1536, 2048)
    stage = browser.find_element(By.ID, "crop-stage")
    stage.send_keys("+")
    for _ in range(8):
        stage.send_keys(Keys.SHIFT, Keys.ARROW_UP)
    button(browser, "Choose").click()
    info = server.session(session["id"], wait=30)["info"]
    assert info["cropRect"]["y"] + info["cropRect"]["height"] == 2048, "moving the image up moves the crop down"
    check_rendered_crop(server, info, corpus_path, tmp_path)


def test_back_leaves_the_editor_for_the_grid(server, browser):
    photo, session = open_editor(server, browser, "photos/lychee__train.jpg")
    other = server.upload("photos/lychee__aarhus.jpg")
    button(browser, "Back").click()
    # The page reports Back as an event of its own: the session moves once the server has it.
    wait(browser).until(lambda driver: server.session(session["id"])["state"] == "picking")
    grid_item = wait(browser).until(seen.element_to_be_clickable((By.CSS_SELECTOR, f"[data-asset='{photo['id']}']")))
    assert grid_item.is_displayed()
    browser.refresh()
    wait(browser).until(seen.element_to_be_clickable((By.CSS_SELECTOR, f"[data-asset='{other['id']}']"))).click()
    button(browser, "Choose").click()
    info = server.session(session["id"], wait=30)["info"]
    assert info["assetID"] == other["id"] and info["cropRect"]["width"] == info["cropRect"]["height"]


def test_trim_a_video(server, browser, shot, tmp_path):
    movie = server.upload("videos/pigallery2__video_rotate.mp4")
    session = server.picker({"sourceType": "photoLibrary", "mediaTypes": ["public.movie"], "allowsEditing": True})
    browser.get(server.base + session["url"])
    tile = wait(browser).until(seen.element_to_be_clickable((By.CSS_SELECTOR, f"[data-asset='{movie['id']}']")))
    assert tile.get_attribute("aria-label").startswith("Video, ")
    assert tile.find_element(By.CLASS_NAME, "badge").text == "0:14"
    tile.click()
    choose = wait(browser, 120).until(seen.element_to_be_clickable((By.ID, "trim-choose")))
    start = browser.find_element(By.ID, "trim-start")
    end = browser.find_element(By.ID, "trim-end")
    start.send_keys(Keys.PAGE_UP, Keys.PAGE_UP)
    end.send_keys(Keys.PAGE_DOWN, Keys.PAGE_DOWN, Keys.PAGE_DOWN)
    assert start.get_attribute("aria-valuenow") == "2"
    expected_end = round(movie["duration"] - 3, 3)
    assert abs(float(end.get_attribute("aria-valuenow")) - expected_end) < 0.0015
    wait(browser).until(lambda driver: len(driver.find_elements(By.CSS_SELECTOR, "#filmstrip-frames canvas")) == 8)
    shot("trim")
    choose.click()
    finished = server.session(session["id"], wait=30)
    assert finished["status"] == "finished"
    info = finished["info"]
    assert info["mediaURL"].startswith(f"/media/{movie['id']}/trimmed?cap=")
    assert info["trim"]["start"] == 2 and abs(info["trim"]["end"] - expected_end) < 0.0015
    trimmed, _ = server.fetch(info["mediaURL"])
    (tmp_path / "trimmed.mp4").write_bytes(trimmed)
    assert abs(media.duration(tmp_path / "trimmed.mp4") - (expected_end - 2)) < 0.25


def test_an_untouched_trim_gives_the_whole_video(server, browser):
    movie = server.upload("videos/photoprism__blue-go-video.mp4")
    session = server.picker({"sourceType": "photoLibrary", "mediaTypes": ["public.movie"], "allowsEditing": True})
    browser.get(server.base + session["url"])
    wait(browser).until(seen.element_to_be_clickable((By.CSS_SELECTOR, f"[data-asset='{movie['id']}']"))).click()
    wait(browser, 120).until(seen.element_to_be_clickable((By.ID, "trim-choose"))).click()
    info = server.session(session["id"], wait=30)["info"]
    assert info["mediaURL"].startswith(f"/media/{movie['id']}/compatible?cap=") and "trim" not in info
