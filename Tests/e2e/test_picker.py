"""The picker page against a real server: pick, cancel, and the unavailable-source alert."""
import json
import subprocess
import time

from conftest import BINARY, CORPUS
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as seen
from pages import back_to_app, in_picker, wait


def test_pick_from_the_library_finishes_the_session(server, browser, shot):
    photo = server.upload("photos/recurser__Landscape_1.jpg")
    session = server.picker({"sourceType": "photoLibrary", "mediaTypes": ["public.image"]})
    browser.get(server.base + session["url"])
    dialog = wait(browser).until(seen.presence_of_element_located((By.CSS_SELECTOR, "[role=dialog]")))
    assert browser.find_element(By.ID, "picker-title").text == "Photos"
    item = wait(browser).until(seen.element_to_be_clickable((By.CSS_SELECTOR, f"[data-asset='{photo['id']}']")))
    assert item.get_attribute("aria-label").startswith("Photo, ")
    shot("grid")
    item.click()
    finished = server.session(session["id"], wait=10)
    assert finished["status"] == "finished"
    assert finished["info"]["mediaType"] == "public.image"
    assert finished["info"]["originalImage"].startswith(f"/media/{photo['id']}/original?cap=")
    wait(browser).until(seen.visibility_of_element_located((By.ID, "done")))
    assert dialog is not None


def test_cancel_gives_nothing(server, browser, shot):
    server.upload("photos/exifsamples__Canon_40D.jpg")
    session = server.picker({"sourceType": "photoLibrary"})
    browser.get(server.base + session["url"])
    wait(browser).until(seen.element_to_be_clickable((By.CSS_SELECTOR, "[data-asset]")))
    browser.find_element(By.ID, "cancel").click()
    ended = server.session(session["id"], wait=10)
    assert ended["status"] == "cancelled"
    assert "info" not in ended or ended["info"] is None
    shot("cancelled")


def test_a_camera_source_without_a_camera_raises_the_books_alert(server, browser, shot):
    session = server.picker({"sourceType": "camera"})
    browser.get(server.base + session["url"])
    alert = wait(browser).until(seen.visibility_of_element_located((By.CSS_SELECTOR, "[role=alertdialog]")))
    assert alert.find_element(By.ID, "alert-title").text == "Error accessing media"
    assert alert.find_element(By.ID, "alert-message").text == "Device doesn't support that media source."
    shot("alert")
    alert.find_element(By.XPATH, ".//button[normalize-space()='Drat!']").click()
    assert server.session(session["id"], wait=10)["status"] == "cancelled"


def test_an_empty_camera_roll_is_an_empty_state_not_the_alert(server, browser, shot):
    server.upload("photos/exifsamples__Canon_40D.jpg")
    session = server.picker({"sourceType": "savedPhotosAlbum"})
    browser.get(server.base + session["url"])
    empty = wait(browser).until(seen.visibility_of_element_located((By.ID, "empty-state")))
    assert browser.find_element(By.ID, "picker-title").text == "Camera Roll"
    assert empty.find_element(By.TAG_NAME, "h2").text == "No Photos", "the default media types are images alone"
    assert "save to the Camera Roll" in empty.find_element(By.ID, "empty-hint").text
    assert empty.find_element(By.TAG_NAME, "a").get_attribute("href").endswith("/library")
    assert not browser.find_element(By.ID, "alert").is_displayed(), "the book's alert is for a source the device lacks"
    shot("empty-camera-roll")
    browser.find_element(By.ID, "cancel").click()
    assert server.session(session["id"], wait=10)["status"] == "cancelled"


