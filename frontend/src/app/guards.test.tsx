import { screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { saveSession } from '@/lib/session'
import type { User } from '@/lib/types'
import { adminUser, demoUser } from '@/test/fixtures'
import { renderRoutes } from '@/test/render'
import { RequireAdmin, RequireAuth, RequireCrew, RequireHospital, SendCrewHome } from './guards'

const as = (role: string): User => ({ ...demoUser, role } as User)
const Here = ({ name }: { name: string }) => <h1>{name}</h1>

function visit(path: string, user: User | null) {
  if (user) saveSession({ token: 't', user, role: user.role, id: user.id })
  renderRoutes(
    [
      { path: '/', element: <SendCrewHome><Here name="home" /></SendCrewHome> },
      { path: '/login', element: <Here name="login" /> },
      { path: '/history', element: <RequireAuth><Here name="history" /></RequireAuth> },
      { path: '/profile', element: <RequireAuth crewToo><Here name="profile" /></RequireAuth> },
      { path: '/admin', element: <RequireAdmin><Here name="admin" /></RequireAdmin> },
      { path: '/crew', element: <RequireCrew><Here name="crew" /></RequireCrew> },
      { path: '/hospital', element: <RequireHospital><Here name="hospital" /></RequireHospital> },
    ],
    path,
  )
}

describe('who may open what', () => {
  it.each([
    // Hospital staff: only their board and their profile.
    ['HOSPITAL', '/', 'hospital'],
    ['HOSPITAL', '/history', 'hospital'],
    ['HOSPITAL', '/admin', 'hospital'],
    ['HOSPITAL', '/crew', 'hospital'],
    ['HOSPITAL', '/hospital', 'hospital'],
    ['HOSPITAL', '/profile', 'profile'],
    // Nobody else sees the board.
    ['CREW', '/hospital', 'crew'],
    ['USER', '/hospital', 'home'],
    ['ADMIN', '/hospital', 'home'],
  ])('%s opening %s sees %s', async (role, path, seen) => {
    visit(path, role === 'ADMIN' ? adminUser : as(role))
    expect(await screen.findByRole('heading', { name: seen })).toBeInTheDocument()
  })

  it('signed out, the board asks to sign in', async () => {
    visit('/hospital', null)
    expect(await screen.findByRole('heading', { name: 'login' })).toBeInTheDocument()
  })
})
