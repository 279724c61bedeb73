"""A Live Photo in the library page: the movie half uploaded first and the still after are one
item with a LIVE badge; in the viewer, the LIVE button (by click and by keyboard) plays the motion
in the still's place and comes back to the still, and a press and hold plays it while held."""
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from pages import wait

STILL = "photos/pigallery2__IMG_7943.HEIC"
MOVIE = "videos/pigallery2__IMG_7943_HEVC.MOV"


def motion(browser):
    return browser.execute_script("""const video = document.querySelector('.live-photo video');
        const still = document.querySelector('.live-photo img');
        return video && {shown: !video.hidden, stillShown: !still.hidden, played: video.played.length > 0,
            playing: !video.paused && !video.ended, pressed: document.querySelector('.live-button').getAttribute('aria-pressed')};""")


def test_a_live_photo_is_one_item_whose_motion_plays(server, browser):
    movie = server.upload(MOVIE)
    still = server.upload(STILL)
    listed = server.call("GET", "/api/assets")["assets"]
    assert [asset["id"] for asset in listed] == [still["id"]]
    assert listed[0]["livePhoto"]["movie"] == movie["id"]

    browser.get(server.base + "/library")
    tile = wait(browser).until(lambda driver: driver.find_elements(By.CSS_SELECTOR, f"#grid [data-asset='{still['id']}']"))[0]
    assert len(browser.find_elements(By.CSS_SELECTOR, "#grid [data-asset]")) == 1, "the movie is no item of its own"
    assert tile.get_attribute("aria-label").startswith("Live Photo, ")
    assert tile.find_element(By.CSS_SELECTOR, ".badge.live").text == "LIVE"

    tile.click()
    live = wait(browser).until(lambda driver: driver.find_element(By.CSS_SELECTOR, ".live-button"))
    assert motion(browser) == {"shown": False, "stillShown": True, "played": False, "playing": False, "pressed": "false"}
    live.click()
    wait(browser, 60).until(lambda driver: motion(driver)["played"] and motion(driver)["shown"])
    assert not motion(browser)["stillShown"], "the motion plays in the still's place"
    # Once, then the still again.
    wait(browser, 30).until(lambda driver: motion(driver) == {**motion(driver), "shown": False, "stillShown": True, "pressed": "false"})

    # The keyboard: the LIVE button is a button.
    browser.execute_script("document.querySelector('.live-button').focus()")
    ActionChains(browser).send_keys(Keys.ENTER).perform()
    wait(browser, 30).until(lambda driver: motion(driver)["playing"])
    ActionChains(browser).send_keys(Keys.ENTER).perform()
    wait(browser).until(lambda driver: not motion(driver)["shown"] and motion(driver)["stillShown"])

    # Press and hold on the still: the motion plays while held, and stops when let go.
    still_image = browser.find_element(By.CSS_SELECTOR, ".live-photo img")
    ActionChains(browser).click_and_hold(still_image).perform()
    wait(browser, 30).until(lambda driver: motion(driver)["playing"])
    ActionChains(browser).release().perform()
    wait(browser).until(lambda driver: not motion(driver)["shown"] and motion(driver)["stillShown"])


def test_a_motion_photos_movie_is_extracted_and_plays(server, browser):
    still = server.upload("photos/androidx-media__sample_MP.heic")
    movie = server.call("GET", f"/api/assets/{still['id']}")["livePhoto"]["movie"]
    assert server.call("GET", f"/api/assets/{movie}")["livePhotoStill"] == still["id"]
    browser.get(server.base + "/library")
    tile = wait(browser).until(lambda driver: driver.find_elements(By.CSS_SELECTOR, f"#grid [data-asset='{still['id']}']"))[0]
    assert tile.find_element(By.CSS_SELECTOR, ".badge.live").text == "LIVE"
    tile.click()
    wait(browser).until(lambda driver: driver.find_element(By.CSS_SELECTOR, ".live-button")).click()
    wait(browser, 60).until(lambda driver: motion(driver)["played"])
    assert browser.execute_script("return document.querySelector('.live-photo video').videoWidth") == 80
