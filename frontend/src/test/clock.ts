import { act } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { vi } from 'vitest'

/**
 * A fake clock that still moves with real time, so findBy/waitFor work as usual, for
 * tests of what happens at the next poll or after a delay: `elapse(ms)` fires it at
 * once instead of the test sleeping for it, so the test's time does not depend on how
 * busy the machine is (a real 3 to 5 s wait inside a 5 s test budget failed in CI).
 * setup.ts puts the real clock back after each test. Returns a user-event instance whose
 * own pauses move the fake clock.
 */
export function fakeClock() {
  vi.useFakeTimers({ shouldAdvanceTime: true })
  return userEvent.setup({ advanceTimers: vi.advanceTimersByTime })
}

/** Moves the fake clock on by `ms`, running the timers that fall due and what they render. */
export const elapse = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms))
