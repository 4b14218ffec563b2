/// A cheap stand-in for comparing two region ids, for sorting the few events of one fix: the first
/// eight UTF-8 bytes of the id as a big-endian integer, zero-padded.
///
/// When the first nine bytes of both ids (or all of a shorter one) are ASCII and the integers
/// differ, integer order is `String` order: the ids first differ at an ASCII character that no
/// combining mark follows, which normalization leaves alone, and an id that another begins sorts
/// first either way. Otherwise ``precedes(_:)`` cannot tell, and the ids must be compared in full.
struct RegionIDOrder {
    private let prefix: UInt64
    private let decisive: Bool

    /// The key of `id`; not decisive for an id whose bytes are not stored contiguously (a bridged
    /// string), whose order is then always found by comparing in full.
    init(_ id: String) {
        let key = id.utf8.withContiguousStorageIfAvailable { bytes in
            var prefix: UInt64 = 0
            withUnsafeMutableBytes(of: &prefix) { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bytes).prefix(8))) }
            prefix = UInt64(bigEndian: prefix)
            let ninth = bytes.count > 8 ? bytes[8] : 0
            return (prefix, prefix & 0x8080_8080_8080_8080 == 0 && ninth < 0x80)
        }
        (prefix, decisive) = key ?? (0, false)
    }

    /// Whether the id of `self` sorts before that of `other`, or `nil` when only comparing the ids
    /// in full can tell.
    @inline(__always)
    func precedes(_ other: RegionIDOrder) -> Bool? {
        decisive && other.decisive && prefix != other.prefix ? prefix < other.prefix : nil
    }
}
