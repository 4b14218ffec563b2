import Hummingbird

/// Answers a path no route serves with 404 and the JSON body every other error has
/// (`{"error":"not_found","message":…}`), instead of Hummingbird's empty one.
struct NotFoundMiddleware: RouterMiddleware {
    typealias Context = ServerRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound && error.body == nil {
            throw APIError.notFound(
                "no route serves \(request.method.rawValue) \(request.uri.path.prefix(200)); the API is under /v1/devices/{device}/… (see the README)"
            )
        }
    }
}
