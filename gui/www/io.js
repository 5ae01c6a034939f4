// FEN and PGN in and out: the shown position's FEN, loading a FEN, the game's PGN, loading a PGN.

export class GameIO {
  /** `actions`: loadFen(fen), loadPgn(text) -> STATE, getPgn() -> text; each may reject with an error line. */
  constructor({ fenForm, pgnForm, error }, actions) {
    this.fenInput = fenForm.elements.fen;
    this.pgnText = pgnForm.elements.pgn;
    this.error = error;
    this.variantName = '';
    fenForm.addEventListener('submit', e => {
      e.preventDefault();
      this.run(() => actions.loadFen(this.fenInput.value.trim()));
    });
    fenForm.querySelector('#fen-copy').addEventListener('click', () => {
      navigator.clipboard?.writeText(this.fenInput.value).catch(() => this.fenInput.select());
    });
    pgnForm.addEventListener('submit', e => {
      e.preventDefault();
      this.run(() => actions.loadPgn(this.pgnText.value));
    });
    pgnForm.querySelector('#pgn-show').addEventListener('click', () =>
      this.run(async () => { this.pgnText.value = await actions.getPgn(); }));
    pgnForm.querySelector('#pgn-save').addEventListener('click', () =>
      this.run(async () => download(`${this.variantName || 'game'}.pgn`, await actions.getPgn())));
  }

  /** The shown position's FEN, unless the player is typing one. */
  setState(state) {
    this.variantName = state.variant;
    if (document.activeElement !== this.fenInput) this.fenInput.value = state.fen;
  }

  /** Runs an action; its error, or the note its STATE carries (a FEN loaded as another variant), is shown here. */
  async run(action) {
    this.error.textContent = '';
    try {
      this.error.textContent = (await action())?.notice ?? '';
    } catch (err) {
      this.error.textContent = err.message;
    }
  }
}

function download(name, text) {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(new Blob([text], { type: 'application/x-chess-pgn' }));
  a.download = name;
  a.click();
  URL.revokeObjectURL(a.href);
}
