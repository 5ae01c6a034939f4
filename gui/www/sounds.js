// Move sounds made with the Web Audio API (no sound files): a move, a capture, a check, the game's end.
// The last sound's name and a count stay on <body> (data-last-sound, data-sounds), muted or not. The
// audio starts with the person's first click or key, as browsers allow, and only while not muted:
// opening the audio device can hold the page for seconds where there is none (a headless browser).

const MUTED = 'sennight.muted'; // localStorage: "1" while muted

/** Each sound: notes [frequency Hz, start s, length s, wave], and a burst of noise (s) for a capture. */
const SOUNDS = {
  move: { notes: [[330, 0, 0.07, 'triangle']] },
  capture: { notes: [[196, 0, 0.12, 'triangle']], noise: 0.08 },
  check: { notes: [[880, 0, 0.09, 'square'], [880, 0.13, 0.09, 'square']] },
  end: { notes: [[523, 0, 0.18, 'sine'], [659, 0.16, 0.18, 'sine'], [784, 0.32, 0.35, 'sine']] },
};
const VOLUME = 0.15;

/** Which sound a new STATE calls for after `before`, or null: the end, else the last move's kind. */
export function soundFor(before, state) {
  if (!before || before.id !== state.id) return null;
  if (state.result && !before.result) return 'end';
  if (state.plies <= before.plies || state.ply !== state.plies) return null;
  if (state.check.length) return 'check';
  const taken = s => Object.values(s.material || {}).reduce((n, m) => n + m.captured.length, 0);
  return taken(state) > taken(before) ? 'capture' : 'move';
}

export class Sounds {
  /** `toggle` is the mute button; its state is kept in localStorage. */
  constructor(toggle) {
    this.toggle = toggle;
    this.context = null;
    this.muted = localStorage.getItem(MUTED) === '1';
    this.count = 0;
    toggle.addEventListener('click', () => {
      this.setMuted(!this.muted);
      this.open();
    });
    this.setMuted(this.muted);
    this.unlock = () => this.open();
    for (const name of ['pointerdown', 'keydown']) document.addEventListener(name, this.unlock, true);
  }

  /** On a person's gesture: the audio, unless muted or open already. */
  open() {
    if (this.muted || this.context) return;
    try {
      this.context = new AudioContext();
    } catch {
      this.context = null; // a browser without audio plays nothing
    }
    for (const name of ['pointerdown', 'keydown']) document.removeEventListener(name, this.unlock, true);
  }

  setMuted(muted) {
    this.muted = muted;
    localStorage.setItem(MUTED, muted ? '1' : '0');
    this.toggle.setAttribute('aria-pressed', String(muted));
    this.toggle.title = muted ? 'Move sounds: off' : 'Move sounds: on';
  }

  /** Plays the sound (unless muted, or before the audio started) and records it on <body>. */
  play(name) {
    document.body.dataset.lastSound = name;
    document.body.dataset.sounds = String(++this.count);
    if (this.muted || !this.context) return;
    this.context.resume();
    this.synthesise(SOUNDS[name]);
  }

  synthesise({ notes, noise = 0 }) {
    const ctx = this.context;
    const now = ctx.currentTime;
    for (const [frequency, start, length, wave] of notes) {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.type = wave;
      osc.frequency.value = frequency;
      gain.gain.setValueAtTime(VOLUME, now + start);
      gain.gain.exponentialRampToValueAtTime(0.001, now + start + length);
      osc.connect(gain).connect(ctx.destination);
      osc.start(now + start);
      osc.stop(now + start + length);
    }
    if (noise) {
      const buffer = ctx.createBuffer(1, Math.ceil(ctx.sampleRate * noise), ctx.sampleRate);
      const data = buffer.getChannelData(0);
      for (let i = 0; i < data.length; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / data.length);
      const source = ctx.createBufferSource();
      const gain = ctx.createGain();
      gain.gain.value = VOLUME;
      source.buffer = buffer;
      source.connect(gain).connect(ctx.destination);
      source.start(now);
    }
  }
}
