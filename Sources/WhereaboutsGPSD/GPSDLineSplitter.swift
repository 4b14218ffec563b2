/// Cuts the bytes read from gpsd into newline-terminated lines, however the reads split them.
///
/// A trailing carriage return is dropped and blank lines are left out. A line longer than
/// ``maximumLineLength`` bytes is not buffered whole: its start is kept for the error message and the
/// rest is discarded up to the next newline.
public struct GPSDLineSplitter: Sendable {
    /// What the splitter found in the bytes pushed so far.
    public enum Piece: Sendable, Equatable {
        /// A complete line, without its line ending.
        case line(String)
        /// A line that exceeded ``GPSDLineSplitter/maximumLineLength``: its first bytes and its length in bytes.
        case overlong(start: String, byteCount: Int)
    }

    /// The longest line kept, in bytes (256 KiB). gpsd's largest reports (SKY with every satellite of
    /// every constellation, RAW measurements) stay well below it.
    public static let maximumLineLength = 262_144

    private static let startLength = 200
    private var pending: [UInt8] = []
    private var overlongStart: [UInt8]?
    private var overlongCount = 0

    /// Creates an empty splitter.
    public init() {}

    /// Appends `bytes` and returns the lines they complete, in order.
    public mutating func push(_ bytes: some Collection<UInt8>) -> [Piece] {
        var pieces: [Piece] = []
        var rest = bytes[...]
        while let newline = rest.firstIndex(of: 10) {
            take(rest[..<newline])
            finishLine(into: &pieces)
            rest = rest[rest.index(after: newline)...]
        }
        take(rest)
        return pieces
    }

    private mutating func take(_ bytes: some Collection<UInt8>) {
        if overlongStart != nil {
            overlongCount += bytes.count
            return
        }
        pending.append(contentsOf: bytes)
        if pending.count > Self.maximumLineLength {
            overlongStart = Array(pending.prefix(Self.startLength))
            overlongCount = pending.count
            pending = []
        }
    }

    private mutating func finishLine(into pieces: inout [Piece]) {
        if let start = overlongStart {
            pieces.append(.overlong(start: String(decoding: start, as: UTF8.self), byteCount: overlongCount))
            overlongStart = nil
            overlongCount = 0
            return
        }
        var line = pending[...]
        if line.last == 13 { line = line.dropLast() }
        pending.removeAll(keepingCapacity: true)
        if line.contains(where: { $0 != 32 && $0 != 9 && $0 != 13 }) {
            pieces.append(.line(String(decoding: line, as: UTF8.self)))
        }
    }
}
