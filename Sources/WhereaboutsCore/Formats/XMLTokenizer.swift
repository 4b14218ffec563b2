/// A small streaming XML tokenizer: bytes go in, whole tokens come out with their line numbers.
/// It holds back only an incomplete token, at most ``longestToken`` bytes, so memory stays bounded
/// whatever the file's size, and a file that is not XML at all is refused early.
struct XMLTokenizer {
    /// The longest element, text or comment held while incomplete: a longer one is refused (each
    /// chunk searches the whole incomplete token again, so its cost grows with its square).
    static let longestToken = 4 << 20

    enum Token: Equatable {
        case start(name: String, attributes: [String: String], selfClosing: Bool)
        case end(name: String)
        case text(String)
    }

    enum Failure: Error, Equatable {
        case malformed(line: Int, problem: String)
    }

    private var buffer: [UInt8] = []
    private var position = 0
    /// How far the text at `position` is known to hold no `<`, so each chunk searches only new bytes.
    private var textScanned = 0
    private(set) var line = 1
    private var sawFirstBytes = false

    /// Adds bytes and returns the tokens completed so far, each with the line it starts on.
    mutating func feed(_ bytes: some Collection<UInt8>) throws(Failure) -> [(Token, Int)] {
        buffer.append(contentsOf: bytes)
        if !sawFirstBytes && buffer.count >= 3 {
            sawFirstBytes = true
            if buffer[0] == 0xEF && buffer[1] == 0xBB && buffer[2] == 0xBF { position = 3 }
        }
        var tokens: [(Token, Int)] = []
        while let token = try next() { if let token = token { tokens.append(token) } }
        guard buffer.count - position <= Self.longestToken else {
            throw .malformed(
                line: line,
                problem:
                    "more than \(Self.longestToken >> 20) MiB from line \(line) on hold no complete element, text or comment: this is not XML, or it holds a part too large to read"
            )
        }
        if position > 65_536 || position == buffer.count {
            buffer.removeFirst(position)
            textScanned = max(0, textScanned - position)
            position = 0
        }
        return tokens
    }

    /// Whatever bytes are left when the input ends: only white space is acceptable.
    func leftover() -> String? {
        let rest = buffer[position...]
        return rest.allSatisfy { $0 == 32 || $0 == 9 || $0 == 10 || $0 == 13 } ? nil : String(decoding: rest.prefix(40), as: UTF8.self)
    }

    /// The next token: `nil` when more input is needed, `.some(nil)` for markup that yields no token.
    private mutating func next() throws(Failure) -> (Token, Int)?? {
        guard position < buffer.count else { return nil }
        let startLine = line
        if buffer[position] != UInt8(ascii: "<") {
            guard let end = buffer[max(position, textScanned)...].firstIndex(of: UInt8(ascii: "<")) else {
                textScanned = buffer.count
                return nil
            }
            let text = decodeEntities(String(decoding: buffer[position..<end], as: UTF8.self))
            consume(to: end)
            return .some((.text(text), startLine))
        }
        if buffer.count - position < 9 && (position + 1 >= buffer.count || buffer[position + 1] == UInt8(ascii: "!")) {
            return nil
        }
        if startsWith("<!--") {
            guard let end = find("-->", from: position + 4) else { return nil }
            consume(to: end + 3)
            return .some(nil)
        }
        if startsWith("<![CDATA[") {
            guard let end = find("]]>", from: position + 9) else { return nil }
            let text = String(decoding: buffer[(position + 9)..<end], as: UTF8.self)
            consume(to: end + 3)
            return .some((.text(text), startLine))
        }
        if startsWith("<?") || startsWith("<!") {
            guard let end = find(">", from: position + 2) else { return nil }
            consume(to: end + 1)
            return .some(nil)
        }
        guard let end = tagEnd(from: position + 1) else { return nil }
        let inner = String(decoding: buffer[(position + 1)..<end], as: UTF8.self)
        consume(to: end + 1)
        return .some((try tag(inner, line: startLine), startLine))
    }

    private func startsWith(_ prefix: String) -> Bool {
        let p = Array(prefix.utf8)
        guard buffer.count - position >= p.count else { return false }
        return Array(buffer[position..<(position + p.count)]) == p
    }

