// A seek bar under a movie that shows, above the pointer (or the thumb, while it is dragged or
// moved by the arrow keys), the frame of the server's scrub strip nearest that time: where a
// seek will land is seen before the seek, which for a streamed movie is a second's wait.
import { clock } from "./time.js";

// The frames of the server's scrub strip (VideoTools.scrubStripFrames).
const stripFrames = 20;

export function seekBar(video, asset) {
  const bar = document.createElement("div");
  bar.className = "seek-bar";
  const range = document.createElement("input");
  range.type = "range";
  range.min = "0";
  range.step = "0.1";
  range.value = "0";
  range.max = String(asset.duration ?? 0);
  range.setAttribute("aria-label", "Seek");
  const preview = document.createElement("div");
  preview.className = "seek-preview";
  preview.hidden = true;
  preview.style.backgroundImage = `url("/media/${asset.id}/strip")`;
  preview.style.backgroundSize = `${stripFrames * 100}% 100%`;
  const time = document.createElement("span");
  preview.append(time);
  bar.append(preview, range);

  const duration = () => (Number.isFinite(video.duration) && video.duration > 0 ? video.duration : asset.duration ?? 0);
  const show = (seconds) => {
    const total = duration();
    if (!total) return;
    const fraction = Math.min(1, Math.max(0, seconds / total));
    const frame = Math.min(stripFrames - 1, Math.floor(fraction * stripFrames));
    preview.style.backgroundPositionX = `${(frame / (stripFrames - 1)) * 100}%`;
    preview.style.left = `${fraction * 100}%`;
    preview.dataset.frame = String(frame);
    time.textContent = clock(seconds);
    preview.hidden = false;
  };
  const hide = () => { preview.hidden = true; };

  range.addEventListener("pointermove", (event) => {
    const box = range.getBoundingClientRect();
    show(((event.clientX - box.left) / box.width) * duration());
  });
  range.addEventListener("pointerleave", hide);
  range.addEventListener("blur", hide);
  range.addEventListener("input", () => {
    show(Number(range.value));
    video.currentTime = Number(range.value);
  });
  video.addEventListener("loadedmetadata", () => { range.max = String(duration()); });
  video.addEventListener("timeupdate", () => {
    if (document.activeElement !== range) range.value = String(video.currentTime);
  });
  return bar;
}
