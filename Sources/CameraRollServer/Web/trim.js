// The trim screen: a filmstrip of the movie with start and end handles (drag, or the arrow
// keys), a preview that plays the kept part, and Choose, which hands on the range in seconds.
import { clock } from "./time.js";
import { playableVideoURL, RenditionFailed, retryRendition } from "./video-source.js";
import { elements } from "./elements.js";

const frameCount = 8;
// The frames of the server's scrub strip (VideoTools.scrubStripFrames).
const stripFrames = 20;

export class Trim {
  constructor(root, { onChoose, onBack }) {
    this.root = root;
    Object.assign(this, elements(root, {
      video: "#trim-video", strip: "#filmstrip", frames: "#filmstrip-frames", kept: "#trim-kept",
      startHandle: "#trim-start", endHandle: "#trim-end", times: "#trim-times", wait: "#trim-wait",
      retry: "#trim-retry", play: "#trim-play", choose: "#trim-choose",
    }));

    this.choose.addEventListener("click", () => onChoose(this.asset, this.range()));
    root.querySelector("#trim-back").addEventListener("click", () => onBack(this.asset));
    this.play.addEventListener("click", () => this.togglePlay());
    this.retry.addEventListener("click", () => this.tryAgain());
    this.video.addEventListener("timeupdate", () => {
      if (this.video.currentTime >= this.end) this.video.pause();
    });
    this.video.addEventListener("pause", () => { this.play.textContent = "Play"; });
    this.video.addEventListener("play", () => { this.play.textContent = "Pause"; });
    for (const [handle, which] of [[this.startHandle, "start"], [this.endHandle, "end"]]) {
      handle.addEventListener("pointerdown", (event) => {
        handle.setPointerCapture(event.pointerId);
        handle.focus();
      });
      handle.addEventListener("pointermove", (event) => {
        if (!handle.hasPointerCapture(event.pointerId)) return;
        const bounds = this.strip.getBoundingClientRect();
        this.set(which, ((event.clientX - bounds.left) / bounds.width) * this.duration);
      });
      handle.addEventListener("keydown", (event) => this.key(event, which));
    }
  }

  async open(asset, backLabel) {
    this.asset = asset;
    this.backLabel = backLabel;
    this.root.querySelector("#trim-back").textContent = backLabel;
    this.root.hidden = false;
    this.choose.disabled = true;
    this.play.disabled = true;
    this.retry.hidden = true;
    this.frames.replaceChildren();
    this.wait.hidden = false;
    this.wait.textContent = "Preparing the video…";
    let url;
    try {
      url = await playableVideoURL(asset, (progress) => {
        this.wait.textContent = `Preparing the video… ${Math.round(progress * 100)}%`;
      }, { video: this.video });
    } catch (error) {
      if (this.asset !== asset) return;
      const failed = error instanceof RenditionFailed;
      this.wait.textContent = `${failed ? "This video cannot be played" : "The video could not be shown"}: ${error.message}`;
      this.retry.hidden = !failed;
      return;
    }
    if (this.asset !== asset) return;
    this.video.src = url;
    await new Promise((resolve, reject) => {
      const controller = new AbortController();
      const done = (settle) => (value) => { controller.abort(); settle(value); };
      this.video.addEventListener("loadedmetadata", done(resolve), { signal: controller.signal });
      this.video.addEventListener("error", done(() => reject(new Error("The video could not be played."))), { signal: controller.signal });
      // Leaving the screen settles it too, so a later open is never answered by this one.
      this.leave = done(resolve);
    });
    if (this.asset !== asset) return;
    // The server's probe is what a trim is checked against; the element's figure is a fallback
    // for recordings whose container does not state a length.
    this.duration = asset.duration ?? (Number.isFinite(this.video.duration) ? this.video.duration : 0);
    // The whole clip: a trim made here is the pick's, not the library's.
    this.start = 0;
    this.end = this.duration;
    this.choose.disabled = false;
    this.play.disabled = false;
    if (!this.duration) {
      // Neither the server nor the browser can tell its length: it can only be used whole.
      this.wait.textContent = "This video's length is unknown, so it can be used only whole.";
      this.strip.hidden = true;
      return;
    }
    this.wait.hidden = true;
    this.strip.hidden = false;
    this.render();
    this.startHandle.focus();
    this.drawFilmstrip(asset);
  }

