// The game flow beside the moves: resign (with a second click to confirm), offer a draw, answer one.
// Engines answer an offer at once by their last score; a person answers with the Accept/Decline bar.

const CONFIRM_MS = 3000;

/**
 * The armies on the board that people play at this page (`plays(state, seat)`: all of them at one
 * screen; in a game served to the network, the page's own seat).
 */
const people = (state, plays) => state.seats.filter((s, k) => s.kind === 'human' &&
  !state.eliminated.includes(s.army) && plays(state, k)).map(s => s.army);

/** The army a person resigns or offers for: the one to move if a person plays it, else the first person's. */
export function actingArmy(state, plays = () => true) {
  const mine = people(state, plays);
  return mine.includes(state.turn) ? state.turn : mine[0] ?? null;
}

export class GameFlow {
  /**
   * `elements`: the resign and draw buttons, the offer bar (.text, .accept, .decline) and the message
   * line; `act(call)` runs a session call that answers with a STATE; `armyName(letter)`; `plays(state,
   * seat)` whether this page acts for the seat's army.
   */
  constructor({ resign, draw, offer, message }, { session, act, armyName, plays }) {
    Object.assign(this, { resign, draw, offer, message, session, act, armyName, plays });
    this.state = null;
    resign.addEventListener('click', () => this.resignClicked());
    draw.addEventListener('click', () => this.answer(actingArmy(this.state, this.plays), true));
    offer.querySelector('.accept').addEventListener('click', () => this.answer(this.answering(), true));
    offer.querySelector('.decline').addEventListener('click', () => this.answer(this.answering(), false));
  }

  /** The person at this page who answers a standing offer: one on the board that has not agreed yet. */
  answering() {
    const { offers } = this.state.draw;
    return people(this.state, this.plays).find(a => !offers.includes(a)) ?? null;
  }

  answer(army, accept) {
    if (army) this.act(() => this.session().draw(army, accept));
  }

  resignClicked() {
    if (!this.resign.classList.contains('confirm')) {
      this.resign.classList.add('confirm');
      this.resign.textContent = 'Sure?';
      this.resign.title = 'Click again to resign';
      clearTimeout(this.timer);
      this.timer = setTimeout(() => this.unconfirm(), CONFIRM_MS);
      return;
    }
    this.unconfirm();
    const army = actingArmy(this.state, this.plays);
    if (army) this.act(() => this.session().resign(army));
  }

  unconfirm() {
    clearTimeout(this.timer);
    this.resign.classList.remove('confirm');
    this.resign.textContent = '⚑';
    this.resign.title = 'Resign (click twice)';
  }

  render(state) {
    this.state = state;
    const army = actingArmy(state, this.plays);
    const playing = !state.result && army !== null;
    const { offers, message } = state.draw ?? { offers: [], message: '' };
    this.resign.hidden = this.draw.hidden = !playing;
    if (!playing) this.unconfirm();
    this.draw.disabled = offers.includes(army);
    const answerer = playing && offers.length ? this.answering() : null;
    this.offer.hidden = !answerer;
    if (answerer) {
      const from = offers.map(this.armyName).join(' and ');
      this.offer.querySelector('.text').textContent = `${from} ${offers.length > 1 ? 'offer' : 'offers'} a draw` +
        (people(state, this.plays).length > 1 ? ` (to ${this.armyName(answerer)})` : '');
    }
    this.message.textContent = message;
    this.message.hidden = !message || Boolean(answerer);
  }
}
