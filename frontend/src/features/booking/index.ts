// What other features may use of booking; everything else in this folder is its own.
export { isPersistedTripKey } from './api/keys'
export { BookingTypeBadge } from './components/BookingTypeBadge'
export { PickupField } from './components/PickupField'
export { emptyPickup, parsePickup, type PickupForm } from './validation'
