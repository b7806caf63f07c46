// What other features may use of hospitals; everything else in this folder is its own.
export { useAllHospitals, useHospital, useNearestHospitals } from './api/hospitals'
