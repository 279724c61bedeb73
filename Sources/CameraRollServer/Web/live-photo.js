// A Live Photo in a viewer: its still, with a LIVE button that plays the movie in the still's
// place (once, muted, then back to the still), and a press and hold on the still that plays it
// for as long as the press lasts, as in Photos. The movie is its own asset, played as any movie
// (the original when browsers can, else its rendition).
import { playableVideoURL } from "./video-source.js";

export function livePhoto(asset, image) {
  const frame = document.createElement("div");
  frame.className = "live-photo";
  const video = document.createElement("video");
  video.muted = true;
  video.playsInline = true;
  video.hidden = true;
  video.setAttribute("aria-label", "Live Photo motion");
  const live = document.createElement("button");
  live.type = "button";
  live.className = "live-button";
  live.textContent = "LIVE";
  live.setAttribute("aria-pressed", "false");
  live.setAttribute("aria-label", "Play Live Photo");
  frame.append(image, video, live);

  let source = null;
  const stop = () => {
    video.pause();
    video.hidden = true;
    image.hidden = false;
    live.setAttribute("aria-pressed", "false");
  };
  const play = async () => {
    live.setAttribute("aria-pressed", "true");
    source ??= playableVideoURL({ id: asset.livePhoto.movie });
    try {
      video.src = await source;
    } catch {
      source = null;
      stop();
      live.textContent = "LIVE unavailable";
      return;
    }
    if (live.getAttribute("aria-pressed") !== "true") return;
    video.width = image.clientWidth;
    video.height = image.clientHeight;
    video.currentTime = 0;
    image.hidden = true;
    video.hidden = false;
    await video.play().catch(stop);
  };
  video.addEventListener("ended", stop);
  live.addEventListener("click", () => (live.getAttribute("aria-pressed") === "true" ? stop() : play()));
  // Press and hold: a pointer held on the still plays the motion until it lets go.
  let hold = null;
  frame.addEventListener("pointerdown", (event) => {
    if (event.target === live) return;
    hold = setTimeout(play, 250);
  });
  for (const end of ["pointerup", "pointercancel", "pointerleave"]) {
    frame.addEventListener(end, () => {
      if (hold === null) return;
      clearTimeout(hold);
      hold = null;
      if (live.getAttribute("aria-pressed") === "true") stop();
    });
  }
  return frame;
}
