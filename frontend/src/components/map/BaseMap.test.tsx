import { render } from '@testing-library/react'
import type { LatLngBounds, Map as LeafletMap } from 'leaflet'
import { useMap } from 'react-leaflet'
import { describe, expect, it, vi } from 'vitest'
import { BaseMap, FitBounds, type Point } from './BaseMap'

/** The Leaflet map of the BaseMap it is rendered in. */
function mapOf(points: Point[]): LeafletMap {
  let map: LeafletMap | undefined
  function Grab() {
    map = useMap()
    return null
  }
  render(
    <BaseMap label="Trip" center={points[0]!}>
      <FitBounds points={points} />
      <Grab />
    </BaseMap>,
  )
  return map!
}

describe('FitBounds', () => {
  it('fits the points again when the map changes size (a phone turned), with room for a pin and the attribution', () => {
    const map = mapOf([
      [30.7, 74.3],
      [30.75, 74.35],
    ])
    const fit = vi.spyOn(map, 'fitBounds')
    map.fire('resize')
    expect(fit).toHaveBeenCalledTimes(1)
    const [bounds, options] = fit.mock.calls[0]!
    expect((bounds as LatLngBounds).getSouthWest()).toMatchObject({ lat: 30.7, lng: 74.3 })
    expect((bounds as LatLngBounds).getNorthEast()).toMatchObject({ lat: 30.75, lng: 74.35 })
    expect(options).toMatchObject({ paddingTopLeft: [32, 44], paddingBottomRight: [32, 40] })
  })

  it('centres one point at its zoom, again after a resize', () => {
    const map = mapOf([[30.7, 74.3]])
    const centre = vi.spyOn(map, 'setView')
    map.fire('resize')
    expect(centre).toHaveBeenCalledWith([30.7, 74.3], 13)
  })
})
