// Analysis: the engine's lines for the shown position, their arrows, the evaluation bar and the graph; on an
// analysis board a click on a line's move plays the line up to it.
import { scoreText, forFirstArmy, shareLean } from './score.js';
import { parseMove } from './moves.js';
import { element } from './dom.js';

export class Analysis {
  /**
   * `els`: the toggle, MultiPV select, info span, lines list and evaluation bar; `graph` a ScoreGraph;
   * `onArrows(list)` draws the best lines' first moves on the board; `onLine(moves)` plays moves from
   * the shown position.
   */
  constructor(els, { graph, onArrows, onLine }) {
    this.els = els;
    this.graph = graph;
    this.onArrows = onArrows;
    els.lines.addEventListener('click', e => {
      const move = e.target.closest('.pv-move');
      if (!move || move.disabled) return;
      const line = [...move.parentNode.querySelectorAll('.pv-move')];
      onLine(line.slice(0, line.indexOf(move) + 1).map(b => b.dataset.uci));
    });
    this.api = null;
    this.latest = null;
    this.frame = 0;
    els.toggle.addEventListener('change', () => this.send());
    els.multipv.addEventListener('change', () => this.els.toggle.checked && this.send());
  }

  get on() {
    return this.els.toggle.checked;
  }

  /** A new or resumed session: its analysis goes on if the server says it is analysing. */
  setSession(api, state) {
    this.api = api;
    this.els.toggle.checked = Boolean(state.analysing);
    if (state.multipv) this.els.multipv.value = String(state.multipv);
    this.fen = null;
    this.clear();
  }

  /** Every STATE: a new shown position drops the old lines (the server's analysis follows the view). */
  setState(state, variant) {
    this.state = state;
    this.armies = variant.armies;
    if (state.fen === this.fen) return;
    this.fen = state.fen;
    this.clear();
  }

  async send() {
    if (!this.api) return;
    const on = this.on && !this.state?.result;
    if (!on) this.clear();
    this.els.info.textContent = on ? 'starting…' : '';
    try {
      await this.api.analyse(on, Number(this.els.multipv.value));
    } catch (err) {
      this.els.info.textContent = err.message;
    }
  }

  /** An `analysis` event; drawn at the next animation frame, so a burst costs one render. */
  update(event) {
    if (!this.on) return;
    this.latest = event;
    if (!this.frame) this.frame = requestAnimationFrame(() => this.render());
  }

  clear() {
    this.latest = null;
    this.els.lines.replaceChildren();
    this.els.info.textContent = '';
    this.els.bar.hidden = true;
    this.onArrows([]);
  }

  render() {
    this.frame = 0;
    const event = this.latest;
    if (!event || !this.state) return;
    const { turn, ply } = this.state;
    const lines = [...event.lines].sort((a, b) => a.multipv - b.multipv);
    const top = lines[0];
    this.els.info.textContent = `depth ${event.depth}` +
      (top ? ` · ${formatCount(top.nodes)} nodes · ${formatCount(top.nps)} nps` : '');
    this.els.lines.replaceChildren(...lines.map(l => element('li', { 'data-multipv': l.multipv },
      element('span', { class: 'score' }, scoreText(forFirstArmy(l.score, turn, this.armies))),
      element('span', { class: 'pv' }, ...l.pv.flatMap((m, i) => [i ? ' ' : '', element('button', {
        type: 'button', class: 'pv-move', 'data-uci': m, disabled: !this.state.analysis_board,
        title: this.state.analysis_board ? 'Play the line up to this move' : 'Lines are played on an analysis board',
      }, m)])))));
    this.onArrows(lines.map((l, i) => {
      const m = parseMove(l.pv[0] || '');
      return m && { from: m.from, to: m.to, kind: i ? 'alt' : 'best', weight: i ? 0.7 : 1 };
    }).filter(Boolean));
    if (!top) return;
    this.drawBar(forFirstArmy(top.score, turn, this.armies), event.shares);
    if (!event.shares) return;
    // the graph is the main line's: a variation's scores stay off it; two armies read for the first, more for the mover
    const onMain = ply === 0 || this.state.moves[ply - 1]?.node === this.state.node;
    const army = this.armies.length === 2 ? this.armies[0].letter : turn;
    if (onMain) this.graph.record(ply, shareLean(event.shares[army], this.armies.length), turn);
  }

  /** Two armies: White's share of the points from the bottom (three or four have a bar per army, shares.js). */
  drawBar(score, shares) {
    const { bar } = this.els;
    bar.hidden = this.armies.length > 2 || !shares;
    if (bar.hidden) return;
    bar.querySelector('.fill').style.height = `${shares[this.armies[0].letter] * 100}%`;
    bar.querySelector('.label').textContent = scoreText(score);
  }
}

function formatCount(n) {
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)}M`;
  if (n >= 1e3) return `${(n / 1e3).toFixed(0)}k`;
  return String(n);
}
