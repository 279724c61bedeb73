// The Photos app's timeline: a virtualised grid of a view's items grouped by day under month
// and day headings. The server's day counts (GET /api/timeline) lay out every section before a
// page is read; only the rows on screen (and a screen's worth around them) are in the DOM, and
// their items are read by cursor from the start of their day (a day jump), so any date is one
// request away and the page's memory stays flat however far one scrolls.
//
// It is an ARIA grid with one Tab stop: arrow keys move by item and by row, Home/End and
// Page Up/Down as in a grid, Enter opens (or, while selecting, selects) the item in focus.
//
// The Photos app and the picker show it. The Photos app's own select mode (a long press, a
// day's Select, Ctrl+A) is off in the picker (`selectable: false`): there a tap is a pick,
// and a multiple selection is the picker's, which the grid only shows (`mark`).
import { json } from "./api.js";
import { Thumbnails } from "./thumbnails.js";
import { clock } from "./time.js";

const monthHeading = 56;
const dayHeading = 44;
const pageSize = 200;
const firstPage = 120;
// Half a screen above and below is placed (and read) ahead of a scroll.
const overscan = 0.5;

// Dates in the page's English words ("December 2026", "Thu, Dec 3, 2026"), made by hand: the
// first Intl formatter a page makes loads the browser's locale data, a task of 40 to 100 ms on
// this machine's Chromium that held the first screen of tiles back. The day of a heading is a
// calendar day (no time zone to convert), so the weekday is computed from it in UTC.
const months = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
  "November", "December"];
const weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
export const monthName = (day) => `${months[Number(day.slice(5, 7)) - 1]} ${day.slice(0, 4)}`;
const dayName = (day) => {
  const date = new Date(`${day}T00:00:00Z`);
  return `${weekdays[date.getUTCDay()]}, ${months[date.getUTCMonth()].slice(0, 3)} ${date.getUTCDate()}, ${date.getUTCFullYear()}`;
};
// Thousands grouped as the page's English words are: 1,625.
const grouped = (number) => String(number).replace(/\B(?=(\d{3})+(?!\d))/g, ",");

// In Recently Deleted: the days until it is deleted for good ("29 days"), as Photos counts them.
export function daysLeft(asset) {
  if (!asset.purgeDate) return null;
  const days = Math.max(0, Math.ceil((Date.parse(asset.purgeDate) - Date.now()) / 86400000));
  return days === 1 ? "1 day" : `${days} days`;
}

export function kindOf(asset) {
  return asset.mediaType === "public.movie" ? "Video" : asset.livePhoto ? "Live Photo" : "Photo";
}

// Sections, rows and positions for a width; recomputed on resize, never per scroll.
class Layout {
  constructor(days, width) {
    this.columns = Math.max(3, Math.min(12, Math.round(width / (width < 600 ? 110 : 160))));
    this.tile = width / this.columns;
    this.sections = [];
    let top = 0;
    let start = 0;
    let month = null;
    for (const { day, count } of days) {
      const newMonth = day.slice(0, 7) !== month;
      month = day.slice(0, 7);
      const heading = (newMonth ? monthHeading : 0) + dayHeading;
      const rows = Math.ceil(count / this.columns);
      this.sections.push({ day, count, start, top, newMonth, rowsTop: top + heading, rows, firstRow: 0 });
      top += heading + rows * this.tile;
      start += count;
    }
    let row = 0;
    for (const section of this.sections) {
      section.firstRow = row;
      row += section.rows;
    }
    this.rowCount = row;
    this.count = start;
    this.height = top;
    this.months = this.sections.filter((section) => section.newMonth)
      .map((section) => ({ month: section.day.slice(0, 7), day: section.day, top: section.top }));
  }

