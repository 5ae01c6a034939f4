// Three and four armies: each army's expected share of the points, as a bar per army. The server works the
// shares out from the engines' latest scores (gui/shares.c) and sends them with each STATE and analysis event.

export class Shares {
  constructor(element) {
    this.element = element;
  }

  /** A new game: the bars are shown for three and four armies only. */
  reset(variant) {
    this.armies = variant.armies;
    this.element.hidden = this.armies.length < 3;
    this.element.replaceChildren(...this.armies.map(army => {
      const row = document.createElement('div');
      row.className = 'share';
      row.dataset.army = army.letter;
      row.title = `${army.name}'s expected share of the points`;
      const swatch = document.createElement('span');
      swatch.className = `swatch army-${army.letter}`;
      const name = document.createElement('span');
      name.className = 'name';
      name.textContent = army.name;
      const bar = document.createElement('span');
      bar.className = 'bar';
      const fill = document.createElement('span');
      fill.className = `fill swatch army-${army.letter}`;
      bar.append(fill);
      const value = document.createElement('span');
      value.className = 'value';
      row.append(swatch, name, bar, value);
      return row;
    }));
  }

  /** The server's shares ({letter: 0..1}): each army's bar; resolves with them, or null below three armies. */
  render(shares) {
    if (!shares || this.element.hidden) return null;
    for (const row of this.element.children) {
      const share = shares[row.dataset.army] ?? 0;
      row.querySelector('.fill').style.width = `${(share * 100).toFixed(1)}%`;
      row.querySelector('.value').textContent = `${Math.round(share * 100)}%`;
      row.dataset.share = share.toFixed(4);
    }
    return shares;
  }
}
