// A shared link's page, for someone without an account: the link's items as a grid, a viewer
// that fills the screen (arrows and swipes between items, Escape or a swipe down to close), a
// movie streamed as soon as it is asked for, and each original to download when the link
// allows it. A link with a password asks for it once; the server then keeps this browser in.
import { ApiError, sendJSON } from "./api.js";
import { streamedVideoURL } from "./stream-player.js";
import { clock } from "./time.js";

const token = location.pathname.split("/")[2] ?? "";
const api = `/api/shared/${token}`;
const $ = (selector) => document.querySelector(selector);
const [grid, status, viewer, stage] = [$("#grid"), $("#status"), $("#viewer"), $("#stage")];
const items = [];
let nextCursor = null;
let loading = false;
let shown = -1;

async function load(cursor = null) {
  loading = true;
  try {
    const response = await fetch(cursor ? `${api}?cursor=${encodeURIComponent(cursor)}` : api);
    const body = await response.json().catch(() => ({}));
    if (response.status === 401 && body.code === "password_required") return askPassword();
    if (!response.ok) throw new ApiError(response.status, body.code, body.message ?? `HTTP ${response.status}`);
    if (cursor === null) describe(body);
    for (const item of body.items) add(item);
    nextCursor = body.nextCursor ?? null;
    if (items.length === 0) status.textContent = "Nothing is shared here any more.";
  } catch (error) {
    grid.hidden = true;
    status.textContent = error instanceof ApiError ? error.message : "The shared items could not be loaded. Check the connection and reload.";
  } finally {
    loading = false;
  }
}

function describe(link) {
  const title = link.title ?? "Shared Photos";
  $("#title").textContent = title;
  document.title = `${title} — CameraRoll`;
  let byline = `Shared by ${link.sharedBy}`;
  if (link.expiresAt) byline += ` · until ${new Date(link.expiresAt).toLocaleDateString(undefined, { dateStyle: "medium" })}`;
  $("#byline").textContent = byline;
  $("#add").hidden = !link.allowUpload;
  $("#download-all").hidden = !link.allowDownload;
  $("#download-all").href = `/s/${token}/download`;
}

function add(item) {
  const index = items.push(item) - 1;
  const button = document.createElement("button");
  button.type = "button";
  button.setAttribute("aria-label", `${label(item)}, ${index + 1}`);
  const image = document.createElement("img");
  image.alt = "";
  image.loading = "lazy";
  image.decoding = "async";
  image.src = devicePixelRatio > 1.5 ? item.urls.thumbnail512 : item.urls.thumbnail256;
  button.append(image);
  if (item.mediaType === "public.movie") {
    const badge = document.createElement("span");
    badge.className = "badge";
    badge.textContent = clock(item.duration ?? 0);
    button.append(badge);
  }
  button.addEventListener("click", () => open(index));
  const cell = document.createElement("li");
  cell.append(button);
  grid.append(cell);
}

function label(item) {
  return item.mediaType === "public.movie" ? `Video, ${clock(item.duration ?? 0)}` : "Photo";
}

function askPassword() {
  const form = $("#unlock");
  form.hidden = false;
  grid.hidden = true;
  $("#password").focus();
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const problem = $("#unlock-status");
    problem.textContent = "";
    try {
      await sendJSON(`${api}/unlock`, "POST", { password: $("#password").value });
      form.hidden = true;
      grid.hidden = false;
      await load();
    } catch (error) {
      problem.textContent = error instanceof ApiError ? error.message : "That did not work. Try again.";
      $("#password").select();
    }
  });
}

// A guest's own photos and videos, into an album whose link takes them: sent one by one, each
// shown in the grid once it is in.
$("#add").addEventListener("click", () => $("#files").click());
$("#files").addEventListener("change", async (event) => {
  const files = [...event.target.files];
  event.target.value = "";
  let added = 0;
  const refused = [];
  for (const [index, file] of files.entries()) {
    status.textContent = `Adding ${index + 1} of ${files.length}…`;
    try {
      const response = await fetch(`${api}/assets`, {
        method: "POST", body: file,
        headers: { "Content-Type": "application/octet-stream", "X-Filename": encodeURIComponent(file.name) },
      });
      const body = await response.json().catch(() => ({}));
      if (!response.ok) throw new ApiError(response.status, body.code, body.message ?? `HTTP ${response.status}`);
      if (!items.some((item) => item.id === body.id)) add(body);
      added += 1;
    } catch (error) {
      refused.push(`${file.name}: ${error instanceof ApiError ? error.message : "the server could not be reached"}`);
    }
  }
  status.textContent = [`${added} added.`, ...refused].join(" ");
});