def test_an_empty_album_says_what_it_lacks_and_another_album_hides_it(server, browser):
    movie = server.upload("videos/androidx-media__bear-vp9.webm")
    session = server.picker({"sourceType": "photoLibrary", "mediaTypes": ["public.movie"]})
    browser.get(server.base + session["url"])
    wait(browser).until(seen.element_to_be_clickable((By.CSS_SELECTOR, f"[data-asset='{movie['id']}']")))
    assert not browser.find_element(By.ID, "empty-state").is_displayed()
    browser.find_element(By.XPATH, "//nav[@id='albums']//button[normalize-space()='Camera Roll']").click()
    empty = wait(browser).until(seen.visibility_of_element_located((By.ID, "empty-state")))
    assert empty.find_element(By.TAG_NAME, "h2").text == "No Videos", "a movies-only picker lacks videos, not photos"
    browser.find_element(By.XPATH, "//nav[@id='albums']//button[normalize-space()='All Videos']").click()
    wait(browser).until(seen.element_to_be_clickable((By.CSS_SELECTOR, f"[data-asset='{movie['id']}']")))
    assert not browser.find_element(By.ID, "empty-state").is_displayed()


def test_an_empty_library_is_an_empty_state(server, browser):
    session = server.picker({"sourceType": "photoLibrary", "mediaTypes": ["public.image"]})
    browser.get(server.base + session["url"])
    empty = wait(browser).until(seen.visibility_of_element_located((By.ID, "empty-state")))
    assert empty.find_element(By.TAG_NAME, "h2").text == "No Photos"
    assert "add to your library" in empty.find_element(By.ID, "empty-hint").text
    assert browser.find_elements(By.CSS_SELECTOR, "[data-asset]") == []


def test_pick_from_the_camera_roll_only(server, browser, shot):
    saved = server.upload("photos/lychee__train.jpg", "?album=cameraRoll")
    other = server.upload("photos/exifsamples__jolla.jpg")
    session = server.picker({"sourceType": "savedPhotosAlbum"})
    browser.get(server.base + session["url"])
    item = wait(browser).until(seen.element_to_be_clickable((By.CSS_SELECTOR, f"[data-asset='{saved['id']}']")))
    assert browser.find_element(By.ID, "picker-title").text == "Camera Roll"
    assert not browser.find_element(By.ID, "albums").is_displayed(), "the Camera Roll source has no albums view"
    assert browser.find_elements(By.CSS_SELECTOR, f"[data-asset='{other['id']}']") == []
    shot("camera-roll")
    item.click()
    assert server.session(session["id"], wait=10)["info"]["assetID"] == saved["id"]


def test_the_albums_view_offers_the_camera_roll(server, browser):
    saved = server.upload("photos/lychee__train.jpg", "?album=cameraRoll")
    other = server.upload("photos/exifsamples__jolla.jpg")
    session = server.picker({"sourceType": "photoLibrary"})
    browser.get(server.base + session["url"])
    wait(browser).until(seen.element_to_be_clickable((By.CSS_SELECTOR, f"[data-asset='{other['id']}']")))
    assert browser.find_element(By.ID, "picker-title").text == "Photos"
    album = browser.find_element(By.XPATH, "//nav[@id='albums']//button[normalize-space()='Camera Roll']")
    album.click()
    wait(browser).until(lambda driver: album.get_attribute("aria-pressed") == "true"
                        and driver.find_elements(By.CSS_SELECTOR, f"[data-asset='{other['id']}']") == [])
    assert browser.find_element(By.ID, "picker-title").text == "Camera Roll", "the title names the album shown"
    browser.find_element(By.XPATH, "//nav[@id='albums']//button[normalize-space()='All Photos']").click()
    wait(browser).until(lambda driver: driver.find_element(By.ID, "picker-title").text == "Photos")
    wait(browser).until(lambda driver: driver.find_elements(By.CSS_SELECTOR, f"[data-asset='{other['id']}']"))
    album.click()
    # The grid keeps what it shows until the album's items are here, as the Photos app's views do.
    wait(browser).until(lambda driver: driver.find_elements(By.CSS_SELECTOR, f"[data-asset='{other['id']}']") == [])
    wait(browser).until(seen.element_to_be_clickable((By.CSS_SELECTOR, f"[data-asset='{saved['id']}']"))).click()
    assert server.session(session["id"], wait=10)["info"]["assetID"] == saved["id"]


