/* Optional sounds of the board: short tones made with the Web Audio API (no audio file,
 * nothing loaded), muted until the player presses the bar's "Sound" toggle
 * (aria-pressed); the choice is remembered on this device (localStorage). The kit cues
 * them: "turn" (this seat may move), "taken" (cards left the table), "end". */

export const SOUND_KEY = "dp-sound";

// Each cue: notes as [frequency in Hz, start in s, length in s], soft and short.
const CUES = {
  turn: [[660, 0, 0.12], [880, 0.13, 0.16]],
  taken: [[990, 0, 0.07], [1320, 0.08, 0.1]],
  end: [[523, 0, 0.15], [659, 0.16, 0.15], [784, 0.32, 0.15], [1047, 0.48, 0.3]],
};

function stored(storage) {
  try {
    return storage.getItem(SOUND_KEY) === "on";
  } catch {
    return false; // storage refused (a private window): muted, as by default
  }
}

/** Wire the toggle button; return {play(cue), on()}. */
export function boardSound(button, storage = window.localStorage) {
  let on = stored(storage);
  let audio = null;

  function show() {
    if (button) button.setAttribute("aria-pressed", String(on));
  }

  function context() {
    const Audio = window.AudioContext || window.webkitAudioContext;
    if (!Audio) return null;
    if (!audio) audio = new Audio();
    // A context made before any click starts suspended; resuming is allowed once the
    // page had a user gesture (the toggle itself, or any move).
    if (audio.state === "suspended") audio.resume().catch(() => {});
    return audio;
  }

  function play(cue) {
    const notes = CUES[cue];
    if (!on || !notes) return;
    const ctx = context();
    if (!ctx) return;
    const start = ctx.currentTime + 0.02;
    for (const [frequency, at, length] of notes) {
      const oscillator = ctx.createOscillator();
      const gain = ctx.createGain();
      oscillator.type = "sine";
      oscillator.frequency.value = frequency;
      gain.gain.setValueAtTime(0.0001, start + at);
      gain.gain.exponentialRampToValueAtTime(0.12, start + at + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + at + length);
      oscillator.connect(gain).connect(ctx.destination);
      oscillator.start(start + at);
      oscillator.stop(start + at + length + 0.02);
    }
  }

  if (button) {
    show();
    button.addEventListener("click", () => {
      on = !on;
      try {
        if (on) storage.setItem(SOUND_KEY, "on");
        else storage.removeItem(SOUND_KEY);
      } catch {
        // not remembered, still switched for this page
      }
      show();
      if (on) play("turn"); // a sample, and the gesture that lets the audio start
    });
  }
  return { play, on: () => on };
}
