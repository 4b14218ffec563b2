#if canImport(CoreLocation) && canImport(os)
    import Foundation
    import WhereaboutsCore
    import WhereaboutsDelivery
    import os

    /// An ``WhereaboutsDelivery/HTTPTransport`` for the ``WhereaboutsDelivery/Uploader`` over a background
    /// `URLSession` (`URLSessionConfiguration.background(withIdentifier:)`), so that an upload the app
    /// starts keeps going in the system's transfer service while the app is suspended.
    ///
    /// Each request body is written to a file under Caches and sent with `uploadTask(with:fromFile:)`
    /// (background sessions upload from files only); the reply arrives through the session's delegate
    /// callbacks. Create the transport on the main thread when the app launches, before
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
        private let session: URLSession
        private let exchanges: UploadExchanges
        private let directory: URL

        /// Creates the transport and its background session. Call it on the main thread, once per process
        /// and identifier, as the app launches.
        /// - Parameter identifier: the background session's identifier, unique to this use in the app.
        @MainActor
        public init(identifier: String) {
            self.identifier = identifier
            directory = FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask)[0]
                .appendingPathComponent("WhereaboutsUploads", isDirectory: true)
            exchanges = UploadExchanges(finishedEvents: BackgroundEventsCompletion())
            let configuration = URLSessionConfiguration.background(withIdentifier: identifier)
            configuration.httpShouldSetCookies = false
            configuration.urlCache = nil
            configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
            session = URLSession(configuration: configuration, delegate: exchanges, delegateQueue: nil)
        }

        /// Sends `request` through the background session and waits for the reply, at most `timeout`
        /// seconds (see the type's notes on what a timeout leaves behind).
        public func send(_ request: OutgoingRequest, timeout: TimeInterval) async throws -> HTTPReply {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let file = directory.appendingPathComponent(UUID().uuidString)
            try request.body.write(to: file, options: .atomic)
            var urlRequest = URLRequest(url: request.url, timeoutInterval: timeout)
            urlRequest.httpMethod = request.method
            for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
            let task = session.uploadTask(with: urlRequest, fromFile: file)
            task.taskDescription = file.path
            return try await withCheckedThrowingContinuation { continuation in
                exchanges.begin(file.path, continuation: continuation, timeout: timeout)
                task.resume()
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
            exchanges.finishedEvents.handler = completionHandler
            return true
        }
    }

    /// The app delegate's completion handler for background session events, kept and called on the main
    /// thread as UIKit requires.
    @MainActor
    final class BackgroundEventsCompletion {
        /// The handler waiting for the session to finish its events.
        var handler: (() -> Void)?

        /// Calls the handler, once.
        func finish() {
            let waiting = handler
            handler = nil
            waiting?()
        }
    }

    /// The background session's delegate: collects each upload's reply and resumes the `send` waiting for
    /// it. Uploads are keyed by their body file's path, which is also the task's `taskDescription`, so a
    /// reply for a task from an earlier process is recognised and its file removed.
    final class UploadExchanges: NSObject, URLSessionDataDelegate, @unchecked Sendable {
        private struct Exchange {
            let continuation: CheckedContinuation<HTTPReply, any Error>
            var body = Data()
        }

        /// Where the app delegate's completion handler waits.
        let finishedEvents: BackgroundEventsCompletion
        private let lock = NSLock()
        private var waiting: [String: Exchange] = [:]

        init(finishedEvents: BackgroundEventsCompletion) { self.finishedEvents = finishedEvents }

        /// Registers the `send` waiting for the upload of `file`, and gives up on it after `timeout` seconds.
        func begin(_ file: String, continuation: CheckedContinuation<HTTPReply, any Error>, timeout: TimeInterval) {
            lock.lock()
            waiting[file] = Exchange(continuation: continuation)
            lock.unlock()
            DispatchQueue.global().asyncAfter(deadline: .now() + max(0, timeout)) { [weak self] in
                self?.take(file)?.continuation.resume(throwing: URLError(.timedOut))
            }
        }

        /// Part of a reply's body.
        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            guard let file = dataTask.taskDescription else { return }
            lock.lock()
            defer { lock.unlock() }
            waiting[file]?.body.append(data)
        }

        /// An upload ended: with the server's reply, or with a transport error.
        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            guard let file = task.taskDescription else { return }
            try? FileManager.default.removeItem(atPath: file)
            guard let exchange = take(file) else {
                AdapterLog.upload.notice(
                    "an upload finished that no one awaits (timed out, or started by an earlier process); its records are resent after their lease"
                )
                return
            }
            if let error {
                exchange.continuation.resume(throwing: error)
                return
            }
            guard let response = task.response as? HTTPURLResponse else {
                exchange.continuation.resume(throwing: URLError(.badServerResponse))
                return
            }
            var headers: [String: String] = [:]
            for (name, value) in response.allHeaderFields {
                if let name = name as? String, let value = value as? String { headers[name] = value }
            }
            exchange.continuation.resume(returning: HTTPReply(status: response.statusCode, headers: headers, body: exchange.body))
        }

        /// Every event that woke the app has been delivered: call the app delegate's completion handler.
        func urlSessionDidFinishEvents(forBackgroundURLSession session: URLSession) {
            let finishedEvents = finishedEvents
            Task { @MainActor in finishedEvents.finish() }
        }

        /// Removes and returns the exchange waiting for `file`.
        private func take(_ file: String) -> Exchange? {
            lock.lock()
            defer { lock.unlock() }
            return waiting.removeValue(forKey: file)
        }
    }
#endif
