// The elements a component works with, found once in its root by their selectors:
// `elements(root, { shutter: "#shutter" })` is `{ shutter: <the button> }`, to assign to the
// component.
export function elements(root, selectors) {
  return Object.fromEntries(Object.entries(selectors).map(([name, selector]) => [name, root.querySelector(selector)]));
}
