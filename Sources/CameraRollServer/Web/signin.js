// Sign-in for anyone who is not on the server's own computer: a person's name and password (a
// password alone is the owner's) give a session cookie, then the page goes on to where it was
// asked for (?next=, same site only).
import { ApiError, sendJSON } from "./api.js";
import { passkeyFailure, passkeysUnavailable, signInWithPasskey } from "./passkeys.js";

const form = document.querySelector("#form");
const status = document.querySelector("#status");
const submit = document.querySelector("#submit");

// Only a place on this site: the URL parser decides, as the browser will (`/\\evil.example`
// is another site to it).
function destination() {
  const next = new URL(new URLSearchParams(location.search).get("next") ?? "/", location.origin);
  return next.origin === location.origin ? next.pathname + next.search + next.hash : "/";
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  submit.disabled = true;
  status.textContent = "";
  try {
    const user = document.querySelector("#user").value.trim();
    const password = document.querySelector("#password").value;
    await sendJSON("/api/session", "POST", user ? { user, password } : { password });
    location.replace(destination());
  } catch (error) {
    status.textContent = error instanceof ApiError ? error.message : "Signing in did not work. Try again.";
    document.querySelector("#password").select();
  } finally {
    submit.disabled = false;
  }
});
// A passkey instead of a name and password, where this page can use one.
const passkey = document.querySelector("#passkey");
passkey.hidden = passkeysUnavailable() !== null;
passkey.addEventListener("click", async () => {
  passkey.disabled = true;
  status.textContent = "";
  try {
    await signInWithPasskey();
    location.replace(destination());
  } catch (error) {
    status.textContent = error instanceof ApiError ? error.message : passkeyFailure(error);
  } finally {
    passkey.disabled = false;
  }
});

// Enabled only now: a form sent before this script handles it would go as a GET, the password
// in the address.
submit.disabled = false;