  // The frames are the server's scrub strip (one image of small frames spread over the movie),
  // so the preview is never disturbed, and a streamed movie, which plays in one element only,
  // has a filmstrip too.
  async drawFilmstrip(asset) {
    const strip = new Image();
    strip.src = `/media/${asset.id}/strip`;
    try {
      await strip.decode();
    } catch {
      return;
    }
    if (this.asset !== asset) return;
    const tiles = stripFrames;
    const tileWidth = strip.naturalWidth / tiles;
    for (let index = 0; index < frameCount; index += 1) {
      const tile = Math.min(tiles - 1, Math.floor(((index + 0.5) / frameCount) * tiles));
      const canvas = document.createElement("canvas");
      canvas.width = 96;
      canvas.height = Math.max(1, Math.round((96 * strip.naturalHeight) / Math.max(1, tileWidth)));
      canvas.getContext("2d").drawImage(strip, tile * tileWidth, 0, tileWidth, strip.naturalHeight, 0, 0, canvas.width, canvas.height);
      this.frames.append(canvas);
    }
  }

  // Seconds to the millisecond; the shortest range is a tenth of a second.
  set(which, seconds) {
    const gap = Math.min(0.1, this.duration);
    if (which === "start") this.start = Math.min(Math.max(0, seconds), this.end - gap);
    else this.end = Math.max(Math.min(this.duration, seconds), this.start + gap);
    this.start = Math.round(this.start * 1000) / 1000;
    this.end = Math.round(this.end * 1000) / 1000;
    this.video.pause();
    this.video.currentTime = which === "start" ? this.start : this.end;
    this.render();
  }

  key(event, which) {
    const value = which === "start" ? this.start : this.end;
    const steps = {
      ArrowLeft: -0.1, ArrowDown: -0.1, ArrowRight: 0.1, ArrowUp: 0.1, PageDown: -1, PageUp: 1,
      Home: -this.duration, End: this.duration,
    };
    if (!(event.key in steps)) return;
    event.preventDefault();
    this.set(which, value + steps[event.key]);
  }

  range() {
    return { start: this.start, end: this.end, whole: !this.duration || (this.start <= 0 && this.end >= this.duration) };
  }

  render() {
    const startFraction = this.start / this.duration;
    const endFraction = this.end / this.duration;
    this.startHandle.style.left = `${startFraction * 100}%`;
    this.endHandle.style.left = `${endFraction * 100}%`;
    this.kept.style.left = `${startFraction * 100}%`;
    this.kept.style.width = `${(endFraction - startFraction) * 100}%`;
    for (const [handle, value, label] of [[this.startHandle, this.start, "Start"], [this.endHandle, this.end, "End"]]) {
      handle.setAttribute("aria-valuemin", "0");
      handle.setAttribute("aria-valuemax", String(this.duration));
      handle.setAttribute("aria-valuenow", String(value));
      handle.setAttribute("aria-valuetext", `${label} ${clock(value, { tenths: true })}`);
    }
    const [start, end, length] = [this.start, this.end, this.end - this.start].map((value) => clock(value, { tenths: true }));
    this.times.textContent = `${start} – ${end} (${length})`;
  }

  togglePlay() {
    if (!this.video.paused) return this.video.pause();
    if (this.video.currentTime < this.start || this.video.currentTime >= this.end) this.video.currentTime = this.start;
    this.video.play();
  }

  // Only on the user's word does the server make a failed rendition again.
  async tryAgain() {
    const asset = this.asset;
    this.retry.hidden = true;
    this.wait.textContent = "Preparing the video…";
    try {
      await retryRendition(asset);
    } catch (error) {
      if (this.asset !== asset) return;
      this.wait.textContent = `This video cannot be played: ${error.message}`;
      this.retry.hidden = false;
      return;
    }
    if (this.asset === asset) await this.open(asset, this.backLabel);
  }

  close() {
    this.asset = null;
    this.leave?.();
    this.video.pause();
    this.video.removeAttribute("src");
    this.video.load();
    this.root.hidden = true;
  }
}
