// What other features may use of emergency: the button that leads to it.
export { SendAmbulanceLink } from './components/SendAmbulanceLink'
