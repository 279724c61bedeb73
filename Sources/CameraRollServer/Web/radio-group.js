// Keyboard for the picker's segmented controls (role="radiogroup"): one Tab stop per group,
// the arrow keys move to the next or previous choice and choose it, as ARIA radio groups do.
export function arrowKeys(group) {
  const radios = () => [...group.querySelectorAll('[role="radio"]')].filter((radio) => !radio.hidden && !radio.disabled);
  const roving = () => {
    for (const radio of radios()) radio.tabIndex = radio.getAttribute("aria-checked") === "true" ? 0 : -1;
  };
  group.addEventListener("keydown", (event) => {
    const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[event.key];
    if (!step) return;
    event.preventDefault();
    const choices = radios();
    const next = choices[(choices.indexOf(document.activeElement) + step + choices.length) % choices.length];
    next.focus();
    next.click();
  });
  // Whatever sets aria-checked (a click, the page's own code), the checked one is the Tab stop.
  new MutationObserver(roving).observe(group, { subtree: true, attributes: true, attributeFilter: ["aria-checked", "hidden"] });
  roving();
}
