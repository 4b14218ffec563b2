/// Finds the elements of one array in a JSON document streamed in chunks — the array stored under
/// `key` in the root object — and returns each element's bytes when it is complete. Only the element
/// being read is held, so a document of any size streams in bounded memory. It checks structure
/// (brackets, strings), not values: each element is parsed on its own afterwards.
struct JSONArrayStream {
    enum Failure: Error, Equatable {
        case malformed(offset: Int, problem: String)
    }

    private let key: [UInt8]
    private var buffer: [UInt8] = []
    private var consumed = 0
    private var depth = 0
    private var inString = false
    private var escaped = false
    private var stringStart = 0
    private var lastRootKey: [UInt8] = []
    private var inArray = false
    private var elementStart: Int?
    private(set) var sawArray = false
    private var sawRoot = false

    init(key: String) { self.key = Array(key.utf8) }

    /// Adds bytes; returns the elements completed by them.
    mutating func feed(_ bytes: some Collection<UInt8>) throws(Failure) -> [[UInt8]] {
        let start = buffer.count
        buffer.append(contentsOf: bytes)
        var elements: [[UInt8]] = []
        var i = start
        while i < buffer.count {
            let c = buffer[i]
            if inString {
                if escaped {
                    escaped = false
                } else if c == 0x5C {
                    escaped = true
                } else if c == 0x22 {
                    inString = false
                    if depth == 1 && !inArray { lastRootKey = Array(buffer[(stringStart + 1)..<i]) }
                }
                i += 1
                continue
            }
            switch c {
            case 0x22:
                if inArray && depth == 2 && elementStart == nil {
                    throw .malformed(
                        offset: consumed + i, problem: "an element of \"\(String(decoding: key, as: UTF8.self))\" is not an object")
                }
                inString = true
                stringStart = i
            case 0x7B, 0x5B:
                if depth == 0 {
                    guard c == 0x7B else { throw .malformed(offset: consumed + i, problem: "the document is not a JSON object") }
                    sawRoot = true
                }
                if depth == 1 && c == 0x5B && lastRootKey == key && !sawArray {
                    inArray = true
                    sawArray = true
                } else if inArray && depth == 2 && elementStart == nil {
                    elementStart = i
                }
                depth += 1
            case 0x7D, 0x5D:
                depth -= 1
                guard depth >= 0 else { throw .malformed(offset: consumed + i, problem: "a closing bracket closes nothing") }
                if inArray && depth == 2, let s = elementStart {
                    elements.append(Array(buffer[s...i]))
                    elementStart = nil
                } else if inArray && depth == 1 {
                    inArray = false
                }
            case 0x20, 0x0A, 0x0D, 0x09, 0x2C, 0x3A:
                break
            default:
                if inArray && depth == 2 && elementStart == nil {
                    throw .malformed(
                        offset: consumed + i, problem: "an element of \"\(String(decoding: key, as: UTF8.self))\" is not an object")
                }
                if depth == 0 { throw .malformed(offset: consumed + i, problem: "the document is not a JSON object") }
            }
            i += 1
        }
        let keep = elementStart ?? (inString ? stringStart : buffer.count)
        if keep > 0 {
            buffer.removeFirst(keep)
            consumed += keep
            if elementStart != nil { elementStart = 0 }
            if inString { stringStart -= keep }
        }
        return elements
    }

    /// Checks that the document ended complete.
    func finish() throws(Failure) {
        guard sawRoot, depth == 0, !inString else {
            throw .malformed(offset: consumed + buffer.count, problem: "the document ends before it is complete")
        }
    }
}
