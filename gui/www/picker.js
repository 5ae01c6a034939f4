// The small picker for moves that share their cells: promotions, fission, a compound moving whole.

/**
 * Shows `choices` ([{uci, icon, label}]) next to `rect` (a cell's screen rectangle) inside `element`;
 * resolves with the chosen move, or null when the player clicks elsewhere or presses Escape.
 */
export function pick(element, rect, choices) {
  element.innerHTML = choices.map(c =>
    `<button type="button" data-uci="${c.uci}" title="${c.label}">${c.icon}<small>${c.label}</small></button>`
  ).join('');
  element.hidden = false;
  const box = element.parentElement.getBoundingClientRect();
  const left = Math.min(rect.left - box.left, box.width - element.offsetWidth);
  const top = rect.bottom - box.top + element.offsetHeight > box.height
    ? rect.top - box.top - element.offsetHeight : rect.bottom - box.top;
  element.style.left = `${Math.max(0, left)}px`;
  element.style.top = `${Math.max(0, top)}px`;
  element.querySelector('button').focus();
  return new Promise(resolve => {
    const done = uci => {
      element.hidden = true;
      document.removeEventListener('pointerdown', outside, true);
      document.removeEventListener('keydown', escape, true);
      resolve(uci);
    };
    const outside = e => { if (!element.contains(e.target)) done(null); };
    const escape = e => { if (e.key === 'Escape') done(null); };
    element.onclick = e => {
      const uci = e.target.closest('[data-uci]')?.dataset.uci;
      if (uci) done(uci);
    };
    document.addEventListener('pointerdown', outside, true);
    document.addEventListener('keydown', escape, true);
  });
}
