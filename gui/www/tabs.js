// The side panel's tabs: one button per panel, one panel shown at a time.

export function setupTabs(nav, root) {
  const show = name => {
    for (const b of nav.querySelectorAll('[data-tab]')) b.classList.toggle('active', b.dataset.tab === name);
    for (const p of root.querySelectorAll('[data-panel]')) p.hidden = p.dataset.panel !== name;
  };
  nav.addEventListener('click', e => {
    const name = e.target.closest('[data-tab]')?.dataset.tab;
    if (name) show(name);
  });
}
