// A movie the browser cannot play as it is, played while the server makes it: the server cuts
// it into short segments (GET /media/<id>/stream and /stream/<n>.mp4), each a fragmented MP4 of its own made when
// first asked for, and this feeds them to the <video> through Media Source Extensions, the
// segment under the playhead first. Each segment starts at zero, so it is placed with the
// source buffer's timestampOffset. Playing asks for what is ahead (up to `ahead` seconds), a
// seek to a part not yet fetched asks for that part at once, and what is far behind is let go,
// so a long movie takes a bounded share of memory.
import { ApiError, failure, json } from "./api.js";

const ahead = 20;
const behind = 30;

// Resolves with a URL for the <video>'s src, once the first segment is here (so a movie the
// server cannot cut fails here, with the server's words, and not as a dead player); null when
// the whole playable file is better waited for (a copy of the video, made in a moment) or this
// browser cannot play the stream (no Media Source Extensions or no H.264 in them).
export async function streamedVideoURL(video, streamURL) {
  if (!("MediaSource" in window)) return null;
  // Segment n is <stream>/n.mp4, with the stream URL's query (a capability) kept.
  const [path, query] = streamURL.split("?");
  const segmentURL = (index) => `${path}/${index}.mp4${query ? `?${query}` : ""}`;
  // The first segment is asked for with the layout: it always exists, and it is the wait.
  const firstAsked = new AbortController();
  const firstSegment = fetchSegment(segmentURL(0), firstAsked.signal);
  firstSegment.catch(() => {});
  const layout = await json(streamURL);
  const type = `video/mp4; codecs="${layout.codecs}"`;
  if (layout.remux || !MediaSource.isTypeSupported(type)) {
    firstAsked.abort();
    return null;
  }
  const first = await firstSegment;
  const source = new MediaSource();
  const url = URL.createObjectURL(source);
  source.addEventListener("sourceopen", () => {
    URL.revokeObjectURL(url);
    new Feeder(video, source, layout, type, segmentURL).run(first);
  }, { once: true });
  return url;
}

async function fetchSegment(url, signal) {
  const response = await fetch(url, { signal });
  if (!response.ok) throw failure(response.status, await response.json().catch(() => ({})));
  return response.arrayBuffer();
}

class Feeder {
  constructor(video, source, layout, type, segmentURL) {
    this.video = video;
    this.source = source;
    this.layout = layout;
    this.segmentURL = segmentURL;
    this.appended = new Set();
    source.duration = layout.duration;
    this.buffer = source.addSourceBuffer(type);
    this.buffer.mode = "segments";
    this.fetching = null;
    // A seek to a part not fetched yet stops the fetch of another part.
    video.addEventListener("seeking", () => {
      if (this.fetching && this.fetching.index !== this.wanted()) this.fetching.controller.abort();
    });
  }

  // The feeder ends when the <video> shows something else or leaves the page.
  get done() {
    return !this.video.isConnected || this.source.readyState === "closed";
  }

  segmentAt(seconds) {
    return Math.min(this.layout.segmentCount - 1, Math.floor(seconds / this.layout.segmentDuration));
  }

  // The first segment at or after the playhead that is not in the buffer, or null.
  wanted() {
    for (let index = this.segmentAt(this.video.currentTime); index < this.layout.segmentCount; index += 1) {
      if ((index - this.segmentAt(this.video.currentTime)) * this.layout.segmentDuration > ahead) return null;
      if (!this.appended.has(index)) return index;
    }
    return null;
  }

  async run(first) {
    try {
      await this.append(0, first);
      while (!this.done) {
        const index = this.wanted();
        if (index === null) {
          if (this.appended.size === this.layout.segmentCount && this.source.readyState === "open") this.source.endOfStream();
          await this.nextMove();
          continue;
        }
        const controller = new AbortController();
        this.fetching = { index, controller };
        let bytes;
        try {
          bytes = await fetchSegment(this.segmentURL(index), controller.signal);
        } catch (error) {
          if (error.name === "AbortError") continue;
          throw error;
        } finally {
          this.fetching = null;
        }
        if (this.done) return;
        await this.letGoBehind();
        await this.append(index, bytes);
      }
    } catch (error) {
      // The player says the video failed (its error event), with our reason kept for the page.
      this.video.dataset.streamError = error instanceof ApiError ? error.message : String(error.message ?? error);
      if (this.source.readyState === "open") this.source.endOfStream("decode");
    }
  }

  // Waits for the playhead to move on or jump.
  nextMove() {
    return new Promise((resolve) => {
      const moved = () => {
        this.video.removeEventListener("timeupdate", moved);
        this.video.removeEventListener("seeking", moved);
        this.video.removeEventListener("emptied", moved);
        resolve();
      };
      this.video.addEventListener("timeupdate", moved);
      this.video.addEventListener("seeking", moved);
      this.video.addEventListener("emptied", moved);
    });
  }

  update(change) {
    return new Promise((resolve, reject) => {
      const ended = () => {
        this.buffer.removeEventListener("updateend", ended);
        this.buffer.removeEventListener("error", failed);
        resolve();
      };
      const failed = () => {
        this.buffer.removeEventListener("updateend", ended);
        this.buffer.removeEventListener("error", failed);
        reject(new Error("The browser could not play a part of the video."));
      };
      this.buffer.addEventListener("updateend", ended);
      this.buffer.addEventListener("error", failed);
      change();
    });
  }

  async append(index, bytes) {
    await this.update(() => {
      // A segment's audio runs a frame past its end (the encoder's padding); cut at the next
      // segment's start, it never overlaps the next one, whose arrival would take frames off it.
      const start = index * this.layout.segmentDuration;
      const last = index === this.layout.segmentCount - 1;
      this.buffer.timestampOffset = start;
      this.buffer.appendWindowStart = 0;
      this.buffer.appendWindowEnd = last ? Infinity : start + this.layout.segmentDuration;
      this.buffer.appendWindowStart = start;
      this.buffer.appendBuffer(bytes);
    });
    this.appended.add(index);
  }

  // Segments well behind the playhead leave the buffer (and are fetched again, from the
  // server's cache, if the user goes back to them).
  async letGoBehind() {
    const keepFrom = this.segmentAt(Math.max(0, this.video.currentTime - behind));
    const gone = [...this.appended].filter((index) => index < keepFrom);
    if (gone.length === 0) return;
    await this.update(() => this.buffer.remove(0, keepFrom * this.layout.segmentDuration));
    for (const index of gone) this.appended.delete(index);
  }
}
