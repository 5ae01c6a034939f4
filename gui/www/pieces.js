// Piece drawings: the glyph of the piece's name (glyphs.js), or a lettered disc for a piece it does not know.
import { GLYPHS } from './glyphs.js';

// A compound's parts: each drawn this much smaller, this far left and right of the centre.
const PART_SCALE = 0.66, PART_OFFSET = 16;

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
  const glyph = info && glyphMarkup(info.name);
  if (glyph) return glyph;
  const letters = discLetters(type);
  const r = info?.pawn ? 28 : 38; // pawns are smaller so the front line reads at a glance
  const size = letters.length > 1 ? 30 : (info?.pawn ? 34 : 46);
  const ring = info?.royal ? `<circle class="line ring" r="${r - 7}"/>` : '';
  return `<circle class="body" r="${r}"/>${ring}` +
    `<text class="letter" y="${size * 0.36}" font-size="${size}">${letters}</text>`;
}

/** The markup of a glyph by name, following its aliases and parts; undefined for a name not in GLYPHS. */
export function glyphMarkup(name) {
  let glyph = GLYPHS[name];
  while (typeof glyph === 'string') glyph = GLYPHS[glyph];
  if (Array.isArray(glyph)) {
    // the first part behind, the second in front: one piece made of two
    return glyph.map((part, i) => `<g transform="translate(${(2 * i - 1) * PART_OFFSET} 8) scale(${PART_SCALE})">` +
      `${glyphMarkup(part)}</g>`).join('');
  }
  if (!glyph) return undefined;
  return `<path class="body" d="${glyph.body}"/>` + (glyph.line ? `<path class="line" d="${glyph.line}"/>` : '');
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
