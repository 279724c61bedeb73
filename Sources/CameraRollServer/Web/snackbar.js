// What was just done, with Undo, at the foot of the page for a few seconds (longer while the
// pointer or focus is on it), as Google Photos and Apple Photos say it; Ctrl+Z (⌘Z) undoes too
// while it shows. A new message takes the old one's place: the last change is the one undone.
// Its text is a live region that stays in the page (closed, it is moved out of sight), so
// screen readers hear each message.
export class Snackbar {
  constructor(root, { seconds = 6 } = {}) {
    this.root = root;
    this.text = root.querySelector(".snackbar-text");
    this.button = root.querySelector(".snackbar-undo");
    this.seconds = seconds;
    this.undo = null;
    this.timer = null;
    this.button.addEventListener("click", () => this.runUndo());
    for (const name of ["pointerenter", "focusin"]) root.addEventListener(name, () => clearTimeout(this.timer));
    for (const name of ["pointerleave", "focusout"]) root.addEventListener(name, () => this.schedule());
    document.addEventListener("keydown", (event) => {
      const typing = event.target.closest?.("input, textarea, [contenteditable]");
      if (this.undo && !typing && (event.ctrlKey || event.metaKey) && event.key.toLowerCase() === "z") {
        event.preventDefault();
        this.runUndo();
      }
    });
  }

  // `undo`: what takes the change back (a promise), or null for a message alone.
  show(message, undo = null) {
    this.text.textContent = message;
    this.undo = undo;
    this.button.hidden = !undo;
    this.root.classList.add("open");
    this.schedule();
  }

  schedule() {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.hide(), this.seconds * 1000);
  }

  hide() {
    clearTimeout(this.timer);
    this.root.classList.remove("open");
    this.button.hidden = true;
    this.undo = null;
  }

  async runUndo() {
    const undo = this.undo;
    if (!undo) return;
    this.hide();
    try {
      await undo();
    } catch (error) {
      this.show(`Undo did not work: ${error.message}`);
    }
  }
}
