// The score graph: the analysed score of each ply of the game; a click shows that ply.

const W = 300, H = 80;

export class ScoreGraph {
  /** `onPly(k)` asks to show the position after k plies. */
  constructor(svg, { onPly }) {
    this.svg = svg;
    this.values = new Map(); // ply -> {chance: a share's lean, -1..1 (score.js shareLean), army: the mover's letter}
    this.plies = 0;
    this.ply = 0;
    svg.addEventListener('click', e => {
      const box = svg.getBoundingClientRect();
      const ply = Math.round((e.clientX - box.left) / box.width * Math.max(this.plies, 1));
      this.onPly(Math.min(this.plies, Math.max(0, ply)));
    });
    this.onPly = onPly;
  }

  /** Forgets every score (a new game). */
  reset() {
    this.values.clear();
    this.render();
  }

  /** The game's length and the shown ply; scores past the end (taken back) are dropped. */
  setGame(plies, ply) {
    this.plies = plies;
    this.ply = ply;
    for (const k of this.values.keys()) if (k > plies) this.values.delete(k);
    this.render();
  }

  record(ply, chance, army) {
    this.values.set(ply, { chance, army });
    this.render();
  }

  render() {
    const x = k => (k / Math.max(this.plies, 1) * W).toFixed(1);
    const y = c => ((1 - c) / 2 * H).toFixed(1);
    const known = [...this.values.entries()].sort((a, b) => a[0] - b[0]);
    const parts = [`<line class="zero" x1="0" x2="${W}" y1="${H / 2}" y2="${H / 2}"/>`];
    if (known.length) {
      const line = known.map(([k, v]) => `${x(k)},${y(v.chance)}`).join(' ');
      parts.push(`<polygon class="area" points="${x(known[0][0])},${H} ${line} ${x(known.at(-1)[0])},${H}"/>`);
      for (const [k, v] of known) parts.push(`<circle class="dot army-${v.army}" cx="${x(k)}" cy="${y(v.chance)}" r="1.6"/>`);
    }
    parts.push(`<line class="now" x1="${x(this.ply)}" x2="${x(this.ply)}" y1="0" y2="${H}"/>`);
    this.svg.innerHTML = parts.join('');
  }
}
