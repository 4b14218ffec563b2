import Foundation
import Whereabouts

/// A seed app's JavaScript side: each call goes through the ``Whereabouts/Bridge`` as the React Native
/// or Capacitor glue sends it, and comes back as JavaScript would see it, and the events it listens to
/// are kept as they arrive.
final class SeedJavaScript: @unchecked Sendable {
    /// A call the bridge refused: its error code and message.
    struct Rejected: Error, CustomStringConvertible {
        let code: String
        let message: String
        var description: String { "\(code): \(message)" }
    }

    let bridge: Bridge
    private let lock = NSLock()
    private var received: [(name: String, body: Any)] = []
    private var listening: Task<Void, Never>?

    init(_ bridge: Bridge) { self.bridge = bridge }

    deinit { listening?.cancel() }

    /// Starts listening to every event, as `Whereabouts.addListener` does.
    func listen() {
        let events = bridge.events()
        listening = Task { [weak self] in
            for await event in events {
                guard let body = try? JSONSerialization.jsonObject(with: event.body) else { continue }
                self?.lock.withLock { self?.received.append((event.name.rawValue, body)) }
            }
        }
    }

    /// The bodies of the events named `name` received so far.
    func events(_ name: String) -> [Any] { lock.withLock { received.filter { $0.name == name }.map(\.body) } }

    /// Calls `method` and returns its result (`NSNull` for `null`), or throws ``Rejected``.
    @discardableResult
    func call(_ method: String, _ arguments: String = "{}") async throws -> Any {
        let text = await bridge.call(method, json: arguments)
        let reply = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] ?? [:]
        if let error = reply["error"] as? [String: Any] {
            throw Rejected(code: error["code"] as? String ?? "?", message: error["message"] as? String ?? "")
        }
        return reply["result"] ?? NSNull()
    }

    /// The error code of a call that must be refused, or `nil` when it succeeded.
    func refusal(_ method: String, _ arguments: String = "{}") async -> String? {
        do {
            try await call(method, arguments)
            return nil
        } catch let rejected as Rejected {
            return rejected.code
        } catch {
            return "\(error)"
        }
    }

    /// `getLocationData`'s snapshot.
    func locationData() async throws -> [String: Any] {
        try await call("getLocationData") as? [String: Any] ?? [:]
    }
}
