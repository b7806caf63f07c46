// What other features use of this one: the profile's "Your data" section.
export { YourData } from './components/YourData'