def test_a_library_of_movies_only_is_titled_videos(server, browser):
    movie = server.upload("videos/androidx-media__bear-vp9.webm")
    server.upload("photos/exifsamples__jolla.jpg")
    session = server.picker({"sourceType": "photoLibrary", "mediaTypes": ["public.movie"]})
    browser.get(server.base + session["url"])
    wait(browser).until(seen.element_to_be_clickable((By.CSS_SELECTOR, f"[data-asset='{movie['id']}']")))
    assert browser.find_element(By.ID, "picker-title").text == "Videos"
    assert browser.title == "Videos"
    assert [button.text for button in browser.find_elements(By.CSS_SELECTOR, "#albums button")] == ["All Videos", "Camera Roll"]


def test_escape_cancels(server, browser):
    server.upload("photos/exifsamples__Canon_40D.jpg")
    session = server.picker({"sourceType": "photoLibrary"})
    browser.get(server.base + session["url"])
    wait(browser).until(seen.element_to_be_clickable((By.CSS_SELECTOR, "[data-asset]"))).send_keys(Keys.ESCAPE)
    assert server.session(session["id"], wait=10)["status"] == "cancelled"


def test_the_grid_scrolls_through_every_page(server, browser, tmp_path):
    """The picker's grid is the Photos app's timeline: 130 different small photos, read a page
    at a time as the grid scrolls, with only the rows near the screen in the page."""
    folder = tmp_path / "photos"
    folder.mkdir()
    for index in range(130):
        pixels = tmp_path / f"{index}.ppm"
        pixels.write_bytes(b"P6 48 32 255\n" + bytes([index, (index * 7) % 256, 255 - index]) * (48 * 32))
        subprocess.run(["vips", "copy", str(pixels), str(folder / f"{index}.jpg")], check=True)
    server.halt()
    imported = subprocess.run([str(BINARY), "--data", str(server.data / "data"), "import", "--json", str(folder)],
                              capture_output=True, text=True)
    server.start()
    ids = {item["id"] for item in json.loads(imported.stdout)["imported"]}
    assert len(ids) == 130, "each photo is new bytes"
    session = server.picker({"sourceType": "photoLibrary"})
    browser.get(server.base + session["url"])
    grid = wait(browser).until(seen.presence_of_element_located((By.ID, "grid")))
    assert grid.get_attribute("role") == "grid"
    wait(browser).until(lambda driver: len(driver.find_elements(By.CSS_SELECTOR, "#grid [data-asset]")) > 0)
    seen_ids, most_in_page = set(), 0
    for _ in range(60):
        shown = {item.get_attribute("data-asset") for item in browser.find_elements(By.CSS_SELECTOR, "#grid [data-asset]")}
        seen_ids |= shown
        most_in_page = max(most_in_page, len(browser.find_elements(By.CSS_SELECTOR, "#grid .tile")))
        if seen_ids == ids:
            break
        browser.execute_script("const grid = document.querySelector('#grid'); grid.scrollTop += grid.clientHeight / 2")
        time.sleep(0.2)
    assert seen_ids == ids
    assert most_in_page < 130, "rows far from the screen are not in the page"


