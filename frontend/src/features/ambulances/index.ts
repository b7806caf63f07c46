// Ambulance data other features show (a hospital's fleet, the bookable ones); no screens yet.
export { useAvailableAmbulances, useHospitalAmbulances, useHospitalCounts } from './api/ambulances'
