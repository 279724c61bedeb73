// A movie's playable URL: the original when browsers play it, else the server's rendition,
// which is made on first request. While it is being made, progress (0…1) is reported.
import { json } from "./api.js";

const pause = (milliseconds) => new Promise((resolve) => setTimeout(resolve, milliseconds));

export async function playableVideoURL(asset, onProgress = () => {}) {
  for (;;) {
    const state = await json(`/api/assets/${asset.id}/rendition`);
    if (state.status === "ready") return state.video;
    onProgress(state.progress);
    if (state.status === "notStarted") {
      // Asking for the video starts the rendition; only the answer's status matters here.
      const request = new AbortController();
      await fetch(state.video, { signal: request.signal }).catch(() => {});
      request.abort();
    }
    await pause(1000);
  }
}
