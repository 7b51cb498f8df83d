/* Optional sounds made in the browser with the Web Audio API (no downloads); off by default,
   the switch is remembered in this browser. */

import {app} from "./state.js";
import {pref, setPref} from "./storage.js";

export function soundOn() { return pref("sound", false) === true; }
export function setSound(on) { setPref("sound", !!on); }

function tone(notes) {
  if (!soundOn()) return;
  const Audio = window.AudioContext || window.webkitAudioContext;
  if (!Audio) return;
  try {
    if (!app.audio) app.audio = new Audio();
    const context = app.audio;
    if (context.state === "suspended") context.resume();
    let at = context.currentTime + 0.01;
    for (const [frequency, length] of notes) {
      const osc = context.createOscillator();
      const gain = context.createGain();
      osc.type = "sine";
      osc.frequency.value = frequency;
      gain.gain.setValueAtTime(0.0001, at);
      gain.gain.exponentialRampToValueAtTime(0.18, at + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, at + length);
      osc.connect(gain).connect(context.destination);
      osc.start(at);
      osc.stop(at + length + 0.02);
      at += length * 0.8;
    }
  } catch (error) { /* no sound is better than a broken page */ }
}

export function yourTurnSound() { tone([[660, 0.12], [880, 0.18]]); }
export function trickWonSound() { tone([[523, 0.1], [659, 0.1], [784, 0.22]]); }
