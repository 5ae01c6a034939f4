// The new-game form: who sits at each army's seat (human or an engine, with its Elo), clock and limits.
import { element } from './dom.js';

export class NewGameForm {
  /** `onStart()` is called when the form is submitted. */
  constructor(form, { onStart }) {
    this.form = form;
    this.seats = form.querySelector('.seats');
    form.addEventListener('submit', e => {
      e.preventDefault();
      onStart();
    });
  }

  /** One row per army; the first army's seat is the human's by default, the others the engine's. */
  setVariant(variant, engines) {
    const old = [...this.seats.querySelectorAll('.seat')].map(row => ({
      kind: row.querySelector('select').value, elo: row.querySelector('input').value,
    }));
    const keep = old.length === variant.armies.length;
    const choices = [['human', 'Human'], ...engines.map(e => [`engine:${e.id}`, e.name])];
    this.seats.replaceChildren(...variant.armies.map((army, i) => {
      const kind = keep ? old[i].kind : (i === 0 ? 'human' : 'engine:0');
      // engines' names as text: a program's name is not markup
      const options = choices.map(([value, label]) => element('option', { value, selected: value === kind }, label));
      return element('div', { class: 'seat', 'data-army': army.letter }, element('span', {}, army.name),
        element('select', { name: `seat-${i}`, 'aria-label': `${army.name} player` }, ...options),
        element('input', { name: `elo-${i}`, type: 'number', min: 500, max: 3000, step: 50, placeholder: 'full Elo',
          value: keep ? old[i].elo : '', 'aria-label': `${army.name} Elo` }));
    }));
  }

  /** The seats, clock and limits of POST /api/session. */
  spec() {
    const seats = [...this.seats.querySelectorAll('.seat')].map(row => {
      const kind = row.querySelector('select').value;
      const elo = row.querySelector('input').value;
      return kind === 'human'
        ? { kind: 'human' }
        : { kind: 'engine', engine: Number(kind.split(':')[1]), elo: elo ? Number(elo) : null };
    });
    const f = this.form.elements;
    const [base, inc] = f.clock.value.split('+').map(Number);
    const clock = f.clock.value ? { base_ms: base, inc_ms: inc } : null;
    const limits = f['limit-kind'].value ? { [f['limit-kind'].value]: Number(f['limit-value'].value) } : null;
    return { seats, clock, limits };
  }
}