  // The position of the last section whose `key` is at most `value` (binary search).
  lastAtOrBefore(key, value) {
    let low = 0;
    let high = this.sections.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (this.sections[middle][key] <= value) low = middle;
      else high = middle - 1;
    }
    return low;
  }

  // The section at height `y`, by position.
  sectionAt(y) { return this.lastAtOrBefore("top", y); }

  sectionOf(index) { return this.sections[this.lastAtOrBefore("start", index)]; }

  // Where an item sits: its section, row within it, column, and its rectangle.
  place(index) {
    const section = this.sectionOf(index);
    const offset = index - section.start;
    const row = Math.floor(offset / this.columns);
    const column = offset % this.columns;
    return { section, row, column, x: column * this.tile, y: section.rowsTop + row * this.tile };
  }

  // The item in the row `delta` rows away (across sections), nearest to `column`.
  indexRowsAway(index, delta) {
    const { section, row, column } = this.place(index);
    let sectionIndex = this.sections.indexOf(section);
    let target = row + delta;
    while (target < 0 && sectionIndex > 0) {
      sectionIndex -= 1;
      target += this.sections[sectionIndex].rows;
    }
    while (sectionIndex < this.sections.length - 1 && target >= this.sections[sectionIndex].rows) {
      target -= this.sections[sectionIndex].rows;
      sectionIndex += 1;
    }
    const goal = this.sections[sectionIndex];
    target = Math.max(0, Math.min(goal.rows - 1, target));
    return Math.min(goal.start + target * this.columns + column, goal.start + goal.count - 1);
  }
}

// Items by their place in the view, read a page at a time from the start of their day or from
// the cursor where the page before ended. At most `keptItems` are kept, those farthest from the
// last read going first, so that a long scroll leaves the page's memory as it found it.
const keptItems = 3000;

class Items {
  constructor(query) {
    this.query = query;
    this.assets = [];
    this.after = new Map();
    this.pending = new Map();
    // Reads that need every item they bring at once (a selection of a range) pin the items.
    this.pinned = 0;
  }

  // The listing's first page, read before the days were known.
  seed(page) {
    page.assets.forEach((asset, index) => { this.assets[index] = asset; });
    if (page.nextCursor && page.assets.length) this.after.set(page.assets.length - 1, page.nextCursor);
  }

  forget(center) {
    if (this.pinned > 0) return;
    const held = Object.keys(this.assets).map(Number);
    if (held.length <= keptItems) return;
    held.sort((a, b) => Math.abs(b - center) - Math.abs(a - center));
    for (const index of held.slice(0, held.length - keptItems)) {
      delete this.assets[index];
      this.after.delete(index);
    }
  }

  // Reads what is missing of [from, to] within one section; resolves when it is there.
  async load(layout, from, to) {
    for (let index = from; index <= to; index += 1) {
      if (this.assets[index]) continue;
      const section = layout.sectionOf(index);
      let start = index;
      while (start > section.start && !this.assets[start - 1]) start -= 1;
      await this.page(start, section, Math.min(to, section.start + section.count - 1));
      // The view changed under the page (an item gone): what is left is read on the next show.
      if (!this.assets[index]) return;
    }
  }

  page(start, section, last) {
    if (this.pending.has(start)) return this.pending.get(start);
    const query = new URLSearchParams(this.query);
    query.set("limit", String(Math.min(500, Math.max(pageSize, last - start + 1))));
    if (start === section.start) query.set("day", section.day);
    else if (this.after.has(start - 1)) query.set("cursor", this.after.get(start - 1));
    else return Promise.resolve();
    const loading = json(`/api/assets?${query}`).then((page) => {
      page.assets.forEach((asset, offset) => { this.assets[start + offset] = asset; });
      if (page.nextCursor && page.assets.length) this.after.set(start + page.assets.length - 1, page.nextCursor);
      this.forget(start);
    }).finally(() => this.pending.delete(start));
    this.pending.set(start, loading);
    return loading;
  }
}

export class Timeline extends EventTarget {
  // `element`: the grid's scroll container, which holds the canvas the rows are placed on.
  constructor(element, { label, selectable = true }) {
    super();
    this.element = element;
    this.label = label;
    this.selectable = selectable;
    this.canvas = document.createElement("div");
    this.canvas.className = "canvas";
    this.canvas.setAttribute("role", "presentation");
    element.replaceChildren(this.canvas);
    element.setAttribute("role", "grid");
    element.setAttribute("aria-label", label);
    this.focusIndex = 0;
    this.selecting = false;
    this.selected = new Set();
    // Whether a selected tile shows its place in the selection (a picker's ordered selection).
    this.numbered = false;
    // A layout asked for while the grid was hidden, made when it shows.
    this.stale = false;
    this.anchor = null;
    this.rendered = new Map();
    // The grid's rows of tiles, by the row's top: a tile is a cell of its row, as a grid's
    // cells are to assistive technology (the rows lay nothing out: `display: contents`).
    this.rows = new Map();
    this.headings = new Map();
    this.thumbnails = new Thumbnails();
    this.layout = null;
    this.frame = 0;
    element.addEventListener("scroll", () => this.schedule(), { passive: true });
    new ResizeObserver(() => this.relayout()).observe(element);
    element.addEventListener("keydown", (event) => this.key(event));
    element.addEventListener("click", (event) => this.click(event));
    // A tile focused by other means than the arrows (a screen reader, a script) is the keyboard's place.
    element.addEventListener("focusin", (event) => {
      const node = event.target.closest(".tile");
      if (node) this.takeFocus(node);
    });
    if (selectable) this.pressToSelect();
  }

