import Hummingbird

/// Answers 405 with `Allow` to every method but GET, HEAD and POST, before routing: CONNECT, PUT,
/// DELETE, TRACE and the rest get a prompt, definite answer (``RequestDeadlines`` closes the
/// connection after a CONNECT, whose stream the client may treat as a tunnel).
struct MethodGuardMiddleware: RouterMiddleware {
    typealias Context = ServerRequestContext
    static let allowed: [HTTPRequest.Method] = [.get, .head, .post]

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard Self.allowed.contains(request.method) else {
            throw APIError(
                .methodNotAllowed, "method_not_allowed",
                "\(request.method.rawValue.prefix(20)) is not served here; use \(Self.allowed.map(\.rawValue).joined(separator: ", "))",
                allow: Self.allowed.map(\.rawValue).joined(separator: ", "))
        }
        return try await next(request, context)
    }
}
