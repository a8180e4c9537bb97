/* Small DOM helpers shared by the client and the game renderers (no framework). */

/** Build an element: h("button", {class: "x", onclick: f, "aria-label": "…"}, child, …). */
export function h(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      node.addEventListener(key.slice(2), value);
    } else if (key === "style") {
      // Through the CSSOM: a style attribute is inline style, which the CSP refuses.
      node.style.cssText = String(value);
    } else if (key === "dataset") {
      Object.assign(node.dataset, value);
    } else if (value === true) {
      node.setAttribute(key, "");
    } else {
      node.setAttribute(key, String(value));
    }
  }
  append(node, children);
  return node;
}

function append(node, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(node, child);
    else node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

const SVG = "http://www.w3.org/2000/svg";

/** An inline icon from the sprite: decorative (the text next to it says the same). */
export function icon(sprite, name, extraClass = "") {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("class", `icon ${extraClass}`.trim());
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  const use = document.createElementNS(SVG, "use");
  use.setAttribute("href", `${sprite}#${name}`);
  svg.append(use);
  return svg;
}

/** Replace the children of `node`, keeping keyboard focus on the control with the same key. */
export function replaceKeepingFocus(node, children, fallback) {
  const active = document.activeElement;
  const hadFocus = active && node.contains(active);
  const key = hadFocus ? active.dataset.key : null;
  node.replaceChildren(...children);
  if (!hadFocus) return;
  let target = key ? node.querySelector(`[data-key="${CSS.escape(key)}"]`) : null;
  if (target && target.disabled) target = null;
  if (!target && fallback) target = fallback();
  if (target) target.focus({ preventScroll: true });
}
