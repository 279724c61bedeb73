// A screen's thumbnails in one request (GET /api/thumbnails): over HTTP/1.1 a browser asks six
// at a time, and sixty requests cost a timeline's first screen and every jump more than the
// thumbnails themselves (290 ms for 48 here, where one batch takes 36). Tiles ask as they are
// placed; the asks of one turn of the event loop go together. Each thumbnail becomes a data URL
// (a blob URL costs the browser a millisecond each to register), and the last few hundred are
// kept, so that scrolling back shows them at once. If a batch fails, its tiles load their own URLs.
const batchLimit = 200;
const kept = 200;

function dataURL(type, bytes) {
  // The browser's own base64 where it has one; else through a binary string.
  if (bytes.toBase64) return `data:${type};base64,${bytes.toBase64()}`;
  let binary = "";
  for (let start = 0; start < bytes.length; start += 8192) binary += String.fromCharCode(...bytes.subarray(start, start + 8192));
  return `data:${type};base64,${btoa(binary)}`;
}

export class Thumbnails {
  constructor() {
    this.urls = new Map();
    this.waiting = new Map();
    this.asked = new Map();
    this.scheduled = false;
  }

  // Shows the asset's thumbnail of `size` (256 or 512) in `image`, as soon as it is here.
  show(asset, size, image) {
    const url = size > 256 ? asset.urls.thumbnail512 : asset.urls.thumbnail256;
    const edit = new URL(url, location.href).searchParams.get("edit");
    const key = `${size} ${asset.id} ${edit ?? ""}`;
    // Which thumbnail a data URL is, for whoever inspects the page.
    image.dataset.thumbnail = url;
    const ready = this.urls.get(key);
    if (ready) {
      // Shown again: the last to go.
      this.urls.delete(key);
      this.urls.set(key, ready);
      image.src = ready;
      return;
    }
    // A tile placed again before its batch came back (a new layout) joins the batch's ask.
    const asked = this.asked.get(key);
    if (asked) {
      asked.images.push(image);
      return;
    }
    const ask = this.waiting.get(key) ?? { key, id: asset.id, edit, size, url, images: [] };
    ask.images.push(image);
    this.waiting.set(key, ask);
    if (!this.scheduled) {
      this.scheduled = true;
      queueMicrotask(() => this.flush());
    }
  }

  flush() {
    this.scheduled = false;
    const asks = [...this.waiting.values()];
    this.waiting.clear();
    for (const size of new Set(asks.map((ask) => ask.size))) {
      const same = asks.filter((ask) => ask.size === size);
      for (let start = 0; start < same.length; start += batchLimit) this.fetch(size, same.slice(start, start + batchLimit));
    }
  }

  async fetch(size, asks) {
    for (const ask of asks) this.asked.set(ask.key, ask);
    const items = asks.map((ask) => (ask.edit ? `${ask.id}~${ask.edit}` : ask.id)).join(";");
    try {
      const response = await fetch(`/api/thumbnails?size=${size}&items=${encodeURIComponent(items)}`);
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      const body = await response.arrayBuffer();
      const length = new DataView(body).getUint32(0);
      const index = JSON.parse(new TextDecoder().decode(new Uint8Array(body, 4, length)));
      let offset = 4 + length;
      index.forEach((entry, position) => {
        const ask = asks[position];
        if (entry.length > 0) {
          const url = dataURL(entry.type, new Uint8Array(body, offset, entry.length));
          this.keep(ask.key, url);
          for (const image of ask.images) image.src = url;
        } else {
          for (const image of ask.images) image.src = ask.url;
        }
        offset += entry.length;
      });
    } catch {
      for (const ask of asks) for (const image of ask.images) image.src = ask.url;
    } finally {
      for (const ask of asks) this.asked.delete(ask.key);
    }
  }

  keep(key, url) {
    this.urls.set(key, url);
    if (this.urls.size > kept) this.urls.delete(this.urls.keys().next().value);
  }
}
