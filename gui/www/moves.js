// UCI move text: splitting a move into its cells and suffix, and grouping legal moves by their cells.

const MOVE = /^([a-z]\d+)([a-z]\d+)(.*)$/;

/** Splits "f10f11q" into {from: "f10", to: "f11", suffix: "q"}, or returns null. */
export function parseMove(uci) {
  const m = MOVE.exec(uci);
  return m ? { from: m[1], to: m[2], suffix: m[3] } : null;
}

/** The legal moves starting on `from` (every suffix), as a map to-cell -> [uci...]. */
export function targetsFrom(legal, from) {
  const targets = new Map();
  for (const uci of legal) {
    const m = parseMove(uci);
    if (m && m.from === from) {
      if (!targets.has(m.to)) targets.set(m.to, []);
      targets.get(m.to).push(uci);
    }
  }
  return targets;
}

/** The set of cells some legal move starts on. */
export function movableCells(legal) {
  return new Set(legal.map(uci => parseMove(uci)?.from));
}

/** True when some legal move starts on `cell`. */
export function canMoveFrom(legal, cell) {
  return legal.some(uci => parseMove(uci)?.from === cell);
}
