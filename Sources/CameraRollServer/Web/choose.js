// The chooser's popup (opened by chooser.js on another site's page): it learns the site's
// origin from its opener, shows the owner who asks, creates the picker session for that site
// once the owner allows it, and hands over to the picker page. The origin in the address is
// only a claim: nothing is shown or done until a message from the opener, at that origin,
// confirms it, and every message back names that origin as the only receiver.
import { ApiError, json, sendJSON } from "./api.js";

const status = document.querySelector("#status");
const claim = new URLSearchParams(location.hash.slice(1));
const claimedOrigin = claim.get("origin");
const nonce = claim.get("nonce");

function tell(message) {
  window.opener?.postMessage({ ...message, nonce }, claimedOrigin);
}

// Resolves with the configuration the opener sends back, from that window and that origin only.
function handshake() {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("The site that opened this window did not answer.")), 15000);
    window.addEventListener("message", function onMessage(event) {
      const data = event.data;
      if (event.source !== window.opener || event.origin !== claimedOrigin || data?.cameraroll !== "request" || data.nonce !== nonce) return;
      window.removeEventListener("message", onMessage);
      clearTimeout(timer);
      resolve(data.configuration ?? {});
    });
    tell({ cameraroll: "ready" });
  });
}

// The owner's answer: "once", "always" or "deny" (Escape denies).
function ask(site) {
  document.querySelector("#consent-site").textContent = site.host;
  document.querySelector("#consent-origin").textContent = site.origin;
  document.querySelector("#consent").hidden = false;
  status.textContent = "";
  document.querySelector("#allow-once").focus();
  return new Promise((resolve) => {
    const answer = (value) => () => {
      document.querySelector("#consent").hidden = true;
      resolve(value);
    };
    document.querySelector("#allow-once").addEventListener("click", answer("once"));
    document.querySelector("#allow-always").addEventListener("click", answer("always"));
    document.querySelector("#deny").addEventListener("click", answer("deny"));
    document.addEventListener("keydown", (event) => {
      if (event.key === "Escape") answer("deny")();
    });
  });
}

async function createSession(configuration, client) {
  return sendJSON("/api/picker/sessions", "POST", client ? { ...configuration, client } : configuration);
}

async function start() {
  if (!window.opener || !claimedOrigin || !nonce) {
    status.textContent = "This window opens from a site that uses CameraRoll's picker; there is nothing to choose for here.";
    return;
  }
  const site = new URL(claimedOrigin);
  const own = site.origin === location.origin;
  // Signed in first: a sign-in page in between comes back here, address and all.
  const state = await json("/api/session");
  if (!state.local && !state.signedIn) {
    location.assign(`/signin?next=${encodeURIComponent(location.pathname + location.hash)}`);
    return;
  }
  const configuration = await handshake();
  let session;
  try {
    session = await createSession(configuration, own ? null : { origin: site.origin });
  } catch (error) {
    if (!(error instanceof ApiError) || error.code !== "app_not_allowed") throw error;
    const answer = await ask(site);
    if (answer === "deny") {
      tell({ cameraroll: "denied" });
      status.textContent = `${site.host} gets nothing. You can close this window.`;
      return;
    }
    if (answer === "always") await sendJSON("/api/apps", "POST", { origin: site.origin, name: site.host });
    session = await createSession(configuration, { origin: site.origin, once: answer === "once" });
  }
  await handOver(session.id);
  location.replace(session.url);
}

// Tells the opener the session's id and waits for its word that it has it: a message sent just
// before this page navigates away may never be delivered (seen under load in Chromium), and
// without the id the opener would never know the pick is its own. Told again while unanswered; after a
// few seconds (an opener with an older chooser.js never answers) the picker opens anyway.
function handOver(id) {
  return new Promise((resolve) => {
    const done = () => {
      window.removeEventListener("message", onMessage);
      clearInterval(again);
      clearTimeout(enough);
      resolve();
    };
    const onMessage = (event) => {
      const data = event.data;
      if (event.source === window.opener && event.origin === claimedOrigin && data?.cameraroll === "session-received"
          && data.nonce === nonce && data.id === id) done();
    };
    window.addEventListener("message", onMessage);
    const again = setInterval(() => tell({ cameraroll: "session", id }), 250);
    const enough = setTimeout(done, 3000);
    tell({ cameraroll: "session", id });
  });
}

start().catch((error) => {
  status.textContent = `The picker could not open: ${error.message}`;
});
