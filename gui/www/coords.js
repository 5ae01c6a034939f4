// Coordinates along the board's edges, from the cells' names alone (file letters, rank digits), so
// that every board shape is labelled by one rule. The cells of a file in rank order, and of a rank in
// file order, form a line. All ranks are labelled at the same end of their lines, the one furthest
// left on the screen for most of them; all files at the end where fewer ranks are labelled, else the
// one lowest on the screen for most, so that files and ranks keep to edges of their own. A label
// stands one cell's step beyond its end, on a spot no cell or other label takes; when that is taken,
// around the end, then at the other end. A line that touches the edge nowhere (Flatstar's ranks 5
// and 6) has no label.

const NAME = /^([a-z]+)(\d+)$/i;
// Twelfths of a turn: the ways out around an end cell when the line's own way out is taken.
const TURNS = Array.from({ length: 12 }, (_, k) => [Math.cos(k * Math.PI / 6), Math.sin(k * Math.PI / 6)]);

/**
 * Labels [{kind: 'file'|'rank', text, x, y}] in board units for `cells` ({name, x, y}) whose
 * neighbours' centres are `spacing` apart, on a board turned `degrees` clockwise on the screen.
 */
export function coordinateLabels(cells, spacing, degrees) {
  const a = degrees * Math.PI / 180;
  const screenX = p => p.x * Math.cos(a) - p.y * Math.sin(a);
  const screenY = p => p.x * Math.sin(a) + p.y * Math.cos(a);
  const named = cells.map(c => [c, NAME.exec(c.name)]).filter(([, m]) => m)
    .map(([c, m]) => ({ x: c.x, y: c.y, file: m[1], rank: Number(m[2]) }));
  // the cells by squares of a step's side: only those of the nine squares around a spot can cover it
  const square = (i, j) => i * 65536 + j;
  const grid = new Map();
  for (const c of named) {
    const at = square(Math.floor(c.x / spacing), Math.floor(c.y / spacing));
    grid.set(at, [...grid.get(at) || [], c]);
  }
  const clear = p => {
    const [i0, j0] = [Math.floor(p.x / spacing), Math.floor(p.y / spacing)];
    for (let i = i0 - 1; i <= i0 + 1; i++) {
      for (let j = j0 - 1; j <= j0 + 1; j++) {
        for (const c of grid.get(square(i, j)) || []) {
          if (Math.hypot(c.x - p.x, c.y - p.y) < spacing * 0.7) return false;
        }
      }
    }
    return true;
  };
  const kinds = [
    { kind: 'rank', key: c => c.rank, order: c => c.file.padStart(4), before: (p, q) => screenX(p) - screenX(q) },
    { kind: 'file', key: c => c.file, order: c => c.rank, before: (p, q) => screenY(q) - screenY(p) },
  ];
  const wanted = []; // each line's spots off the board, best first
  const taken = new Set(); // the cells at which lines are labelled
  for (const { kind, key, order, before } of kinds) {
    const lines = new Map();
    for (const c of named) lines.set(key(c), [...lines.get(key(c)) || [], c]);
    for (const line of lines.values()) line.sort((p, q) => order(p) < order(q) ? -1 : 1);
    // the end at which fewer lines of the kind before are labelled, else the one that more lines prefer
    const shared = end => [...lines.values()].filter(line => taken.has(end(line))).length;
    const votes = [...lines.values()].reduce((n, line) => n + Math.sign(before(line[0], line.at(-1))), 0);
    const useLast = (shared(line => line[0]) - shared(line => line.at(-1)) || votes) > 0;
    const side = useLast ? line => line.toReversed() : line => line;
    for (const [text, line] of lines) {
      taken.add(side(line)[0]);
      const [end, other] = [side(line), side(line).toReversed()];
      const spots = [wayOut(end, spacing), around(end[0]), wayOut(other, spacing), around(other[0])]
        .flatMap(ways => ways.map(([from, dx, dy]) => ({ x: from.x + dx * spacing, y: from.y + dy * spacing }))
          .filter(clear).sort(before));
      wanted.push({ kind, text: String(text), spots });
    }
  }
  // the lines with the fewest spots choose first, so that a spot two lines want goes to the one that needs it
  const labels = [];
  for (const { kind, text, spots } of wanted.sort((p, q) => p.spots.length - q.spots.length)) {
    const spot = spots.find(p => labels.every(l => Math.hypot(l.x - p.x, l.y - p.y) > spacing * 0.6));
    if (spot) labels.push({ kind, text, x: spot.x, y: spot.y });
  }
  return labels;
}

/** Beyond the line's first cell, away from the next one when they touch. */
function wayOut([end, next], spacing) {
  const len = next ? Math.hypot(end.x - next.x, end.y - next.y) : Infinity;
  return len < spacing * 1.2 ? [[end, (end.x - next.x) / len, (end.y - next.y) / len]] : [];
}

/** Every twelfth of a turn around a cell. */
const around = cell => TURNS.map(([dx, dy]) => [cell, dx, dy]);
