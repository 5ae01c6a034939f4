// The piece guide: each piece type of the variant, and where it moves and captures on an empty board.
import { Board } from './board.js';
import { getGuide } from './api.js';
import { pieceIcon, armyPiece } from './pieces.js';

export class Guide {
  constructor(piecesElement, boardElement) {
    this.piecesElement = piecesElement;
    this.board = new Board(boardElement, { onCell: cell => this.show(this.letter, cell), cellAttribute: 'data-guide-cell' });
    this.letter = null;
    piecesElement.addEventListener('click', e => {
      const letter = e.target.closest('[data-guide]')?.dataset.guide;
      if (letter) this.show(letter);
    });
  }

  setVariant(variant) {
    this.variant = variant;
    this.letter = null;
    this.board.setVariant(variant);
    const army = variant.armies[0].letter;
    this.piecesElement.innerHTML = variant.pieces.map(p =>
      `<button type="button" data-guide="${p.letter}" title="${p.name}">` +
      `${pieceIcon(armyPiece(p.letter, army, variant.players), variant)}${p.name}</button>`).join('');
  }

  /** Shows a piece type at a cell (the server's default, the centre, when none is given). */
  async show(letter, cell) {
    if (!letter) return;
    const variant = this.variant;
    const guide = await getGuide(variant.name, letter, cell);
    if (variant !== this.variant) return; // the variant changed while the guide was asked
    this.letter = letter;
    for (const b of this.piecesElement.children) b.classList.toggle('active', b.dataset.guide === letter);
    const piece = armyPiece(letter, variant.armies[0].letter, variant.players);
    this.board.setPosition({ pieces: [{ cell: guide.cell, piece }] });
    this.board.setMarks({ cell: guide.cell, moves: guide.moves, captures: guide.captures });
  }
}
