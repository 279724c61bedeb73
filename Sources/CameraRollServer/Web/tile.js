import { clock } from "./time.js";

// A library item as a grid button: its thumbnail (srcset for the pixel ratio), a duration badge
// for videos, LIVE for a Live Photo, and an accessible name saying what and when.
export function label(asset) {
  const kind = asset.mediaType === "public.movie" ? "Video" : asset.livePhoto ? "Live Photo" : "Photo";
  return `${kind}, ${new Date(asset.captureDate ?? asset.importDate).toLocaleString()}`;
}

// Each tile's own name, which a selection's number is added to.
const names = new WeakMap();

export function tile(asset, onChoose) {
  const item = document.createElement("li");
  const button = document.createElement("button");
  button.type = "button";
  names.set(button, label(asset));
  button.setAttribute("aria-label", label(asset));
  button.dataset.asset = asset.id;
  const image = document.createElement("img");
  image.alt = "";
  image.loading = "lazy";
  image.decoding = "async";
  image.src = asset.urls.thumbnail256;
  image.srcset = `${asset.urls.thumbnail256} 256w, ${asset.urls.thumbnail512} 512w`;
  image.sizes = "(max-width: 600px) 33vw, 160px";
  button.append(image);
  if (asset.duration != null || asset.livePhoto) {
    const badge = document.createElement("span");
    badge.className = asset.livePhoto ? "badge live" : "badge";
    badge.textContent = asset.livePhoto ? "LIVE" : clock(asset.duration);
    button.append(badge);
  }
  button.addEventListener("click", () => onChoose(asset));
  item.append(button);
  return item;
}

// In an ordered multiple selection the tile's name ends with its number ("Photo, …, selected 2"),
// which its checkmark shows to the eye only; `number` null for a tile not numbered. (Whether a
// tile is selected at all is its aria-pressed.)
export function numberTile(button, number) {
  button.setAttribute("aria-label", number === null ? names.get(button) : `${names.get(button)}, selected ${number}`);
}
