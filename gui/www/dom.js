// Elements built from data: text an engine printed (its name, its lines) goes in as text, never as markup.

/**
 * A new `tag` element with `attributes` (`class`, `data-*`, `value`, ...; false or null leave one out)
 * and `children`: elements, or strings that become text nodes.
 */
export function element(tag, attributes = {}, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === false || value === null || value === undefined) continue;
    el.setAttribute(name, value === true ? '' : String(value));
  }
  el.append(...children);
  return el;
}
