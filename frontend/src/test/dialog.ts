// jsdom has <dialog> but neither showModal() nor close(), nor Escape firing 'cancel'.
// This stands in for what browsers do (HTML's dialog and close-request steps), enough
// for components that use them: showModal() opens and focuses the first control,
// Escape fires a cancelable 'cancel' on the topmost modal dialog and closes it unless
// cancelled, close() fires 'close' and gives focus back to what had it before.
// The real thing (inert page, Tab staying inside) is checked in Chromium: e2e/a11y.spec.ts.

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])'

const modals: HTMLDialogElement[] = []
const previous = new WeakMap<HTMLDialogElement, Element | null>()

export function installDialogStandIn() {
  const proto = HTMLDialogElement.prototype
  if (typeof proto.showModal === 'function') return

  proto.showModal = function (this: HTMLDialogElement) {
    if (this.hasAttribute('open')) throw new DOMException('The dialog is already open.', 'InvalidStateError')
    if (!this.isConnected) throw new DOMException('The dialog is not connected.', 'InvalidStateError')
    previous.set(this, document.activeElement)
    this.setAttribute('open', '')
    modals.push(this)
    const first = this.querySelector<HTMLElement>('[autofocus]') ?? this.querySelector<HTMLElement>(FOCUSABLE)
    ;(first ?? this).focus()
  }

  proto.close = function (this: HTMLDialogElement, returnValue?: string) {
    if (!this.hasAttribute('open')) return
    this.removeAttribute('open')
    if (returnValue !== undefined) this.returnValue = returnValue
    const at = modals.indexOf(this)
    if (at >= 0) modals.splice(at, 1)
    const back = previous.get(this)
    previous.delete(this)
    if (back instanceof HTMLElement && back.isConnected) back.focus()
    this.dispatchEvent(new Event('close'))
  }

  document.addEventListener('keydown', (e) => {
    const top = modals.at(-1)
    if (e.key !== 'Escape' || e.defaultPrevented || !top) return
    if (top.dispatchEvent(new Event('cancel', { cancelable: true }))) top.close()
  })
}

/** Between tests: dialogs left open by an unmounted tree are forgotten. */
export function resetDialogs() {
  modals.length = 0
}
