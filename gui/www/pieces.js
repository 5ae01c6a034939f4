// Piece drawings: SVG shapes for the orthodox pieces, a lettered disc for every fairy piece.

// Shapes in a 100-unit box centred on 0,0; "body" is filled in the army's colour, "line" is drawn
// in its detail colour. Orthodox pieces are recognised by their name, as the variant file gives it.
const SHAPES = {
  pawn: {
    body: 'M-20 38H20V31Q20 25 13 23Q6 17 8 6H12V0H7A14 14 0 1 0-7 0H-12V6H-8Q-6 17-13 23Q-20 25-20 31Z',
  },
  rook: {
    body: 'M-24 38H24V29H18L15-6L22-12V-34H12V-26H5V-34H-5V-26H-12V-34H-22V-12L-15-6L-18 29H-24Z',
    line: 'M-15-6H15M-18 29H18',
  },
  bishop: {
    body: 'M-24 38H24V30H11L10 19Q24 5 14-13Q8-25 0-31Q-8-25-14-13Q-24 5-10 19L-11 30H-24ZM0-44A6 6 0 1 0 0.1-44Z',
    line: 'M4-19L-6-4M-10 19H10',
  },
  knight: {
    body: 'M-18 38H28Q31 6 21-14Q13-31-3-34L-7-43L-12-32Q-22-27-28-13L-35 0Q-37 7-30 9L-25 7Q-21 3-13 1Q-5-1-3 3Q-14 13-18 25Z',
    line: 'M-13-17L-8-19',
  },
  queen: {
    body: 'M-24 38H24V30L22 20L30-18L14 2L15-26L4-1L0-30L-4-1L-15-26L-14 2L-30-18L-22 20L-24 30Z' +
      'M30-28A5 5 0 1 0 30.1-28ZM15-36A5 5 0 1 0 15.1-36ZM0-40A5 5 0 1 0 0.1-40ZM-15-36A5 5 0 1 0-14.9-36ZM-30-28A5 5 0 1 0-29.9-28Z',
    line: 'M-22 20H22',
  },
  king: {
    body: 'M-24 38H24V30L22 20Q35 8 30-6Q24-18 10-12Q4-10 0-4Q-4-10-10-12Q-24-18-30-6Q-35 8-22 20L-24 30Z' +
      'M-3-8V-24H-10V-31H-3V-42H3V-31H10V-24H3V-8Z',
    line: 'M-22 20H22',
  },
};

/** The letters a disc shows for a piece text: "rP" -> "P", "(ru)" -> "RU". */
function discLetters(type) {
  return type.replace(/[()]/g, '').toUpperCase();
}

/** The piece type part of a piece text: "rP" -> "P" in three- and four-player games, else the text itself. */
export function pieceType(text, players) {
  return players > 2 ? text.slice(1) : text;
}

/** The army letter of a piece text: its first letter with three or four players, its case with two. */
export function pieceArmy(text, players) {
  if (players > 2) return text[0];
  const letter = text.replace(/[()]/g, '')[0];
  return letter === letter.toUpperCase() ? 'w' : 'b';
}

/**
 * SVG markup for one piece, centred on 0,0 and 100 units tall.
 * `info` is the variant's entry for the type ({name, royal, pawn}) or undefined for an unknown type.
 */
export function pieceMarkup(type, info) {
  const shape = info && SHAPES[info.name];
  if (shape) {
    return `<path class="body" d="${shape.body}"/>` + (shape.line ? `<path class="line" d="${shape.line}"/>` : '');
  }
  const letters = discLetters(type);
  const r = info?.pawn ? 28 : 38; // pawns are smaller so the front line reads at a glance
  const size = letters.length > 1 ? 30 : (info?.pawn ? 34 : 46);
  const ring = info?.royal ? `<circle class="line ring" r="${r - 7}"/>` : '';
  return `<circle class="body" r="${r}"/>${ring}` +
    `<text class="letter" y="${size * 0.36}" font-size="${size}">${letters}</text>`;
}

/**
 * Finds the variant's entry for a piece type by its letter, whatever its case; with different armies
 * (four players) among the pieces of the army of `colour` (a colour letter), as one letter may name
 * different pieces in two armies.
 */
export function pieceInfo(variant, type, colour) {
  const up = type.toUpperCase();
  const army = variant.armies.find(a => a.letter === colour)?.army;
  const mine = p => army === undefined || p.army === undefined || p.army === army;
  return variant.pieces.find(p => p.letter.toUpperCase() === up && mine(p));
}

/** A small standalone SVG of a piece (picker, piece guide). */
export function pieceIcon(text, variant) {
  const type = pieceType(text, variant.players);
  const army = pieceArmy(text, variant.players);
  return `<svg viewBox="-50 -50 100 100" aria-hidden="true"><g class="piece army-${army}">` +
    `${pieceMarkup(type, pieceInfo(variant, type, army))}</g></svg>`;
}

/** The piece text an army writes for a type letter: "Q" -> "q" for Black, "rQ" with three or four players. */
export function armyPiece(letter, army, players) {
  if (players > 2) return army + letter.toUpperCase();
  return army === 'w' ? letter.toUpperCase() : letter.toLowerCase();
}