def test_an_ordered_multiple_selection_returns_the_items_in_the_order_picked(server, browser, shot):
    first = server.upload("photos/recurser__Landscape_1.jpg")
    second = server.upload("photos/exifsamples__Canon_40D.jpg")
    third = server.upload("photos/lychee__train.jpg")
    session = server.picker({"sourceType": "photoLibrary", "mediaTypes": ["public.image"], "selectionLimit": 2,
                             "selection": "ordered", "allowsEditing": True})
    # Tall enough for the three days' rows to be in the page at once (the grid places only those near the screen).
    browser.set_window_size(900, 1200)
    browser.get(server.base + session["url"])
    add = wait(browser).until(seen.visibility_of_element_located((By.ID, "add")))
    assert not add.is_enabled(), "nothing selected yet"

    def tile(asset):
        return wait(browser).until(seen.element_to_be_clickable((By.CSS_SELECTOR, f"[data-asset='{asset['id']}']")))

    tile(third).click()
    tile(first).click()
    assert tile(third).get_attribute("aria-selected") == "true"
    assert tile(third).find_element(By.CLASS_NAME, "check").text == "1"
    assert tile(first).find_element(By.CLASS_NAME, "check").text == "2"
    # The numbers are drawn in hidden checkmarks; a screen reader hears them in the names.
    assert tile(third).accessible_name.startswith("Photo, ") and tile(third).accessible_name.endswith(", selected 1")
    assert tile(first).accessible_name.endswith(", selected 2")
    assert "selected" not in tile(second).accessible_name
    assert add.text == "Add (2)"
    tile(second).click()
    assert tile(second).get_attribute("aria-selected") == "false", "the limit is 2"
    assert "up to 2" in browser.find_element(By.ID, "status").text
    # Deselecting the first renumbers the rest; the keyboard selects as a tap does.
    tile(third).click()
    assert tile(first).find_element(By.CLASS_NAME, "check").text == "1"
    assert tile(first).accessible_name.endswith(", selected 1") and "selected" not in tile(third).accessible_name
    tile(second).send_keys(Keys.ENTER)
    assert tile(second).find_element(By.CLASS_NAME, "check").text == "2"
    assert tile(second).get_attribute("aria-label").endswith(", selected 2")
    shot("ordered-selection")
    assert server.session(session["id"])["status"] == "pending", "a selection is not a pick until Add"
    add.send_keys(Keys.ENTER)
    finished = server.session(session["id"], wait=10)
    assert finished["status"] == "finished"
    assert [info["assetID"] for info in finished["results"]] == [first["id"], second["id"]]
    assert finished["info"]["assetID"] == first["id"]
    assert "cropRect" not in finished["results"][0] or finished["results"][0]["cropRect"] is None, "no editing"


def test_present_picker_gives_a_page_every_result_in_order(server, browser):
    """presentPicker (/app/picker-client.js), as a page of this origin presents the picker: after
    an Add of two items it resolves with `results` in the order picked, `info` the first."""
    first = server.upload("photos/recurser__Landscape_1.jpg")
    second = server.upload("photos/exifsamples__Canon_40D.jpg")
    browser.get(server.base + "/")
    browser.execute_script("""window.picked = null;
        import("/app/picker-client.js").then(({ presentPicker }) => presentPicker(arguments[0]))
          .then((result) => { window.picked = result; }, (error) => { window.picked = { error: String(error) }; });""",
                           {"sourceType": "photoLibrary", "mediaTypes": ["public.image"], "selectionLimit": 2, "selection": "ordered"})
    in_picker(browser)
    for asset in (second, first):
        wait(browser).until(seen.element_to_be_clickable((By.CSS_SELECTOR, f"[data-asset='{asset['id']}']"))).click()
    browser.find_element(By.ID, "add").click()
    back_to_app(browser)
    result = wait(browser).until(lambda driver: driver.execute_script("return window.picked"))
    assert result["status"] == "finished", result
    assert [info["assetID"] for info in result["results"]] == [second["id"], first["id"]]
    assert result["info"]["assetID"] == second["id"]
    assert result["results"][1]["originalImage"].startswith(f"/media/{first['id']}/original?cap=")


def test_preselected_items_start_selected_and_can_be_deselected(server, browser):
    kept = server.upload("photos/recurser__Landscape_1.jpg")
    dropped = server.upload("photos/exifsamples__Canon_40D.jpg")
    session = server.picker({"sourceType": "photoLibrary", "selectionLimit": 3,
                             "preselectedAssetIdentifiers": [dropped["id"], kept["id"]]})
    browser.get(server.base + session["url"])
    item = wait(browser).until(seen.element_to_be_clickable((By.CSS_SELECTOR, f"[data-asset='{dropped['id']}']")))
    wait(browser).until(lambda driver: item.get_attribute("aria-selected") == "true")
    assert browser.find_element(By.ID, "add").text == "Add (2)"
    assert item.find_element(By.CLASS_NAME, "check").text == "✓", "default selection: checkmarks without numbers"
    item.click()
    browser.find_element(By.ID, "add").click()
    finished = server.session(session["id"], wait=10)
    assert [info["assetID"] for info in finished["results"]] == [kept["id"]]


