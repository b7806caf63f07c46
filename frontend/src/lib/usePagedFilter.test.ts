import { act, renderHook } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { usePagedFilter } from './usePagedFilter'

interface Item {
  id: number
  name: string
  status: 'ON' | 'OFF'
}
const items: Item[] = Array.from({ length: 12 }, (_, i) => ({ id: i + 1, name: `Item ${i + 1}`, status: i % 3 === 0 ? 'OFF' : 'ON' }))
const matches = (item: Item, q: string) => item.name.toLowerCase().includes(q)
const statusOf = (item: Item) => item.status
const ids = (list: Item[]) => list.map((i) => i.id)

const paged = (list = items) =>
  renderHook(({ list }) => usePagedFilter<Item, Item['status']>({ items: list, matches, statusOf, pageSize: 5 }), {
    initialProps: { list },
  })

describe('usePagedFilter', () => {
  it('pages the list by pageSize and says where the page starts', () => {
    const { result } = paged()
    expect([result.current.page, result.current.totalPages, ids(result.current.shown)]).toEqual([1, 3, [1, 2, 3, 4, 5]])
    act(() => result.current.setPage(3))
    expect([result.current.start, ids(result.current.shown)]).toEqual([10, [11, 12]])
  })

  it('searches trimmed and case-insensitively, filters by status, and goes back to page 1 on either', () => {
    const { result } = paged()
    act(() => result.current.setPage(2))
    act(() => result.current.setSearch('  ITEM 1'))
    expect([result.current.page, ids(result.current.filtered)]).toEqual([1, [1, 10, 11, 12]])
    expect(result.current.filtering).toBe(true)
    act(() => result.current.setPage(2))
    act(() => result.current.setStatus('OFF'))
    expect([result.current.page, ids(result.current.filtered)]).toEqual([1, [1, 10]])
    act(() => result.current.setSearch(' '))
    act(() => result.current.setStatus('ALL'))
    expect([result.current.filtering, result.current.filtered]).toEqual([false, items])
  })

  it('keeps the page within the pages there are when the list shrinks', () => {
    const { result, rerender } = paged()
    act(() => result.current.setPage(3))
    rerender({ list: items.slice(0, 6) })
    expect([result.current.page, ids(result.current.shown)]).toEqual([2, [6]])
    rerender({ list: [] })
    expect([result.current.page, result.current.totalPages, result.current.shown]).toEqual([1, 0, []])
  })

  it('without pageSize shows every match and leaves paging to the caller', () => {
    const { result } = renderHook(() => usePagedFilter({ items, matches }))
    act(() => result.current.setSearch('item 1'))
    expect([result.current.totalPages, ids(result.current.shown)]).toEqual([1, [1, 10, 11, 12]])
  })
})
