// The pieces' drawings, keyed by piece name as the variant files give it. Shapes are SVG paths in a
// 100-unit box centred on 0,0: "body" is filled in the army's colour and outlined, "line" is drawn in
// its detail colour. A string names another glyph (the same move under another name); a list of names
// draws a compound as its parts side by side. pieces.js draws them; a name not here gets a letter disc.

const KNIGHT = 'M-18 38H28Q31 6 21-14Q13-31-3-34L-7-43L-12-32Q-22-27-28-13L-35 0Q-37 7-30 9L-25 7Q-21 3-13 1' +
  'Q-5-1-3 3Q-14 13-18 25Z';
const BIRD = 'M-36-12L-22-19Q-18-32-4-31Q8-30 11-19Q22-12 40-12L32 2Q24 18 8 22L9 30H24V38H-24V30H-7L-8 22' +
  'Q-22 16-22 0V-6Z';
const PAWN_FOOT = 'M-20 38H20V31Q20 25 13 23Q6 17 8 6H12V0';
const PAWN_HIP = 'H-12V6H-8Q-6 17-13 23Q-20 25-20 31Z';
const BUST = 'M-24 38H24V30H20Q20 12 9 8Q13 2 12-6';
const ROBE = 'Q-13 2-9 8Q-20 12-20 30H-24Z';

