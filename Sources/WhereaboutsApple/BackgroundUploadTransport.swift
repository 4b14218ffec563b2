import Foundation
import WhereaboutsCore
import WhereaboutsDelivery

/// An ``WhereaboutsDelivery/HTTPTransport`` for the ``WhereaboutsDelivery/Uploader`` over a background
/// `URLSession` (`URLSessionConfiguration.background(withIdentifier:)`), so that an upload the app
/// starts keeps going in the system's transfer service while the app is suspended.
///
/// Each request body is written to a file under Caches and sent with `uploadTask(with:fromFile:)`
/// (background sessions upload from files only); the reply arrives through the session's delegate
/// callbacks (``UploadExchanges``). Create the transport on the main thread when the app launches, before
/// `application(_:didFinishLaunchingWithOptions:)` returns, and pass the app delegate's
/// `application(_:handleEventsForBackgroundURLSession:completionHandler:)` to
/// ``handleEvents(forBackgroundURLSession:completionHandler:)``.
///
/// A background session is slower than an ordinary one and the system may defer a transfer started
/// while the app is in the background, so ``WhereaboutsDelivery/URLSessionTransport`` stays the better
/// choice for an app that uploads only in the foreground; this transport is for uploads that must
/// outlive the app's time to run.
///
/// What happens when the app is suspended or killed mid-upload:
///
/// - **Suspended.** The transfer goes on out of process. When the app runs again, the session's
///   delegate gets the reply; if ``send(_:timeout:)`` is still waiting, it returns it and the uploader
///   marks the records delivered or rejected as usual.
/// - **Waiting too long.** ``send(_:timeout:)`` waits at most `timeout` seconds and then throws
///   `URLError(.timedOut)`: the uploader backs off and the records go back to pending. The transfer is
///   left running; if it reaches the server, the later resend is a duplicate.
/// - **Killed.** The uploader's claim on the records is a lease in the store, not a deletion: no reply
///   was recorded, so when the lease expires (``WhereaboutsDelivery/UploaderConfiguration/lease``,
///   two minutes by default) the records are pending again and the next flush sends them again. If
///   the system relaunches the app for the finished transfer, the reply reaches a session that no
///   longer awaits it: its file is deleted and the reply is only logged.
///
/// Either way nothing is lost (the store drops a record only after a server acknowledged it), and a
/// resend is harmless: every record carries its stable id, and the server deduplicates by id.
public final class BackgroundUploadTransport: HTTPTransport, @unchecked Sendable {
    /// The background session's identifier.
    public let identifier: String
    /// The session's delegate, which the session hands each reply.
    public let exchanges: UploadExchanges
    private let session: any BackgroundUploadSession
    private let directory: URL

    /// Creates the transport on any background session; apps use the convenience initializer on
    /// `URLSession`.
    /// - Parameters:
    ///   - identifier: the background session's identifier, unique to this use in the app.
    ///   - directory: where request bodies wait as files until their upload ends.
    ///   - log: where replies no one awaits are logged.
    ///   - makeSession: creates the session with the transport's ``UploadExchanges`` as its delegate.
    public init(
        identifier: String, directory: URL, log: AdapterLog = .system,
        session makeSession: (UploadExchanges) -> any BackgroundUploadSession
    ) {
        self.identifier = identifier
        self.directory = directory
        exchanges = UploadExchanges(log: log)
        session = makeSession(exchanges)
    }

    /// Sends `request` through the background session and waits for the reply, at most `timeout`
    /// seconds (see the type's notes on what a timeout leaves behind).
    public func send(_ request: OutgoingRequest, timeout: TimeInterval) async throws -> HTTPReply {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent(UUID().uuidString)
        try request.body.write(to: file, options: .atomic)
        return try await withCheckedThrowingContinuation { continuation in
            exchanges.begin(file.path, continuation: continuation, timeout: timeout)
            session.upload(request, timeout: timeout, fromFile: file, taskDescription: file.path)
        }
    }

    /// Hands the app delegate's completion handler to the transport; it is called on the main thread
    /// once the session has delivered every event that woke the app.
    ///
    /// ```swift
    /// func application(_ application: UIApplication, handleEventsForBackgroundURLSession identifier: String,
    ///                  completionHandler: @escaping () -> Void) {
    ///     _ = transport.handleEvents(forBackgroundURLSession: identifier, completionHandler: completionHandler)
    /// }
    /// ```
    /// - Returns: `false` when `identifier` is another session's (the handler is then not kept).
    @MainActor
    @discardableResult
    public func handleEvents(forBackgroundURLSession identifier: String, completionHandler: @escaping () -> Void) -> Bool {
        guard identifier == self.identifier else { return false }
        exchanges.finishedEvents.wait(completionHandler)
        return true
    }
}