// The viewer.

function open(index) {
  if (!viewer.open) viewer.showModal();
  show(index);
}

async function show(index) {
  shown = index;
  const item = items[index];
  stage.replaceChildren();
  $("#position").textContent = `${index + 1} of ${items.length}${nextCursor ? "+" : ""}`;
  $("#previous").disabled = index === 0;
  $("#next").disabled = index === items.length - 1 && !nextCursor;
  const download = $("#download");
  download.hidden = !item.urls.original;
  if (item.urls.original) download.href = item.urls.original;
  if (item.mediaType === "public.movie") {
    const video = document.createElement("video");
    video.controls = true;
    video.playsInline = true;
    video.poster = item.urls.poster;
    video.setAttribute("aria-label", label(item));
    stage.append(video);
    video.src = await movieURL(item, video);
    if (shown === index) video.play().catch(() => {});
  } else {
    const image = document.createElement("img");
    image.alt = label(item);
    const box = `w=${Math.round(innerWidth)}&h=${Math.round(innerHeight)}&dpr=${Math.min(devicePixelRatio, 3)}`;
    const display = item.urls.display;
    image.src = `${display}${display.includes("?") ? "&" : "?"}${box}`;
    stage.append(image);
  }
}

// Streamed where Media Source Extensions play it, as HLS where the browser plays that itself
// (Safari), else the whole playable movie.
async function movieURL(item, video) {
  const streamed = await streamedVideoURL(video, item.urls.stream).catch(() => null);
  if (streamed) return streamed;
  if (video.canPlayType("application/vnd.apple.mpegurl")) return `${item.urls.stream}/index.m3u8`;
  return item.urls.video;
}

async function step(by) {
  const target = shown + by;
  if (target < 0) return;
  if (target >= items.length) {
    if (!nextCursor || loading) return;
    await load(nextCursor);
    if (target >= items.length) return;
  }
  show(target);
}

function close() {
  stage.replaceChildren();
  viewer.close();
  grid.children[shown]?.querySelector("button")?.focus();
}

$("#close").addEventListener("click", close);
$("#previous").addEventListener("click", () => step(-1));
$("#next").addEventListener("click", () => step(1));
viewer.addEventListener("cancel", (event) => {
  event.preventDefault();
  close();
});
viewer.addEventListener("keydown", (event) => {
  if (event.target instanceof HTMLVideoElement && (event.key === "ArrowLeft" || event.key === "ArrowRight")) return;
  if (event.key === "ArrowLeft") step(-1);
  else if (event.key === "ArrowRight") step(1);
  else return;
  event.preventDefault();
});

// A swipe sideways goes to the next or previous item, a swipe down closes.
let touch = null;
viewer.addEventListener("touchstart", (event) => {
  touch = event.touches.length === 1 ? { x: event.touches[0].clientX, y: event.touches[0].clientY } : null;
}, { passive: true });
viewer.addEventListener("touchend", (event) => {
  if (!touch) return;
  const [dx, dy] = [event.changedTouches[0].clientX - touch.x, event.changedTouches[0].clientY - touch.y];
  touch = null;
  if (Math.abs(dx) > 60 && Math.abs(dx) > Math.abs(dy)) step(dx < 0 ? 1 : -1);
  else if (dy > 100 && dy > Math.abs(dx)) close();
});

// More items as the grid's end comes into view.
new IntersectionObserver((entries) => {
  if (entries.some((entry) => entry.isIntersecting) && nextCursor && !loading) load(nextCursor);
}, { rootMargin: "600px" }).observe($("#more"));

load();
