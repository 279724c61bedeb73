"""An album shared in the Photos app: the owner (this computer) shares it with Anna as an editor,
then makes her a viewer, then stops sharing; Anna, signed in in a browser of her own, sees it
among her albums as shared by the owner, with what her role lets her do."""
import json

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as seen

from conftest import CORPUS, open_library, tiles
from pages import wait


@pytest.fixture
def annas_browser(second_browser):
    return second_browser


def sign_in_as_anna(browser, base):
    browser.get(base + "/signin?next=/library")
    wait(browser).until(seen.visibility_of_element_located((By.ID, "user"))).send_keys("anna")
    browser.find_element(By.ID, "password").send_keys("anna's password", Keys.ENTER)
    wait(browser).until(lambda driver: "/library" in driver.current_url and "/signin" not in driver.current_url)


def album_cards(browser):
    return browser.execute_script("return [...document.querySelectorAll('#albums .album-card:not(.new)')]"
                                  ".map((card) => card.getAttribute('aria-label'))")


def test_an_album_shared_with_an_editor_then_a_viewer(family, browser, annas_browser, shot):
    photo = family.upload("photos/exifsamples__Canon_40D.jpg")
    album = family.call("POST", "/api/albums", body=json.dumps({"title": "Summer"}).encode(),
                        headers={"Content-Type": "application/json"})
    family.call("POST", f"/api/albums/{album['id']}/assets", body=json.dumps({"ids": [photo["id"]]}).encode(),
                headers={"Content-Type": "application/json"})

    open_library(browser, family, f"#/album/{album['id']}")
    wait(browser).until(seen.element_to_be_clickable((By.ID, "share-album"))).click()
    sheet = wait(browser).until(seen.visibility_of_element_located((By.ID, "album-share")))
    sheet.find_element(By.ID, "share-name").send_keys("anna")
    sheet.find_element(By.CSS_SELECTOR, "#share-role option[value='editor']").click()
    sheet.find_element(By.CSS_SELECTOR, "button[value='share']").click()
    wait(browser).until(lambda driver: "anna can add and view" in sheet.find_element(By.CLASS_NAME, "share-status").text)
    names = [row.text.splitlines()[0] for row in sheet.find_elements(By.CSS_SELECTOR, ".album-members li")]
    assert names == ["owner", "anna"]
    shot("shared")

    sign_in_as_anna(annas_browser, family.base)
    open_library(annas_browser, family, "#/albums")
    wait(annas_browser).until(lambda driver: "Summer, 1 item, shared by owner" in album_cards(driver))
    open_library(annas_browser, family, f"#/album/{album['id']}")
    wait(annas_browser).until(lambda driver: [tile["id"] for tile in tiles(driver)] == [photo["id"]])
    said = wait(annas_browser).until(seen.visibility_of_element_located((By.ID, "album-shared-by"))).text
    assert said == "Shared by owner · you can add your own"
    for owners_only in ("share-album", "rename-album", "delete-album"):
        assert not annas_browser.find_element(By.ID, owners_only).is_displayed()

    # A viewer now: she is told so.
    sheet.find_element(By.CSS_SELECTOR, "select[aria-label='What anna can do'] option[value='viewer']").click()
    wait(browser).until(lambda driver: "anna can view now" in sheet.find_element(By.CLASS_NAME, "share-status").text)
    annas_browser.refresh()
    wait(annas_browser).until(lambda driver: driver.find_element(By.ID, "album-shared-by").text == "Shared by owner · you can view")

    # No longer shared: the album is gone from her albums.
    sheet.find_element(By.CSS_SELECTOR, "[aria-label='Stop sharing with anna']").click()
    wait(browser).until(lambda driver: len(sheet.find_elements(By.CSS_SELECTOR, ".album-members li")) == 1)
    sheet.send_keys(Keys.ESCAPE)
    open_library(annas_browser, family, "#/albums")
    wait(annas_browser).until(lambda driver: album_cards(driver) == ["Camera Roll, 0 items"])


