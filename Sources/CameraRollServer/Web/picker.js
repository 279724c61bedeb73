// The picker page: one session of the picker service (/api/picker/sessions/<id>). It reports
// the user's steps as events; the server builds the result info and whoever presented the
// picker long-polls for it. An opener window also hears the end through postMessage.
// This first version picks from the library; the camera and the editors come next.
import { tile } from "./tile.js";

const sessionID = location.pathname.split("/").pop();
const api = `/api/picker/sessions/${sessionID}`;
const grid = document.querySelector("#grid");
const status = document.querySelector("#status");
let configuration = null;
let source = "photoLibrary";
let cursor = null;
let loading = false;
let finished = false;

async function json(url, options = {}) {
  const response = await fetch(url, options);
  const body = await response.json();
  if (!response.ok) throw new Error(body.message ?? `HTTP ${response.status}`);
  return body;
}

async function send(event, assetID) {
  return json(`${api}/events`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(assetID ? { event, assetID } : { event }),
  });
}

function end(session) {
  if (window.opener) window.opener.postMessage({ picker: sessionID, status: session.status, info: session.info ?? null }, location.origin);
  document.querySelector("main").hidden = true;
  document.querySelector("#albums").hidden = true;
  document.querySelector("#done").hidden = false;
}

function alertUnavailable() {
  const alert = document.querySelector("#alert");
  alert.hidden = false;
  document.querySelector("#drat").focus();
}

document.querySelector("#drat").addEventListener("click", async () => {
  document.querySelector("#alert").hidden = true;
  end(await send("cancel"));
});

document.querySelector("#cancel").addEventListener("click", async () => end(await send("cancel")));

async function choose(asset) {
  try {
    const session = await send("choose", asset.id);
    if (session.status !== "pending") end(session);
    else status.textContent = "Editing comes with the next version of the picker.";
  } catch (error) {
    status.textContent = `That item could not be chosen: ${error.message}`;
  }
}

async function loadMore() {
  if (loading || finished) return;
  loading = true;
  try {
    const query = new URLSearchParams({ source, limit: "60", mediaTypes: configuration.mediaTypes.join(",") });
    if (cursor) query.set("cursor", cursor);
    const page = await json(`/api/assets?${query}`);
    grid.append(...page.assets.map((asset) => tile(asset, choose)));
    cursor = page.nextCursor ?? null;
    finished = cursor === null;
  } catch (error) {
    status.textContent = `The library could not be loaded: ${error.message}`;
  } finally {
    loading = false;
  }
}

function showSource(name) {
  source = name;
  cursor = null;
  finished = false;
  grid.replaceChildren();
  for (const button of document.querySelectorAll("#albums button")) {
    button.setAttribute("aria-pressed", String(button.dataset.source === name));
  }
  loadMore();
}

async function sourceHasItems(name) {
  const query = new URLSearchParams({ source: name, limit: "1", mediaTypes: configuration.mediaTypes.join(",") });
  return (await json(`/api/assets?${query}`)).assets.length > 0;
}

async function start() {
  const session = await json(api);
  configuration = session.configuration;
  const titles = { camera: "Camera", photoLibrary: "Photos", savedPhotosAlbum: "Camera Roll" };
  document.querySelector("#picker-title").textContent = titles[configuration.sourceType];
  document.title = titles[configuration.sourceType];
  if (session.status !== "pending") return end(session);
  if (configuration.sourceType === "camera") {
    const devices = (await navigator.mediaDevices?.enumerateDevices?.()) ?? [];
    if (!devices.some((device) => device.kind === "videoinput")) return alertUnavailable();
    status.textContent = "The camera comes with the next version of the picker.";
    return;
  }
  if (!(await sourceHasItems(configuration.sourceType))) return alertUnavailable();
  await send("open");
  if (configuration.sourceType === "photoLibrary") {
    document.querySelector("#albums").hidden = false;
    for (const button of document.querySelectorAll("#albums button")) {
      button.addEventListener("click", () => showSource(button.dataset.source));
    }
  }
  new IntersectionObserver((entries) => {
    if (entries.some((entry) => entry.isIntersecting)) loadMore();
  }, { rootMargin: "800px" }).observe(document.querySelector("#more"));
  showSource(configuration.sourceType);
}

start().catch((error) => { status.textContent = `The picker could not start: ${error.message}`; });
