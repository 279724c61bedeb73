// Privacy per pick, as iOS 27's picker: switches to leave the location and the captions out of
// what the caller gets (on by default for another site's picker; the server says so in the
// configuration), and a line saying what the items about to be picked carry: a location, when
// they were taken, with which camera. The library's originals never change.
const removeLocation = document.querySelector("#remove-location");
const removeCaptions = document.querySelector("#remove-captions");
const carries = document.querySelector("#carries");
const known = new Map();
let described = [];

export function startPrivacy(configuration) {
  removeLocation.checked = configuration.removeLocation === true;
  removeCaptions.checked = configuration.removeCaptions === true;
  document.querySelector("#privacy").hidden = false;
}

// The switches as an event sends them; nothing where they are not shown (the camera), so the
// session's own choice holds.
export function privacyChoice() {
  if (document.querySelector("#privacy").hidden) return {};
  return { removeLocation: removeLocation.checked, removeCaptions: removeCaptions.checked };
}

export function remember(assets) {
  for (const asset of assets) known.set(asset.id, asset);
}

const day = (asset) => (asset.captureDate ? new Date(asset.captureDate).toLocaleDateString() : null);
const camera = (asset) => [asset.cameraMake, asset.cameraModel].filter(Boolean).join(" ") || null;

// What the items carry, in words, for the line above the grid.
export function describe(ids) {
  described = ids;
  const assets = ids.map((id) => known.get(id)).filter(Boolean);
  if (assets.length === 0) {
    carries.textContent = "";
    return;
  }
  const located = assets.filter((asset) => asset.hasGPS).length;
  const location = located === 0 ? "no location"
    : removeLocation.checked ? `location removed (${located} had one)` : `${located === assets.length ? "with" : `${located} with`} location`;
  const days = [...new Set(assets.map(day).filter(Boolean))];
  const cameras = [...new Set(assets.map(camera).filter(Boolean))];
  const parts = [assets.length === 1 ? "This item" : `${assets.length} items`, location];
  if (days.length) parts.push(days.length === 1 ? days[0] : `${days[0]} – ${days[days.length - 1]}`);
  if (cameras.length) parts.push(cameras.join(", "));
  carries.textContent = parts.join(" · ");
}

// A switch changes what the line says of the same items.
for (const box of [removeLocation, removeCaptions]) box.addEventListener("change", () => describe(described));
