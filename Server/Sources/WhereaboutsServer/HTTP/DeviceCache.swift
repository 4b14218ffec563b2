import NIOConcurrencyHelpers

/// What the write routes have read of each device to authenticate it (its token digest; for `/pub`
/// its OwnTracks account), so a known device's next request skips that read.
///
/// A cached value is only a guess: the write the request makes confirms it in its own transaction,
/// or the route reads it again first (``API/answerWrite(_:device:credential:cached:cache:credentialName:payload:reauthenticate:holds:_:)``).
/// When the stored value differs, the request is authenticated again from storage, so a rotated or
/// removed token is refused as soon as it is without the cache, on every instance.
final class DeviceCache<Value: Sendable>: Sendable {
    private let values = NIOLockedValueBox<[String: Value]>([:])
    private let capacity: Int

    /// A cache of at most `capacity` devices; when full, it starts again empty.
    init(capacity: Int = 10_000) { self.capacity = capacity }

    /// The value last read for `device`, if any.
    subscript(device: String) -> Value? { values.withLockedValue { $0[device] } }

    /// Keeps `value` for `device`.
    func remember(_ value: Value, for device: String) {
        values.withLockedValue { values in
            if values.count >= capacity, values[device] == nil { values.removeAll(keepingCapacity: true) }
            values[device] = value
        }
    }

    /// Drops `device`'s value.
    func forget(_ device: String) {
        _ = values.withLockedValue { $0.removeValue(forKey: device) }
    }
}
