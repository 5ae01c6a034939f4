// Engine options: every change in the form is sent to the chosen engine of the session at once.
import { element } from './dom.js';

export class OptionsForm {
  /** `send(engine, name, value)` sets one option and may reject with the server's error line. */
  constructor(form, send) {
    this.form = form;
    this.message = form.querySelector('.options-msg');
    form.addEventListener('submit', e => e.preventDefault());
    form.addEventListener('change', async e => {
      const input = e.target;
      if (input.name === 'engine') return;
      const value = input.type === 'checkbox' ? String(input.checked) : input.value;
      try {
        await send(Number(form.elements.engine.value), input.name, value);
        this.message.textContent = `${input.name} = ${value}`;
      } catch (err) {
        this.message.textContent = err.message;
      }
    });
  }

  setEngines(engines) {
    this.form.elements.engine.replaceChildren(...engines.map(e => element('option', { value: e.id }, e.name)));
  }
}
