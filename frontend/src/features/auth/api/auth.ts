import { useMutation } from '@tanstack/react-query'
import { call } from '@/lib/api'
import { saveSession } from '@/lib/session'
import type { LoginRequest, RegisterRequest } from '@/lib/types'

/** What the form sends: the contract's `role` is ignored by the server, so never sent. */
export type RegisterInput = Omit<RegisterRequest, 'role'>

// Anonymous: a wrong password's 401 is an answer, not an expired session to renew.
export const login = (input: LoginRequest) =>
  call('POST /auth/login', { body: input, anonymous: true })

export const register = (input: RegisterInput) =>
  call('POST /auth/register', { body: input, anonymous: true })

export function useLogin() {
  return useMutation({
    mutationFn: login,
    onSuccess: (auth, input) => saveSession(auth, { username: input.username }),
  })
}

export function useRegister() {
  return useMutation({ mutationFn: register })
}
