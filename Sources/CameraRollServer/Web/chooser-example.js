// The example site's code: loads the chooser from the server named, then opens it on a click.
const server = document.querySelector("#server");
const status = document.querySelector("#status");
const result = document.querySelector("#result");
server.value = new URLSearchParams(location.search).get("server") ?? (location.protocol.startsWith("http") ? location.origin : "");

// The script is loaded ahead of the click: the popup must open within it, before any wait.
async function loadChooser() {
  const origin = new URL(server.value).origin;
  await import(`${origin}/app/chooser.js`);
  return origin;
}
loadChooser().catch(() => {});
server.addEventListener("change", () => loadChooser().catch(() => {}));

async function show(outcome) {
  document.querySelector("#info").textContent = JSON.stringify(outcome, null, 2);
  result.replaceChildren();
  if (outcome.status !== "finished") {
    status.textContent = outcome.status === "denied" ? "The owner did not allow this site." : "Nothing was chosen.";
    return;
  }
  const { info } = outcome;
  const url = info.mediaType === "public.movie" ? info.mediaURL : (info.editedImage ?? info.originalImage);
  const element = document.createElement(info.mediaType === "public.movie" ? "video" : "img");
  if (element instanceof HTMLVideoElement) element.controls = true;
  else element.alt = "The chosen photo";
  element.src = url;
  result.append(element);
  if (element instanceof HTMLVideoElement) {
    status.textContent = "Chosen: a video.";
    return;
  }
  // The link is readable from this page's own code too (CORS, no credentials).
  const bytes = (await (await fetch(url, { credentials: "omit" })).arrayBuffer()).byteLength;
  status.textContent = `Chosen: ${bytes} bytes, loaded from this page.`;
}

document.querySelector("#form").addEventListener("submit", (event) => {
  event.preventDefault();
  if (!globalThis.CameraRoll) {
    status.textContent = "The chooser could not be loaded from that server; check its address.";
    loadChooser().catch(() => {});
    return;
  }
  status.textContent = "Waiting for CameraRoll…";
  CameraRoll.choose({
    server: server.value,
    sourceType: document.querySelector("#source").value,
    mediaTypes: document.querySelector("#media").value.split(","),
    allowsEditing: document.querySelector("#editing").checked,
  }).then(show, (error) => { status.textContent = `${error.code}: ${error.message}`; });
});
