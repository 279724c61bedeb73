// The elements a component works with, found once in its root by their selectors:
// `elements(root, { shutter: "#shutter" })` is `{ shutter: <the button> }`, to assign to the
// component.
export function elements(root, selectors) {
  return Object.fromEntries(Object.entries(selectors).map(([name, selector]) => [name, root.querySelector(selector)]));
}

// A text button of a list's row: `label` names it for screen readers where its text alone
// ("Remove") would not say what it acts on.
export function plainButton(text, label, onClick, className = "plain") {
  const button = document.createElement("button");
  button.type = "button";
  button.className = className;
  button.textContent = text;
  if (label) button.setAttribute("aria-label", label);
  button.addEventListener("click", onClick);
  return button;
}

// A list's row: a name in bold over a line of detail.
export function namedRow(name, detail, detailClass) {
  const item = document.createElement("li");
  const text = document.createElement("span");
  text.className = "app-text";
  const strong = document.createElement("strong");
  strong.textContent = name;
  const line = document.createElement("span");
  line.className = detailClass;
  line.textContent = detail;
  text.append(strong, line);
  item.append(text);
  return item;
}
