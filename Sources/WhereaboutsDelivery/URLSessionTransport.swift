import Foundation
import WhereaboutsCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// ``HTTPTransport`` on URLSession (FoundationNetworking on Linux). One ephemeral session (no
/// cookies, no cache) per timeout value, because FoundationNetworking honours only the session's
/// request timeout.
public final class URLSessionTransport: HTTPTransport, @unchecked Sendable {
    private let lock = NSLock()
    private var sessions: [TimeInterval: URLSession] = [:]

    /// Creates a transport.
    public init() {}

    private func session(timeout: TimeInterval) -> URLSession {
        lock.lock()
        defer { lock.unlock() }
        if let session = sessions[timeout] { return session }
        let configuration = URLSessionConfiguration.ephemeral
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpShouldSetCookies = false
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout
        let session = URLSession(configuration: configuration)
        sessions[timeout] = session
        return session
    }

    public func send(_ request: OutgoingRequest, timeout: TimeInterval) async throws -> HTTPReply {
        var urlRequest = URLRequest(url: request.url, timeoutInterval: timeout)
        urlRequest.httpMethod = request.method
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        urlRequest.httpBody = request.body
        let (data, response) = try await Self.exchange(urlRequest, on: session(timeout: timeout))
        guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name] = value }
        }
        return HTTPReply(status: http.statusCode, headers: headers, body: data)
    }

    /// Sends `request` on `session`. On Linux a cancelled caller does not cancel the request: it ends on
    /// its own within the session's timeout. FoundationNetworking crashes when a task is cancelled while
    /// it completes ("Trying to access a behaviour for a task that in not in the registry", from
    /// `URLSessionTask.cancel()`), which an app's expired background run or a killed engine would do.
    private static func exchange(_ request: URLRequest, on session: URLSession) async throws -> (Data, URLResponse) {
        #if canImport(FoundationNetworking)
            try await Task.detached { try await session.data(for: request) }.value
        #else
            try await session.data(for: request)
        #endif
    }
}
