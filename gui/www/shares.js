// Three and four armies: each army's expected share of the points, from the engines' scores, as a bar per army.

const SLOPE = 0.00368208; // lichess's winning-chances slope per centipawn (score.js's winChance)

/**
 * Each army's share of the points (letter -> 0..1) from its latest score, each from its own view
 * (its evaluation minus the mean of the other armies on the board): a softmax over the armies'
 * evaluations, which the scores give up to a common offset, at lichess's slope. With two armies it is
 * lichess's curve; the pessimism of a multi-player search (the others play against the mover), common
 * to every army, cancels. An army without a score counts as average; a mate decides at once.
 */
export function expectedShares(scores, onBoard) {
  const shares = new Map(onBoard.map(a => [a, 0]));
  const winner = onBoard.find(a => scores.get(a)?.mate > 0);
  if (winner) return shares.set(winner, 1);
  const alive = onBoard.filter(a => !(scores.get(a)?.mate < 0));
  const known = alive.filter(a => scores.has(a)).map(a => scores.get(a).cp);
  const mean = known.length ? known.reduce((x, y) => x + y, 0) / known.length : 0;
  const n = alive.length;
  // a score s is the army's evaluation minus the others' mean: (n - 1) / n of its lead over the average
  const weight = a => Math.exp(SLOPE * (n - 1) / n * ((scores.get(a)?.cp ?? mean) - mean));
  const total = alive.reduce((sum, a) => sum + weight(a), 0);
  for (const a of alive) shares.set(a, weight(a) / total);
  return shares;
}

export class Shares {
  constructor(element) {
    this.element = element;
    this.scores = new Map();
  }

  /** A new game: no scores yet; the bars are shown for three and four armies only. */
  reset(variant) {
    this.armies = variant.armies;
    this.scores.clear();
    this.element.hidden = this.armies.length < 3;
    this.element.replaceChildren(...this.armies.map(army => {
      const row = document.createElement('div');
      row.className = 'share';
      row.dataset.army = army.letter;
      row.title = `${army.name}'s expected share of the points`;
      const swatch = document.createElement('span');
      swatch.className = `swatch army-${army.letter}`;
      const name = document.createElement('span');
      name.className = 'name';
      name.textContent = army.name;
      const bar = document.createElement('span');
      bar.className = 'bar';
      const fill = document.createElement('span');
      fill.className = `fill swatch army-${army.letter}`;
      bar.append(fill);
      const value = document.createElement('span');
      value.className = 'value';
      row.append(swatch, name, bar, value);
      return row;
    }));
  }

  /** An army's latest score, from its own view ({cp} or {mate}). */
  record(army, score) {
    if (score) this.scores.set(army, score);
  }

  /** The armies on the board now get their shares; the others none. */
  render(eliminated = []) {
    if (!this.armies || this.armies.length < 3) return null;
    const onBoard = this.armies.map(a => a.letter).filter(a => !eliminated.includes(a));
    const shares = expectedShares(this.scores, onBoard);
    for (const row of this.element.children) {
      const share = shares.get(row.dataset.army) ?? 0;
      row.querySelector('.fill').style.width = `${(share * 100).toFixed(1)}%`;
      row.querySelector('.value').textContent = `${Math.round(share * 100)}%`;
      row.dataset.share = share.toFixed(4);
    }
    return shares;
  }
}
