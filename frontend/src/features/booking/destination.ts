// A trip's destination on the requester's and the family's pages. Their answers place the
// ambulance's own hospital (`hospital`, with its point and phone) and name the destination
// (`destinationHospitalName`); once the crew drives the patient elsewhere, that hospital is
// not where the trip goes, so its marker and phone are not shown as the destination's.

type WithHospital = { hospital: { name: string; latitude: number | null; longitude: number | null }; destinationHospitalName: string }

/** The destination is another hospital than the ambulance's. */
export const goesElsewhere = (t: WithHospital): boolean => Boolean(t.destinationHospitalName) && t.destinationHospitalName !== t.hospital.name

/** The trip as the map draws it: without the ambulance's hospital once the destination is another. */
export function forMap<T extends WithHospital>(t: T): T {
  return goesElsewhere(t) ? { ...t, hospital: { ...t.hospital, name: t.destinationHospitalName, latitude: null, longitude: null } } : t
}