  // Shows a view: `query` names it for /api/assets and /api/timeline (collection or album).
  async show(query) {
    const generation = (this.generation = (this.generation ?? 0) + 1);
    // The first screen's items are asked for with the day counts, not after them: they are the
    // listing's first page (as many as the largest screen shows).
    const first = new URLSearchParams(query);
    first.set("limit", String(firstPage));
    const counting = json(`/api/timeline?${new URLSearchParams(query)}`);
    counting.catch(() => {});
    const page = await json(`/api/assets?${first}`);
    if (generation !== this.generation) return;
    this.items = new Items(query);
    this.items.seed(page);
    // The first page's own days lay out the first screen while every day's count is on its way
    // (counting a large library's days is the slower answer): each of them is whole but the last.
    this.days = page.days;
    this.clearRendered();
    this.relayout(true);
    const timeline = await counting;
    if (generation !== this.generation) return;
    this.days = timeline.days;
    this.focusIndex = Math.min(this.focusIndex, Math.max(0, timeline.count - 1));
    this.relayout(true);
    this.dispatchEvent(new CustomEvent("shown", { detail: { count: timeline.count } }));
  }

  get count() { return this.layout?.count ?? 0; }

  // The tiles placed stay, moved to where the new layout puts them (the days' counts coming
  // after the first page's, a new width): their images are not shown anew, and a tile someone
  // is about to press is still there when they press it.
  relayout(force = false) {
    const width = this.element.clientWidth;
    if (!this.days) return;
    // A hidden grid (the picker's under its editor, an empty view's) is laid out when it shows.
    if (width === 0) {
      this.stale ||= force;
      return;
    }
    if (!force && !this.stale && this.layout && Math.abs(width - this.layoutWidth) < 1) return;
    this.stale = false;
    // The item at the top of the screen stays there, wherever the new width puts it.
    const first = this.firstVisibleIndex();
    const shift = first === null || !this.layout ? 0 : this.layout.place(first).y - this.element.scrollTop;
    this.layoutWidth = width;
    this.layout = new Layout(this.days, width);
    this.element.classList.add("laid-out");
    this.element.setAttribute("aria-rowcount", String(this.layout.rowCount));
    this.element.setAttribute("aria-colcount", String(this.layout.columns));
    this.element.style.setProperty("--tile", `${this.layout.tile}px`);
    this.canvas.style.height = `${this.layout.height}px`;
    this.moveTiles();
    if (!force && first !== null) this.element.scrollTop = this.layout.place(first).y - shift;
    this.render();
  }

  moveTiles() {
    for (const node of this.headings.values()) node.remove();
    this.headings.clear();
    for (const [index, node] of this.rendered) {
      if (index >= this.layout.count) {
        node.remove();
        this.rendered.delete(index);
        continue;
      }
      this.moveTile(node, index);
      // A tile grown past its thumbnail is drawn again, in place, with the larger one; a tile
      // that shrank keeps the larger it has.
      if ((Number(node.dataset.size) || 0) < this.thumbnailSize()) delete node.dataset.asset;
    }
    this.dropEmptyRows();
  }

  clearRendered() {
    this.canvas.replaceChildren();
    this.rendered.clear();
    this.rows.clear();
    this.headings.clear();
  }

