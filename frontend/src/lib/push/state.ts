// Whether this device rings, as one pure function of what the browser and the person
// said (tested in state.test.ts); the hook (usePush.ts) only gathers the inputs.

export type Permission = NotificationPermission | 'unsupported'

/** The subscription's round trip with the server, in this page's life. */
export type Sync = 'idle' | 'working' | 'done' | 'failed'

export type PushView =
  /** No Push API here (an iPhone's browser tab, an old browser): no alerts, ever. */
  | 'unsupported'
  /** The person blocked notifications in the browser: only its settings can undo that. */
  | 'denied'
  /** Never asked: the screen may show its one explained step. */
  | 'ask'
  /** Said "Not now" (or closed the prompt): the step is not shown again. */
  | 'declined'
  /** Asking the browser, subscribing, or telling the server. */
  | 'working'
  /** Subscribed, and the server has it. */
  | 'on'
  /** The browser or the server refused the subscription: try again. */
  | 'failed'

export function pushView({ permission, declined, sync }: { permission: Permission; declined: boolean; sync: Sync }): PushView {
  if (permission === 'unsupported') return 'unsupported'
  if (permission === 'denied') return 'denied'
  if (sync === 'working') return 'working'
  if (sync === 'failed') return 'failed'
  if (permission === 'granted') return sync === 'done' ? 'on' : 'working'
  return declined ? 'declined' : 'ask'
}

/** The crew's screen falls back to staying awake and beeping in every state but 'on'. */
export const ringsWhenLocked = (view: PushView) => view === 'on'
