// A movie's playable URL: the original when browsers play it, else the server's rendition,
// which is made on first request. While it is being made, progress (0…1) is reported. A
// rendition the server could not make ends the wait with a RenditionFailed: the page says why
// and asks again only when the user says so (retryRendition), never by itself.
import { json } from "./api.js";

const pause = (milliseconds) => new Promise((resolve) => setTimeout(resolve, milliseconds));

export class RenditionFailed extends Error {
  constructor(state) {
    super(state.message);
    this.code = state.code;
  }
}

export async function playableVideoURL(asset, onProgress = () => {}) {
  for (;;) {
    const state = await json(`/api/assets/${asset.id}/rendition`);
    if (state.status === "ready") return state.video;
    if (state.status === "failed") throw new RenditionFailed(state);
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

// The user's Try again: the server forgets the failure and makes the rendition once more.
export async function retryRendition(asset) {
  await json(`/api/assets/${asset.id}/rendition`, { method: "POST" });
}
