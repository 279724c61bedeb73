// Sign-in for anyone who is not on the server's own computer: the owner's password gives a
// session cookie, then the page goes on to where it was asked for (?next=, same site only).
import { ApiError, sendJSON } from "./api.js";

const form = document.querySelector("#form");
const status = document.querySelector("#status");
const submit = document.querySelector("#submit");

function destination() {
  const next = new URLSearchParams(location.search).get("next") ?? "/";
  return next.startsWith("/") && !next.startsWith("//") ? next : "/";
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  submit.disabled = true;
  status.textContent = "";
  try {
    await sendJSON("/api/session", "POST", { password: document.querySelector("#password").value });
    location.replace(destination());
  } catch (error) {
    status.textContent = error instanceof ApiError ? error.message : "Signing in did not work. Try again.";
    document.querySelector("#password").select();
  } finally {
    submit.disabled = false;
  }
});
