// A short beep for a new alert or job (the dispatcher's panel, a crew screen without push), with the Web Audio API (no sound file to load).
// Browsers keep audio off until the user has interacted with the page: until then
// the context stays suspended and nothing is heard, which is fine: the panel and the
// tab's title still say it. Nothing here ever throws.

let context: AudioContext | null = null

function audio(): AudioContext | null {
  if (context) return context
  const Ctor = globalThis.AudioContext ?? (globalThis as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext
  if (!Ctor) return null
  context = new Ctor()
  return context
}

/** Plays about 0.3 s of 880 Hz, quietly; fails silently (no audio, or not allowed yet). */
export function beep(): void {
  try {
    const ctx = audio()
    if (!ctx) return
    if (ctx.state === 'suspended') ctx.resume().catch(() => {})
    const osc = ctx.createOscillator()
    const gain = ctx.createGain()
    osc.type = 'sine'
    osc.frequency.value = 880
    const t = ctx.currentTime
    // A quick fade in and out: no click at either end.
    gain.gain.setValueAtTime(0.0001, t)
    gain.gain.exponentialRampToValueAtTime(0.2, t + 0.02)
    gain.gain.exponentialRampToValueAtTime(0.0001, t + 0.3)
    osc.connect(gain).connect(ctx.destination)
    osc.start(t)
    osc.stop(t + 0.32)
  } catch {
    // Blocked or unsupported: silence.
  }
}

/**
 * Lets the next beep be heard: the first click or key press on the page resumes the
 * audio context (browsers allow that only from a user gesture). Returns the cleanup.
 */
export function unlockAudioOnGesture(): () => void {
  const unlock = () => {
    try {
      audio()?.resume().catch(() => {})
    } catch {
      // Unsupported: silence.
    }
    remove()
  }
  const remove = () => {
    window.removeEventListener('pointerdown', unlock)
    window.removeEventListener('keydown', unlock)
  }
  window.addEventListener('pointerdown', unlock)
  window.addEventListener('keydown', unlock)
  return remove
}
