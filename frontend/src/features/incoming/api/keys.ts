import { queryRoots } from '@/lib/queryKeys'

export const incomingKeys = {
  all: queryRoots.incoming,
  board: () => [...queryRoots.incoming, 'board'] as const,
}
