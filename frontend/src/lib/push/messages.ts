// What the service worker (src/sw.ts) tells the app's open windows.
/** A push arrived: what it is about may have changed, so fetch now. */
export const PUSHED_MESSAGE = 'push:received'
/** The browser replaced the subscription: send the new one to the server. */
export const RENEWED_MESSAGE = 'push:renewed'
