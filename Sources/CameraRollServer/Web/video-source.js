// A movie's playable URL: the original when browsers play it, else the server's rendition,
// which is made on first request. While it is being made, progress (0…1) is reported. A
// rendition the server could not make ends the wait with a RenditionFailed: the page says why
// and asks again only when the user says so (retryRendition), never by itself.
//
// Given the <video> it is for, a movie whose rendition is not ready is streamed instead
// (stream-player.js): it plays within seconds, where the rendition takes about as long as the
// movie to make.
import { ApiError, json } from "./api.js";
import { streamedVideoURL } from "./stream-player.js";

const pause = (milliseconds) => new Promise((resolve) => setTimeout(resolve, milliseconds));

export class RenditionFailed extends Error {
  constructor(state) {
    super(state.message);
    this.code = state.code;
  }
}

export async function playableVideoURL(asset, onProgress = () => {}, { video = null } = {}) {
  let streams = video !== null;
  // Asked again soon at first: a rendition that is a copy of the video is ready in a moment.
  for (let wait = 200; ; wait = Math.min(2 * wait, 1000)) {
    const state = await json(`/api/assets/${asset.id}/rendition`);
    if (state.status === "ready") return state.video;
    if (state.status === "failed") throw new RenditionFailed(state);
    if (streams && state.stream) {
      streams = false;
      const streamed = await streamedVideoURL(video, state.stream).catch((error) => {
        // The server's refusal of the movie (it cannot be decoded) is the rendition's too.
        throw error instanceof ApiError && error.status >= 400 && error.status < 500 ? new RenditionFailed(error) : error;
      });
      if (streamed) return streamed;
    }
    onProgress(state.progress);
    if (state.status === "notStarted") {
      // Asking for the video starts the rendition; only the answer's status matters here.
      const request = new AbortController();
      await fetch(state.video, { signal: request.signal }).catch(() => {});
      request.abort();
    }
    await pause(wait);
  }
}

// The user's Try again: the server forgets the failure and makes the rendition once more.
export async function retryRendition(asset) {
  await json(`/api/assets/${asset.id}/rendition`, { method: "POST" });
}
