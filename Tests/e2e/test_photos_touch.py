"""The Photos app (/library) by touch, on a phone (390 × 844) and a tablet (1180 × 820) that
Chromium emulates, fingers sent as CDP touch events (the page gets pointer events of type
"touch"): a long press starts select mode and taps add to it; in the viewer a swipe steps, a
double tap and a pinch zoom, a drag pans (and the mouse's double-click still zooms); and the
bars' links between the Camera and the Photos app, and Sign Out, on screen and large enough for
a finger, on a phone and on a desktop."""
import re

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as seen
from selenium.webdriver.support.ui import WebDriverWait

from conftest import CORPUS, lan_browser_on, open_library, snackbar_text, tiles
from pages import wait

PHONE = {"width": 390, "height": 844, "deviceScaleFactor": 3, "mobile": True}
TABLET = {"width": 1180, "height": 820, "deviceScaleFactor": 2, "mobile": True}
DEVICES = pytest.mark.parametrize("device", [PHONE, TABLET], ids=["phone", "tablet"])
# Three landscape photos taken on different days: the timeline's order is theirs, newest first.
PHOTOS = ["photos/exifsamples__Canon_40D.jpg", "photos/lychee__aarhus.jpg", "photos/exifsamples__jolla.jpg"]


def cdp(browser, command, parameters=None):
    # execute_cdp_cmd is the local driver's alone; a LAN device's browser is a Remote one.
    return browser.execute("executeCdpCommand", {"cmd": command, "params": parameters or {}})["value"]


