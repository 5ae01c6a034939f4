// The player cards: each army's seat, who plays it, its engine's status and its clock.
import { Clock, formatClock } from './clock.js';
import { element } from './dom.js';

/** The engine statuses that need the player: the engine must be restarted. */
export const TROUBLE = new Set(['crashed', 'hung', 'failed']);

export class Players {
  constructor(element) {
    this.element = element;
    this.clock = new Clock();
    setInterval(() => this.tick(), 100);
  }

  /** `engines` are the server's engines ({id, name}), to name the engine seats. */
  render(state, variant, engines) {
    this.clock.set(state.clocks);
    const eliminated = new Set(state.eliminated || []);
    this.element.replaceChildren(...variant.armies.map((army, i) => {
      const seat = state.seats?.[i] || {};
      const status = seat.status;
      const classes = ['player'];
      if (state.turn === army.letter && !state.result) classes.push('to-move');
      if (eliminated.has(army.letter)) classes.push('eliminated');
      // the engine's name is its program's, which the page must show as text
      const label = seat.kind === 'engine'
        ? `${engines.find(e => e.id === seat.engine)?.name ?? 'Engine'}${seat.elo ? ` ${seat.elo}` : ''}` : 'Human';
      const note = TROUBLE.has(status) && seat.kind === 'engine'
        ? [element('small', { class: 'trouble' }, status)] : [];
      return element('div', { class: classes.join(' '), 'data-army': army.letter },
        element('span', { class: `swatch army-${army.letter}` }),
        element('span', { class: `who${status === 'thinking' ? ' thinking' : ''}` }, army.name,
          element('small', { class: 'label' }, label), ...note, element('small', { class: 'engine-line' })),
        element('span', { class: 'clock', hidden: !state.clocks }));
    }));
    this.tick();
  }

  /** An `engine` event between two STATEs: thinking / ok / crashed / hung / failed for one seat. */
  setEngineStatus(seat, status) {
    const who = this.element.children[seat]?.querySelector('.who');
    who?.classList.toggle('thinking', status === 'thinking');
  }

  /** What an engine seat's search says now ("depth 12 · +0.35"). */
  setThinking(seat, text) {
    const line = this.element.children[seat]?.querySelector('.engine-line');
    if (line) line.textContent = text;
  }

  tick() {
    for (const card of this.element.children) {
      const clock = card.querySelector('.clock');
      const ms = this.clock.remaining(card.dataset.army);
      if (ms === null || !clock) continue;
      clock.textContent = formatClock(ms);
      clock.classList.toggle('running', this.clock.running() === card.dataset.army);
      clock.classList.toggle('low', ms < 10000);
    }
  }
}
