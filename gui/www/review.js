// The game review (docs/gui.md#game-review): the server's engine judges every move; this panel shows its
// progress, each army's accuracy, the marked moves with the better move, a graph of the game, and marks the
// move list. The expected scores and judgements come from the server (gui/review.c), which also writes them
// into the PGN, so the page never converts a score itself.
import { parseMove } from './moves.js';
import { element } from './dom.js';

const W = 300, H = 80;
const NAG = { inaccuracy: '?!', mistake: '?', blunder: '??' };
const WORDS = { inaccuracy: 'an inaccuracy', mistake: 'a mistake', blunder: 'a blunder' };

export class Review {
  /**
   * `els`: start and stop buttons, budget select, progress bar and its text, accuracy box, graph svg, note,
   * list of marked moves. `onPly(k)` shows the position after k plies; `onArrows(list)` draws the better move;
   * `onMarks()` asks for the move list to be marked again.
   */
  constructor(els, { onPly, onArrows, onMarks, notify }) {
    this.els = els;
    this.onPly = onPly;
    this.onArrows = onArrows;
    this.onMarks = onMarks;
    this.notify = notify;
    this.api = null;
    this.review = null;
    this.plies = 0;
    this.ply = 0;
    els.start.addEventListener('click', () => this.start());
    els.stop.addEventListener('click', () => this.send({ on: false }));
    els.list.addEventListener('click', e => {
      const ply = e.target.closest('[data-ply]')?.dataset.ply;
      if (ply !== undefined) this.onPly(Number(ply) - 1); // the position before the move, with the better move drawn
    });
    els.graph.addEventListener('click', e => {
      const box = els.graph.getBoundingClientRect();
      const ply = Math.round((e.clientX - box.left) / box.width * Math.max(this.plies, 1));
      this.onPly(Math.min(this.plies, Math.max(0, ply)));
    });
  }

  /** A new or resumed session: its review (if any) comes on the event stream. */
  setSession(api, variant) {
    this.api = api;
    this.armies = variant.armies;
    this.update({ state: 'none' });
  }

  /** Starts the review of the game at the chosen budget ("nodes:20000"). */
  start() {
    const [kind, value] = this.els.budget.value.split(':');
    return this.send({ on: true, [kind === 'movetime' ? 'movetime_ms' : 'nodes']: Number(value) });
  }

  async send(body) {
    try {
      this.update(await this.api.review(body));
    } catch (err) {
      this.notify(err.message);
    }
  }

  /** The server's review (a reply, or a `review` event); {state: "none"} when there is none. */
  update(review) {
    this.review = review.state === 'none' ? null : review;
    this.byPly = new Map((this.review?.moves ?? []).map(m => [m.ply, m]));
    const { els } = this;
    const running = review.state === 'running';
    els.stop.hidden = !running;
    els.start.textContent = this.review && !running ? 'Review again' : 'Review the game';
    els.progress.hidden = !this.review;
    const done = this.review ? review.done / review.total : 0;
    els.progress.value = done;
    els.progress.dataset.percent = String(Math.round(done * 100));
    const end = { stopped: ' · stopped', failed: ` · the engine failed: ${review.message}` }[review.state] ?? '';
    els.progressText.textContent = this.review
      ? `${review.done} / ${review.total} moves · ${budgetText(review.budget)}${end}` : '';
    els.panel.dataset.review = review.state;
    this.renderAccuracy();
    this.renderList();
    this.render();
    this.onMarks();
  }

  /** Every STATE: the game's length and the shown ply (the graph's cursor, the note and the better move). */
  setState(state) {
    this.plies = state.plies;
    this.ply = state.ply;
    this.render();
  }

  renderAccuracy() {
    const { review, armies } = this;
    this.els.accuracy.replaceChildren(...(review ? armies : []).filter(a => review.accuracy[a.letter] !== undefined)
      .map(a => {
        const counts = { inaccuracy: 0, mistake: 0, blunder: 0 };
        for (const m of review.moves) if (m.army === a.letter && m.judgement) counts[m.judgement]++;
        const value = review.accuracy[a.letter];
        return element('div', { class: 'review-army', 'data-army': a.letter, 'data-accuracy': value.toFixed(1) },
          element('span', { class: `swatch army-${a.letter}` }),
          element('span', { class: 'name' }, a.name),
          element('span', { class: 'accuracy' }, `${Math.round(value)}%`),
          element('span', { class: 'counts muted' },
            `${counts.inaccuracy} ?! · ${counts.mistake} ? · ${counts.blunder} ??`));
      }));
  }