def as_device(browser, device):
    """The device's screen in CSS pixels, its viewport rules (`mobile`) and a touch screen."""
    cdp(browser, "Emulation.setDeviceMetricsOverride", device)
    cdp(browser, "Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5})


class Fingers:
    """Touches at points in the viewport's CSS pixels, one CDP event a call: a finger stays down
    while the test waits for what the page does with it."""

    def __init__(self, browser):
        self.browser = browser

    def send(self, kind, points):
        cdp(self.browser, "Input.dispatchTouchEvent", {"type": kind, "touchPoints": [
            {"x": x, "y": y, "id": number, "radiusX": 4, "radiusY": 4, "force": 1} for number, (x, y) in enumerate(points)]})

    def down(self, *points):
        self.send("touchStart", points)

    def move(self, *points):
        self.send("touchMove", points)

    def up(self):
        self.send("touchEnd", [])

    def tap(self, point):
        self.down(point)
        self.up()

    def drag(self, start, end, steps=8):
        self.down(start)
        for step in range(1, steps + 1):
            self.move((start[0] + (end[0] - start[0]) * step / steps, start[1] + (end[1] - start[1]) * step / steps))
        self.up()

    def pinch(self, center, gap, to_gap, steps=8):
        """Two fingers `gap` apart across `center`, moved to `to_gap` apart."""
        spread = lambda distance: [(center[0] - distance / 2, center[1]), (center[0] + distance / 2, center[1])]
        self.down(*spread(gap))
        for step in range(1, steps + 1):
            self.move(*spread(gap + (to_gap - gap) * step / steps))
        self.up()


def box(browser, element):
    return browser.execute_script("const b = arguments[0].getBoundingClientRect();"
                                  "return {x: b.x, y: b.y, width: b.width, height: b.height}", element)


def middle(browser, element):
    place = box(browser, element)
    return place["x"] + place["width"] / 2, place["y"] + place["height"] / 2


def in_reach(browser, element):
    """The middle of an element scrolled into view, where a finger lands on it and nothing else
    (the selection bar covers the grid's last rows)."""
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
    point = middle(browser, element)
    hit = browser.execute_script("const hit = document.elementFromPoint(arguments[1], arguments[2]);"
                                 "return arguments[0].contains(hit)", element, *point)
    assert hit, f"{element.get_attribute('aria-label') or element.text} is covered at {point}"
    return point


def watch_fingers(browser):
    """Keeps, on the page's clock, when a finger last moved and last lifted."""
    browser.execute_script("""
        document.addEventListener('touchmove', (event) => { window.lastTouchMove = event.timeStamp; }, {capture: true, passive: true});
        document.addEventListener('pointerup', (event) => { window.lastTouchUp = event.timeStamp; }, true);""")


def held_still(browser):
    """Waits until the finger down has not moved for a while: it lifts with no speed, so no fling."""
    wait(browser).until(lambda driver: driver.execute_script("return performance.now() - (window.lastTouchMove ?? -1e9) > 250"))


def past_double_tap(browser):
    """Waits until a tap can no longer make a double tap with the last one (the viewer's 300 ms)."""
    wait(browser).until(lambda driver: driver.execute_script("return performance.now() - (window.lastTouchUp ?? -1e9) > 350"))


def library_of_photos_on(browser, server, device):
    """The library of PHOTOS open on the device, every tile placed."""
    for name in PHOTOS:
        server.upload(name)
    as_device(browser, device)
    open_library(browser, server)
    wait(browser).until(lambda driver: len(tiles(driver)) == len(PHOTOS))


def tile(browser, index):
    return browser.find_element(By.CSS_SELECTOR, f"#grid .tile[data-index='{index}']")


def selection(browser):
    return browser.find_element(By.ID, "selection-count").text


@DEVICES
def test_a_long_press_starts_select_mode_and_taps_add_to_it(server, browser, device, screenshots):
    library_of_photos_on(browser, server, device)
    ids = {item["index"]: item["id"] for item in tiles(browser)}
    watch_fingers(browser)
    fingers = Fingers(browser)
    pressed = middle(browser, tile(browser, 0))
    fingers.down(pressed)
    # Select mode comes while the finger is still down, as in Photos, not when it lifts.
    wait(browser).until(lambda driver: selection(driver) == "1 selected")
    # The finger slides a little before it lifts, as fingers do: no click ends this press (as
    # none ends a long press on a phone), and the next tap must not be taken for it.
    fingers.move((pressed[0], pressed[1] - 10))
    fingers.move((pressed[0], pressed[1] - 25))
    held_still(browser)
    fingers.up()
    select = browser.find_element(By.ID, "select")
    assert select.get_attribute("aria-pressed") == "true" and select.text == "Cancel"
    assert browser.find_element(By.ID, "selection-bar").is_displayed()
    assert tile(browser, 0).get_attribute("aria-selected") == "true"
    assert not browser.execute_script("return document.querySelector('#viewer').open"), "a long press does not open the item"

    # The tap after a long press is an ordinary one: it adds its item, and another takes one away.
    fingers.tap(in_reach(browser, tile(browser, 1)))
    wait(browser).until(lambda driver: selection(driver) == "2 selected")
    fingers.tap(in_reach(browser, tile(browser, 2)))
    wait(browser).until(lambda driver: selection(driver) == "3 selected")
    fingers.tap(in_reach(browser, tile(browser, 0)))
    wait(browser).until(lambda driver: selection(driver) == "2 selected")
    assert {item["id"] for item in tiles(browser) if item["selected"] == "true"} == {ids[1], ids[2]}
    screenshots(browser, "selected")
    # What was chosen by touch is what the bar's action changes.
    fingers.tap(in_reach(browser, browser.find_element(By.CSS_SELECTOR, "#selection-bar [data-action=favorite]")))
    wait(browser).until(lambda driver: "favourites" in snackbar_text(driver))
    assert {asset["id"] for asset in server.call("GET", "/api/assets?collection=favorites")["assets"]} == {ids[1], ids[2]}
    # Its Undo, by touch too, takes it back; select mode stays for the next action.
    fingers.tap(in_reach(browser, browser.find_element(By.CSS_SELECTOR, "#snackbar .snackbar-undo")))
    wait(browser).until(lambda driver: "as they were" in snackbar_text(driver))
    assert server.call("GET", "/api/assets?collection=favorites")["assets"] == []
    assert selection(browser) == "Select items"


ZOOM = re.compile(r"translate\((-?[\d.e-]+)px, (-?[\d.e-]+)px\) scale\(([\d.]+)\)")


def zoom(browser):
    """The shown photo's zoom as the viewer sets it on the image: scale and pan in CSS pixels."""
    style = browser.execute_script("return document.querySelector('#viewer .stage img.photo').style.transform")
    if not style:
        return {"scale": 1.0, "x": 0.0, "y": 0.0}
    x, y, scale = map(float, ZOOM.fullmatch(style).groups())
    return {"scale": scale, "x": x, "y": y}


def photo_box(browser):
    return box(browser, browser.find_element(By.CSS_SELECTOR, "#viewer .stage img.photo"))


def shown_sharp(browser):
    """Whether the viewer shows the server's render (not the thumbnail), laid out: its size is final."""
    return browser.execute_script("""const image = document.querySelector('#viewer .stage img.photo');
        return Boolean(image && image.src.includes('/display?') && image.complete && image.naturalWidth > 0)""")


@DEVICES
def test_the_viewer_swipes_double_taps_pinches_and_pans(server, browser, device, screenshots):
    library_of_photos_on(browser, server, device)
    fingers = Fingers(browser)
    fingers.tap(middle(browser, tile(browser, 0)))
    viewer = wait(browser).until(seen.visibility_of_element_located((By.ID, "viewer")))
    assert viewer.get_attribute("aria-label") == "Photo 1 of 3"
    watch_fingers(browser)
    stage = browser.find_element(By.CSS_SELECTOR, "#viewer .stage")
    area = box(browser, stage)
    left, right = area["x"] + area["width"] * 0.2, area["x"] + area["width"] * 0.8
    across = area["y"] + area["height"] / 2

    # A swipe to the left shows the next item, to the right the one before; at the end, nothing.
    fingers.drag((right, across), (left, across))
    wait(browser).until(lambda driver: viewer.get_attribute("aria-label") == "Photo 2 of 3")
    fingers.drag((right, across), (left, across))
    wait(browser).until(lambda driver: viewer.get_attribute("aria-label") == "Photo 3 of 3")
    fingers.drag((right, across), (left, across))
    fingers.drag((left, across), (right, across))
    wait(browser).until(lambda driver: viewer.get_attribute("aria-label") == "Photo 2 of 3")
    # A short, mostly vertical drag is neither a step nor a close.
    fingers.drag((right, across - 30), (right - 20, across + 30))
    assert viewer.get_attribute("aria-label") == "Photo 2 of 3"
    assert viewer.is_displayed()
    wait(browser).until(shown_sharp)
    assert zoom(browser)["scale"] == 1

    # The whole photo is on the stage, as large as fits: the zooms below are measured from it.
    photo = photo_box(browser)
    assert photo["x"] >= area["x"] - 0.5 and photo["x"] + photo["width"] <= area["x"] + area["width"] + 0.5
    assert photo["y"] >= area["y"] - 0.5 and photo["y"] + photo["height"] <= area["y"] + area["height"] + 0.5
    assert photo["width"] == pytest.approx(area["width"], abs=1) or photo["height"] == pytest.approx(area["height"], abs=1)

    # A double tap zooms in on its place, which stays under the finger; another zooms back out.
    place = (photo["x"] + photo["width"] * 0.3, photo["y"] + photo["height"] * 0.4)
    past_double_tap(browser)
    fingers.tap(place)
    fingers.tap(place)
    wait(browser).until(lambda driver: zoom(driver)["scale"] > 1)
    zoomed = photo_box(browser)
    assert zoom(browser)["scale"] == pytest.approx(2.5)
    assert zoomed["width"] == pytest.approx(photo["width"] * 2.5, rel=0.01)
    assert (place[0] - zoomed["x"]) / zoomed["width"] == pytest.approx(0.3, abs=0.01)
    assert (place[1] - zoomed["y"]) / zoomed["height"] == pytest.approx(0.4, abs=0.01)
    assert "zoomed" in stage.get_attribute("class")
    screenshots(browser, "double-tapped")
    past_double_tap(browser)
    fingers.tap(place)
    fingers.tap(place)
    wait(browser).until(lambda driver: zoom(driver)["scale"] == 1)
    assert photo_box(browser) == pytest.approx(photo, abs=0.5)

    # Two fingers spread three times as far apart zoom three times, around the point between them.
    past_double_tap(browser)
    center = (photo["x"] + photo["width"] * 0.6, photo["y"] + photo["height"] * 0.5)
    fingers.pinch(center, 60, 180)
    wait(browser).until(lambda driver: zoom(driver)["scale"] > 1)
    pinched = photo_box(browser)
    assert zoom(browser)["scale"] == pytest.approx(3, rel=0.01)
    assert (center[0] - pinched["x"]) / pinched["width"] == pytest.approx(0.6, abs=0.01)
    # Pinching in takes some of it back.
    fingers.pinch(center, 180, 120)
    wait(browser).until(lambda driver: zoom(driver)["scale"] == pytest.approx(2, rel=0.01))

    # A zoomed photo follows one finger's drag, sideways too, instead of going to the next.
    before = zoom(browser)
    fingers.drag(center, (center[0] - 120, center[1] + 30))
    wait(browser).until(lambda driver: zoom(driver)["x"] != before["x"])
    after = zoom(browser)
    assert (after["x"] - before["x"], after["y"] - before["y"]) == pytest.approx((-120, 30), abs=0.5)
    assert after["scale"] == before["scale"]
    assert viewer.get_attribute("aria-label") == "Photo 2 of 3"
    screenshots(browser, "panned")


def test_on_a_phone_the_photos_start_at_the_top_the_views_are_tabs_and_the_bar_tucks_away(server, browser, screenshots):
    # Sixty photos of one day (one photo's bytes, each with a different tail after its end):
    # rows enough to scroll.
    photo = (CORPUS / PHOTOS[0]).read_bytes()
    for number in range(60):
        server.upload_bytes(photo + f"tail {number}".encode())
    as_device(browser, PHONE)
    open_library(browser, server)
    wait(browser).until(lambda driver: len(tiles(driver)) >= 12)
    # The first photo under the bar and the day's headings, in the top fifth of the screen.
    assert box(browser, tile(browser, 0))["y"] < PHONE["height"] / 5
    # The views are a tab bar at the foot of the screen, each tab within a finger's reach.
    tabs = browser.find_element(By.ID, "views")
    assert box(browser, tabs)["y"] + box(browser, tabs)["height"] == pytest.approx(PHONE["height"], abs=1)
    assert names(browser, "#views a") == ["Library", "Recently Added", "Favourites", "Albums", "Captures Not Saved", "Recently Deleted"]
    assert out_of_reach(browser, "#views a") == []
    screenshots(browser, "tabs")
    fingers = Fingers(browser)
    fingers.tap(in_reach(browser, browser.find_element(By.CSS_SELECTOR, "#views a[data-view='favorites']")))
    wait(browser).until(lambda driver: driver.find_element(By.ID, "title").text == "Favourites")
    fingers.tap(in_reach(browser, browser.find_element(By.CSS_SELECTOR, "#views a[data-view='library']")))
    wait(browser).until(lambda driver: len(tiles(driver)) >= 12)

    # Scrolling down tucks the bar away (the photos take its room) and shows the scrubber's
    # handle for a while; scrolling up brings the bar back.
    header = browser.find_element(By.CSS_SELECTOR, "header.bar")
    grid = browser.find_element(By.ID, "grid")
    browser.execute_script("arguments[0].scrollTop = 400", grid)
    wait(browser).until(lambda driver: box(driver, header)["y"] + box(driver, header)["height"] <= 0.5)
    assert box(browser, grid)["y"] <= 0.5
    wait(browser).until(lambda driver: driver.find_element(By.ID, "scrubber").value_of_css_property("opacity") == "1")
    wait(browser, 5).until(lambda driver: driver.find_element(By.ID, "scrubber").value_of_css_property("opacity") == "0")
    browser.execute_script("arguments[0].scrollTop = 100", grid)
    wait(browser).until(lambda driver: box(driver, header)["y"] >= -0.5)

    # The viewer takes the whole screen; a tap hides its bars and another brings them back; a
    # swipe up shows the info, a swipe down hides it, and another closes the viewer.
    fingers.tap(in_reach(browser, tile(browser, 0)))
    viewer = wait(browser).until(seen.visibility_of_element_located((By.ID, "viewer")))
    stage = box(browser, browser.find_element(By.CSS_SELECTOR, "#viewer .stage"))
    assert stage["y"] <= 0.5 and stage["height"] >= PHONE["height"] - 1 and stage["width"] >= PHONE["width"] - 1
    tools = browser.find_element(By.CSS_SELECTOR, "#viewer .viewer-tools")
    assert out_of_reach(browser, "#viewer .viewer-tools button, #viewer .viewer-tools a, #viewer .close-button") == []
    screenshots(browser, "viewer")
    watch_fingers(browser)
    center = (PHONE["width"] / 2, PHONE["height"] / 2)
    past_double_tap(browser)
    fingers.tap(center)
    wait(browser).until(lambda driver: not tools.is_displayed())
    past_double_tap(browser)
    fingers.tap(center)
    wait(browser).until(lambda driver: tools.is_displayed())
    info = browser.find_element(By.CSS_SELECTOR, "#viewer .info")
    fingers.drag((center[0], center[1] + 150), (center[0], center[1] - 150))
    wait(browser).until(lambda driver: info.is_displayed())
    screenshots(browser, "viewer-info")
    fingers.drag((center[0], center[1] - 250), (center[0], center[1] - 50))
    wait(browser).until(lambda driver: not info.is_displayed())
    assert viewer.is_displayed()
    fingers.drag((center[0], center[1] - 150), (center[0], center[1] + 150))
    wait(browser).until(lambda driver: not driver.execute_script("return document.querySelector('#viewer').open"))


def test_a_mouse_double_click_still_zooms_in_and_out(server, browser):
    # Double taps leave the browser's double-click to the taps; the mouse's must still zoom.
    server.upload(PHOTOS[0])
    browser.set_window_size(1280, 900)
    open_library(browser, server)
    browser.find_element(By.CSS_SELECTOR, "#grid .tile").click()
    wait(browser).until(shown_sharp)
    image = browser.find_element(By.CSS_SELECTOR, "#viewer .stage img.photo")
    ActionChains(browser).double_click(image).perform()
    wait(browser).until(lambda driver: zoom(driver)["scale"] == 2.5)
    ActionChains(browser).double_click(image).perform()
    wait(browser).until(lambda driver: zoom(driver)["scale"] == 1)


# Every control of the page's bar (and of the viewer's, the selection's) that is shown: its box,
# and whether a finger at its middle lands on it (nothing covers it, nothing clips it).
CONTROLS = """
const shown = (element) => element.getClientRects().length > 0 && getComputedStyle(element).visibility !== 'hidden';
return [...document.querySelectorAll(arguments[0])].filter(shown).map((element) => {
  const box = element.getBoundingClientRect();
  const hit = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
  return {name: element.getAttribute('aria-label') || element.textContent.trim(), left: box.left, top: box.top,
          right: box.right, bottom: box.bottom, width: box.width, height: box.height, reachable: element.contains(hit)};
});
"""


def controls(browser, selector="header a, header button"):
    return browser.execute_script(CONTROLS, selector)


def out_of_reach(browser, selector="header a, header button"):
    """The controls a finger cannot press as they are: off the screen, covered, or under 44 px."""
    width, height = browser.execute_script("return [document.documentElement.clientWidth, document.documentElement.clientHeight]")
    return [control for control in controls(browser, selector)
            if control["left"] < 0 or control["top"] < 0 or control["right"] > width or control["bottom"] > height
            or control["width"] < 44 or control["height"] < 44 or not control["reachable"]]


def swipe_into_view(browser, row, element):
    """Swipes a row that scrolls sideways with a finger, again while it has not come, until the
    element is wholly on screen once the row has stopped: a swipe may fling it on after the
    finger lifts, past where it was when the finger lifted."""
    area = box(browser, row)
    y = area["y"] + area["height"] / 2
    near, far = area["x"] + area["width"] * 0.2, area["x"] + area["width"] * 0.9

    def there(driver):
        place = box(driver, element)
        if place["x"] < area["x"] - 0.5:
            Fingers(driver).drag((near, y), (far, y))
        elif place["x"] + place["width"] > area["x"] + area["width"] + 0.5:
            Fingers(driver).drag((far, y), (near, y))
        else:
            return True
        settled(driver, row)
        return False
    wait(browser).until(there)


def settled(browser, row):
    """Waits until a row stays where it is for a fifth of a second."""
    positions = []

    def unchanged(driver):
        positions.append(driver.execute_script("return arguments[0].scrollLeft", row))
        return len(positions) > 1 and positions[-1] == positions[-2]
    WebDriverWait(browser, 10, poll_frequency=0.2).until(unchanged)


def names(browser, selector="header a, header button"):
    return [control["name"] for control in controls(browser, selector)]


def test_on_a_small_tablet_the_current_view_is_in_sight_in_the_row_of_views(server, browser):
    """The views are one row on a small tablet, wider than the screen (a phone has them as tabs):
    whichever is current, by a link or a reload, is scrolled into the row."""
    as_device(browser, {"width": 700, "height": 1000, "deviceScaleFactor": 2, "mobile": True})
    for view in ["deleted", "library", "unsaved", "favorites"]:
        open_library(browser, server, f"#/{view}")
        wait(browser).until(lambda driver: driver.execute_script("""
            const link = document.querySelector(`#views a[data-view="${arguments[0]}"]`), row = link.parentElement;
            const box = link.getBoundingClientRect(), edge = row.getBoundingClientRect();
            return link.getAttribute("aria-current") === "page" && row.scrollWidth > row.clientWidth + 50
                && box.left >= edge.left - 1 && box.right <= edge.right + 1;""", view), f"{view} is out of sight")


@pytest.mark.parametrize("device", [PHONE, None], ids=["phone", "desktop"])
def test_the_bars_go_between_the_library_and_the_camera_all_within_reach(server, browser, device, screenshots):
    server.upload(PHOTOS[0])
    if device:
        as_device(browser, device)
        press = lambda element: Fingers(browser).tap(in_reach(browser, element))
    else:
        browser.set_window_size(1440, 900)
        press = lambda element: element.click()
    open_library(browser, server)
    wait(browser).until(lambda driver: len(tiles(driver)) == 1)
    # A phone picks files, not folders, and has its tab bar for the Library's views.
    here, adds = (["Camera", "Settings"], ["Add Photos or Videos"]) if device else (["Camera", "Library", "Settings"], ["Add Photos or Videos", "Add a Folder"])
    assert names(browser) == [*here, *adds, "Select"]
    assert out_of_reach(browser) == []
    assert browser.execute_script("return document.documentElement.scrollWidth <= document.documentElement.clientWidth")
    # The owner's own computer has nobody to sign out.
    assert server.call("GET", "/api/session")["local"] and not browser.find_element(By.ID, "sign-out").is_displayed()
    screenshots(browser, "library")

    # Select mode's bar, within reach too.
    press(browser.find_element(By.ID, "select"))
    wait(browser).until(lambda driver: driver.find_element(By.ID, "selection-bar").is_displayed())
    assert names(browser, "#selection-bar button") == ["Select All", "Add to Album", "Favourite", "Download", "Share Link", "Delete", "Done"]
    assert out_of_reach(browser, "#selection-bar button") == []
    press(browser.find_element(By.CSS_SELECTOR, "#selection-bar [data-action=done]"))
    wait(browser).until(lambda driver: not driver.find_element(By.ID, "selection-bar").is_displayed())

    # The views: on a phone tabs at the foot of the screen.
    for view, title in [("deleted", "Recently Deleted"), ("library", "Library")]:
        link = browser.find_element(By.CSS_SELECTOR, f"#views a[data-view={view}]")
        if device:
            swipe_into_view(browser, browser.find_element(By.ID, "views"), link)
        assert out_of_reach(browser, f"#views a[data-view={view}]") == []
        press(link)
        wait(browser).until(lambda driver: driver.find_element(By.ID, "title").text == title)

    # The viewer's bar and side buttons, and Close.
    press(tile(browser, 0))
    wait(browser).until(seen.visibility_of_element_located((By.ID, "viewer")))
    viewer_controls = "#viewer .viewer-bar button, #viewer .viewer-bar a, #viewer .side"
    assert names(browser, viewer_controls) == ["Close", "Favourite", "Info", "Edit", "Download", "Delete", "Previous", "Next"]
    assert out_of_reach(browser, viewer_controls) == []
    screenshots(browser, "viewer")
    press(browser.find_element(By.CSS_SELECTOR, "#viewer .close-button"))
    wait(browser).until(lambda driver: not driver.execute_script("return document.querySelector('#viewer').open"))

    # To the Camera app and back.
    press(browser.find_element(By.LINK_TEXT, "Camera"))
    wait(browser).until(lambda driver: driver.current_url == server.base + "/")
    assert browser.find_element(By.TAG_NAME, "h1").text == "Camera"
    wait(browser).until(lambda driver: driver.find_element(By.ID, "pick").is_displayed())
    assert names(browser) == ["Library", "Settings"]
    assert out_of_reach(browser) == []
    screenshots(browser, "camera")
    press(browser.find_element(By.LINK_TEXT, "Library"))
    wait(browser).until(lambda driver: driver.current_url == server.base + "/library")
    wait(browser).until(lambda driver: len(tiles(driver)) == 1)


def test_a_phone_on_the_lan_signs_in_and_signs_out_from_the_bars(lan, lan_server, screenshots):
    lan_server.upload(PHOTOS[0])
    browser, close = lan_browser_on(lan, server=lan_server)
    try:
        as_device(browser, PHONE)
        fingers = Fingers(browser)
        base = f"https://{lan.server_address}:{lan_server.port}"
        browser.get(base + "/library")
        wait(browser).until(lambda driver: "/signin" in driver.current_url)
        browser.find_element(By.ID, "password").send_keys("the owner's password")
        fingers.tap(in_reach(browser, wait(browser).until(seen.element_to_be_clickable((By.ID, "submit")))))
        wait(browser).until(lambda driver: driver.current_url == base + "/library")
        wait(browser).until(lambda driver: len(tiles(driver)) == 1)
        # Signed in from another device: Sign Out is offered, in the bar with the rest.
        wait(browser).until(seen.visibility_of_element_located((By.ID, "sign-out")))
        assert names(browser) == ["Camera", "Settings", "Sign Out", "Add Photos or Videos", "Select"]
        assert out_of_reach(browser) == []
        screenshots(browser, "library")
        fingers.tap(in_reach(browser, browser.find_element(By.LINK_TEXT, "Camera")))
        wait(browser).until(lambda driver: driver.current_url == base + "/")
        wait(browser).until(seen.visibility_of_element_located((By.ID, "sign-out")))
        assert names(browser) == ["Library", "Settings", "Sign Out"]
        assert out_of_reach(browser) == []
        screenshots(browser, "camera")
        fingers.tap(in_reach(browser, browser.find_element(By.LINK_TEXT, "Library")))
        wait(browser).until(lambda driver: driver.current_url == base + "/library")
        sign_out = wait(browser).until(seen.visibility_of_element_located((By.ID, "sign-out")))
        fingers.tap(in_reach(browser, sign_out))
        wait(browser).until(lambda driver: "/signin" in driver.current_url)
        # Signed out on the server, not only on the page: the library asks again.
        browser.get(base + "/library")
        wait(browser).until(lambda driver: "/signin?next=" in driver.current_url)
    finally:
        close()