def grid_items(browser):
    """The items of the grid's tiles, in the grid's order."""
    return [tile.get_attribute("data-asset") for tile in browser.find_elements(By.CSS_SELECTOR, "#grid [data-asset]")]


def library_in_picker(server, browser, *files):
    """`files` uploaded and a picker of the library opened on them, once its grid shows them all."""
    uploaded = [server.upload(file) for file in files]
    session = server.picker({"sourceType": "photoLibrary"})
    browser.get(server.base + session["url"])
    wait(browser).until(lambda driver: set(grid_items(driver)) == {item["id"] for item in uploaded})
    return uploaded, session


def at_top(browser):
    """The item of the highest tile whose top edge is in the grid's visible part."""
    return browser.execute_script("""const grid = document.querySelector('#grid').getBoundingClientRect();
        const visible = [...document.querySelectorAll('#grid .tile[data-asset]')].filter((tile) => {
          const box = tile.getBoundingClientRect();
          return box.top >= grid.top - 1 && box.top < grid.bottom - 1;
        });
        visible.sort((a, b) => a.getBoundingClientRect().top - b.getBoundingClientRect().top);
        return visible[0]?.dataset.asset ?? null;""")


def test_search_by_file_name_or_camera_and_a_month_jump(server, browser, shot):
    (canon, iphone), session = library_in_picker(server, browser, "photos/exifsamples__Canon_40D.jpg", "photos/lychee__train.jpg")
    shown = lambda: grid_items(browser)
    search = browser.find_element(By.ID, "search")
    search.send_keys("iPhone")
    wait(browser).until(lambda driver: shown() == [iphone["id"]])
    shot("search")
    search.clear()
    search.send_keys("nothing like it")
    wait(browser).until(seen.visibility_of_element_located((By.ID, "empty-state")))
    assert browser.find_element(By.ID, "empty-title").text == "No Results"
    search.clear()
    search.send_keys(Keys.ENTER)
    wait(browser).until(lambda driver: len(shown()) == 2)
    # A jump to the month of the older capture scrolls it to the top of the grid.
    dates = sorted([(canon["captureDate"], canon["id"]), (iphone["captureDate"], iphone["id"])])
    older_month = dates[0][0][:7]
    assert at_top(browser) == dates[1][1]
    browser.execute_script(
        "const m = document.querySelector('#month'); m.value = arguments[0]; m.dispatchEvent(new Event('change'))", older_month)
    wait(browser).until(lambda driver: at_top(driver) == dates[0][1])
    # A month older than anything scrolls to the oldest and says so.
    browser.execute_script(
        "const m = document.querySelector('#month'); m.value = '1990-01'; m.dispatchEvent(new Event('change'))")
    wait(browser).until(lambda driver: "Nothing here is from that month or before" in driver.find_element(By.ID, "status").text)
    assert at_top(browser) == dates[0][1]
    browser.find_element(By.CSS_SELECTOR, f"[data-asset='{dates[0][1]}']").click()
    assert server.session(session["id"], wait=10)["info"]["assetID"] == dates[0][1]


