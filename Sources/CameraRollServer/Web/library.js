// The library page: a grid over GET /api/assets (endless scroll by cursor), uploads, and a
// viewer showing each photo at exactly its frame's size × devicePixelRatio.
import { json, upload } from "./api.js";
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
    const page = await json(`/api/assets?${query}`);
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
    const counter = `Adding ${done + 1} of ${files.length}`;
    status.textContent = `${counter}…`;
    try {
      await upload(file, {
        filename: file.name, query: "?source=upload",
        onProgress: (fraction) => { status.textContent = `${counter}: ${Math.round(fraction * 100)}%`; },
      });
    } catch (error) {
      refused.push(`${file.name}: ${error.message}`);
    }
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
