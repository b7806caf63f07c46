// The HTTP contract's routes as types, read from `paths` in api-schema.ts (generated from
// docs/openapi.yaml, decision 0009): a route names its method and path as the contract
// writes them ('GET /booking/{id}/track'), and that picks the path parameters, query,
// body, headers and answer `call()` (api.ts) takes and gives. Types only: nothing here runs.
import type { paths } from './api-schema'

type Method = 'get' | 'put' | 'post' | 'patch' | 'delete'

/** Every route of the contract, as 'METHOD /path' without the `/api` every path starts with. */
export type Route = {
  [P in keyof paths]: {
    [M in Method]: paths[P][M] extends object ? `${Uppercase<M>} ${P extends `/api${infer R}` ? R : never}` : never
  }[Method]
}[keyof paths]

/** The contract's operation for a route. */
export type Operation<R extends Route> = R extends `${infer M} ${infer P}`
  ? `/api${P}` extends infer Full extends keyof paths
    ? Lowercase<M> extends infer Verb extends Method
      ? NonNullable<paths[Full][Verb]>
      : never
    : never
  : never

type Params<Op> = Op extends { parameters: infer P } ? P : never
/** One kind of the route's parameters (`path`, `query`, `header`), never when it has none. */
type Param<Op, K extends string> = Params<Op> extends { [_ in K]?: infer X } ? NonNullable<X> : never

/** `path` when the route has `{...}` in it: each one's value, filled in and URI-encoded. */
type PathPart<Op> = [Param<Op, 'path'>] extends [never] ? { path?: never } : { path: Param<Op, 'path'> }

/** `query` as the contract declares it: required when one of its parameters is. */
type QueryPart<Op> = Params<Op> extends { query: infer Q }
  ? { query: Q }
  : [Param<Op, 'query'>] extends [never]
    ? { query?: never }
    : { query?: Param<Op, 'query'> }

type Json<Content> = Content extends { content: { 'application/json': infer B } } ? B : never

/** `body`: the contract's JSON request body, required unless the contract says optional. */
type BodyPart<Op> = Op extends { requestBody: infer B }
  ? { body: Json<B> }
  : Op extends { requestBody?: infer B }
    ? [NonNullable<B>] extends [never]
      ? { body?: never }
      : { body?: Json<NonNullable<B>> }
    : { body?: never }

/** The headers the contract declares for the route (an Idempotency-Key), and a bearer token sent by hand. */
type HeaderPart<Op> = {
  headers?: ([Param<Op, 'header'>] extends [never] ? unknown : Param<Op, 'header'>) & { Authorization?: string }
}

/** What the wrapper itself takes, whatever the route (see RequestOptions in api.ts). */
interface Transport {
  signal?: AbortSignal
  timeoutMs?: number
  /** Send no token, whoever is signed in (e.g. logout, which carries its refresh token). */
  anonymous?: boolean
}

/** The second argument of `call(route, init)`. */
export type RouteInit<R extends Route> = PathPart<Operation<R>> &
  QueryPart<Operation<R>> &
  BodyPart<Operation<R>> &
  HeaderPart<Operation<R>> &
  Transport

type RequiredKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? never : K }[keyof T]

/**
 * `init` may be left out when nothing in it is required. (Distributed over a union, so
 * that a path the contract lacks is reported as that, not as a missing argument.)
 */
export type RouteArgs<R extends Route> = R extends Route
  ? [RequiredKeys<RouteInit<R>>] extends [never]
    ? [init?: RouteInit<R>]
    : [init: RouteInit<R>]
  : never

type Success = 200 | 201 | 202 | 204

/** What a route answers when it succeeds: its JSON, or undefined for an answer without a body (204). */
export type Answer<R extends Route> =
  Operation<R> extends { responses: infer Responses }
    ? Responses[Extract<keyof Responses, Success>] extends infer S
      ? S extends { content: { 'application/json': infer B } }
        ? B
        : undefined
      : never
    : never
