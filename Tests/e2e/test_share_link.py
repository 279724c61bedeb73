"""A link for someone without an account: the owner makes one in the Photos app (an album's, with
a password), a guest in a browser of their own opens it on a phone-sized window, gives the password,
sees the photo and plays the video, and the link stops opening once the owner revokes it. An album
link that takes uploads gets a guest's photo into the owner's album."""
import json

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as seen

from conftest import CORPUS, open_library
from pages import wait


def post_json(server, path, value):
    return server.call("POST", path, body=json.dumps(value).encode(), headers={"Content-Type": "application/json"})


def guest_items(browser):
    return browser.execute_script("return [...document.querySelectorAll('#grid li button')].map((b) => b.getAttribute('aria-label'))")


def test_a_guest_opens_an_album_link_with_its_password(server, browser, second_browser, screenshots):
    photo = server.upload("photos/exifsamples__Canon_40D.jpg")
    movie = server.upload("videos/androidx-media__sample.mp4")
    album = post_json(server, "/api/albums", {"title": "Summer"})
    post_json(server, f"/api/albums/{album['id']}/assets", {"ids": [photo["id"], movie["id"]]})

    open_library(browser, server, f"#/album/{album['id']}")
    wait(browser).until(seen.element_to_be_clickable((By.ID, "link-album"))).click()
    sheet = wait(browser).until(seen.visibility_of_element_located((By.ID, "share-link")))
    sheet.find_element(By.ID, "link-password").send_keys("sunny days ahead")
    sheet.find_element(By.CSS_SELECTOR, "button[value='create']").click()
    url = wait(browser).until(lambda driver: sheet.find_element(By.ID, "link-url").get_attribute("value"))
    assert "/s/" in url
    wait(browser).until(lambda driver: len(sheet.find_elements(By.CSS_SELECTOR, ".album-links li")) == 1)
    assert "password · no location · downloads" in sheet.find_element(By.CSS_SELECTOR, ".album-links li").text
    screenshots(browser, "made")

    guest = second_browser
    guest.set_window_size(390, 844)
    guest.get(url)
    password = wait(guest).until(seen.visibility_of_element_located((By.ID, "password")))
    password.send_keys("rainy days", Keys.ENTER)
    wait(guest).until(lambda driver: "not this link's password" in driver.find_element(By.ID, "unlock-status").text)
    password.clear()
    password.send_keys("sunny days ahead", Keys.ENTER)
    wait(guest).until(lambda driver: len(guest_items(driver)) == 2)
    assert guest.find_element(By.ID, "title").text == "Summer"
    assert guest.find_element(By.ID, "download-all").get_attribute("href") == url + "/download"
    assert guest.find_element(By.ID, "byline").text.startswith("Shared by the owner · until ")
    first = guest.find_element(By.CSS_SELECTOR, "#grid li")
    assert first.rect["y"] < 120, "photos start at the top of a phone's screen"
    wait(guest).until(lambda driver: driver.execute_script(
        "return [...document.querySelectorAll('#grid img')].every((image) => image.complete && image.naturalWidth > 0)"))
    screenshots(guest, "grid")

    # The viewer: the newest first (the movie), then the photo; a download of each.
    guest.find_element(By.CSS_SELECTOR, "#grid li button").click()
    viewer = wait(guest).until(seen.visibility_of_element_located((By.ID, "viewer")))
    wait(guest).until(lambda driver: driver.execute_script(
        "const v = document.querySelector('#stage video'); return v && v.readyState >= 2"))
    assert guest.find_element(By.ID, "download").get_attribute("href").endswith(f"/media/{movie['id']}/original")
    viewer.send_keys(Keys.ARROW_RIGHT)
    wait(guest).until(lambda driver: driver.execute_script(
        "const i = document.querySelector('#stage img'); return i && i.complete && i.naturalWidth > 0"))
    assert guest.find_element(By.ID, "position").text == "2 of 2"
    screenshots(guest, "viewer")
    viewer.send_keys(Keys.ESCAPE)
    wait(guest).until(lambda driver: not driver.find_element(By.ID, "viewer").is_displayed())

    # Revoked by the owner: the guest's next look finds nothing.
    sheet.find_element(By.CSS_SELECTOR, ".album-links li button.danger").click()
    wait(browser).until(lambda driver: not sheet.find_elements(By.CSS_SELECTOR, ".album-links li"))
    guest.refresh()
    wait(guest).until(lambda driver: "revoked" in driver.find_element(By.ID, "status").text)
    assert guest_items(guest) == []


def test_a_guest_adds_a_photo_through_an_album_link(server, second_browser):
    album = post_json(server, "/api/albums", {"title": "Wedding"})
    link = post_json(server, "/api/shares", {"albumID": album["id"], "removeLocation": True, "allowDownload": False,
                                             "allowUpload": True})
    guest = second_browser
    guest.get(server.base + link["url"])
    wait(guest).until(lambda driver: "Nothing is shared" in driver.find_element(By.ID, "status").text)
    add = guest.find_element(By.ID, "add")
    assert add.is_displayed()
    assert not guest.find_element(By.ID, "download-all").is_displayed(), "this link allows no downloads"
    guest.find_element(By.ID, "files").send_keys(str(CORPUS / "photos/exifsamples__Canon_40D.jpg"))
    wait(guest).until(lambda driver: "1 added." in driver.find_element(By.ID, "status").text)
    assert len(guest_items(guest)) == 1
    listed = server.call("GET", f"/api/assets?album={album['id']}")["assets"]
    assert [asset["fromLink"] for asset in listed] == [link["id"]]
