// Engine scores: their text, the first army's point of view, and a share of the points for bars and graphs.

/** "+1.25", "-0.40", "#3", "-#2". */
export function scoreText(score) {
  if (!score) return '';
  if (score.mate !== undefined) return `${score.mate < 0 ? '-' : ''}#${Math.abs(score.mate)}`;
  const pawns = score.cp / 100;
  return `${pawns > 0 ? '+' : ''}${pawns.toFixed(2)}`;
}

/**
 * Engines score for the army to move; with two armies the page shows every score for the first
 * army (as chess GUIs do for White). With three there is no single other side, so the mover's stays.
 */
export function forFirstArmy(score, turn, armies) {
  if (!score || armies.length !== 2 || turn === armies[0].letter) return score;
  return score.mate !== undefined ? { mate: -score.mate } : { cp: -score.cp };
}

/**
 * An army's expected share of the points (gui/shares.c) as -1..1 for bars and graphs: an even share
 * (one in two, three or four) on the middle, none and all at the ends.
 */
export function shareLean(share, armies) {
  const even = 1 / armies;
  return share < even ? share / even - 1 : (share - even) / (1 - even);
}
