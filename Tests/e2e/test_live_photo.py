"""Live Photos in the library page: each corpus pair (an iPhone 6s JPEG and an iPhone 13 Pro
HEIC, each with its movie) is one item with a LIVE badge whichever half is uploaded first, and in
the viewer the LIVE button plays the motion in the still's place and comes back to the still; the
button works by keyboard too, and a press and hold plays the motion while held. A Motion Photo's
movie, extracted from the still, plays the same way."""
import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from pages import wait

PAIRS = [("photos/lychee__train.jpg", "videos/lychee__train.mov"),
         ("photos/pigallery2__IMG_7943.HEIC", "videos/pigallery2__IMG_7943_HEVC.MOV")]


def motion(browser):
    return browser.execute_script("""const video = document.querySelector('#viewer .live-photo video');
        const still = document.querySelector('#viewer .live-photo img');
        return video && {shown: !video.hidden, stillShown: !still.hidden, played: video.played.length > 0,
            playing: !video.paused && !video.ended, pressed: document.querySelector('.live-button').getAttribute('aria-pressed')};""")


def upload_pair(server, still_file, movie_file, still_first):
    """Uploads a pair's halves in the order given and checks the library lists one asset: the still."""
    if still_first:
        still, movie = server.upload(still_file), server.upload(movie_file)
    else:
        movie = server.upload(movie_file)
        still = server.upload(still_file)
    listed = server.call("GET", "/api/assets")["assets"]
    assert [asset["id"] for asset in listed] == [still["id"]]
    assert listed[0]["livePhoto"]["movie"] == movie["id"]
    return still


def open_in_viewer(server, browser, still):
    """The library page's one item, a Live Photo with its badge, opened in the viewer: its LIVE button."""
    browser.get(server.base + "/library")
    tile = wait(browser).until(lambda driver: driver.find_elements(By.CSS_SELECTOR, f"#grid .tile[data-asset='{still['id']}']"))[0]
    assert len(browser.find_elements(By.CSS_SELECTOR, "#grid .tile[data-asset]")) == 1, "the movie is no item of its own"
    assert tile.get_attribute("aria-label").startswith("Live Photo, ")
    assert tile.find_element(By.CSS_SELECTOR, ".badge.live").text == "LIVE"
    tile.click()
    wait(browser).until(lambda driver: driver.find_element(By.ID, "viewer").get_attribute("open") is not None)
    return wait(browser).until(lambda driver: driver.find_element(By.CSS_SELECTOR, "#viewer .live-button"))


@pytest.mark.parametrize("still_first", [True, False], ids=["still-first", "movie-first"])
@pytest.mark.parametrize("still_file,movie_file", PAIRS, ids=["lychee", "pigallery2"])
def test_a_live_photo_is_one_item_whose_motion_plays(server, browser, still_file, movie_file, still_first):
    still = upload_pair(server, still_file, movie_file, still_first)
    live = open_in_viewer(server, browser, still)
    assert motion(browser) == {"shown": False, "stillShown": True, "played": False, "playing": False, "pressed": "false"}
    live.click()
    wait(browser, 120).until(lambda driver: motion(driver)["played"] and motion(driver)["shown"])
    assert not motion(browser)["stillShown"], "the motion plays in the still's place"
    assert browser.execute_script("return document.querySelector('#viewer .live-photo video').videoWidth") > 0
    # Once, then the still again.
    wait(browser, 30).until(lambda driver: motion(driver) == {**motion(driver), "shown": False, "stillShown": True, "pressed": "false"})


def test_the_live_button_by_keyboard_and_a_press_and_hold(server, browser):
    still = upload_pair(server, *PAIRS[1], still_first=False)
    open_in_viewer(server, browser, still)

    # The keyboard: the LIVE button is a button.
    browser.execute_script("document.querySelector('#viewer .live-button').focus()")
    ActionChains(browser).send_keys(Keys.ENTER).perform()
    wait(browser, 120).until(lambda driver: motion(driver)["playing"])
    ActionChains(browser).send_keys(Keys.ENTER).perform()
    wait(browser).until(lambda driver: not motion(driver)["shown"] and motion(driver)["stillShown"])

    # Press and hold on the still: the motion plays while held, and stops when let go.
    still_image = browser.find_element(By.CSS_SELECTOR, "#viewer .live-photo img")
    ActionChains(browser).click_and_hold(still_image).perform()
    wait(browser, 30).until(lambda driver: motion(driver)["playing"])
    ActionChains(browser).release().perform()
    wait(browser).until(lambda driver: not motion(driver)["shown"] and motion(driver)["stillShown"])


def test_a_motion_photos_movie_is_extracted_and_plays(server, browser):
    still = server.upload("photos/androidx-media__sample_MP.heic")
    movie = server.call("GET", f"/api/assets/{still['id']}")["livePhoto"]["movie"]
    assert server.call("GET", f"/api/assets/{movie}")["livePhotoStill"] == still["id"]
    open_in_viewer(server, browser, still).click()
    wait(browser, 60).until(lambda driver: motion(driver)["played"])
    assert browser.execute_script("return document.querySelector('#viewer .live-photo video').videoWidth") == 80
