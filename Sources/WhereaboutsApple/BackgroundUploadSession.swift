import Foundation
import WhereaboutsCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The part of a background `URLSession` the transport uses (`AppleBackgroundSession.swift` adopts it
/// with `URLSessionConfiguration.background(withIdentifier:)`). The session reports each upload's reply
/// to ``UploadExchanges``, its delegate.
public protocol BackgroundUploadSession: AnyObject, Sendable {
    /// `uploadTask(with:fromFile:)` of `request` (its URL, method and headers; the body is in `file`),
    /// with `taskDescription` set, then `resume()`.
    func upload(_ request: OutgoingRequest, timeout: TimeInterval, fromFile file: URL, taskDescription: String)
}

/// The background session's delegate: collects each upload's reply and resumes the `send` waiting for
/// it. Uploads are keyed by their body file's path, which is also the task's `taskDescription`, so a
/// reply for a task from an earlier process is recognised and its file removed.
public final class UploadExchanges: @unchecked Sendable {
    private struct Exchange {
        let continuation: CheckedContinuation<HTTPReply, any Error>
        var body = Data()
    }

    /// Where the app delegate's completion handler waits.
    let finishedEvents = BackgroundEventsCompletion()
    private let log: AdapterLog
    private let lock = NSLock()
    private var waiting: [String: Exchange] = [:]

    init(log: AdapterLog) { self.log = log }

    /// Registers the `send` waiting for the upload of `file`, and gives up on it after `timeout` seconds.
    func begin(_ file: String, continuation: CheckedContinuation<HTTPReply, any Error>, timeout: TimeInterval) {
        lock.withLock { waiting[file] = Exchange(continuation: continuation) }
        DispatchQueue.global().asyncAfter(deadline: .now() + max(0, timeout)) { [weak self] in
            self?.take(file)?.continuation.resume(throwing: URLError(.timedOut))
        }
    }

    /// `urlSession(_:dataTask:didReceive:)`: part of a reply's body.
    public func received(_ data: Data, taskDescription: String?) {
        guard let file = taskDescription else { return }
        lock.withLock { waiting[file]?.body.append(data) }
    }

    /// `urlSession(_:task:didCompleteWithError:)`: an upload ended, with the server's reply (its HTTP
    /// status and headers) or with a transport error.
    public func completed(taskDescription: String?, status: Int?, headers: [String: String], error: (any Error)?) {
        guard let file = taskDescription else { return }
        try? FileManager.default.removeItem(atPath: file)
        guard let exchange = take(file) else {
            log(
                .upload, .notice,
                "an upload finished that no one awaits (timed out, or started by an earlier process); its records are resent after their lease"
            )
            return
        }
        if let error {
            exchange.continuation.resume(throwing: error)
        } else if let status {
            exchange.continuation.resume(returning: HTTPReply(status: status, headers: headers, body: exchange.body))
        } else {
            exchange.continuation.resume(throwing: URLError(.badServerResponse))
        }
    }

    /// `urlSessionDidFinishEvents(forBackgroundURLSession:)`: every event that woke the app has been
    /// delivered; the app delegate's completion handler is called.
    public func finishedDeliveringEvents() {
        let finishedEvents = finishedEvents
        Task { @MainActor in finishedEvents.finish() }
    }

    /// Removes and returns the exchange waiting for `file`.
    private func take(_ file: String) -> Exchange? {
        lock.withLock { waiting.removeValue(forKey: file) }
    }
}

/// The app delegate's completion handler for background session events, kept and called on the main
/// thread as UIKit requires.
///
/// An app relaunched for its session's events creates the session while it finishes launching, and
/// UIKit hands over the handler only afterwards: the session may have delivered every event by then.
/// A handler that comes after the session finished is called at once.
@MainActor
final class BackgroundEventsCompletion {
    /// The handler waiting for the session to finish its events.
    private var handler: (() -> Void)?
    /// Whether the session finished its events while no handler waited.
    private var finishedBeforeHandler = false

    nonisolated init() {}

    /// Keeps `handler` until the session has delivered its events, or calls it now if it has.
    func wait(_ handler: @escaping () -> Void) {
        guard !finishedBeforeHandler else {
            finishedBeforeHandler = false
            return handler()
        }
        self.handler = handler
    }

    /// Calls the handler, once; remembers the finish when none waits yet.
    func finish() {
        guard let waiting = handler else {
            finishedBeforeHandler = true
            return
        }
        handler = nil
        waiting()
    }
}