  // The row a tile at `y` belongs in, made when it is the first.
  rowAt(y) {
    let row = this.rows.get(y);
    if (!row) {
      row = document.createElement("div");
      row.className = "tile-row";
      row.setAttribute("role", "row");
      // In the order of the screen, which is the order assistive technology reads rows in.
      const next = [...this.rows].find(([top]) => top > y)?.[1] ?? null;
      this.canvas.insertBefore(row, next);
      this.rows.set(y, row);
    }
    return row;
  }

  dropEmptyRows() {
    for (const [y, row] of this.rows) {
      if (row.childElementCount === 0) {
        row.remove();
        this.rows.delete(y);
      }
    }
  }

  schedule() {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.render();
    });
  }

  firstVisibleIndex() {
    if (!this.layout || this.layout.count === 0) return null;
    const section = this.layout.sections[this.layout.sectionAt(this.element.scrollTop)];
    const row = Math.max(0, Math.floor((this.element.scrollTop - section.rowsTop) / this.layout.tile));
    return Math.min(section.start + row * this.layout.columns, section.start + section.count - 1);
  }

  // The day whose rows are at the top of the screen: what the sticky heading and the scrubber say.
  // At the very bottom it is the last day, even when the last days are too short to reach the top.
  // Both read the place the last render saw, not the element: asked right after a render put
  // its tiles in, the element would lay the page out again first (37 ms of a first load).
  get currentDay() {
    if (!this.layout || this.layout.sections.length === 0 || !this.viewport) return null;
    const { top, height } = this.viewport;
    if (top > 0 && top + height >= Math.max(this.layout.height, height) - 1) return this.layout.sections.at(-1).day;
    return this.layout.sections[this.layout.sectionAt(top + 1)].day;
  }

  // Whether the month's own heading is on screen, so that the floating one would repeat it.
  get monthHeadingShown() {
    if (!this.layout || this.layout.sections.length === 0 || !this.viewport) return true;
    const section = this.layout.sections[this.layout.sectionAt(this.viewport.top + 1)];
    return section.newMonth && this.viewport.top < section.top + monthHeading;
  }

  // Places the headings and tiles of the rows on screen (and a screen around), reusing nodes
  // already there, and reads what they show.
  render() {
    const layout = this.layout;
    if (!layout) return;
    this.viewport = { top: this.element.scrollTop, height: this.element.clientHeight };
    const view = this.viewport.height;
    const top = this.viewport.top - view * overscan;
    const bottom = this.viewport.top + view * (1 + overscan);
    const wantedTiles = new Set();
    const wantedHeadings = new Set();
    let first = null;
    let last = null;
    for (let s = layout.sectionAt(Math.max(0, top)); s < layout.sections.length; s += 1) {
      const section = layout.sections[s];
      if (section.top > bottom) break;
      wantedHeadings.add(section.day);
      if (!this.headings.has(section.day)) this.placeHeading(section);
      const firstRow = Math.max(0, Math.floor((top - section.rowsTop) / layout.tile));
      const lastRow = Math.min(section.rows - 1, Math.floor((bottom - section.rowsTop) / layout.tile));
      for (let row = firstRow; row <= lastRow; row += 1) {
        for (let column = 0; column < layout.columns; column += 1) {
          const index = section.start + row * layout.columns + column;
          if (index >= section.start + section.count) break;
          wantedTiles.add(index);
          first ??= index;
          last = index;
        }
      }
    }
    for (const [day, node] of this.headings) if (!wantedHeadings.has(day)) { node.remove(); this.headings.delete(day); }
    for (const [index, node] of this.rendered) {
      // The item in focus stays, so that the keyboard's place survives a scroll.
      if (!wantedTiles.has(index) && !(index === this.focusIndex && node.contains(document.activeElement))) {
        node.remove();
        this.rendered.delete(index);
      }
    }
    for (const index of wantedTiles) this.placeTile(index);
    this.dropEmptyRows();
    this.fillOnScreenFirst(wantedTiles);
    this.dispatchEvent(new CustomEvent("scrolled", { detail: { day: this.currentDay, headingShown: this.monthHeadingShown } }));
    if (first === null) return;
    const wanted = [first, last];
    this.items.load(layout, ...wanted).then(() => {
      if (this.layout === layout) this.fillOnScreenFirst(wantedTiles);
    }).catch((error) => this.dispatchEvent(new CustomEvent("failed", { detail: error })));
  }

  // The tiles on screen get their thumbnails now (one batch), those around it a frame later, so
  // that what is seen is not decoded behind what is not.
  fillOnScreenFirst(indices) {
    const { top, height } = this.viewport;
    const onScreen = (index) => {
      const { y } = this.layout.place(index);
      return y + this.layout.tile > top && y < top + height;
    };
    const later = [];
    for (const index of indices) {
      if (onScreen(index)) this.fill(index);
      else later.push(index);
    }
    if (later.length) requestAnimationFrame(() => later.forEach((index) => this.fill(index)));
  }

  placeHeading(section) {
    const node = document.createElement("div");
    node.className = "day-heading";
    node.setAttribute("role", "row");
    node.style.transform = `translateY(${section.top}px)`;
    const cell = document.createElement("div");
    cell.setAttribute("role", "rowheader");
    cell.setAttribute("aria-colspan", String(this.layout.columns));
    if (section.newMonth) {
      const month = document.createElement("h2");
      month.textContent = monthName(section.day);
      cell.append(month);
    }
    const day = document.createElement("h3");
    day.textContent = dayName(section.day);
    if (this.selectable) day.append(this.selectDayButton(section));
    cell.append(day);
    node.append(cell);
    this.canvas.append(node);
    this.headings.set(section.day, node);
  }

  selectDayButton(section) {
    const choose = document.createElement("button");
    choose.type = "button";
    choose.className = "select-day";
    choose.textContent = "Select";
    choose.setAttribute("aria-label", `Select all of ${dayName(section.day)}`);
    // Out of the Tab order, which goes from the grid's one item in it to what follows the grid;
    // the keyboard selects a day with Shift+Space on any of its items.
    choose.tabIndex = -1;
    choose.addEventListener("click", (event) => {
      event.stopPropagation();
      this.selectRange(section.start, section.start + section.count - 1, true);
    });
    return choose;
  }

  placeTile(index) {
    let node = this.rendered.get(index);
    if (!node) {
      node = document.createElement("div");
      node.className = "tile";
      node.setAttribute("role", "gridcell");
      node.dataset.index = String(index);
      node.tabIndex = index === this.focusIndex ? 0 : -1;
      this.moveTile(node, index);
      this.rendered.set(index, node);
    }
  }

  // Puts a tile where the layout has its item, and names it for that place.
  moveTile(node, index) {
    const { x, y } = this.layout.place(index);
    node.style.transform = `translate(${x}px, ${y}px)`;
    const row = this.rowAt(y);
    if (node.parentNode !== row) {
      // Moved into its new row, the tile in focus keeps the focus.
      const focused = node.contains(document.activeElement);
      row.append(node);
      if (focused) node.focus({ preventScroll: true });
    }
    this.nameTile(node, index);
  }

  position(index) {
    return `${grouped(index + 1)} of ${grouped(this.count)}`;
  }

  // A tile's name: what it shows (once read), where it is, and in a numbered selection its
  // place, which the checkmark shows to the eye only ("Photo, …, 3 of 40, selected 2").
  nameTile(node, index) {
    const { label = "Loading", mark = "" } = node.dataset;
    node.setAttribute("aria-label", `${label}, ${this.position(index)}${/^\d+$/.test(mark) ? `, selected ${mark}` : ""}`);
  }

  // Gives a placed tile its item once it is read (thumbnail, badges, name) and its selection,
  // written only when it changes: every render fills each tile near the screen again.
  fill(index) {
    const node = this.rendered.get(index);
    const asset = this.items?.assets[index];
    if (!node || !asset) return;
    if (node.dataset.asset !== asset.id) this.draw(node, asset);
    const selected = this.selected.has(asset.id);
    const mark = !selected ? "" : this.numbered ? String([...this.selected].indexOf(asset.id) + 1) : "✓";
    if (node.dataset.mark === mark) return;
    node.dataset.mark = mark;
    node.setAttribute("aria-selected", String(selected));
    node.querySelector(".check").textContent = mark;
    this.nameTile(node, index);
  }

  draw(node, asset) {
    node.dataset.asset = asset.id;
    delete node.dataset.mark;
    // The day as the headings say it, and the time as taken (hours and minutes of the local
    // time the camera wrote).
    const taken = asset.captureDate ?? asset.importDate;
    const when = `${dayName(taken.slice(0, 10))} ${taken.slice(11, 16)}`;
    const name = asset.originalFilename ? `, ${asset.originalFilename}` : "";
    const left = daysLeft(asset);
    node.dataset.label = `${kindOf(asset)}, ${when}${name}${left == null ? "" : `, ${left} left`}`;
    const image = document.createElement("img");
    image.alt = "";
    image.decoding = "async";
    image.draggable = false;
    node.dataset.size = String(this.thumbnailSize());
    this.thumbnails.show(asset, this.thumbnailSize(), image);
    const parts = [image];
    if (asset.duration != null || asset.livePhoto) {
      const badge = document.createElement("span");
      badge.className = asset.livePhoto ? "badge live" : "badge";
      badge.textContent = asset.livePhoto ? "LIVE" : clock(asset.duration);
      parts.push(badge);
    }
    if (left != null) {
      const days = document.createElement("span");
      days.className = "badge days-left";
      days.textContent = left;
      days.setAttribute("aria-hidden", "true");
      parts.push(days);
    }
    if (asset.favorite) {
      const heart = document.createElement("span");
      heart.className = "badge favorite";
      heart.textContent = "♥";
      heart.setAttribute("aria-hidden", "true");
      parts.push(heart);
    }
    const check = document.createElement("span");
    check.className = "check";
    check.setAttribute("aria-hidden", "true");
    parts.push(check);
    node.replaceChildren(...parts);
  }

  thumbnailSize() { return this.layout.tile * devicePixelRatio > 256 ? 512 : 256; }

  asset(index) { return this.items?.assets[index] ?? null; }

  // The items read so far (at most `keptItems`), in no particular order.
  get loaded() { return Object.values(this.items?.assets ?? []); }

  async assetAt(index) {
    if (!this.layout || index < 0 || index >= this.count) return null;
    await this.items.load(this.layout, index, index);
    return this.items.assets[index];
  }

  indexOf(id) { return this.items?.assets.findIndex((asset) => asset?.id === id) ?? -1; }

  // Moves the keyboard's place, scrolls it into view, and focuses it.
  async focusItem(index, { extend = false } = {}) {
    if (!this.layout || this.count === 0) return;
    index = Math.max(0, Math.min(this.count - 1, index));
    const previous = this.rendered.get(this.focusIndex);
    if (previous) previous.tabIndex = -1;
    this.focusIndex = index;
    const { y } = this.layout.place(index);
    const view = this.element.clientHeight;
    if (y < this.element.scrollTop) this.element.scrollTop = y - dayHeading;
    else if (y + this.layout.tile > this.element.scrollTop + view) this.element.scrollTop = y + this.layout.tile - view;
    this.render();
    this.placeTile(index);
    this.fill(index);
    const node = this.rendered.get(index);
    node.tabIndex = 0;
    node.focus({ preventScroll: true });
    if (extend && this.selecting) await this.selectRange(this.anchor ?? index, index, true, { keepAnchor: true });
  }

  key(event) {
    const layout = this.layout;
    if (!layout || !event.target.closest(".tile")) return;
    const index = this.focusIndex;
    const rowsOnScreen = Math.max(1, Math.floor(this.element.clientHeight / layout.tile) - 1);
    const moves = {
      ArrowLeft: index - 1, ArrowRight: index + 1,
      ArrowUp: layout.indexRowsAway(index, -1), ArrowDown: layout.indexRowsAway(index, 1),
      PageUp: layout.indexRowsAway(index, -rowsOnScreen), PageDown: layout.indexRowsAway(index, rowsOnScreen),
      Home: event.ctrlKey ? 0 : index - layout.place(index).column,
      End: event.ctrlKey ? this.count - 1 : Math.min(index - layout.place(index).column + layout.columns - 1,
        layout.sectionOf(index).start + layout.sectionOf(index).count - 1),
    };
    if (event.key in moves) {
      event.preventDefault();
      this.focusItem(moves[event.key], { extend: event.shiftKey });
    } else if (this.selectable && event.key === " " && event.shiftKey) {
      event.preventDefault();
      const section = layout.sectionOf(index);
      this.selectRange(section.start, section.start + section.count - 1, true);
    } else if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      this.activate(index, event);
    } else if (this.selectable && (event.key === "a" || event.key === "A") && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      this.dispatchEvent(new CustomEvent("selectall"));
    }
  }

  click(event) {
    const node = event.target.closest(".tile");
    if (!node || this.suppressClick) {
      this.suppressClick = false;
      return;
    }
    this.takeFocus(node);
    this.activate(this.focusIndex, event);
  }

  takeFocus(node) {
    this.focusIndex = Number(node.dataset.index);
    for (const other of this.rendered.values()) other.tabIndex = other === node ? 0 : -1;
  }

  activate(index, event) {
    const asset = this.asset(index);
    if (!asset) return;
    if (!this.selecting) {
      this.dispatchEvent(new CustomEvent("open", { detail: { index, asset } }));
      return;
    }
    if (event.shiftKey && this.anchor !== null) {
      this.selectRange(this.anchor, index, true, { keepAnchor: true });
      return;
    }
    this.anchor = index;
    this.toggle([asset.id], !this.selected.has(asset.id));
  }

  // A long press on touch starts selecting with the item pressed, as in Photos.
  pressToSelect() {
    let timer = null;
    const cancel = () => { clearTimeout(timer); timer = null; };
    this.element.addEventListener("pointerdown", (event) => {
      // The click a long press suppresses is its own: a press that ends without one (the finger
      // slid, or the phone's long press, which never clicks) must not take the next tap's.
      this.suppressClick = false;
      const node = event.target.closest(".tile");
      if (!node || event.pointerType === "mouse") return;
      timer = setTimeout(() => {
        timer = null;
        const index = Number(node.dataset.index);
        const asset = this.asset(index);
        if (!asset) return;
        this.suppressClick = true;
        this.setSelecting(true);
        this.anchor = index;
        this.toggle([asset.id], true);
      }, 500);
    });
    for (const name of ["pointerup", "pointercancel", "pointermove"]) {
      this.element.addEventListener(name, (event) => {
        if (name !== "pointermove" || Math.abs(event.movementY) + Math.abs(event.movementX) > 6) cancel();
      });
    }
    this.element.addEventListener("contextmenu", (event) => { if (event.target.closest(".tile")) event.preventDefault(); });
  }

  setSelecting(selecting) {
    if (this.selecting === selecting) return;
    this.selecting = selecting;
    this.element.classList.toggle("selecting", selecting);
    this.element.setAttribute("aria-multiselectable", String(selecting));
    if (!selecting) {
      this.selected.clear();
      this.anchor = null;
      for (const index of this.rendered.keys()) this.fill(index);
    }
    this.dispatchEvent(new CustomEvent("selection"));
  }

  toggle(ids, on) {
    for (const id of ids) {
      if (on) this.selected.add(id);
      else this.selected.delete(id);
    }
    for (const index of this.rendered.keys()) this.fill(index);
    this.dispatchEvent(new CustomEvent("selection"));
  }

  // Shows a selection that is not the grid's own (a picker's): the items of `ids` selected, in
  // that order, each numbered when `numbered`.
  mark(ids, { numbered = false } = {}) {
    this.selected = new Set(ids);
    this.numbered = numbered;
    this.element.classList.add("selecting");
    this.element.setAttribute("aria-multiselectable", "true");
    for (const index of this.rendered.keys()) this.fill(index);
  }

  // Selects (or deselects) every item from `from` to `to`, reading those not read yet.
  async selectRange(from, to, on, { keepAnchor = false } = {}) {
    const [low, high] = from <= to ? [from, to] : [to, from];
    this.setSelecting(true);
    const items = this.items;
    items.pinned += 1;
    try {
      await items.load(this.layout, low, high);
      if (!keepAnchor) this.anchor = low;
      this.toggle(items.assets.slice(low, high + 1).filter(Boolean).map((asset) => asset.id), on);
    } finally {
      items.pinned -= 1;
    }
  }

  // Scrolls to the first item of a day (or of the nearest day before it); false when every day
  // is after it, and the oldest is shown.
  jumpTo(day) {
    if (!this.layout) return false;
    const found = this.layout.sections.find((candidate) => candidate.day <= day);
    const section = found ?? this.layout.sections.at(-1);
    if (section) this.element.scrollTop = section.top;
    return found !== undefined;
  }

  // The months the view holds, newest first, with where each starts: the scrubber's marks.
  get months() { return this.layout?.months ?? []; }
}
