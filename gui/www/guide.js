// The piece guide: each piece type of the variant, and where it moves and captures on an empty board.
import { Board } from './board.js';
import { getGuide } from './api.js';
import { pieceIcon, armyPiece } from './pieces.js';

export class Guide {
  constructor(piecesElement, boardElement) {
    this.piecesElement = piecesElement;
    this.board = new Board(boardElement, {
      onCell: cell => this.show(this.letter, cell, this.army), cellAttribute: 'data-guide-cell',
    });
    this.letter = null;
    this.army = 0;
    piecesElement.addEventListener('click', e => {
      const button = e.target.closest('[data-guide]');
      if (button) this.show(button.dataset.guide, undefined, Number(button.dataset.army ?? 0));
    });
  }

  setVariant(variant) {
    this.variant = variant;
    this.letter = null;
    this.board.setVariant(variant);
    this.piecesElement.innerHTML = variant.pieces.map(p =>
      `<button type="button" data-guide="${p.letter}" data-army="${p.army ?? 0}" title="${p.name}">` +
      `${pieceIcon(armyPiece(p.letter, armyLetter(variant, p.army), variant.players), variant)}${p.name}</button>`)
      .join('');
  }

  /** Shows a piece type of an army at a cell (the server's default, the centre, when none is given). */
  async show(letter, cell, army = 0) {
    if (!letter) return;
    const variant = this.variant;
    const guide = await getGuide(variant.name, letter, cell, army);
    if (variant !== this.variant) return; // the variant changed while the guide was asked
    this.letter = letter;
    this.army = army;
    for (const b of this.piecesElement.children) {
      b.classList.toggle('active', b.dataset.guide === letter && Number(b.dataset.army ?? 0) === army);
    }
    const piece = armyPiece(letter, armyLetter(variant, army), variant.players);
    this.board.setPosition({ pieces: [{ cell: guide.cell, piece }] });
    this.board.setMarks({ cell: guide.cell, moves: guide.moves, captures: guide.captures });
  }
}

/** The colour letter of the first player of an army (different armies: nd-wellisch-4p). */
function armyLetter(variant, army = 0) {
  return (variant.armies.find(a => (a.army ?? 0) === army) ?? variant.armies[0]).letter;
}
