"""The Photos app (/library) in Chromium: the timeline to its very last item at desktop, tablet
and phone sizes, the keyboard alone, select mode and its actions, albums, Recently Deleted, the
viewer, and the colours' contrast, focus ring and touch targets in light and in dark."""
import datetime
import hashlib
import json
import subprocess
import time
import urllib.error
import zipfile

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as seen

from conftest import BINARY, CORPUS, open_library, snackbar_text, tiles
from pages import wait

COUNT = 300


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    """300 small photos, three a day every fifth day back from 2024-06-01 (100 days, 17 months),
    made by one ffmpeg and dated by one exiftool."""
    folder = tmp_path_factory.mktemp("generated")
    subprocess.run(["ffmpeg", "-nostdin", "-loglevel", "error", "-f", "lavfi", "-i", "testsrc=size=96x64:rate=1",
                    "-frames:v", str(COUNT), "-q:v", "5", str(folder / "photo-%03d.jpg")], check=True, timeout=120)
    start = datetime.datetime(2024, 6, 1, 9, 0, 0)
    arguments = []
    for index in range(COUNT):
        taken = start - datetime.timedelta(days=(index // 3) * 5) + datetime.timedelta(hours=index % 3)
        arguments += [f"-DateTimeOriginal={taken:%Y:%m:%d %H:%M:%S}", "-overwrite_original", "-q",
                      str(folder / f"photo-{index + 1:03d}.jpg"), "-execute"]
    (folder / "args").write_text("\n".join(arguments) + "\n")
    subprocess.run(["exiftool", "-@", str(folder / "args")], check=True, timeout=300, capture_output=True)
    (folder / "args").unlink()
    return folder


def import_into(server, folder):
    server.halt()
    imported = subprocess.run([str(BINARY), "--data", str(server.data / "data"), "import", "--json", str(folder)],
                              capture_output=True, text=True)
    # The whole of its standard error (a crash's backtrace), which a CalledProcessError cuts short.
    assert imported.returncode == 0, f"cameraroll import exited with {imported.returncode}:\n{imported.stderr}"
    server.start()
    return json.loads(imported.stdout)["imported"]


@pytest.mark.parametrize("size", ["1920,1080", "1440,900", "1180,820", "390,844"])
def test_the_timeline_reaches_its_very_last_item(server, browser, generated, size, screenshots):
    imported = import_into(server, generated)
    assert len(imported) == COUNT
    width, height = map(int, size.split(","))
    browser.set_window_size(width, height)
    open_library(browser, server)
    timeline = json.loads(json.dumps(server.call("GET", "/api/timeline")))
    assert timeline["count"] == COUNT and len(timeline["days"]) == 100
    newest = server.call("GET", "/api/assets?limit=1")["assets"][0]
    assert tiles(browser)[0]["id"] == newest["id"]
    assert browser.find_elements(By.CSS_SELECTOR, "#grid .day-heading h2")[0].text == "June 2024"
    # Only what is on screen (and around it) is in the page.
    assert len(tiles(browser)) < 150
    browser.execute_script("const grid = document.querySelector('#grid'); grid.scrollTop = grid.scrollHeight")
    oldest = server.call("GET", f"/api/assets?limit=1&direction=newer")["assets"][0]
    wait(browser).until(lambda driver: any(tile["id"] == oldest["id"] for tile in tiles(driver)))
    last = next(tile for tile in tiles(browser) if tile["id"] == oldest["id"])
    assert last["index"] == COUNT - 1 and last["label"].endswith(f"{COUNT} of {COUNT}")
    assert len(tiles(browser)) < 150, "the top's rows left the page"
    screenshots(browser, f"bottom-{width}x{height}")
    # Every item has a name of its own: kind, date, file name and place.
    labels = [tile["label"] for tile in tiles(browser)]
    assert len(set(labels)) == len(labels) and all(" of 300" in label and "photo-" in label for label in labels)


def test_the_scrubber_jumps_to_a_month_by_pointer_and_by_keyboard(server, browser, generated):
    import_into(server, generated)
    browser.set_window_size(1440, 900)
    open_library(browser, server)
    scrubber = wait(browser).until(seen.visibility_of_element_located((By.ID, "scrubber")))
    assert scrubber.get_attribute("aria-valuetext") == "June 2024"
    scrubber.send_keys(Keys.END)
    wait(browser).until(lambda driver: scrubber.get_attribute("aria-valuetext") == "January 2023")
    wait(browser).until(lambda driver: any(tile["index"] == COUNT - 1 for tile in tiles(driver)))
    scrubber.send_keys(Keys.PAGE_UP)
    wait(browser).until(lambda driver: scrubber.get_attribute("aria-valuetext") == "January 2024")
    # A click halfway down lands about halfway through the months.
    ActionChains(browser).move_to_element_with_offset(scrubber, 0, 0).click().perform()
    month = scrubber.get_attribute("aria-valuetext")
    assert month.endswith("2023") or month.endswith("2024")
    label = browser.find_element(By.ID, "current-date").text
    assert label == "" or label == month


def test_a_new_width_moves_the_tiles_placed_instead_of_making_them_anew(server, browser, generated):
    """A tile the user is about to press is still the one pressed after the grid is laid out
    again (a window resized, a scrollbar come), and its image is not fetched and shown anew."""
    import_into(server, generated)
    browser.set_window_size(1440, 900)
    open_library(browser, server)
    grid = browser.find_element(By.ID, "grid")
    placed = [wait(browser).until(seen.visibility_of_element_located((By.CSS_SELECTOR, f"#grid .tile[data-index='{index}'][data-asset]")))
              for index in (0, 1)]
    image = placed[1].find_element(By.TAG_NAME, "img")
    was = (grid.get_attribute("aria-colcount"), placed[1].value_of_css_property("transform"))
    browser.set_window_size(1180, 820)
    wait(browser).until(lambda driver: grid.get_attribute("aria-colcount") != was[0])
    # The same elements (a node made anew would leave these stale), where the new layout puts them.
    assert placed[1].value_of_css_property("transform") != was[1]
    assert placed[1].find_element(By.TAG_NAME, "img") == image
    placed[0].click()
    viewer = wait(browser).until(seen.visibility_of_element_located((By.ID, "viewer")))
    assert viewer.get_attribute("aria-label") == "Photo 1 of 300"


def test_keyboard_alone_moves_opens_selects_and_favourites(server, browser, generated):
    import_into(server, generated)
    browser.set_window_size(1180, 820)
    open_library(browser, server)
    body = browser.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.TAB)
    skip = browser.switch_to.active_element
    assert skip.text == "Skip to photos"
    skip.send_keys(Keys.ENTER)
    focused = lambda: browser.switch_to.active_element.get_attribute("aria-label") or ""
    wait(browser).until(lambda driver: focused().endswith("1 of 300"))
    columns = int(browser.find_element(By.ID, "grid").get_attribute("aria-colcount"))
    ActionChains(browser).send_keys(Keys.ARROW_RIGHT).perform()
    assert focused().endswith("2 of 300")
    ActionChains(browser).send_keys(Keys.ARROW_DOWN).perform()
    # Three photos a day: the row below is the next day's, at the same column.
    assert focused().endswith(f"{min(3, columns) + 2 if columns < 3 else 5} of 300")
    ActionChains(browser).key_down(Keys.CONTROL).send_keys(Keys.END).key_up(Keys.CONTROL).perform()
    wait(browser).until(lambda driver: focused().endswith("300 of 300"))
    ActionChains(browser).key_down(Keys.CONTROL).send_keys(Keys.HOME).key_up(Keys.CONTROL).perform()
    wait(browser).until(lambda driver: focused().endswith("1 of 300"))
    # Only one Tab stop: Tab leaves the grid.
    assert browser.execute_script("return [...document.querySelectorAll('#grid [tabindex=\"0\"]')].length") == 1
    ActionChains(browser).send_keys(Keys.TAB).perform()
    assert browser.execute_script("return !document.querySelector('#grid').contains(document.activeElement)"), \
        "a day's Select is no Tab stop"
    ActionChains(browser).key_down(Keys.SHIFT).send_keys(Keys.TAB).key_up(Keys.SHIFT).perform()
    assert focused().endswith("1 of 300")

    ActionChains(browser).send_keys(Keys.ENTER).perform()
    viewer = wait(browser).until(seen.visibility_of_element_located((By.ID, "viewer")))
    assert viewer.get_attribute("aria-label") == "Photo 1 of 300"
    ActionChains(browser).send_keys(Keys.ARROW_RIGHT).perform()
    wait(browser).until(lambda driver: viewer.get_attribute("aria-label") == "Photo 2 of 300")
    ActionChains(browser).send_keys(Keys.ESCAPE).perform()
    wait(browser).until(lambda driver: not driver.execute_script("return document.querySelector('#viewer').open"))
    wait(browser).until(lambda driver: focused().endswith("2 of 300"))

    # Select mode by keyboard: the Select button, Enter on items, Shift+Arrow for a range.
    select = browser.find_element(By.ID, "select")
    select.send_keys(Keys.ENTER)
    assert select.get_attribute("aria-pressed") == "true"
    browser.execute_script("document.querySelector('#grid .tile[tabindex=\"0\"]').focus()")
    ActionChains(browser).send_keys(Keys.ENTER).perform()
    ActionChains(browser).key_down(Keys.SHIFT).send_keys(Keys.ARROW_RIGHT).send_keys(Keys.ARROW_RIGHT).key_up(Keys.SHIFT).perform()
    wait(browser).until(lambda driver: driver.find_element(By.ID, "selection-count").text == "3 selected")
    chosen = {tile["id"] for tile in tiles(browser) if tile["selected"] == "true"}
    assert len(chosen) == 3
    favourite = browser.find_element(By.CSS_SELECTOR, "#selection-bar [data-action=favorite]")
    favourite.send_keys(Keys.ENTER)
    wait(browser).until(lambda driver: "favourites" in snackbar_text(driver))
    assert {asset["id"] for asset in server.call("GET", "/api/assets?collection=favorites")["assets"]} == chosen


def test_select_a_range_and_a_day_then_album_favourite_trash_restore_and_delete(server, browser, generated, screenshots):
    import_into(server, generated)
    browser.set_window_size(1440, 900)
    open_library(browser, server)
    browser.find_element(By.ID, "select").click()
    items = lambda: {tile["index"]: tile for tile in tiles(browser)}
    tile = lambda index: browser.find_element(By.CSS_SELECTOR, f"#grid .tile[data-index='{index}']")
    tile(0).click()
    ActionChains(browser).key_down(Keys.SHIFT).click(tile(4)).key_up(Keys.SHIFT).perform()
    wait(browser).until(lambda driver: driver.find_element(By.ID, "selection-count").text == "5 selected")
    tile(2).click()
    assert browser.find_element(By.ID, "selection-count").text == "4 selected", "a click deselects"
    screenshots(browser, "selected")
    # Add to a new album through the chooser.
    browser.find_element(By.CSS_SELECTOR, "#selection-bar [data-action=album]").click()
    chooser = wait(browser).until(seen.visibility_of_element_located((By.ID, "album-chooser")))
    chooser.find_element(By.NAME, "title").send_keys("First days")
    chooser.find_element(By.XPATH, ".//button[@value='new']").click()
    wait(browser).until(lambda driver: "Added 4 items to First days" in snackbar_text(driver))
    albums = server.call("GET", "/api/albums")["albums"]
    album = next(album for album in albums if album["title"] == "First days")
    assert album["count"] == 4
    ids_in_album = [asset["id"] for asset in server.call("GET", f"/api/assets?album={album['id']}")["assets"]]
    expected = [items()[index]["id"] for index in (0, 1, 3, 4)]
    assert ids_in_album == expected

    # Still selecting, with nothing selected: a whole day next, then to the trash.
    assert browser.find_element(By.ID, "select").get_attribute("aria-pressed") == "true"
    assert not [tile for tile in tiles(browser) if tile["selected"] == "true"]
    day = browser.find_elements(By.CSS_SELECTOR, "#grid .select-day")[1]
    day.click()
    wait(browser).until(lambda driver: driver.find_element(By.ID, "selection-count").text == "3 selected")
    browser.find_element(By.CSS_SELECTOR, "#selection-bar [data-action=trash]").click()
    wait(browser).until(lambda driver: "Moved 3 items to Recently Deleted" in snackbar_text(driver))
    assert server.call("GET", "/api/timeline")["count"] == COUNT - 3

    open_library(browser, server, "#/deleted")
    assert browser.find_element(By.ID, "title").text == "Recently Deleted"
    assert "30 days" in browser.find_element(By.ID, "view-note").text
    wait(browser).until(lambda driver: len(tiles(driver)) == 3)
    browser.find_element(By.ID, "select").click()
    tile(0).click()
    browser.find_element(By.CSS_SELECTOR, "#selection-bar [data-action=restore]").click()
    wait(browser).until(lambda driver: len(tiles(driver)) == 2)
    tile(0).click()
    browser.find_element(By.CSS_SELECTOR, "#selection-bar [data-action=delete]").click()
    browser.switch_to.alert.accept()
    wait(browser).until(lambda driver: len(tiles(driver)) == 1)
    assert server.call("GET", "/api/timeline?collection=recentlyDeleted")["count"] == 1
    assert server.call("GET", "/api/timeline")["count"] == COUNT - 2


def test_the_viewers_single_keys_and_the_shortcuts_sheet(server, browser, generated):
    import_into(server, generated)
    open_library(browser, server)
    wait(browser).until(lambda driver: tiles(driver))
    first = tiles(browser)[0]["id"]
    browser.execute_script("document.querySelector('#grid .tile[tabindex=\"0\"]').focus()")
    # Shift+Space on an item selects its whole day (three items a day here).
    ActionChains(browser).key_down(Keys.SHIFT).send_keys(Keys.SPACE).key_up(Keys.SHIFT).perform()
    wait(browser).until(lambda driver: driver.find_element(By.ID, "selection-count").text == "3 selected")
    ActionChains(browser).send_keys(Keys.ESCAPE).perform()
    wait(browser).until(lambda driver: driver.find_element(By.ID, "select").get_attribute("aria-pressed") == "false")
    # ? from the grid.
    browser.execute_script("document.querySelector('#grid .tile[tabindex=\"0\"]').focus()")
    ActionChains(browser).send_keys("?").perform()
    sheet = wait(browser).until(seen.visibility_of_element_located((By.ID, "shortcuts")))
    assert "Favourite" in sheet.text and "Shift + Space" in sheet.text
    ActionChains(browser).send_keys(Keys.ESCAPE).perform()
    wait(browser).until(lambda driver: not driver.execute_script("return document.querySelector('#shortcuts').open"))

    ActionChains(browser).send_keys(Keys.ENTER).perform()
    viewer = wait(browser).until(seen.visibility_of_element_located((By.ID, "viewer")))
    wait(browser).until(lambda driver: viewer.get_attribute("aria-label") == "Photo 1 of 300")
    info = viewer.find_element(By.CSS_SELECTOR, ".info")
    ActionChains(browser).send_keys("i").perform()
    wait(browser).until(lambda driver: info.is_displayed())
    ActionChains(browser).send_keys("i").perform()
    wait(browser).until(lambda driver: not info.is_displayed())
    ActionChains(browser).send_keys("f").perform()
    wait(browser).until(lambda driver: server.call("GET", f"/api/assets/{first}")["favorite"] is True)
    # Ctrl+F stays the browser's find: no second toggle.
    ActionChains(browser).key_down(Keys.CONTROL).send_keys("f").key_up(Keys.CONTROL).perform()
    time.sleep(0.3)
    assert server.call("GET", f"/api/assets/{first}")["favorite"] is True
    ActionChains(browser).send_keys("e").perform()
    wait(browser).until(seen.visibility_of_element_located((By.ID, "editor")))
    browser.find_element(By.ID, "editor-back").click()
    wait(browser).until(lambda driver: not driver.find_element(By.ID, "editor").is_displayed())
    # ? over the viewer, then Delete: to Recently Deleted, with Undo.
    ActionChains(browser).send_keys("?").perform()
    wait(browser).until(seen.visibility_of_element_located((By.ID, "shortcuts")))
    browser.find_element(By.CSS_SELECTOR, "#shortcuts button").click()
    ActionChains(browser).send_keys(Keys.DELETE).perform()
    wait(browser).until(lambda driver: "Moved 1 item to Recently Deleted" in snackbar_text(driver))
    assert server.call("GET", f"/api/assets/{first}")["trashed"] is True


def test_placeholder_tiles_show_until_the_first_items_come(server, browser):
    server.upload("photos/lychee__aarhus.jpg")
    # The listing held back in the browser: the page is painted, its items not come yet.
    browser.execute_cdp_cmd("Fetch.enable", {"patterns": [{"urlPattern": "*/api/assets?*", "requestStage": "Request"}]})
    browser.execute_cdp_cmd("Page.navigate", {"url": f"{server.base}/library"})
    placeholder = """const grid = document.querySelector('#grid');
        return grid && !grid.classList.contains('laid-out') ? getComputedStyle(grid, '::before').backgroundImage : null"""
    wait(browser).until(lambda driver: driver.execute_script("return document.readyState") != "loading")
    assert "linear-gradient" in (browser.execute_script(placeholder) or "")
    assert tiles(browser) == []
    browser.execute_cdp_cmd("Fetch.disable", {})
    browser.refresh()
    wait(browser).until(lambda driver: len(tiles(driver)) == 1)
    assert browser.execute_script(placeholder) is None, "the tiles take the placeholders' place"


def test_undo_takes_back_a_trash_an_album_add_and_a_delete_in_the_viewer(server, browser):
    first = server.upload("photos/exifsamples__Canon_40D.jpg")
    second = server.upload("photos/lychee__aarhus.jpg")
    album = server.call("POST", "/api/albums", body=json.dumps({"title": "Trips"}).encode())
    server.call("POST", f"/api/albums/{album['id']}/assets", body=json.dumps({"ids": [first["id"]]}).encode())
    open_library(browser, server)
    wait(browser).until(lambda driver: len(tiles(driver)) == 2)
    tile = lambda id: browser.find_element(By.CSS_SELECTOR, f"#grid .tile[data-asset='{id}']")
    browser.find_element(By.ID, "select").click()
    tile(first["id"]).click()
    tile(second["id"]).click()
    browser.find_element(By.CSS_SELECTOR, "#selection-bar [data-action=trash]").click()
    wait(browser).until(lambda driver: "Moved 2 items to Recently Deleted" in snackbar_text(driver))
    wait(browser).until(lambda driver: len(tiles(driver)) == 0 or driver.find_element(By.ID, "empty").is_displayed())
    # Ctrl+Z while it shows: both back, in their albums as before.
    ActionChains(browser).key_down(Keys.CONTROL).send_keys("z").key_up(Keys.CONTROL).perform()
    wait(browser).until(lambda driver: "2 items back from Recently Deleted" in snackbar_text(driver))
    wait(browser).until(lambda driver: len(tiles(driver)) == 2)
    assert server.call("GET", "/api/timeline")["count"] == 2
    assert [asset["id"] for asset in server.call("GET", f"/api/assets?album={album['id']}")["assets"]] == [first["id"]]

    # Add both to the album: Undo takes out only the one the add put there.
    tile(first["id"]).click()
    tile(second["id"]).click()
    browser.find_element(By.CSS_SELECTOR, "#selection-bar [data-action=album]").click()
    chooser = wait(browser).until(seen.visibility_of_element_located((By.ID, "album-chooser")))
    chooser.find_element(By.XPATH, f".//button[@value='album:{album['id']}']").click()
    wait(browser).until(lambda driver: "Added 2 items to Trips" in snackbar_text(driver))
    assert server.call("GET", f"/api/albums/{album['id']}")["count"] == 2
    browser.find_element(By.CSS_SELECTOR, "#snackbar .snackbar-undo").click()
    wait(browser).until(lambda driver: "out of Trips again" in snackbar_text(driver))
    assert [asset["id"] for asset in server.call("GET", f"/api/assets?album={album['id']}")["assets"]] == [first["id"]]

    # A delete in the viewer says so under it, with Undo; the message goes after a few seconds.
    browser.find_element(By.ID, "select").click()
    tile(second["id"]).click()
    viewer = wait(browser).until(seen.visibility_of_element_located((By.ID, "viewer")))
    viewer.find_element(By.CSS_SELECTOR, ".delete-button").click()
    wait(browser).until(lambda driver: "Moved 1 item to Recently Deleted" in snackbar_text(driver))
    browser.find_element(By.CSS_SELECTOR, "#snackbar .snackbar-undo").click()
    wait(browser).until(lambda driver: len(tiles(driver)) == 2)
    assert server.call("GET", "/api/timeline?collection=recentlyDeleted")["count"] == 0
    wait(browser, 15).until(lambda driver: snackbar_text(driver) == "")
    ActionChains(browser).key_down(Keys.CONTROL).send_keys("z").key_up(Keys.CONTROL).perform()
    time.sleep(0.5)
    assert server.call("GET", "/api/timeline")["count"] == 2, "Ctrl+Z undoes nothing once the message has gone"


def test_recently_deleted_counts_the_days_and_recovers_or_deletes_all(server, browser):
    ids = [server.upload(name)["id"] for name in ("photos/exifsamples__Canon_40D.jpg", "photos/lychee__aarhus.jpg")]
    server.call("POST", "/api/assets/trash", body=json.dumps({"ids": ids}).encode())
    open_library(browser, server, "#/deleted")
    wait(browser).until(lambda driver: len(tiles(driver)) == 2)
    # Just deleted: 30 days left, on the tile and in its name.
    assert [badge.text for badge in browser.find_elements(By.CSS_SELECTOR, "#grid .tile .days-left")] == ["30 days", "30 days"]
    assert all(", 30 days left, " in tile["label"] for tile in tiles(browser)), [tile["label"] for tile in tiles(browser)]
    browser.find_element(By.ID, "recover-all").click()
    wait(browser).until(lambda driver: "Recovered 2 items" in snackbar_text(driver))
    wait(browser).until(lambda driver: driver.find_element(By.ID, "empty").is_displayed())
    assert not browser.find_element(By.ID, "trash-bar").is_displayed(), "nothing to recover or delete"
    assert server.call("GET", "/api/timeline")["count"] == 2
    browser.find_element(By.CSS_SELECTOR, "#snackbar .snackbar-undo").click()
    wait(browser).until(lambda driver: len(tiles(driver)) == 2)
    assert server.call("GET", "/api/timeline")["count"] == 0
    browser.find_element(By.ID, "delete-all").click()
    alert = browser.switch_to.alert
    assert alert.text == "Delete 2 items for good? This cannot be undone."
    alert.dismiss()
    assert server.call("GET", "/api/timeline?collection=recentlyDeleted")["count"] == 2, "not without a yes"
    browser.find_element(By.ID, "delete-all").click()
    browser.switch_to.alert.accept()
    wait(browser).until(lambda driver: "Deleted 2 items for good" in snackbar_text(driver))
    assert not browser.find_element(By.CSS_SELECTOR, "#snackbar .snackbar-undo").is_displayed()
    assert server.call("GET", "/api/timeline?collection=recentlyDeleted")["count"] == 0
    for id in ids:
        with pytest.raises(urllib.error.HTTPError) as gone:
            server.call("GET", f"/api/assets/{id}")
        assert gone.value.code == 404


def test_albums_are_made_renamed_covered_and_deleted(server, browser):
    first = server.upload("photos/exifsamples__Canon_40D.jpg")
    second = server.upload("photos/lychee__aarhus.jpg")
    album = server.call("POST", "/api/albums", body=json.dumps({"title": "Trips"}).encode())
    server.call("POST", f"/api/albums/{album['id']}/assets", body=json.dumps({"ids": [first["id"], second["id"]]}).encode())
    open_library(browser, server, "#/albums")
    cards = wait(browser).until(lambda driver: driver.find_elements(By.CSS_SELECTOR, "#albums .album-card[href]"))
    assert [card.get_attribute("aria-label") for card in cards] == ["Camera Roll, 0 items", "Trips, 2 items"]
    cards[1].click()
    wait(browser).until(lambda driver: driver.find_element(By.ID, "title").text == "Trips")
    wait(browser).until(lambda driver: len(tiles(driver)) == 2)
    browser.find_element(By.ID, "rename-album").click()
    dialog = wait(browser).until(seen.visibility_of_element_located((By.ID, "album-name")))
    field = dialog.find_element(By.NAME, "title")
    field.clear()
    field.send_keys("Summer trips", Keys.ENTER)
    wait(browser).until(lambda driver: driver.find_element(By.ID, "title").text == "Summer trips")
    browser.find_element(By.ID, "select").click()
    browser.find_element(By.CSS_SELECTOR, f"#grid .tile[data-asset='{first['id']}']").click()
    browser.find_element(By.CSS_SELECTOR, "#selection-bar [data-action=cover]").click()
    wait(browser).until(lambda driver: server.call("GET", f"/api/albums/{album['id']}")["coverAssetID"] == first["id"])
    # Undo: no chosen cover again (the newest item shows).
    wait(browser).until(lambda driver: "cover now" in snackbar_text(driver))
    browser.find_element(By.CSS_SELECTOR, "#snackbar .snackbar-undo").click()
    wait(browser).until(lambda driver: "The cover as it was" in snackbar_text(driver))
    assert server.call("GET", f"/api/albums/{album['id']}")["coverAssetID"] == second["id"]
    browser.find_element(By.CSS_SELECTOR, f"#grid .tile[data-asset='{second['id']}']").click()
    browser.find_element(By.CSS_SELECTOR, "#selection-bar [data-action=remove]").click()
    wait(browser).until(lambda driver: len(tiles(driver)) == 1)
    browser.find_element(By.ID, "delete-album").click()
    browser.switch_to.alert.accept()
    wait(browser).until(lambda driver: driver.find_element(By.ID, "title").text == "Albums")
    assert [album["title"] for album in server.call("GET", "/api/albums")["albums"]] == ["Camera Roll"]
    assert server.call("GET", "/api/timeline")["count"] == 2, "an album's items outlive it"


def test_recently_added_and_captures_not_saved(server, browser):
    old = server.upload("photos/exifsamples__olympus-c960.jpg")
    capture = server.upload("photos/lychee__train.jpg", "?source=camera")
    open_library(browser, server, "#/recent")
    wait(browser).until(lambda driver: [tile["id"] for tile in tiles(driver)] == [old["id"]])
    open_library(browser, server, "#/unsaved")
    wait(browser).until(lambda driver: [tile["id"] for tile in tiles(driver)] == [capture["id"]])
    browser.find_element(By.ID, "select").click()
    browser.find_element(By.CSS_SELECTOR, "#grid .tile").click()
    browser.find_element(By.CSS_SELECTOR, "#selection-bar [data-action=save]").click()
    wait(browser).until(lambda driver: driver.find_element(By.ID, "empty").is_displayed())
    assert browser.find_element(By.ID, "empty-title").text == "No Unsaved Captures"
    assert server.call("GET", f"/api/assets/{capture['id']}")["inCameraRoll"]


def test_the_viewer_steps_zooms_sharp_shows_info_animates_and_waits_for_a_video(server, browser, screenshots):
    avi = server.upload("videos/photoprism__earth.avi")
    animation = server.upload("photos/sharp__animated-loop-3.webp")
    photo = server.call("POST", "/api/assets", body=(CORPUS / "photos/pigallery2__exiftool.jpg").read_bytes(),
                        headers={"Content-Type": "application/octet-stream", "X-Filename": "pigallery2__exiftool.jpg"})
    browser.set_window_size(1440, 900)
    open_library(browser, server)
    browser.find_element(By.CSS_SELECTOR, f"#grid .tile[data-asset='{photo['id']}']").click()
    viewer = wait(browser).until(seen.visibility_of_element_located((By.ID, "viewer")))
    image = wait(browser).until(lambda driver: driver.find_element(By.CSS_SELECTOR, "#viewer .stage img.photo"))
    wait(browser).until(lambda driver: "/display?" in (image.get_attribute("src") or ""))
    first = image.get_attribute("src")
    # The wheel zooms, and a render as sharp as the zoomed size follows.
    browser.execute_script("""const stage = document.querySelector('#viewer .stage');
        const box = stage.getBoundingClientRect();
        stage.dispatchEvent(new WheelEvent('wheel', {deltaY: -400, clientX: box.x + box.width / 2, clientY: box.y + box.height / 2, bubbles: true, cancelable: true}));""")
    wait(browser).until(lambda driver: image.get_attribute("src") != first)
    ratio = lambda url: float(url.split("dpr=")[1])
    assert ratio(image.get_attribute("src")) > ratio(first)
    assert "scale(" in image.get_attribute("style")
    browser.find_element(By.CSS_SELECTOR, "#viewer .info-button").click()
    info = browser.find_element(By.CSS_SELECTOR, "#viewer .info").text
    assert "Canon EOS 600D" in info and "EF-S15-85mm" in info and "ISO 160" in info and "pigallery2__exiftool.jpg" in info
    download = browser.find_element(By.CSS_SELECTOR, "#viewer .download-button")
    assert download.get_attribute("href").endswith(f"/media/{photo['id']}/original")
    screenshots(browser, "viewer-info")
    browser.execute_script("document.querySelector('#viewer').close()")
    # An animated WebP shows its original, which animates.
    browser.find_element(By.CSS_SELECTOR, f"#grid .tile[data-asset='{animation['id']}']").click()
    wait(browser).until(lambda driver: driver.find_element(By.CSS_SELECTOR, "#viewer .stage img.photo").get_attribute("src")
                        .endswith(f"/media/{animation['id']}/original"))
    browser.execute_script("document.querySelector('#viewer').close()")
    # The AVI, which Chromium cannot play, waits for its rendition (with its progress), then plays.
    browser.find_element(By.CSS_SELECTOR, f"#grid .tile[data-asset='{avi['id']}']").click()
    video = wait(browser).until(lambda driver: driver.find_element(By.CSS_SELECTOR, "#viewer .stage video"))
    wait(browser, 120).until(lambda driver: driver.execute_script(
        "const v = document.querySelector('#viewer .stage video'); return v && v.currentSrc !== '' && v.readyState >= 2"))
    assert "/media/" in video.get_attribute("src")


def test_the_info_panel_names_the_place_and_settings_says_what_runs_in_the_background(server, browser):
    photo = server.upload("photos/exifsamples__DSCN0010.jpg")
    open_library(browser, server)
    browser.find_element(By.CSS_SELECTOR, f"#grid .tile[data-asset='{photo['id']}']").click()
    wait(browser).until(seen.visibility_of_element_located((By.ID, "viewer")))
    browser.find_element(By.CSS_SELECTOR, "#viewer .info-button").click()
    place = wait(browser).until(lambda driver: driver.find_element(By.CSS_SELECTOR, "#viewer .info .place"))
    assert place.text.splitlines() == ["Arezzo, Tuscany, Italy", "43.46745, 11.88513"]
    assert "openstreetmap.org/?mlat=43.46744" in place.find_element(By.TAG_NAME, "a").get_attribute("href")
    browser.get(server.base + "/settings")
    work = wait(browser).until(lambda driver: driver.find_element(By.ID, "background-work").text or None)
    assert work == "Nothing is being worked on in the background."
    assert "geonames.org" in browser.find_element(By.CSS_SELECTOR, "#library-title + p + p a").get_attribute("href")


def test_the_search_field_suggests_places_and_years_and_finds_by_keyboard(server, browser, screenshots):
    italy = server.upload("photos/exifsamples__DSCN0010.jpg")
    tokyo = server.upload("photos/androidx-media__tokyo.jpg")
    browser.set_window_size(1280, 900)
    open_library(browser, server)
    wait(browser).until(lambda driver: len(tiles(driver)) == 2)
    # "/" goes to the field; typing suggests the library's places with their counts.
    browser.find_element(By.TAG_NAME, "body").send_keys("/")
    field = browser.switch_to.active_element
    assert field.get_attribute("id") == "search"
    field.send_keys("ital")
    listbox = wait(browser).until(seen.visibility_of_element_located((By.ID, "suggestions")))
    assert field.get_attribute("aria-expanded") == "true"
    options = lambda: [option.text.splitlines() for option in listbox.find_elements(By.CSS_SELECTOR, "[role=option]")]
    wait(browser).until(lambda driver: options() == [["Arezzo, Tuscany, Italy", "Place · 1 item"], ["Italy", "Country · 1 item"]])
    screenshots(browser, "search-suggestions")
    field.send_keys(Keys.ARROW_DOWN, Keys.ARROW_DOWN)
    assert field.get_attribute("aria-activedescendant") == "suggestion-1"
    field.send_keys(Keys.ENTER)
    wait(browser).until(lambda driver: driver.execute_script("return location.hash") == "#/search/Italy")
    wait(browser).until(lambda driver: [tile["id"] for tile in tiles(driver)] == [italy["id"]])
    assert browser.find_element(By.ID, "title").text == "“Italy”"
    assert listbox.is_displayed() is False and field.get_attribute("value") == "Italy"
    # Typed text searches as it is, a country by another language's name too.
    field.clear()
    field.send_keys("日本", Keys.ENTER)
    wait(browser).until(lambda driver: [tile["id"] for tile in tiles(driver)] == [tokyo["id"]])
    field.clear()
    field.send_keys("nowhere at all", Keys.ENTER)
    wait(browser).until(lambda driver: driver.find_element(By.ID, "empty").is_displayed())
    assert browser.find_element(By.ID, "empty-title").text == "No Results"
    # Escape empties the field and goes back to the library; a year jumps there.
    field.send_keys(Keys.ESCAPE)
    wait(browser).until(lambda driver: driver.execute_script("return location.hash") == "#/library")
    field.send_keys("2008")
    wait(browser).until(lambda driver: options() == [["2008", "Year · 1 item"]])
    browser.find_element(By.CSS_SELECTOR, "#suggestions [role=option]").click()
    wait(browser).until(lambda driver: driver.execute_script("return location.hash") == "#/library/2008")
    wait(browser).until(lambda driver: len(tiles(driver)) == 2)


def test_contrast_focus_ring_and_touch_targets_in_light_and_dark(server, browser):
    server.upload("photos/lychee__aarhus.jpg")
    browser.set_window_size(390, 844)
    for scheme in ("light", "dark"):
        browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
        open_library(browser, server)
        results = browser.execute_script(CONTRAST)
        for result in results["text"]:
            assert result["ratio"] >= 4.5, f"{scheme}: {result}"
        tile = browser.find_element(By.CSS_SELECTOR, "#grid .tile")
        browser.execute_script("arguments[0].focus()", tile)
        ActionChains(browser).send_keys(Keys.ARROW_RIGHT).send_keys(Keys.ARROW_LEFT).perform()
        ring = browser.execute_script(FOCUS_RING)
        assert ring["width"] >= 3 and ring["ratio"] >= 3, f"{scheme}: {ring}"
        small = browser.execute_script(TARGETS)
        assert small == [], f"{scheme}: touch targets under 44 px: {small}"


# WCAG's relative luminance and contrast, of an element's text against the first opaque
# background behind it.
COLOURS = """
const channel = (value) => { value /= 255; return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4; };
const parse = (text) => {
  const canvas = document.createElement('canvas').getContext('2d');
  canvas.fillStyle = text; canvas.fillRect(0, 0, 1, 1);
  const [r, g, b, a] = canvas.getImageData(0, 0, 1, 1).data; return [r, g, b, a];
};
const luminance = ([r, g, b]) => 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
const ratio = (a, b) => { const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
const background = (element) => {
  for (let node = element; node; node = node.parentElement) {
    const colour = parse(getComputedStyle(node).backgroundColor);
    if (colour[3] === 255) return colour;
  }
  return parse(getComputedStyle(document.documentElement).backgroundColor || 'Canvas');
};
"""

CONTRAST = COLOURS + """
const shown = (element) => element.getClientRects().length > 0 && getComputedStyle(element).visibility !== 'hidden';
const elements = [...document.querySelectorAll('.plain-link, .views a, .button, .plain, h1, .day-heading h2, .day-heading h3, .select-day')]
  .filter(shown).filter((element) => getComputedStyle(element).opacity !== '0');
return {text: elements.map((element) => ({
  what: element.className || element.tagName, text: element.textContent.trim().slice(0, 30),
  ratio: Math.round(ratio(parse(getComputedStyle(element).color), background(element)) * 100) / 100}))};
"""

FOCUS_RING = COLOURS + """
const tile = document.activeElement;
const ring = getComputedStyle(tile, '::after');
return {width: parseFloat(ring.borderTopWidth), ratio: ratio(parse(ring.borderTopColor), background(tile.parentElement))};
"""

TARGETS = """
const shown = (element) => element.getClientRects().length > 0 && getComputedStyle(element).visibility !== 'hidden';
return [...document.querySelectorAll('header a, header button, #views a, #selection-bar button, #grid .tile')]
  .filter(shown).map((element) => ({text: element.textContent.trim().slice(0, 20) || element.getAttribute('aria-label'),
                                    width: element.getBoundingClientRect().width, height: element.getBoundingClientRect().height}))
  .filter((box) => box.width < 44 || box.height < 44);
"""


def test_download_a_selection_as_one_zip_of_the_originals(server, browser, tmp_path):
    files = ["photos/exifsamples__Canon_40D.jpg", "photos/lychee__aarhus.jpg", "videos/androidx-media__sample.mp4"]
    uploaded = [server.call("POST", "/api/assets", body=(CORPUS / name).read_bytes(),
                            headers={"Content-Type": "application/octet-stream", "X-Filename": name.split("/")[1]})
                for name in files]
    downloads = tmp_path / "downloads"
    downloads.mkdir()
    browser.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(downloads)})
    open_library(browser, server)
    browser.find_element(By.ID, "select").click()
    for asset in uploaded:
        browser.find_element(By.CSS_SELECTOR, f"#grid .tile[data-asset='{asset['id']}']").click()
    browser.find_element(By.CSS_SELECTOR, "#selection-bar [data-action=download]").click()
    wait(browser).until(lambda driver: "Downloading 3 items" in snackbar_text(driver))
    zips = lambda: [path for path in downloads.iterdir() if path.suffix == ".zip"]
    # Chromium puts an empty file under the final name while the bytes go to a .crdownload
    # (read too early, it was "not a zip file" once): done is the zip with no download beside it.
    done = lambda: zips() and zips()[0].stat().st_size > 0 and not any(
        path.suffix == ".crdownload" for path in downloads.iterdir())
    wait(browser, 60).until(lambda driver: done())
    with zipfile.ZipFile(zips()[0]) as archive:
        assert archive.testzip() is None
        digests = {info.filename: hashlib.sha256(archive.read(info)).hexdigest() for info in archive.infolist()}
    assert digests == {name.split("/")[1]: hashlib.sha256((CORPUS / name).read_bytes()).hexdigest() for name in files}