def test_the_search_suggests_places_and_escape_clears_before_it_cancels(server, browser, shot):
    """The picker's search field suggests the library's places and years as the Photos app's
    does; a suggestion chosen by the keyboard lists what it names; Escape closes the
    suggestions, then clears the field, and only then cancels the picker."""
    # Arezzo, August 2008; and another.
    (italy, other), session = library_in_picker(server, browser, "photos/exifsamples__DSCN0010.jpg", "photos/lychee__train.jpg")
    shown = lambda: grid_items(browser)
    search = browser.find_element(By.ID, "search")
    search.send_keys("arez")
    listbox = wait(browser).until(seen.visibility_of_element_located((By.ID, "suggestions")))
    options = lambda: [option.text.splitlines() for option in listbox.find_elements(By.CSS_SELECTOR, "[role=option]")]
    wait(browser).until(lambda driver: options() == [["Arezzo, Tuscany, Italy", "Place · 1 item"]])
    shot("search-suggestions")
    search.send_keys(Keys.ARROW_DOWN, Keys.ENTER)
    wait(browser).until(lambda driver: shown() == [italy["id"]])
    assert search.get_attribute("value") == "Arezzo, Tuscany, Italy"
    assert search.get_attribute("aria-expanded") == "false"
    # Escape clears the field (the whole library again) and leaves the picker open.
    search.send_keys(Keys.ESCAPE)
    wait(browser).until(lambda driver: set(shown()) == {italy["id"], other["id"]})
    assert search.get_attribute("value") == ""
    assert server.session(session["id"])["status"] == "pending"
    # A year suggested jumps the grid to that year's newest item.
    search.send_keys("2008")
    wait(browser).until(lambda driver: options() == [["2008", "Year · 1 item"]])
    browser.find_element(By.CSS_SELECTOR, "#suggestions [role=option]").click()
    wait(browser).until(lambda driver: browser.find_element(By.ID, "year").get_attribute("value") == "2008")
    wait(browser).until(lambda driver: at_top(driver) == italy["id"])
    assert search.get_attribute("value") == ""
    # With the field empty, Escape is the picker's own: a cancel.
    search.send_keys(Keys.ESCAPE)
    assert server.session(session["id"], wait=10)["status"] == "cancelled"


def test_a_year_jump_scrolls_to_that_years_newest_item(server, browser, shot):
    """The year jump offers the years the library holds, newest first, is reached and set by the
    keyboard alone, and scrolls the year's newest item to the top; a month jump then takes over
    from it."""
    newer = server.upload("photos/lychee__train.jpg")  # April 2021
    latest = server.upload("photos/exifsamples__Canon_40D.jpg")  # May 2008
    earlier = server.upload("photos/exifsamples__Nikon_D70.jpg")  # March 2008
    oldest = server.upload("photos/exifsamples__olympus-c960.jpg")  # November 2000
    session = server.picker({"sourceType": "photoLibrary"})
    browser.get(server.base + session["url"])
    wait(browser).until(lambda driver: at_top(driver) == newer["id"])
    year = browser.find_element(By.ID, "year")
    wait(browser).until(lambda driver: [option.text for option in year.find_elements(By.TAG_NAME, "option")]
                        == ["Any year", "2021", "2008", "2000"])
    assert year.accessible_name == "Jump to a year"
    # From the month jump, Tab reaches the year jump (the month field's own parts first).
    browser.execute_script("document.querySelector('#month').focus()")
    for _ in range(4):
        if browser.switch_to.active_element == year:
            break
        browser.switch_to.active_element.send_keys(Keys.TAB)
    assert browser.switch_to.active_element == year, "the year jump is reached by Tab"
    browser.switch_to.active_element.send_keys("2008")
    wait(browser).until(lambda driver: at_top(driver) == latest["id"])
    assert year.get_attribute("value") == "2008"
    shot("year-jump")
    for chosen, top in (("2000", oldest), ("2008", latest)):
        browser.execute_script(
            "const y = document.querySelector('#year'); y.value = arguments[0]; y.dispatchEvent(new Event('change'))", chosen)
        wait(browser).until(lambda driver: at_top(driver) == top["id"])
    browser.execute_script(
        "const m = document.querySelector('#month'); m.value = '2008-04'; m.dispatchEvent(new Event('change'))")
    wait(browser).until(lambda driver: at_top(driver) == earlier["id"])

    browser.execute_script(
        "const m = document.querySelector('#month'); m.value = '2021-04'; m.dispatchEvent(new Event('change'))")
    wait(browser).until(lambda driver: at_top(driver) == newer["id"])
    assert year.get_attribute("value") == "", "a month jump clears the year's"
    browser.find_element(By.CSS_SELECTOR, f"[data-asset='{newer['id']}']").click()
    assert server.session(session["id"], wait=10)["info"]["assetID"] == newer["id"]


