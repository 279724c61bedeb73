// The library page: a grid over GET /api/assets (endless scroll by cursor), uploads, and a
// viewer showing each photo at exactly its frame's size × devicePixelRatio.
import { label, tile } from "./tile.js";

const grid = document.querySelector("#grid");
const status = document.querySelector("#status");
const viewer = document.querySelector("#viewer");
const stage = document.querySelector("#stage");
let cursor = null;
let loading = false;
let finished = false;

async function loadMore() {
  if (loading || finished) return;
  loading = true;
  try {
    const query = new URLSearchParams({ limit: "60" });
    if (cursor) query.set("cursor", cursor);
    const response = await fetch(`/api/assets?${query}`);
    const page = await response.json();
    if (!response.ok) throw new Error(page.message);
    grid.append(...page.assets.map((asset) => tile(asset, show)));
    cursor = page.nextCursor ?? null;
    finished = cursor === null;
    document.querySelector("#empty").hidden = grid.children.length > 0;
  } catch (error) {
    status.textContent = `The library could not be loaded: ${error.message}`;
  } finally {
    loading = false;
  }
}

function show(asset) {
  stage.replaceChildren();
  viewer.showModal();
  const width = stage.clientWidth;
  const height = stage.clientHeight;
  if (asset.mediaType === "public.movie") {
    const video = document.createElement("video");
    video.controls = true;
    video.autoplay = true;
    video.poster = asset.urls.poster;
    video.src = asset.urls.video;
    stage.append(video);
  } else {
    const image = document.createElement("img");
    image.alt = label(asset);
    image.src = `${asset.urls.display}?w=${width}&h=${height}&dpr=${window.devicePixelRatio}`;
    stage.append(image);
  }
}

document.querySelector("#close").addEventListener("click", () => viewer.close());
viewer.addEventListener("close", () => stage.replaceChildren());

document.querySelector("#upload").addEventListener("change", async (event) => {
  const files = [...event.target.files];
  let done = 0;
  const refused = [];
  for (const file of files) {
    status.textContent = `Adding ${done + 1} of ${files.length}…`;
    const response = await fetch("/api/assets?source=upload", {
      method: "POST",
      headers: { "Content-Type": file.type || "application/octet-stream", "X-Filename": encodeURIComponent(file.name) },
      body: file,
    });
    if (!response.ok) refused.push(`${file.name}: ${(await response.json()).message}`);
    done += 1;
  }
  status.textContent = refused.length ? `Not added: ${refused.join("; ")}` : `Added ${done} item${done === 1 ? "" : "s"}.`;
  event.target.value = "";
  grid.replaceChildren();
  cursor = null;
  finished = false;
  loadMore();
});

new IntersectionObserver((entries) => {
  if (entries.some((entry) => entry.isIntersecting)) loadMore();
}, { rootMargin: "800px" }).observe(document.querySelector("#more"));
loadMore();
