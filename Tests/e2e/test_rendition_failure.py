"""A movie whose rendition always fails, in the Camera app and the picker's trim screen: the page
says why ("This video cannot be played: ..."), stops asking, and asks the server to make it
again only when the user presses Try again. ffmpeg is Debian's, behind a script that counts its
runs."""
import time

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as seen

from conftest import CORPUS, Server
from pages import button, wait

FAILED = "This video cannot be played: The video could not be decoded."


def unconvertible_movie():
    """A real movie whose sound is relabelled MPEG-H 3D Audio, which ffmpeg 5.1 cannot decode: it
    imports (it probes and its first frame decodes), and every rendition of it fails (as
    Sources/TestSupport/UnconvertibleMovie.swift makes it for the Swift tests)."""
    data = (CORPUS / "videos" / "pigallery2__video_rotate.mp4").read_bytes()
    for old, new in ((b"mp4a", b"mhm1"), (b"esds", b"free")):
        assert data.count(old) == 1
        data = data.replace(old, new)
    return data


class CountingFFmpeg:
    def __init__(self, folder):
        self.path = folder / "ffmpeg"
        self.log = folder / "ffmpeg-runs.log"
        self.path.write_text(f"#!/bin/sh\nprintf '%s\\n' \"$*\" >> '{self.log}'\nexec /usr/bin/ffmpeg \"$@\"\n")
        self.path.chmod(0o700)

    def renditions(self):
        """Runs that encode H.264: renditions (posters are JPEG)."""
        return sum("libx264" in line.split() for line in self.log.read_text().splitlines()) if self.log.exists() else 0


@pytest.fixture
def ffmpeg(tmp_path):
    return CountingFFmpeg(tmp_path)


@pytest.fixture
def counted_server(ffmpeg):
    running = Server(environment={"CAMERAROLL_FFMPEG": str(ffmpeg.path)})
    yield running
    running.stop()


def rendition_polls(browser):
    return browser.execute_script(
        "return performance.getEntriesByType('resource').filter((entry) => entry.name.endsWith('/rendition')).length")


def assert_stopped_asking(browser, ffmpeg):
    """The page polls no more and nothing more is made (a try is the stream's first part and the
    whole rendition the play starts in the background, each failing at once)."""
    time.sleep(1)
    runs = ffmpeg.renditions()
    assert runs >= 1
    polls = rendition_polls(browser)
    time.sleep(3)
    assert rendition_polls(browser) == polls, "the page stopped polling"
    assert ffmpeg.renditions() == runs


def tried_again(browser, ffmpeg, message):
    """Try again makes the movie once more, says why again, and stops asking again."""
    before = ffmpeg.renditions()
    button(browser, "Try again").click()
    wait(browser, 120).until(lambda driver: ffmpeg.renditions() > before)
    wait(browser, 120).until(seen.text_to_be_present_in_element((By.ID, message), FAILED))
    assert_stopped_asking(browser, ffmpeg)


def test_the_camera_app_says_why_and_tries_again_only_when_asked(counted_server, browser, ffmpeg, screenshots):
    movie = counted_server.upload_bytes(unconvertible_movie())
    assert movie["browserPlayable"] is False
    browser.get(counted_server.base + "/")
    browser.execute_script("localStorage.setItem('cameraroll.lastChoice', JSON.stringify(arguments[0]))",
                           {"assetID": movie["id"], "mediaType": "public.movie", "edited": False})
    browser.refresh()
    wait(browser, 120).until(seen.text_to_be_present_in_element((By.ID, "status"), FAILED))
    assert browser.find_elements(By.CSS_SELECTOR, "#view video") == []
    screenshots(browser, "failed")
    assert_stopped_asking(browser, ffmpeg)

    tried_again(browser, ffmpeg, "status")
    assert browser.find_element(By.ID, "retry-video").is_displayed()


def test_the_trim_screen_says_why_and_tries_again_only_when_asked(counted_server, browser, ffmpeg):
    movie = counted_server.upload_bytes(unconvertible_movie())
    session = counted_server.picker({"sourceType": "photoLibrary", "mediaTypes": ["public.movie"], "allowsEditing": True})
    browser.get(counted_server.base + session["url"])
    wait(browser).until(seen.element_to_be_clickable((By.CSS_SELECTOR, f"[data-asset='{movie['id']}']"))).click()
    wait(browser, 120).until(seen.text_to_be_present_in_element((By.ID, "trim-wait"), FAILED))
    assert not browser.find_element(By.ID, "trim-choose").is_enabled()
    assert_stopped_asking(browser, ffmpeg)

    tried_again(browser, ffmpeg, "trim-wait")