def annas_upload(server, browser, corpus_path):
    """Uploads a photo as Anna, with her signed-in browser's session: its id."""
    cookie = {"Cookie": f"cameraroll_session={browser.get_cookie('cameraroll_session')['value']}"}
    token = server.call("GET", "/api/session", headers=cookie)["csrfToken"]
    return server.call("POST", "/api/assets", body=(CORPUS / corpus_path).read_bytes(),
                       headers={**cookie, "X-CSRF-Token": token, "Content-Type": "application/octet-stream"})["id"]


def test_a_library_shared_with_a_partner(family, browser, annas_browser):
    photo = family.upload("photos/exifsamples__Canon_40D.jpg")
    browser.get(family.base + "/settings")
    wait(browser).until(seen.visibility_of_element_located((By.ID, "partner-name"))).send_keys("anna", Keys.ENTER)
    wait(browser).until(lambda driver: "anna sees your library now." in driver.find_element(By.ID, "partners-status").text)

    sign_in_as_anna(annas_browser, family.base)
    annas_browser.get(family.base + "/settings")
    link = wait(annas_browser).until(seen.element_to_be_clickable((By.LINK_TEXT, "Open owner's Library")))
    link.click()
    wait(annas_browser).until(lambda driver: [tile["id"] for tile in tiles(driver)] == [photo["id"]])
    views = annas_browser.find_element(By.ID, "views")
    assert views.find_element(By.CSS_SELECTOR, "[aria-current='page']").text == "owner's Library"
    # Seen, never changed: the viewer offers no favourite, edit or delete of the owner's photo.
    annas_browser.find_element(By.CSS_SELECTOR, f"#grid [data-asset='{photo['id']}']").click()
    viewer = wait(annas_browser).until(seen.visibility_of_element_located((By.ID, "viewer")))
    for control in (".favorite-button", ".edit-button", ".delete-button"):
        assert not viewer.find_element(By.CSS_SELECTOR, control).is_displayed(), control
    assert viewer.find_element(By.CSS_SELECTOR, ".download-button").is_displayed()

    # Shown inside her own Library, beside her own photo; a selection with his can be
    # downloaded, not changed.
    hers = annas_upload(family, annas_browser, "photos/lychee__train.jpg")
    annas_browser.get(family.base + "/settings")
    box = wait(annas_browser).until(seen.element_to_be_clickable((By.CSS_SELECTOR, "#shared-with-me input[type=checkbox]")))
    # The browser may restore the page scrolled down, the box under the sticky bar.
    annas_browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", box)
    box.click()
    assert annas_browser.execute_script("return document.documentElement.scrollWidth <= document.documentElement.clientWidth"), "no sideways scrolling"
    wait(annas_browser).until(lambda driver: "owner's photos show in your Library now." in driver.find_element(By.ID, "partners-status").text)
    open_library(annas_browser, family, "#/library")
    wait(annas_browser).until(lambda driver: {tile["id"] for tile in tiles(driver)} == {photo["id"], hers})
    annas_browser.find_element(By.ID, "select").click()
    annas_browser.find_element(By.CSS_SELECTOR, f"#grid [data-asset='{photo['id']}']").click()
    bar = annas_browser.find_element(By.ID, "selection-bar")
    assert bar.find_element(By.CSS_SELECTOR, "[data-action=download]").is_enabled()
    assert not bar.find_element(By.CSS_SELECTOR, "[data-action=trash]").is_enabled()

    # Stopped, it is gone from her views.
    browser.find_element(By.CSS_SELECTOR, "[aria-label='Stop sharing your library with anna']").click()
    wait(browser).until(lambda driver: "anna no longer sees your library." in driver.find_element(By.ID, "partners-status").text)
    open_library(annas_browser, family)
    assert not annas_browser.find_elements(By.CSS_SELECTOR, "#views [data-partner]")