export const GLYPHS = {
  pawn: { body: `${PAWN_FOOT}H7A14 14 0 1 0-7 0${PAWN_HIP}` },
  // McCooey's pawn (diagonal captures): a diamond head; Glinski's (orthogonal captures): a hexagon.
  broker: { body: `${PAWN_FOOT}H5L15-14L0-29L-15-14L-5 0${PAWN_HIP}` },
  migrant: { body: `${PAWN_FOOT}H8L16-13L8-27H-8L-16-13L-8 0${PAWN_HIP}` },
  point: { body: `${PAWN_FOOT}H7Q15-4 13-13L0-33L-13-13Q-15-4-7 0${PAWN_HIP}` },
  rook: {
    body: 'M-24 38H24V29H18L15-6L22-12V-34H12V-26H5V-34H-5V-26H-12V-34H-22V-12L-15-6L-18 29H-24Z',
    line: 'M-15-6H15M-18 29H18',
  },
  bishop: {
    body: 'M-24 38H24V30H11L10 19Q24 5 14-13Q8-25 0-31Q-8-25-14-13Q-24 5-10 19L-11 30H-24ZM0-44A6 6 0 1 0 0.1-44Z',
    line: 'M4-19L-6-4M-10 19H10',
  },
  knight: { body: KNIGHT, line: 'M-13-17L-8-19' },
  queen: {
    body: 'M-24 38H24V30L22 20L30-18L14 2L15-26L4-1L0-30L-4-1L-15-26L-14 2L-30-18L-22 20L-24 30Z' +
      'M30-28A5 5 0 1 0 30.1-28ZM15-36A5 5 0 1 0 15.1-36ZM0-40A5 5 0 1 0 0.1-40ZM-15-36A5 5 0 1 0-14.9-36Z' +
      'M-30-28A5 5 0 1 0-29.9-28Z',
    line: 'M-22 20H22',
  },
  king: {
    body: 'M-24 38H24V30L22 20Q35 8 30-6Q24-18 10-12Q4-10 0-4Q-4-10-10-12Q-24-18-30-6Q-35 8-22 20L-24 30Z' +
      'M-3-8V-24H-10V-31H-3V-42H3V-31H10V-24H3V-8Z',
    line: 'M-22 20H22',
  },
  // The Wazir and Firzan make one step of the Rook's and the Bishop's lines: their glyphs made small.
  wazir: {
    body: 'M-20 38H20V30H14L12 4L18-2V-18H10V-12H4V-18H-4V-12H-10V-18H-18V-2L-12 4L-14 30H-20Z',
    line: 'M-12 4H12',
  },
  firzan: {
    body: 'M-20 38H20V31H9L8 22Q20 10 12-4Q7-14 0-19Q-7-14-12-4Q-20 10-8 22L-9 31H-20ZM0-30A5 5 0 1 0 0.1-30Z',
    line: 'M3-8L-5 4M-8 22H8',
  },
  // A crowned royal with a star: the Generals of Wellisch and Gilman, who step orthogonally only.
  general: {
    body: 'M-24 38H24V30L22 20Q35 8 30-6Q24-14 12-10Q6-8 0-6Q-6-8-12-10Q-24-14-30-6Q-35 8-22 20L-24 30Z' +
      'M0-47L5-34L18-34L8-26L12-13L0-21L-12-13L-8-26L-18-34L-5-34Z',
    line: 'M-22 20H22',
  },
  grandduke: 'king',
  duchess: 'queen',
  sennight: 'knight',
  // Rook + Firzan: a tower under a crown.
  vicereine: {
    body: 'M-24 38H24V29H18L15-6L22-12V-36L13-24L7-38L0-26L-7-38L-13-24L-22-36V-12L-15-6L-18 29H-24Z' +
      'M22-44A5 5 0 1 0 22.1-44ZM7-46A5 5 0 1 0 7.1-46ZM-7-46A5 5 0 1 0-6.9-46ZM-22-44A5 5 0 1 0-21.9-44Z',
    line: 'M-15-6H15M-18 29H18',
  },
  // Dabbaba + Firzan: a siege tower on wheels.
  vicbaba: {
    body: 'M-22 26V-8L-12-16V-38H12V-16L22-8V26ZM-14 18A10 10 0 1 0-13.9 18ZM14 18A10 10 0 1 0 14.1 18Z',
    line: 'M-6-30H6M-22-8H22M-8 0H8V12H-8Z',
  },
  // Forerook and Hindrook: a Rook of three lines, its roof pointing forward or cut back.
  forerook: {
    body: 'M-24 38H24V29H18L15-6L22-12V-24L0-46L-22-24V-12L-15-6L-18 29H-24Z',
    line: 'M-15-6H15M-18 29H18M0-32V-14',
  },
  hindrook: {
    body: 'M-24 38H24V29H18L15-6L22-12V-44L0-24L-22-44V-12L-15-6L-18 29H-24Z',
    line: 'M-15-6H15M-18 29H18M0-14V-2',
  },
  finch: { body: BIRD, line: 'M-12-22h.1M-2 2Q10 12 24 4' },
  rabbi: {
    body: `${BUST}H27Q31-11 28-16Q22-18 15-18Q15-40 0-40Q-15-40-15-18Q-22-18-28-16Q-31-11-27-6H-12${ROBE}`,
    line: 'M-15-18H15M-11-4Q-12 14 0 19Q12 14 11-4',
  },
  // A priest: a rounded turban and the breastplate.
  cohen: {
    body: `${BUST}Q18-10 15-16Q28-24 18-38Q8-46 0-46Q-8-46-18-38Q-28-24-15-16Q-18-10-12-6${ROBE}`,
    line: 'M-15-16H15M-9 12H9V28H-9ZM-9 20H9M0 12V28',
  },
  // The Unicorn: a horned horse with a flowing mane.
  unicorn: {
    body: 'M-18 38H28Q31 10 26-4L33-6L24-14L30-20L18-22L22-30L8-30L6-38L-3-34L-7-43L-12-32L-36-49L-19-26' +
      'Q-24-23-28-13L-35 0Q-37 7-30 9L-25 7Q-21 3-13 1Q-5-1-3 3Q-14 13-18 25Z',
    line: 'M-13-17L-8-19M8-26Q18-14 22 8',
  },
  'pacey-unicorn': {
    body: 'M-18 38H28Q31 6 21-14Q13-31-3-34L-7-43L-12-32L-34-50L-19-27Q-24-23-28-13L-35 0Q-37 7-30 9L-25 7Q-21 3-13 1' +
      'Q-5-1-3 3Q-14 13-18 25Z',
    line: 'M-13-17L-8-19M4 8L12 16M12 8L4 16',
  },
  pegasus: {
    body: `${KNIGHT}M6-10Q20-40 44-44Q38-30 42-26Q30-24 34-16Q22-14 20-4Z`,
    line: 'M-13-17L-8-19M14-16L30-34',
  },
  // Thunderbird: a bird with a lightning bolt; Simurgh: a bird with a crest and a long tail.
  thunderbird: { body: BIRD, line: 'M-12-22h.1M12-2L2 8L14 10L4 20' },
  simurgh: {
    body: 'M-36-12L-22-19Q-22-26-18-30L-26-44L-10-32Q6-32 11-19Q22-10 44-26L36-4Q24 18 8 22L9 30H24V38H-24V30H-7' +
      'L-8 22Q-22 16-22 0V-6Z',
    line: 'M-12-22h.1M-2 2Q10 12 24 4M16 0L30-12',
  },
  hippo: {
    body: 'M-24 38H24V30H20Q32 20 30 2Q28-12 18-16L20-28Q14-34 8-24Q0-26-8-24Q-14-34-20-28L-18-16Q-28-12-30 2' +
      'Q-32 20-20 30H-24Z',
    line: 'M-9-8h.1M9-8h.1M-10 14h.1M10 14h.1M-18 22Q0 30 18 22',
  },
  hydra: {
    body: 'M-24 38H24V30H20Q22 16 14 12Q24 0 26-18L34-22L28-32Q18-32 18-20Q16-2 8 4Q10-18 6-32L12-38L4-46Q-6-44-4-32' +
      'Q-2-14-6 4Q-16-2-18-20Q-18-32-28-32L-34-22L-26-18Q-24 0-14 12Q-22 16-20 30H-24Z',
    line: 'M26-26h.1M4-40h.1M-26-26h.1',
  },
  sailor: {
    body: 'M-3-14V-26A10 10 0 1 1 3-26V-14H14V-8H3V20Q18 18 24 4L18 2L30-6L32 12L28 8Q20 28 0 30Q-20 28-28 8L-32 12' +
      'L-30-6L-18 2L-24 4Q-18 18-3 20V-8H-14V-14ZM-24 38H24V31H-24Z',
    line: 'M0-34A3 3 0 1 0 0.1-34',
  },
  missionary: {
    body: 'M-24 38H24V30H11L10 19Q24 5 14-13Q8-25 3-29V-34H10V-40H3V-48H-3V-40H-10V-34H-3V-29Q-8-25-14-13Q-24 5-10 19' +
      'L-11 30H-24Z',
    line: 'M4-19L-6-4M-10 19H10',
  },
  sling: {
    body: 'M-24 38H24V31H6V4Q26-4 26-42H16Q16-14 0-8Q-16-14-16-42H-26Q-26-4-6 4V31H-24Z',
    line: 'M-21-34Q0-22 21-34',
  },
  seiopelma: {
    body: 'M0-34A9 9 0 1 0 0.1-34ZM-15 6Q-15-18 0-18Q15-18 15 6Q15 30 0 30Q-15 30-15 6Z' +
      'M-6-22L-24-40L-34-30L-30-28L-24-34L-8-16ZM6-22L24-40L34-30L30-28L24-34L8-16Z' +
      'M-12-10L-36-16L-40 0L-36 0L-33-10L-12-4ZM12-10L36-16L40 0L36 0L33-10L12-4Z' +
      'M-12 6L-34 14L-36 32L-32 32L-30 18L-12 12ZM12 6L34 14L36 32L32 32L30 18L12 12Z' +
      'M-8 24L-20 38H-14L-4 28ZM8 24L20 38H14L4 28Z',
    line: 'M0-6V18',
  },
  // The Waitress holds up a tray, the Contrawaitress a covered dish on the other side.
  waitress: {
    body: 'M-24 38H24V31H20L9-2Q14-6 14-12H-14Q-14-6-9-2L-20 31H-24ZM0-34A10 10 0 1 0 0.1-34ZM9-12L22-32H28L16-8Z' +
      'M6-38H44V-32H6Z',
    line: 'M-13 16H13',
  },
  contrawaitress: {
    body: 'M24 38H-24V31H-20L-9-2Q-14-6-14-12H14Q14-6 9-2L20 31H24ZM0-34A10 10 0 1 0 0.1-34ZM-9-12L-22-32H-28L-16-8Z' +
      'M-6-32H-44V-36H-42Q-42-50-25-50Q-8-50-8-36H-6Z',
    line: 'M-13 16H13',
  },
  // The Shammes is the menorah's servant candle; the Contrashammes a stout candle in a ring holder.
  shammes: {
    body: 'M-24 38H24V31H12V24H7V-20H-7V24H-12V31H-24ZM0-26Q-8-34 0-48Q8-34 0-26Z',
    line: 'M-7-10H7',
  },
  contrashammes: {
    body: 'M-28 38H28V30H14V-6H-14V30H-28ZM0-12Q-8-20 0-34Q8-20 0-12ZM14 6Q34 6 34 18Q34 30 14 30V24Q28 24 28 18' +
      'Q28 12 14 12Z',
    line: 'M-14 6H14',
  },
  // Crooked pieces: a Rook's or a Bishop's body with a zigzag; the Girlhexers under a sawtooth roof.
  girlhexer: {
    body: 'M-24 38H24V29H18L15-6L22-12V-36L11-24L0-36L-11-24L-22-36V-12L-15-6L-18 29H-24Z',
    line: 'M-15-6H15M-18 29H18M-6 24L6 14L-6 4L6-6',
  },
  longgirlhexer: {
    body: 'M-24 38H24V29H18L15-6L22-12V-36L11-24L0-36L-11-24L-22-36V-12L-15-6L-18 29H-24Z',
    line: 'M-15-6H15M-18 29H18M-8 24L8 18L-8 12L8 6L-8 0',
  },
  shortgirlhexer: {
    body: 'M-24 38H24V29H18L15-6L22-12V-36L11-24L0-36L-11-24L-22-36V-12L-15-6L-18 29H-24Z',
    line: 'M-15-6H15M-18 29H18M-4 24L4 12L-4 0',
  },
  rangehexer: {
    body: 'M-24 38H24V30H11L10 19Q24 5 14-13Q8-25 0-31Q-8-25-14-13Q-24 5-10 19L-11 30H-24ZM0-44A6 6 0 1 0 0.1-44Z',
    line: 'M-8 8L0-4L-2 10L8-12M-10 19H10',
  },
  longrangehexer: {
    body: 'M-24 38H24V30H11L10 19Q24 5 14-13Q8-25 0-31Q-8-25-14-13Q-24 5-10 19L-11 30H-24ZM0-44A6 6 0 1 0 0.1-44Z',
    line: 'M-10 10L-2 0L-4 12L4 0L2 12L10 2M-10 19H10',
  },
  shortrangehexer: {
    body: 'M-24 38H24V30H11L10 19Q24 5 14-13Q8-25 0-31Q-8-25-14-13Q-24 5-10 19L-11 30H-24ZM0-44A6 6 0 1 0 0.1-44Z',
    line: 'M-6 12L4-10L4 12M-10 19H10',
  },
  // The Farrier's horseshoe; the Jackal's face with pricked ears; the Coyote howling at the moon.
  farrier: {
    body: 'M-24 38H24V31H-24ZM-8 26H-24Q-34 6-30-14Q-24-42 0-42Q24-42 30-14Q34 6 24 26H8Q18 6 16-10Q14-26 0-26' +
      'Q-14-26-16-10Q-18 6-8 26Z',
    line: 'M-24-16h.1M-20 8h.1M24-16h.1M20 8h.1M0-34h.1',
  },
  jackal: {
    body: 'M-24 38H24V31H8V25Q11 23 13 18L27-6L25-45L8-26Q0-28-8-26L-25-45L-27-6L-13 18Q-11 23-8 25V31H-24Z',
    line: 'M-13-8L-5-5M13-8L5-5M0 14h.1M17-32L14-22M-17-32L-14-22',
  },
  coyote: {
    body: 'M-18 38H26Q32 12 22-6L32-22L18-20L-6-44L-12-40L-2-18Q-10-12-12 0Q-14 20-18 30Z' +
      'M-22-47A15 15 0 1 0-18-19A20 20 0 0 1-22-47Z',
    line: 'M2-24h.1M18-14L24-18',
  },
  // Compounds that Fusion forms, or that their substitutes name: the parts side by side.
  finchrider: ['rook', 'finch'],
  rabbirider: ['unicorn', 'rabbi'],
  vicerranger: ['rook', 'rabbi'],
  besieranger: ['unicorn', 'finch'],
  'waitress-duchess': ['waitress', 'contrawaitress'],
  'recuerider-rook': ['rook', 'waitress'],
  'teucerider-rook': ['rook', 'contrawaitress'],
  'teucerider-unicorn': ['unicorn', 'waitress'],
  'recuerider-unicorn': ['unicorn', 'contrawaitress'],
  'shammes-cohen': ['shammes', 'contrashammes'],
  'ceruet-finch': ['finch', 'shammes'],
  'uetcer-finch': ['finch', 'contrashammes'],
  'uetcer-rabbi': ['rabbi', 'shammes'],
  'ceruet-rabbi': ['rabbi', 'contrashammes'],
  longdoublehexer: ['longgirlhexer', 'longrangehexer'],
  shortdoublehexer: ['shortgirlhexer', 'shortrangehexer'],
  doublehexer: ['girlhexer', 'rangehexer'],
  hippogryph: ['simurgh', 'farrier'],
  werejackal: ['jackal', 'coyote'],
};
