// The Photos app's search field: a combobox (WAI-ARIA's pattern with a list of suggestions)
// that suggests the library's places, countries, cameras and a year as one types, each with its
// count of items. Enter searches for what is typed, or takes the suggestion the arrows moved to;
// Escape closes the list, then clears the field, then is the page's. A suggestion is chosen by click or touch too.
import { json } from "./api.js";

const kinds = { place: "Place", country: "Country", camera: "Camera", year: "Year" };
const waitBeforeAsking = 120;

export class SearchField extends EventTarget {
  constructor(form) {
    super();
    this.form = form;
    this.input = form.querySelector("[role=combobox]");
    this.list = form.querySelector("[role=listbox]");
    this.suggestions = [];
    this.active = -1;
    this.input.addEventListener("input", () => this.typed());
    this.input.addEventListener("keydown", (event) => this.key(event));
    this.input.addEventListener("blur", () => setTimeout(() => this.close(), 0));
    // Pressing an option must not take the focus from the field first (its blur closes the list).
    this.list.addEventListener("pointerdown", (event) => event.preventDefault());
    this.list.addEventListener("click", (event) => {
      const option = event.target.closest("[role=option]");
      if (option) this.choose(this.suggestions[Number(option.dataset.index)]);
    });
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.search(this.input.value.trim());
    });
  }

  // Shows `text` as the field's, without suggesting (a view the URL names).
  show(text) {
    if (this.input.value !== text) this.input.value = text;
    this.close();
  }

  typed() {
    clearTimeout(this.timer);
    this.asking?.abort();
    const text = this.input.value.trim();
    if (!text) return this.close();
    this.timer = setTimeout(() => this.ask(text), waitBeforeAsking);
  }

  async ask(text) {
    const asking = (this.asking = new AbortController());
    try {
      const { suggestions } = await json(`/api/search/suggestions?q=${encodeURIComponent(text)}`, { signal: asking.signal });
      if (asking.signal.aborted || document.activeElement !== this.input) return;
      this.open(suggestions);
    } catch (error) {
      // A field typed on is not interrupted: a failed suggestion is no suggestion.
      if (!asking.signal.aborted) this.close();
    }
  }

  open(suggestions) {
    this.suggestions = suggestions;
    this.active = -1;
    const count = new Intl.NumberFormat();
    this.list.replaceChildren(...suggestions.map((suggestion, index) => {
      const option = document.createElement("li");
      option.id = `suggestion-${index}`;
      option.dataset.index = String(index);
      option.setAttribute("role", "option");
      option.setAttribute("aria-selected", "false");
      const text = document.createElement("span");
      text.className = "suggestion-text";
      text.textContent = suggestion.text;
      const detail = document.createElement("span");
      detail.className = "suggestion-detail";
      detail.textContent = `${kinds[suggestion.kind] ?? ""} · ${count.format(suggestion.items)} ${suggestion.items === 1 ? "item" : "items"}`;
      option.append(text, detail);
      return option;
    }));
    this.list.hidden = suggestions.length === 0;
    this.input.setAttribute("aria-expanded", String(suggestions.length > 0));
    this.input.removeAttribute("aria-activedescendant");
  }

  close() {
    clearTimeout(this.timer);
    this.asking?.abort();
    this.list.hidden = true;
    this.suggestions = [];
    this.active = -1;
    this.input.setAttribute("aria-expanded", "false");
    this.input.removeAttribute("aria-activedescendant");
  }

  move(step) {
    if (this.suggestions.length === 0) return;
    const count = this.suggestions.length;
    this.active = this.active < 0 ? (step > 0 ? 0 : count - 1) : (this.active + step + count) % count;
    this.list.querySelectorAll("[role=option]").forEach((option, index) => {
      option.setAttribute("aria-selected", String(index === this.active));
      if (index === this.active) option.scrollIntoView({ block: "nearest" });
    });
    this.input.setAttribute("aria-activedescendant", `suggestion-${this.active}`);
  }

  key(event) {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      this.move(event.key === "ArrowDown" ? 1 : -1);
    } else if (event.key === "Enter" && this.active >= 0) {
      event.preventDefault();
      this.choose(this.suggestions[this.active]);
    } else if (event.key === "Escape" && (!this.list.hidden || this.input.value)) {
      // An empty field's Escape is the page's (the picker's cancel).
      event.preventDefault();
      if (!this.list.hidden) this.close();
      else this.search("");
    }
  }

  choose(suggestion) {
    if (!suggestion) return;
    if (suggestion.kind === "year") {
      this.close();
      this.dispatchEvent(new CustomEvent("year", { detail: { year: suggestion.text } }));
    } else {
      this.input.value = suggestion.text;
      this.search(suggestion.text);
    }
  }

  search(text) {
    this.close();
    if (this.input.value.trim() !== text) this.input.value = text;
    this.dispatchEvent(new CustomEvent("search", { detail: { text } }));
  }
}
