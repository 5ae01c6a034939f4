// Engine scores: their text, the first army's point of view, and a bounded value for bars and graphs.

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

/** A score as -1..1: lichess's winning-chances curve, mates at the ends. */
export function winChance(score) {
  if (!score) return 0;
  if (score.mate !== undefined) return score.mate > 0 ? 1 : -1;
  return 2 / (1 + Math.exp(-0.00368208 * score.cp)) - 1;
}
