// The about page's words, in English: a catalogue of their own, loaded with the
// page (not in the first load, whose budget is 150 kB gzip). hi.ts and pa.ts are typed
// AboutText, so tsc refuses a missing key.

export const en = {
  title: 'About AmbuCare',
  lead: 'Our mission is simple: get every patient the right ambulance and the nearest hospital as fast as possible, because in an emergency every minute counts.',
  mission: 'Our mission',
  missionText: 'We connect patients and their families with nearby hospitals and available ambulances in real time, so that help is booked in seconds, not minutes.',
  services: 'Our services',
  bookingTitle: 'Emergency ambulance booking',
  bookingText: 'Book an emergency or a normal ambulance for a patient in under a minute.',
  finderTitle: 'Nearest hospital finder',
  finderText: 'See the hospitals closest to you with distance and contact details.',
  availabilityTitle: 'Live availability',
  availabilityText: 'Only ambulances that are free right now can be booked: no double bookings.',
  historyTitle: 'Booking history',
  historyText: 'Follow every booking from request to completion.',
  impact: 'Our impact',
  livesSaved: 'lives saved',
  partnerHospitals: 'partner hospitals',
  ambulances: 'ambulances',
  team: 'Our team',
  medicalDirector: 'Medical Director',
  operationsHead: 'Head of Operations',
  leadEngineer: 'Lead Engineer',
  contact: 'Contact us',
  address: 'Address: 12 Civil Lines, Bathinda, Punjab',
  underDevelopment: 'Project Under Development',
  demo: 'This is a demonstration project.',
}

export type AboutText = { readonly [K in keyof typeof en]: string }
