import Foundation

/// Hands every value to each of any number of `AsyncStream` subscribers, so an app's UI and its
/// JavaScript bridge can both listen. Each subscriber keeps the newest `buffer` values it has not
/// read yet.
final class Broadcast<Element: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var subscribers: [UUID: AsyncStream<Element>.Continuation] = [:]
    private var finished = false
    private let buffer: Int

    init(buffer: Int = 256) { self.buffer = buffer }

    /// A new stream that receives every value yielded from now on.
    func subscribe() -> AsyncStream<Element> {
        let (stream, continuation) = AsyncStream.makeStream(of: Element.self, bufferingPolicy: .bufferingNewest(buffer))
        let id = UUID()
        let alreadyFinished = lock.withLock {
            if !finished { subscribers[id] = continuation }
            return finished
        }
        if alreadyFinished {
            continuation.finish()
        } else {
            continuation.onTermination = { [weak self] _ in self?.lock.withLock { _ = self?.subscribers.removeValue(forKey: id) } }
        }
        return stream
    }

    /// Whether any stream is subscribed now.
    var hasSubscribers: Bool { lock.withLock { !subscribers.isEmpty } }

    func yield(_ value: Element) {
        for continuation in lock.withLock({ Array(subscribers.values) }) { continuation.yield(value) }
    }

    func finish() {
        let ended = lock.withLock {
            finished = true
            defer { subscribers.removeAll() }
            return Array(subscribers.values)
        }
        for continuation in ended { continuation.finish() }
    }
}
