// Premoves against an engine: a move made while the engine thinks is shown highlighted, and played as
// soon as the person is to move if it is legal then; otherwise it is dropped.
import { targetsFrom } from './moves.js';
import { actingArmy } from './flow.js';

export class Premove {
  /** `play(uci)` makes a move; `changed()` redraws the board. */
  constructor({ play, changed }) {
    Object.assign(this, { play, changed });
    this.move = null; // [from, to]
  }

  /** The army whose pieces a person may premove in this STATE (an engine is to move), or null. */
  static army(state) {
    if (state.result || state.ply !== state.plies || state.legal.length) return null;
    const mover = state.seats.find(s => s.army === state.turn);
    return mover?.kind === 'engine' ? actingArmy(state) : null;
  }

  /** Sets the premove (from, to), or cancels it (no arguments). */
  set(from = null, to = null) {
    this.move = from && to ? [from, to] : null;
    this.changed();
  }

  /** For the board: the army that may premove and the premove's cells. */
  view(state) {
    return { army: Premove.army(state), move: this.move ?? [] };
  }

  /**
   * A new STATE, before the board shows it: on the person's turn the premove is played if legal, else
   * dropped; returns the words for a dropped one.
   */
  onState(state) {
    if (!this.move || (!state.result && !state.legal.length)) return '';
    const [from, to] = this.move;
    const ucis = targetsFrom(state.legal, from).get(to);
    this.move = null;
    if (state.result) return '';
    if (ucis) this.play(ucis.find(u => u.endsWith('q')) ?? ucis[0]);
    return ucis ? '' : `Premove ${from}-${to} dropped: it is not legal now`;
  }
}
