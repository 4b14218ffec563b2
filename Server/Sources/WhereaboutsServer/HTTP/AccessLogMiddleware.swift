import Foundation
import Hummingbird
import Logging

/// Logs every answered request at `info` (method, path without its query, status, milliseconds,
/// client address) and records it in the metrics by route, method and status; logs failures at
/// `error` and answers them 500 without detail.
struct AccessLogMiddleware: RouterMiddleware {
    typealias Context = ServerRequestContext
    let metrics: ServerMetrics
    let logger: Logger

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        do {
            let response = try await next(request, context)
            record(request, context, status: response.status.code, since: start)
            return response
        } catch let error as any HTTPResponseError {
            record(request, context, status: error.status.code, since: start)
            if error.status.code >= 500 { logger.error("\(request.method) \(request.uri.path): \(error)") }
            throw error
        } catch {
            record(request, context, status: 500, since: start)
            logger.error("\(request.method) \(request.uri.path) failed: \(error)")
            throw APIError(.internalServerError, "internal", "the server could not complete the request; it was logged, retry later")
        }
    }

    private func record(_ request: Request, _ context: Context, status: Int, since start: ContinuousClock.Instant) {
        let duration = ContinuousClock.now - start
        metrics.observe(route: context.endpointPath ?? "unmatched", method: request.method.rawValue, status: status, duration: duration)
        if logger.logLevel <= .info {
            logger.info(
                "\(request.method) \(request.uri.path) \(status) \(String(format: "%.1f", duration.seconds * 1000)) ms",
                metadata: ["client": "\(context.remoteAddress?.ipAddress ?? "-")"])
        }
    }
}
