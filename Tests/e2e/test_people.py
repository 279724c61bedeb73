"""People on the Settings page: the first admin (this computer) adds a person, sets a password
and removes someone, whose photos go to the Recently Deleted of the admin chosen."""
import json
import subprocess

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as seen

from conftest import BINARY, CORPUS, Server
from pages import button, wait

import pytest


def cli(server, *words, stdin=None):
    return subprocess.run([str(BINARY), "--data", str(server.data / "data"), *words], input=stdin, text=True,
                          check=True, capture_output=True).stdout


@pytest.fixture
def family():
    running = Server(password="the owner's password")
    cli(running, "users", "add", "anna", stdin="anna's password\n")
    cli(running, "import", "--user", "anna", str(CORPUS / "photos" / "exifsamples__Canon_40D.jpg"))
    yield running
    running.stop()


def people(browser):
    # Read at once: the list is drawn anew after each change.
    return browser.execute_script("return [...document.querySelectorAll('#people li strong')].map((name) => name.textContent)")


def test_an_admin_adds_sets_a_password_and_removes_a_person(family, browser, shot):
    browser.get(family.base + "/settings")
    wait(browser).until(lambda driver: people(driver) == ["owner", "anna"])
    assert browser.find_element(By.ID, "me").text == "owner"
    wait(browser).until(lambda driver: driver.find_element(By.ID, "my-usage").text == "Your library holds 0 bytes.")

    browser.find_element(By.ID, "person-name").send_keys("Ben")
    browser.find_element(By.ID, "person-password").send_keys("ben's password")
    browser.find_element(By.ID, "person-admin").send_keys(Keys.SPACE)
    button(browser, "Add person").click()
    wait(browser).until(lambda driver: people(driver) == ["owner", "anna", "Ben"])
    assert "Ben can sign in now, as an admin" in browser.find_element(By.ID, "people-status").text

    # A new password for Anna, typed in the dialog; Escape leaves a dialog with nothing done.
    browser.find_element(By.CSS_SELECTOR, "[aria-label=\"Set anna's password\"]").click()
    dialog = wait(browser).until(seen.visibility_of_element_located((By.ID, "set-password")))
    field = dialog.find_element(By.ID, "their-password")
    field.send_keys("anna's second password", Keys.ENTER)
    wait(browser).until(lambda driver: "anna's password is set" in driver.find_element(By.ID, "people-status").text)
    anna = [person for person in json.loads(cli(family, "users", "list", "--json")) if person["name"] == "anna"]
    assert anna and anna[0]["passwordSet"]

    # Her photo counts against the storage an admin gives her.
    row = browser.find_element(By.XPATH, "//ul[@id='people']/li[.//strong[text()='anna']]")
    assert "Uses 8 KB" in row.text, row.text
    browser.find_element(By.CSS_SELECTOR, "[aria-label=\"Set anna's storage\"]").click()
    dialog = wait(browser).until(seen.visibility_of_element_located((By.ID, "set-quota")))
    dialog.find_element(By.CSS_SELECTOR, "#quota option[value='10000000000']").click()
    dialog.find_element(By.CSS_SELECTOR, "button[value='set']").click()
    wait(browser).until(lambda driver: "anna's library may hold 10 GB" in driver.find_element(By.ID, "people-status").text)
    wait(browser).until(lambda driver: "Uses 8 KB of 10 GB" in driver.find_element(
        By.XPATH, "//ul[@id='people']/li[.//strong[text()='anna']]").text)
    assert [person.get("quota") for person in json.loads(cli(family, "users", "list", "--json"))] == [None, 10000000000, None]

    browser.find_element(By.CSS_SELECTOR, "[aria-label='Remove anna']").click()
    dialog = wait(browser).until(seen.visibility_of_element_located((By.ID, "remove-person")))
    dialog.send_keys(Keys.ESCAPE)
    wait(browser).until(seen.invisibility_of_element_located((By.ID, "remove-person")))
    assert people(browser) == ["owner", "anna", "Ben"]

    browser.find_element(By.CSS_SELECTOR, "[aria-label='Remove anna']").click()
    dialog = wait(browser).until(seen.visibility_of_element_located((By.ID, "remove-person")))
    options = [option.text for option in dialog.find_elements(By.CSS_SELECTOR, "#receiver option")]
    assert options == ["owner", "Ben"], "only admins receive a library"
    dialog.find_element(By.CSS_SELECTOR, "#receiver option:nth-child(2)").click()
    shot("remove-person")
    dialog.find_element(By.CSS_SELECTOR, "button[value='remove']").click()
    wait(browser).until(lambda driver: people(driver) == ["owner", "Ben"])
    said = browser.find_element(By.ID, "people-status").text
    assert "Ben's Recently Deleted holds their 1 item" in said, said
    assert [person["name"] for person in json.loads(cli(family, "users", "list", "--json"))] == ["owner", "Ben"]