    private func find(_ text: String, from: Int) -> Int? {
        let needle = Array(text.utf8)
        guard buffer.count >= needle.count else { return nil }
        var i = from
        while i + needle.count <= buffer.count {
            if buffer[i] == needle[0] && Array(buffer[i..<(i + needle.count)]) == needle { return i }
            i += 1
        }
        return nil
    }

    /// The index of the `>` closing a tag, skipping `>` inside quoted attribute values.
    private func tagEnd(from: Int) -> Int? {
        var quote: UInt8?
        var i = from
        while i < buffer.count {
            let c = buffer[i]
            if let q = quote {
                if c == q { quote = nil }
            } else if c == 34 || c == 39 {
                quote = c
            } else if c == UInt8(ascii: ">") {
                return i
            }
            i += 1
        }
        return nil
    }

    private mutating func consume(to end: Int) {
        for i in position..<end where buffer[i] == 10 { line += 1 }
        position = end
    }

    private func tag(_ inner: String, line: Int) throws(Failure) -> Token {
        if inner.hasPrefix("/") {
            return .end(name: Self.localName(inner.dropFirst().trimmingWhitespace()))
        }
        var body = Substring(inner)
        let selfClosing = body.hasSuffix("/")
        if selfClosing { body = body.dropLast() }
        let nameEnd = body.firstIndex(where: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }) ?? body.endIndex
        let name = String(body[..<nameEnd])
        guard !name.isEmpty else { throw .malformed(line: line, problem: "a tag has no name") }
        var attributes: [String: String] = [:]
        var rest = body[nameEnd...]
        while true {
            rest = rest.drop(while: { $0.isWhitespace })
            guard !rest.isEmpty else { break }
            guard let equals = rest.firstIndex(of: "=") else {
                throw .malformed(line: line, problem: "attribute \"\(rest.prefix(20))\" in <\(name)> has no value")
            }
            let key = String(rest[..<equals]).trimmingWhitespace()
            rest = rest[rest.index(after: equals)...].drop(while: { $0.isWhitespace })
            guard let quote = rest.first, quote == "\"" || quote == "'" else {
                throw .malformed(line: line, problem: "attribute \(key) in <\(name)> is not quoted")
            }
            rest = rest.dropFirst()
            guard let close = rest.firstIndex(of: quote) else {
                throw .malformed(line: line, problem: "attribute \(key) in <\(name)> has no closing quote")
            }
            attributes[Self.localName(key)] = decodeEntities(String(rest[..<close]))
            rest = rest[rest.index(after: close)...]
        }
        return .start(name: Self.localName(name), attributes: attributes, selfClosing: selfClosing)
    }

    /// The name without its namespace prefix: `gpx:trkpt` → `trkpt`.
    static func localName(_ name: String) -> String {
        name.split(separator: ":").last.map(String.init) ?? name
    }

    private func decodeEntities(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var out = ""
        var rest = Substring(text)
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            rest = rest[amp...]
            guard let semi = rest.firstIndex(of: ";"), rest.distance(from: rest.startIndex, to: semi) <= 10 else {
                out += "&"
                rest = rest.dropFirst()
                continue
            }
            let entity = rest[rest.index(after: rest.startIndex)..<semi]
            switch entity {
            case "amp": out += "&"
            case "lt": out += "<"
            case "gt": out += ">"
            case "quot": out += "\""
            case "apos": out += "'"
            default:
                let scalar =
                    entity.hasPrefix("#x")
                    ? UInt32(entity.dropFirst(2), radix: 16)
                    : entity.hasPrefix("#") ? UInt32(entity.dropFirst()) : nil
                out += scalar.flatMap(Unicode.Scalar.init).map { String(Character($0)) } ?? "&\(entity);"
            }
            rest = rest[rest.index(after: semi)...]
        }
        return out + rest
    }
}

extension StringProtocol {
    func trimmingWhitespace() -> String {
        String(drop(while: { $0.isWhitespace }).reversed().drop(while: { $0.isWhitespace }).reversed())
    }
}
