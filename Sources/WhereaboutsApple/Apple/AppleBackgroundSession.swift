#if os(iOS)
    import Foundation
    import WhereaboutsCore

    /// A background `URLSession` as a ``BackgroundUploadSession``, its delegate callbacks handed to
    /// ``UploadExchanges``.
    final class SystemBackgroundSession: NSObject, BackgroundUploadSession, URLSessionDataDelegate, @unchecked Sendable {
        private let exchanges: UploadExchanges
        private var session: URLSession!

        init(identifier: String, exchanges: UploadExchanges) {
            self.exchanges = exchanges
            super.init()
            let configuration = URLSessionConfiguration.background(withIdentifier: identifier)
            configuration.httpShouldSetCookies = false
            configuration.urlCache = nil
            configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
            session = URLSession(configuration: configuration, delegate: self, delegateQueue: nil)
        }

        func upload(_ request: OutgoingRequest, timeout: TimeInterval, fromFile file: URL, taskDescription: String) {
            var urlRequest = URLRequest(url: request.url, timeoutInterval: timeout)
            urlRequest.httpMethod = request.method
            for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
            let task = session.uploadTask(with: urlRequest, fromFile: file)
            task.taskDescription = taskDescription
            task.resume()
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            exchanges.received(data, taskDescription: dataTask.taskDescription)
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            let response = task.response as? HTTPURLResponse
            var headers: [String: String] = [:]
            for (name, value) in response?.allHeaderFields ?? [:] {
                if let name = name as? String, let value = value as? String { headers[name] = value }
            }
            exchanges.completed(taskDescription: task.taskDescription, status: response?.statusCode, headers: headers, error: error)
        }

        func urlSessionDidFinishEvents(forBackgroundURLSession session: URLSession) {
            exchanges.finishedDeliveringEvents()
        }
    }

    extension BackgroundUploadTransport {
        /// Creates the transport and its background session, its request bodies under Caches. Call it on
        /// the main thread, once per process and identifier, as the app launches.
        /// - Parameter identifier: the background session's identifier, unique to this use in the app.
        @MainActor
        public convenience init(identifier: String) {
            let directory = FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask)[0]
                .appendingPathComponent("WhereaboutsUploads", isDirectory: true)
            self.init(identifier: identifier, directory: directory) { SystemBackgroundSession(identifier: identifier, exchanges: $0) }
        }
    }
#endif
