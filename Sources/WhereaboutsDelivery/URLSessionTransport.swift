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
        let (data, response) = try await session(timeout: timeout).data(for: urlRequest)
        guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name] = value }
        }
        return HTTPReply(status: http.statusCode, headers: headers, body: data)
    }
}
