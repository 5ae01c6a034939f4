// The result in words ("White wins by checkmate") and the dialog that announces it with each army's points.

const HOW = {
  checkmate: 'by checkmate', stalemate: 'by stalemate', repetition: 'by threefold repetition',
  '100-ply rule': 'by the 100-ply rule', 'last army': 'as the last army on the board', time: 'on time',
  resignation: 'by resignation', agreement: 'by agreement',
};
const CAUSE = {
  stalemate: 'Stalemate', repetition: 'Threefold repetition', '100-ply rule': 'The 100-ply rule',
  agreement: 'Draw agreed',
};
const FRACTIONS = { 0.25: '¼', 0.5: '½', 0.75: '¾' };

/** "1", "0", "½", "⅓"-like text of a share of the points. */
export function pointsText(points) {
  if (Number.isInteger(points)) return String(points);
  if (FRACTIONS[points]) return FRACTIONS[points];
  for (let den = 3; den <= 12; den++) {
    const num = Math.round(points * den);
    if (Math.abs(num / den - points) < 1e-9) return `${num}/${den}`;
  }
  return points.toFixed(2);
}

/** "White", "White and Black", "Red, White and Black". */
function namesText(names) {
  return names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/**
 * The result of a STATE in words: {headline, detail}. `armies` are the variant's; the armies that left
 * the board during the game are named in the detail.
 */
export function resultWords(state, armies) {
  const { result } = state;
  const name = letter => armies.find(a => a.letter === letter)?.name ?? letter;
  if (result.reason === 'aborted' || !result.points) return { headline: 'Game aborted', detail: '' };
  const left = [...new Set(state.moves.flatMap(m => m.eliminated || []))];
  const detail = left.length ? `${namesText(left.map(name))} ${left.length > 1 ? 'are' : 'is'} eliminated.` : '';
  const points = Object.entries(result.points);
  const best = Math.max(...points.map(([, p]) => p));
  const winners = points.filter(([, p]) => p === best).map(([a]) => name(a));
  const how = HOW[result.reason] ?? '';
  if (result.reason === 'time') {
    const loser = points.find(([a, p]) => p === 0 && !left.includes(a));
    const lost = loser ? `${name(loser[0])} loses on time` : 'A flag fell';
    return { headline: winners.length === 1 ? `${winners[0]} wins on time` : `${lost}; ${namesText(winners)} share the points`,
      detail };
  }
  if (result.reason === 'resignation' && winners.length > 1) {
    return { headline: `${name(result.army)} resigns; ${namesText(winners)} share the points`, detail };
  }
  if (winners.length === 1 && best === 1) return { headline: `${winners[0]} wins ${how}`, detail };
  if (winners.length === 1) { // a stalemate that the variant scores unevenly
    const text = points.map(([a, p]) => `${name(a)} ${pointsText(p)}`).join(', ');
    return { headline: `${winners[0]} wins ${how} (${text})`, detail };
  }
  const draw = winners.length === points.length;
  return {
    headline: draw ? `Draw ${how}` : `${CAUSE[result.reason] ?? 'The end'}: ${namesText(winners)} share the points`,
    detail,
  };
}

/** The dialog shown when a game ends: the words, each army's points, and a rematch (`onRematch(swap)`). */
export class ResultDialog {
  constructor(dialog, { onRematch = () => {} } = {}) {
    this.dialog = dialog;
    dialog.querySelector('.close').addEventListener('click', () => dialog.close());
    for (const [selector, swap] of [['.rematch', false], ['.swap', true]]) {
      dialog.querySelector(selector).addEventListener('click', () => {
        dialog.close();
        onRematch(swap);
      });
    }
  }

  show(state, armies) {
    const { headline, detail } = resultWords(state, armies);
    this.dialog.querySelector('.headline').textContent = headline;
    this.dialog.querySelector('.detail').textContent = detail;
    const list = this.dialog.querySelector('.points');
    const points = state.result.points;
    list.hidden = !points;
    list.replaceChildren(...armies.filter(() => points).map(army => {
      const item = document.createElement('li');
      item.dataset.army = army.letter;
      const swatch = document.createElement('span');
      swatch.className = `swatch army-${army.letter}`;
      const label = document.createElement('span');
      label.textContent = army.name;
      const value = document.createElement('b');
      value.textContent = pointsText(points[army.letter] ?? 0);
      item.append(swatch, label, value);
      return item;
    }));
    if (!this.dialog.open) this.dialog.showModal();
  }

  close() {
    if (this.dialog.open) this.dialog.close();
  }
}