def test_a_photo_is_rotated_flipped_cropped_and_reverted_in_the_library(server, browser, screenshots):
    """The viewer's Edit: Rotate turns the landscape photo upright-sideways, a square crop,
    Done stores the edit (the original untouched), the grid's thumbnail and the viewer show it,
    and Revert to Original takes it away."""
    photo = server.upload("photos/recurser__Landscape_1.jpg")
    original = server.fetch(f"/media/{photo['id']}/original")[0]
    browser.set_window_size(1280, 900)
    open_library(browser, server)
    browser.find_element(By.CSS_SELECTOR, f"#grid .tile[data-asset='{photo['id']}']").click()
    wait(browser).until(seen.visibility_of_element_located((By.ID, "viewer")))
    browser.find_element(By.CSS_SELECTOR, "#viewer .edit-button").click()
    editor = wait(browser).until(seen.visibility_of_element_located((By.ID, "editor")))
    browser.find_element(By.ID, "rotate").click()
    wait(browser).until(lambda driver: driver.find_element(By.ID, "crop-size").text == "1200 × 1800")
    # The image has no src for a moment while the editor swaps it.
    wait(browser).until(lambda driver: "edit=t3" in (driver.find_element(By.ID, "crop-image").get_attribute("src") or ""))
    editor.find_element(By.CSS_SELECTOR, "[data-aspect=square]").click()
    wait(browser).until(lambda driver: driver.find_element(By.ID, "crop-size").text == "1200 × 1200")
    screenshots(browser, "editing")
    browser.find_element(By.ID, "editor-choose").click()
    wait(browser).until(lambda driver: "Edited" in driver.find_element(By.CSS_SELECTOR, "#viewer .viewer-status").text)
    stored = server.call("GET", f"/api/assets/{photo['id']}")
    assert stored["edit"]["rotation"] == 270 and stored["edit"]["cropRect"]["width"] == 1200
    assert server.fetch(f"/media/{photo['id']}/original")[0] == original, "the original never changes"
    shown = wait(browser).until(lambda driver: driver.execute_script("""
        const image = document.querySelector('#viewer .stage img.photo');
        return image && image.src.includes('/edited?edit=t3') && image.complete && image.naturalWidth
            ? [image.naturalWidth, image.naturalHeight] : null;"""))
    assert shown[0] == shown[1], "square, as cropped"
    browser.execute_script("document.querySelector('#viewer').close()")
    thumbnail = wait(browser).until(lambda driver: driver.find_element(By.CSS_SELECTOR, f"#grid .tile[data-asset='{photo['id']}'] img"))
    wait(browser).until(lambda driver: "edit=t3" in (thumbnail.get_attribute("data-thumbnail") or "") and thumbnail.get_attribute("src")
                        if thumbnail.is_displayed() else False)

    browser.find_element(By.CSS_SELECTOR, f"#grid .tile[data-asset='{photo['id']}']").click()
    browser.find_element(By.CSS_SELECTOR, "#viewer .edit-button").click()
    assert browser.find_element(By.ID, "crop-size").text == "1200 × 1200", "the editor starts from the stored crop"
    browser.find_element(By.ID, "revert").click()
    wait(browser).until(lambda driver: "original" in driver.find_element(By.CSS_SELECTOR, "#viewer .viewer-status").text)
    assert "edit" not in server.call("GET", f"/api/assets/{photo['id']}")
