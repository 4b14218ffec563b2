/// A cheap stand-in for comparing two region ids, for sorting the few events of one fix: the first
/// eight UTF-8 bytes of the id as a big-endian integer, zero-padded.
///
/// When the first nine bytes of both ids (or all of a shorter one) are ASCII and the integers
/// differ, integer order is `String` order: the ids first differ at an ASCII character that no
/// combining mark follows, which normalization leaves alone, and an id that another begins sorts
/// first either way. Otherwise the ids must be compared in full.
enum RegionIDOrder {
    /// The key of ids that cannot stand in for themselves: no key equals it, as every byte of a key
    /// is ASCII.
    static let none = UInt64.max

    /// The key of `id`, or ``none`` when it cannot stand in for the id: a byte among the first nine
    /// is not ASCII, or the id's bytes are not stored contiguously (a bridged string).
    static func key(of id: String) -> UInt64 {
        id.utf8.withContiguousStorageIfAvailable { bytes -> UInt64 in
            var prefix: UInt64 = 0
            withUnsafeMutableBytes(of: &prefix) {
                $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bytes).prefix(8)))
            }
            prefix = UInt64(bigEndian: prefix)
            let ninth = bytes.count > 8 ? bytes[8] : 0
            return prefix & 0x8080_8080_8080_8080 == 0 && ninth < 0x80 ? prefix : none
        } ?? none
    }
}