  renderList() {
    const marked = (this.review?.moves ?? []).filter(m => m.judgement);
    const name = letter => this.armies.find(a => a.letter === letter)?.name ?? letter;
    this.els.list.replaceChildren(...marked.map(m => element('li',
      { class: `judged ${m.judgement}`, 'data-ply': m.ply, title: `Show the position before ${m.san}` },
      element('span', { class: `swatch army-${m.army}` }),
      element('span', { class: 'move' }, `${m.san}${NAG[m.judgement]}`),
      element('span', { class: 'muted' }, `${name(m.army)} · −${Math.round(m.drop * 100)}% · best `),
      element('span', { class: 'best' }, m.best_san))));
  }

  /** The graph, the note about the move played from the shown position, and its better move as an arrow. */
  render() {
    this.renderGraph();
    const next = this.byPly?.get(this.ply + 1);
    const judged = next?.judgement ? next : null;
    this.els.note.textContent = judged
      ? `${judged.san}${NAG[judged.judgement]} was ${WORDS[judged.judgement]} (−${Math.round(judged.drop * 100)}% ` +
        `of the expected score): ${judged.best_san} was better.` : '';
    const m = judged && parseMove(judged.best);
    this.onArrows(m ? [{ from: m.from, to: m.to, kind: 'best' }] : []);
  }

  /**
   * Two armies: the first army's expected score over the game, as an area. Three or four: each army's
   * expected share after each of its moves, as a line in its colour. Marked moves are dots.
   */
  renderGraph() {
    const plies = Math.max(this.plies, 1);
    const x = k => (k / plies * W).toFixed(1);
    const y = v => ((1 - v) * H).toFixed(1);
    const parts = [`<line class="zero" x1="0" x2="${W}" y1="${H / 2}" y2="${H / 2}"/>`];
    const moves = this.review?.moves ?? [];
    if (moves.length && this.armies.length === 2) {
      const first = this.armies[0].letter;
      const view = (m, v) => (m.army === first ? v : 1 - v);
      const points = [[0, view(moves[0], moves[0].before)], ...moves.map(m => [m.ply, view(m, m.after)])];
      const line = points.map(([k, v]) => `${x(k)},${y(v)}`).join(' ');
      parts.push(`<polygon class="area" points="${x(0)},${H} ${line} ${x(points.at(-1)[0])},${H}"/>`);
    } else if (moves.length) {
      for (const a of this.armies) {
        const own = moves.filter(m => m.army === a.letter);
        const line = own.map(m => `${x(m.ply)},${y(m.after)}`).join(' ');
        if (line) parts.push(`<polyline class="share-line army-${a.letter}" points="${line}"/>`);
      }
    }
    for (const m of moves.filter(m => m.judgement)) {
      const v = this.armies.length === 2 && m.army !== this.armies[0].letter ? 1 - m.after : m.after;
      parts.push(`<circle class="mark ${m.judgement}" data-ply="${m.ply}" cx="${x(m.ply)}" cy="${y(v)}" r="2.6"/>`);
    }
    parts.push(`<line class="now" x1="${x(this.ply)}" x2="${x(this.ply)}" y1="0" y2="${H}"/>`);
    this.els.graph.innerHTML = parts.join('');
  }

  /** Marks the judged moves in the move list (its entries have data-ply): a class and the NAG beside them. */
  markMoves(list) {
    for (const button of list.querySelectorAll('[data-ply]')) {
      const m = this.byPly?.get(Number(button.dataset.ply));
      if (m?.judgement) button.dataset.nag = NAG[m.judgement];
      else delete button.dataset.nag;
    }
  }
}

function budgetText(budget) {
  if (budget.nodes) return `${budget.nodes >= 1000 ? `${budget.nodes / 1000}k` : budget.nodes} nodes a search`;
  return `${budget.movetime_ms} ms a search`;
}
