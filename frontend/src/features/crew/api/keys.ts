import { queryRoots } from '@/lib/queryKeys'

export const crewKeys = {
  all: queryRoots.crew,
  me: () => [...queryRoots.crew, 'me'] as const,
}
