import Foundation

/// Mints record ids as RFC 9562 UUIDs of version 7: the first 48 bits are Unix time in milliseconds
/// (big-endian), then the version (`0111`), 12 random bits, the variant (`10`) and 62 random bits.
///
/// Ids minted this way sort by time, so a server's `(device, id)` index receives one device's new
/// records at its right-hand edge, as with an auto-increment key, instead of on a random page each.
/// Record ids stay opaque: a server accepts any UUID, and nothing may read meaning into these bits.
///
/// ```swift
/// let id = RecordID.make(at: fix.timestamp)
/// var generator = SeededGenerator(seed: 7)
/// let replayable = RecordID.make(at: fix.timestamp, using: &generator)
/// ```
public enum RecordID {
    /// The largest time a version 7 id holds: 2^48 − 1 milliseconds after 1970 (the year 10889).
    static let maxMilliseconds: UInt64 = (1 << 48) - 1

    /// A version 7 id for `date`, its 74 random bits drawn from `generator`; a seeded generator gives
    /// the same id for the same date every run. Dates before 1970 give time 0, dates past the 48-bit
    /// range the largest time.
    public static func make(at date: Date, using generator: inout some RandomNumberGenerator) -> UUID {
        make(at: date, bits: (generator.next(), generator.next()))
    }

    /// A version 7 id for `date` whose 74 other bits are taken from `bits` (the low 12 bits of the
    /// first word, the low 62 of the second) instead of drawn at random: an id derived from content,
    /// such as a hash of it, that still sorts by time. The same date and bits give the same id.
    public static func make(at date: Date, bits: (UInt64, UInt64)) -> UUID {
        make(milliseconds: milliseconds(date), random: bits)
    }

    /// A version 7 id for `date`, its random bits from the system's generator. The core reads no
    /// clock: the caller says when.
    public static func make(at date: Date) -> UUID {
        var generator = SystemRandomNumberGenerator()
        return make(at: date, using: &generator)
    }

    /// Whole milliseconds since 1970, clamped to the 48 bits a version 7 id holds.
    static func milliseconds(_ date: Date) -> UInt64 {
        let value = (date.timeIntervalSince1970 * 1000).rounded(.down)
        guard value > 0 else { return 0 }
        return value < Double(maxMilliseconds) ? UInt64(value) : maxMilliseconds
    }

    /// Lays out the id: time, version 7, 12 bits of `random.0`, variant `10`, 62 bits of `random.1`.
    static func make(milliseconds: UInt64, random: (UInt64, UInt64)) -> UUID {
        let high = milliseconds << 16 | 0x7000 | (random.0 & 0x0FFF)
        let low = 0x8000_0000_0000_0000 | (random.1 & 0x3FFF_FFFF_FFFF_FFFF)
        func byte(_ word: UInt64, _ index: Int) -> UInt8 { UInt8(truncatingIfNeeded: word >> (56 - 8 * index)) }
        return UUID(
            uuid: (
                byte(high, 0), byte(high, 1), byte(high, 2), byte(high, 3), byte(high, 4), byte(high, 5), byte(high, 6), byte(high, 7),
                byte(low, 0), byte(low, 1), byte(low, 2), byte(low, 3), byte(low, 4), byte(low, 5), byte(low, 6), byte(low, 7)
            ))
    }
}
