// The move list: one row per round, one column per army; click a move or use the buttons to step through.
import { resultWords } from './result.js';

export class MoveList {
  /** `onPly(k)` asks to show the position after k plies. */
  constructor(list, nav, { onPly }) {
    this.list = list;
    this.onPly = onPly;
    this.ply = 0;
    this.plies = 0;
    this.buttons = Object.fromEntries([...nav.querySelectorAll('[data-nav]')].map(b => [b.dataset.nav, b]));
    nav.addEventListener('click', e => {
      const which = e.target.closest('[data-nav]')?.dataset.nav;
      if (which) this.go(which);
    });
    list.addEventListener('click', e => {
      const ply = e.target.closest('[data-ply]')?.dataset.ply;
      if (ply !== undefined) this.onPly(Number(ply));
    });
  }

  /** Steps: first, back, forward, last. */
  go(which) {
    const target = { first: 0, back: this.ply - 1, forward: this.ply + 1, last: this.plies }[which];
    if (target !== undefined && target >= 0 && target <= this.plies && target !== this.ply) this.onPly(target);
  }

  render(state, armies) {
    this.ply = state.ply;
    this.plies = state.plies;
    const column = new Map(armies.map((a, i) => [a.letter, i]));
    const names = new Map(armies.map(a => [a.letter, a.name]));
    const n = armies.length;
    this.list.style.setProperty('--armies', n);
    const cells = [];
    // rounds are numbered on from the starting FEN's move number
    const first = Number(state.start.trim().split(/\s+/).at(-1)) || 1;
    let round = 0;
    let col = 0; // the next free column of the current row
    state.moves.forEach((m, i) => {
      const c = column.get(m.army) ?? 0;
      if (round === 0 || c < col) { // this army already moved in the row: a new round
        if (round) cells.push('<span></span>'.repeat(n - col));
        round++;
        cells.push(`<span class="num">${first + round - 1}</span>`);
        col = 0;
      }
      cells.push('<span></span>'.repeat(c - col));
      const current = i + 1 === state.ply ? ' current' : '';
      const left = (m.eliminated || []).map(a => `<span class="out swatch army-${a}" title="${names.get(a)} leaves the board"></span>`).join('');
      cells.push(`<button type="button" class="move${current}" data-move="${m.uci}" data-ply="${i + 1}" title="${m.uci}">${m.san}${left}</button>`);
      col = c + 1;
    });
    if (state.result) cells.push(`<div class="result-line">${resultWords(state, armies).headline}</div>`);
    this.list.innerHTML = cells.join('');
    this.list.querySelector('.current')?.scrollIntoView({ block: 'nearest' });
    this.buttons.first.disabled = this.buttons.back.disabled = state.ply === 0;
    this.buttons.forward.disabled = this.buttons.last.disabled = state.ply === state.plies;
  }
}
