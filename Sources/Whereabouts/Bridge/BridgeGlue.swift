import Foundation

extension Bridge {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var current: Bridge?
    nonisolated(unsafe) private static var waiting: [@Sendable (Bridge) -> Void] = []

    /// The bridge the JavaScript glue (the Capacitor plugin, the React Native module) forwards to.
    /// React Native and Capacitor create their module themselves, so the bridge is installed when the
    /// app finishes launching: by the packages' automatic set-up (`AutomaticSetup` in
    /// `WhereaboutsApple`), or by an app that creates its engine itself with
    /// `Bridge.install(Bridge(engine: engine))`.
    public static var installed: Bridge? { lock.withLock { current } }

    /// Makes `bridge` the one the glue forwards to, and hands it to every ``whenInstalled(_:)`` waiting.
    public static func install(_ bridge: Bridge) {
        let ready = lock.withLock {
            current = bridge
            defer { waiting = [] }
            return waiting
        }
        for body in ready { body(bridge) }
    }

    /// Calls `body` with the installed bridge: at once when there is one, else as soon as one is
    /// installed. The glue relays events this way, whichever of it and the bridge comes first.
    public static func whenInstalled(_ body: @escaping @Sendable (Bridge) -> Void) {
        let bridge: Bridge? = lock.withLock {
            if current == nil { waiting.append(body) }
            return current
        }
        if let bridge { body(bridge) }
    }

    /// What the glue does with one JavaScript call: sends `method` and the call's options to the
    /// installed bridge, then hands `resolve` the result as Foundation objects (`NSNull` for `null`)
    /// or `reject` the error; `notConfigured` when no bridge is installed.
    public static func forward(
        _ method: String, options: [AnyHashable: Any], resolve: @escaping @Sendable (Any) -> Void,
        reject: @escaping @Sendable (BridgeError) -> Void
    ) {
        guard let bridge = installed else {
            return reject(
                BridgeError(code: "notConfigured", message: "\(method): no bridge: call Bridge.install(_:) when the app launches"))
        }
        bridge.forward(method, options: options, resolve: resolve, reject: reject)
    }

    /// ``forward(_:options:resolve:reject:)`` with the options as JSON text, as the React Native glue
    /// sends them: React Native's New Architecture leaves out every key whose value is `null` when it
    /// hands a JavaScript object to a legacy module, so `configure({upload: null})` would arrive as
    /// `{}`; text keeps every `null`. `nil` (JavaScript's `undefined`) is no options.
    public static func forward(
        _ method: String, json: String?, resolve: @escaping @Sendable (Any) -> Void, reject: @escaping @Sendable (BridgeError) -> Void
    ) {
        guard let bridge = installed else {
            return reject(
                BridgeError(code: "notConfigured", message: "\(method): no bridge: call Bridge.install(_:) when the app launches"))
        }
        bridge.forward(method, json: json, resolve: resolve, reject: reject)
    }

    /// ``forward(_:options:resolve:reject:)`` to this bridge. Options JSON cannot hold (a number that
    /// is NaN or infinite, which React Native's new architecture and Capacitor hand over as such) are
    /// refused with `invalidArguments` naming the value, never sent as no options.
    ///
    /// Calls run in the order they are forwarded: each starts once the ones before it have finished,
    /// except that `addRegionHere`, `flush`, `requestPermission`, `locationAction` and
    /// `configureNotifications`, which wait for a fix, the server or the user's answer to a dialog,
    /// do not hold up the calls after them (which may then start before them).
    public func forward(
        _ method: String, options: [AnyHashable: Any], resolve: @escaping @Sendable (Any) -> Void,
        reject: @escaping @Sendable (BridgeError) -> Void
    ) {
        if let known = BridgeMethod(rawValue: method), let path = Self.nonJSONValue(in: options) {
            return reject(.invalidArguments(known, "\(path) is NaN, infinite or not a JSON value"))
        }
        let arguments = JSONSerialization.isValidJSONObject(options) ? try? JSONSerialization.data(withJSONObject: options) : nil
        enqueue(method, arguments: arguments, resolve: resolve, reject: reject)
    }

    /// ``forward(_:json:resolve:reject:)`` to this bridge, in the same order as the calls forwarded
    /// with options.
    public func forward(
        _ method: String, json: String?, resolve: @escaping @Sendable (Any) -> Void, reject: @escaping @Sendable (BridgeError) -> Void
    ) {
        enqueue(method, arguments: json.map { Data($0.utf8) }, resolve: resolve, reject: reject)
    }

    /// Runs `method` in its turn and hands its answer to `resolve` or `reject`.
    private func enqueue(
        _ method: String, arguments: Data?, resolve: @escaping @Sendable (Any) -> Void, reject: @escaping @Sendable (BridgeError) -> Void
    ) {
        order.enqueue(holdsLine: !(BridgeMethod(rawValue: method)?.waitsOnTheWorld ?? false)) { [self] in
            switch await call(method, arguments: arguments) {
            case .success(let data):
                if let value = try? JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed) {
                    resolve(value)
                } else {
                    reject(BridgeError(code: "internal", message: "\(method): the answer is not JSON"))
                }
            case .failure(let error):
                reject(error)
            }
        }
    }

    /// Where `value` holds what JSON cannot: the first such member's path (`"distance"`,
    /// `"regions[2].radius"`), or `nil` when all of it is JSON.
    static func nonJSONValue(in value: Any, at path: String = "") -> String? {
        if let object = value as? [AnyHashable: Any] {
            for (key, member) in object.sorted(by: { "\($0.key)" < "\($1.key)" }) {
                guard let name = key.base as? String else { return "the key \(key) of \(path.isEmpty ? "the options" : "\"\(path)\"")" }
                if let found = nonJSONValue(in: member, at: path.isEmpty ? name : "\(path).\(name)") { return found }
            }
            return nil
        }
        if let array = value as? [Any] {
            for (index, element) in array.enumerated() {
                if let found = nonJSONValue(in: element, at: "\(path)[\(index)]") { return found }
            }
            return nil
        }
        return JSONSerialization.isValidJSONObject([value]) ? nil : "\"\(path)\""
    }

    /// Relays ``events()`` to `send` as Foundation objects until the task is cancelled or the engine
    /// shuts down: what the glue's event emitter runs while JavaScript listens.
    public func relayEvents(to send: @escaping @Sendable (_ name: String, _ body: Any) -> Void) -> Task<Void, Never> {
        let events = events()
        return Task {
            for await event in events {
                if let body = try? JSONSerialization.jsonObject(with: event.body) { send(event.name.rawValue, body) }
            }
        }
    }
}