def test_a_filter_shows_only_what_it_admits(server, browser, shot):
    """PHPickerFilter: a picker asked for anything but screenshots and slow motion shows the
    photo and the movie only; one asked for screenshots alone, in a library with none, says so."""
    photo = server.upload("photos/exifsamples__Canon_40D.jpg")
    screenshot = server.call("POST", "/api/assets", body=(CORPUS / "photos/recurser__Landscape_1.jpg").read_bytes(),
                             headers={"Content-Type": "application/octet-stream", "X-Filename": "Screenshot_20240101-101010.jpg"})
    slow = server.upload("videos/androidx-media__sample_android_slow_motion.mp4")
    movie = server.upload("videos/androidx-media__sample.mp4")
    assert screenshot["isScreenshot"] and slow["captureFrameRate"] == 240
    session = server.picker({"mediaTypes": ["public.image", "public.movie"],
                             "filter": {"not": {"any": ["screenshots", "slomoVideos"]}}})
    browser.get(server.base + session["url"])
    shown = lambda: set(grid_items(browser))
    wait(browser).until(lambda driver: shown() == {photo["id"], movie["id"]})
    shot("filtered")
    browser.find_element(By.CSS_SELECTOR, f"[data-asset='{movie['id']}']").click()
    assert server.session(session["id"], wait=10)["info"]["assetID"] == movie["id"]

    server.call("DELETE", f"/api/assets/{screenshot['id']}")
    only = server.picker({"filter": "screenshots"})
    browser.get(server.base + only["url"])
    empty = wait(browser).until(seen.visibility_of_element_located((By.ID, "empty-state")))
    assert browser.find_element(By.ID, "empty-title").text == "No Screenshots"
    assert shown() == set()
    assert empty.find_element(By.ID, "empty-add").is_displayed() is False


def test_a_restart_of_the_server_mid_pick_changes_nothing_for_the_user(server, browser):
    """The server restarts while the user is selecting: the page goes on, and Add finishes the
    session the restarted server still has, with both items in order."""
    first = server.upload("photos/recurser__Landscape_1.jpg")
    second = server.upload("photos/exifsamples__Canon_40D.jpg")
    session = server.picker({"sourceType": "photoLibrary", "selectionLimit": 2, "selection": "ordered"})
    browser.get(server.base + session["url"])
    tile = lambda asset: wait(browser).until(seen.element_to_be_clickable((By.CSS_SELECTOR, f"[data-asset='{asset['id']}']")))
    tile(second).click()
    server.halt()
    server.start()
    tile(first).click()
    browser.find_element(By.ID, "add").click()
    finished = server.session(session["id"], wait=10)
    assert finished["status"] == "finished"
    assert [info["assetID"] for info in finished["results"]] == [second["id"], first["id"]]
    wait(browser).until(seen.visibility_of_element_located((By.ID, "done")))


def test_a_heic_picked_as_compatible_is_a_jpeg_the_browser_shows(server, browser):
    """UIKit's imageExportPreset: by default a HEIC comes to the caller as a JPEG of its size,
    which Chromium (which decodes no HEIC) shows; `current` gives the HEIC itself."""
    still = server.upload("photos/pigallery2__IMG_7943.HEIC")

    def picked(configuration):
        session = server.picker(configuration)
        browser.get(server.base + session["url"])
        wait(browser).until(seen.element_to_be_clickable((By.CSS_SELECTOR, f"[data-asset='{still['id']}']"))).click()
        return server.session(session["id"], wait=10)["info"]

    def shown_size(url):
        return browser.execute_async_script("""
            const [url, done] = arguments;
            const image = new Image();
            image.onload = () => done([image.naturalWidth, image.naturalHeight]);
            image.onerror = () => done(null);
            image.src = url;""", server.base + url)

    compatible = picked({"mediaTypes": ["public.image"]})
    assert f"/media/{still['id']}/compatible?cap=" in compatible["originalImage"]
    assert compatible["metadata"]["mimeType"] == "image/jpeg"
    assert shown_size(compatible["originalImage"]) == [still["width"], still["height"]]
    current = picked({"mediaTypes": ["public.image"], "exportPreset": "current"})
    assert f"/media/{still['id']}/original?cap=" in current["originalImage"]
    assert shown_size(current["originalImage"]) is None, "the HEIC itself, which Chromium cannot show"
