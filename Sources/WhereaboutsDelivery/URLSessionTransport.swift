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
        let (data, response) = try await Self.exchange(urlRequest, on: session(timeout: timeout), within: timeout)
        guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name] = value }
        }
        return HTTPReply(status: http.statusCode, headers: headers, body: data)
    }

    /// Sends `request` on `session`, giving up with `URLError(.timedOut)` after `timeout` seconds
    /// (and a second's grace) whatever the server does: FoundationNetworking times out only a
    /// connection that goes quiet, so a server trickling its answer a byte a second would hold the
    /// caller for as long as it likes (Apple's URLSession ends it at the resource timeout).
    ///
    /// Neither the deadline nor a cancelled caller cancels the request: it ends on its own,
    /// unawaited. FoundationNetworking crashes when a task is cancelled while it completes ("Trying to
    /// access a behaviour for a task that in not in the registry", from `URLSessionTask.cancel()`),
    /// which an app's expired background run or a killed engine would do.
    private static func exchange(_ request: URLRequest, on session: URLSession, within timeout: TimeInterval) async throws -> (
        Data, URLResponse
    ) {
        let outcome = FirstOutcome<(Data, URLResponse)>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                outcome.start(continuation)
                Task.detached {
                    do { outcome.finish(.success(try await session.data(for: request))) } catch { outcome.finish(.failure(error)) }
                }
                Task.detached {
                    try? await Task.sleep(nanoseconds: UInt64((max(0, timeout) + 1) * 1e9))
                    outcome.finish(.failure(URLError(.timedOut)))
                }
            }
        } onCancel: {
            outcome.finish(.failure(CancellationError()))
        }
    }
}

/// The first of several ways a wait can end (an answer, a deadline, a cancellation), handed to the
/// waiting continuation once; the later ones are dropped.
private final class FirstOutcome<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Value, any Error>?
    private var early: Result<Value, any Error>?
    private var done = false

    /// Hands the wait its continuation; an outcome that came first (a cancellation) resumes it at once.
    func start(_ continuation: CheckedContinuation<Value, any Error>) {
        let ready: Result<Value, any Error>? = lock.withLock {
            if let early { return early }
            self.continuation = continuation
            return nil
        }
        if let ready { continuation.resume(with: ready) }
    }

    /// Ends the wait with `result`, unless it has ended.
    func finish(_ result: Result<Value, any Error>) {
        let waiting: CheckedContinuation<Value, any Error>? = lock.withLock {
            guard !done else { return nil }
            done = true
            guard let continuation else {
                early = result
                return nil
            }
            self.continuation = nil
            return continuation
        }
        waiting?.resume(with: result)
    }
}
