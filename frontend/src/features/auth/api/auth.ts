import { useMutation } from '@tanstack/react-query'
import { api } from '@/lib/api'
import { saveSession } from '@/lib/session'
import type { AuthResponse } from '@/lib/types'

export interface LoginInput {
  username: string
  password: string
}

export interface RegisterInput {
  username: string
  email: string
  password: string
  phone: string
  latitude: number
  longitude: number
}

export const login = (input: LoginInput) =>
  api<AuthResponse>('/auth/login', { method: 'POST', body: input })

export const register = (input: RegisterInput) =>
  api<AuthResponse>('/auth/register', { method: 'POST', body: input })

export function useLogin() {
  return useMutation({
    mutationFn: login,
    onSuccess: (auth, input) => saveSession(auth, { username: input.username }),
  })
}

export function useRegister() {
  return useMutation({ mutationFn: register })
}
