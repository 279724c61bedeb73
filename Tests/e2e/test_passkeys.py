"""Passkeys in a real browser: Chromium's virtual authenticator (over CDP) stands for a phone's
screen lock. Anna adds a passkey in Settings, signs in with it alone on the sign-in page, and
removes it; at an IP address the page says why there are no passkeys."""
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as seen

from pages import wait


def with_authenticator(driver):
    """A platform authenticator that keeps discoverable passkeys and verifies its user at once."""
    driver.execute_cdp_cmd("WebAuthn.enable", {"enableUI": False})
    return driver.execute_cdp_cmd("WebAuthn.addVirtualAuthenticator", {"options": {
        "protocol": "ctap2", "transport": "internal", "hasResidentKey": True, "hasUserVerification": True,
        "isUserVerified": True, "automaticPresenceSimulation": True}})["authenticatorId"]


def driver_path(driver):
    return driver.execute_script("return location.pathname")


def who(driver):
    return driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "fetch('/api/session').then((r) => r.json()).then((s) => done(s.user?.name ?? null));")


def test_a_passkey_added_in_settings_signs_in_alone(family, browser, shot):
    authenticator = with_authenticator(browser)
    # WebAuthn's relying party is a name: the page is opened at localhost, a secure context.
    base = f"http://localhost:{family.port}"
    browser.get(base + "/signin?next=/settings")
    wait(browser).until(seen.visibility_of_element_located((By.ID, "user"))).send_keys("anna")
    browser.find_element(By.ID, "password").send_keys("anna's password", Keys.ENTER)
    section = wait(browser).until(seen.visibility_of_element_located((By.ID, "passkeys-section")))
    assert "no passkey yet" in section.text
    name = section.find_element(By.ID, "passkey-name")
    assert name.get_attribute("value"), "named for the device at first"
    name.clear()
    name.send_keys("Anna's laptop")
    section.find_element(By.CSS_SELECTOR, "#add-passkey button").click()
    wait(browser).until(lambda driver: "Anna's laptop signs you in now." in driver.find_element(By.ID, "passkeys-status").text)
    rows = section.find_elements(By.CSS_SELECTOR, "#passkeys li")
    assert len(rows) == 1 and "Anna's laptop" in rows[0].text and "not used yet" in rows[0].text
    shot("settings-passkey")
    credentials = browser.execute_cdp_cmd("WebAuthn.getCredentials", {"authenticatorId": authenticator})["credentials"]
    assert [(entry["rpId"], entry["isResidentCredential"]) for entry in credentials] == [("localhost", True)]

    # Signed out (this computer, without a session, is the owner's), then in as Anna with the
    # passkey alone: no name, no password.
    browser.delete_all_cookies()
    browser.get(base + "/signin?next=/settings")
    assert who(browser) == "owner"
    wait(browser).until(seen.element_to_be_clickable((By.ID, "passkey"))).click()
    wait(browser).until(lambda driver: "/signin" not in driver.current_url)
    assert driver_path(browser) == "/settings"
    assert who(browser) == "anna"
    row = wait(browser).until(seen.visibility_of_element_located((By.CSS_SELECTOR, "#passkeys li")))
    wait(browser).until(lambda driver: "last used" in row.text)

    # Removed, it no longer signs in, though the device still holds it.
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", row)
    row.find_element(By.CSS_SELECTOR, "button").click()
    wait(browser).until(lambda driver: "no longer signs you in" in driver.find_element(By.ID, "passkeys-status").text)
    browser.delete_all_cookies()
    browser.get(base + "/signin")
    wait(browser).until(seen.element_to_be_clickable((By.ID, "passkey"))).click()
    wait(browser).until(lambda driver: "does not sign in here" in driver.find_element(By.ID, "status").text)
    assert who(browser) == "owner"


def test_at_an_address_the_page_says_why_there_are_no_passkeys(family, browser):
    with_authenticator(browser)
    browser.get(family.base + "/signin")
    wait(browser).until(seen.visibility_of_element_located((By.ID, "user")))
    assert not browser.find_element(By.ID, "passkey").is_displayed()
    browser.get(family.base + "/settings")
    status = wait(browser).until(seen.visibility_of_element_located((By.ID, "passkeys-status")))
    wait(browser).until(lambda driver: "not at the address 127.0.0.1" in status.text)
    assert not browser.find_element(By.ID, "add-passkey").is_displayed()
