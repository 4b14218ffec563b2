import Foundation
import Testing
import WhereaboutsCore

@testable import WhereaboutsServer

@Suite("Fast batch decoder: agrees with JSONDecoder on every body it reads, and leaves the rest to it")
struct FastBatchDecoderTests {
    /// What a decoded batch means: each item's location or rejection reason, and the acknowledged ids.
    private enum Outcome: Equatable {
        case batch(items: [Item], acknowledged: [String]?)
        case error(String)

        init(_ batch: LenientLocationBatch) {
            self = .batch(
                items: batch.locations.map {
                    switch $0.result {
                    case .success(let location): .location(location)
                    case .failure(let problem): .rejected(problem.reason)
                    }
                }, acknowledged: batch.acknowledged)
        }
    }

    private enum Item: Equatable {
        case location(WireLocation)
        case rejected(String)
    }

    /// The server's reading of `body` before the fast decoder: the batch or the error's text.
    private func jsonDecoder(_ body: Data) -> Outcome {
        do { return Outcome(try JSONDecoder().decode(LenientLocationBatch.self, from: body)) } catch {
            return .error(DecodeProblem(error).reason)
        }
    }

    @Test("generated bodies: valid, odd but legal (escapes, exponents, whitespace, key order, unknown keys, nulls) and invalid")
    func agreesWithJSONDecoder() throws {
        var random = FuzzRandom(seed: 23)
        var (read, left) = (0, 0)
        for _ in 0..<4_000 {
            let body = Data(Self.body(&random).utf8)
            let expected = jsonDecoder(body)
            guard let fast = FastBatchDecoder.locationBatch(body) else {
                left += 1
                continue
            }
            read += 1
            #expect(expected == Outcome(fast), "\(String(decoding: body, as: UTF8.self))")
        }
        #expect(read > 1_500 && left > 300, "read \(read), left to JSONDecoder \(left)")
    }

    @Test("the common body, as the device's uploader encodes it, is read by the fast path")
    func readsTheUploadersBody() throws {
        let locations = (0..<50).map { n in
            WireLocation(
                id: UUID().uuidString.lowercased(), timestamp: "2026-11-24T07:0\(n % 10):00.123Z", latitude: 48.85 + Double(n) / 1e5,
                longitude: -2.29e-1, accuracy: 4.5, altitude: n.isMultiple(of: 2) ? 35 : nil, speed: 1.25, course: nil,
                trigger: "policy", dwell: n == 3 ? 600 : nil)
        }
        let body = try JSONEncoder().encode(LocationBatch(locations: locations, acknowledged: ["c1", "c/2"]))
        let fast = try #require(FastBatchDecoder.locationBatch(body))
        #expect(jsonDecoder(body) == Outcome(fast))
        #expect(fast.locations.count == 50)
    }

    @Test(
        "unusual bodies go to JSONDecoder",
        arguments: [
            #"{"locations":[{"id":"a","timestamp":"t","latitude":1,"longitude":2,"accuracy":3,"x":1}]}"#,
            #"{"locations":[{"id":"a","id":"b","timestamp":"t","latitude":1,"longitude":2,"accuracy":3}]}"#,
            #"{"locations":[{"id":1,"timestamp":"t","latitude":1,"longitude":2,"accuracy":3}]}"#,
            #"{"locations":[{"timestamp":"t","latitude":1,"longitude":2,"accuracy":3}]}"#,
            #"{"locations":[{"id":"a","timestamp":"t","latitude":1e999,"longitude":2,"accuracy":3}]}"#,
            #"{"locations":[{"id":"\ud800","timestamp":"t","latitude":1,"longitude":2,"accuracy":3}]}"#,
            #"{"locations":[]} x"#, #"{"locations":null}"#, #"{}"#, #"[]"#, "", "\u{FEFF}{\"locations\":[]}",
        ])
    func leavesUnusualBodies(_ body: String) {
        #expect(FastBatchDecoder.locationBatch(Data(body.utf8)) == nil)
    }

    // MARK: Generated bodies

    private static func body(_ random: inout FuzzRandom) -> String {
        var members: [String] = []
        if !random.chance(0.03) {
            let items = (0..<Int.random(in: 0...4, using: &random)).map { _ in location(&random) }
            members.append("\(key("locations", &random)):\(space(&random))[\(items.joined(separator: ",\(space(&random))"))]")
        }
        if random.chance(0.4) {
            let ids = (0..<Int.random(in: 0...3, using: &random)).map { _ in string(random.pick(["c1", "a/b", "é", "x\"y"]), &random) }
            members.append("\(key("acknowledged", &random)):\(random.chance(0.2) ? "null" : "[\(ids.joined(separator: ","))]")")
        }
        if random.chance(0.05) { members.append("\"extra\":{\"a\":[1,null,true]}") }
        members.shuffle(using: &random)
        var text =
            "\(space(&random)){\(space(&random))\(members.joined(separator: ",\(space(&random))"))\(space(&random))}\(space(&random))"
        if random.chance(0.06) { text = corrupt(text, &random) }
        return text
    }

    private static func location(_ random: inout FuzzRandom) -> String {
        var fields: [(String, String)] = [
            ("id", string(random.chance(0.9) ? UUID().uuidString.lowercased() : "not-a-uuid", &random)),
            (
                "timestamp",
                string(random.pick(["2026-11-24T07:00:00.123Z", "2026-11-24T07:00:00Z", "yesterday", "1990-01-01T00:00:00.000Z"]), &random)
            ),
            ("latitude", number(&random, range: -95...95)),
            ("longitude", number(&random, range: -185...185)),
            ("accuracy", number(&random, range: -1...200)),
        ]
        for optional in ["altitude", "speed", "course", "dwell"] where random.chance(0.4) {
            fields.append((optional, random.chance(0.25) ? "null" : number(&random, range: -10...1_000)))
        }
        if random.chance(0.4) {
            fields.append(
                ("trigger", random.chance(0.2) ? "null" : string(random.pick(["policy", "region", "request", "bogus"]), &random)))
        }
        if random.chance(0.03) { fields.append(("unknown", "[1,{\"b\":null}]")) }
        if random.chance(0.03) { fields.removeAll { $0.0 == random.pick(["id", "latitude", "accuracy"]) } }
        if random.chance(0.03) {
            fields[Int.random(in: 0..<fields.count, using: &random)].1 = random.pick(["true", "\"1\"", "{}", "[]", "null"])
        }
        fields.shuffle(using: &random)
        let members = fields.map { "\(key($0.0, &random))\(space(&random)):\(space(&random))\($0.1)" }
        return "{\(members.joined(separator: ",\(space(&random))"))}"
    }

    /// A number in one of JSON's spellings: integer, fraction, exponent, negative zero, long digits.
    private static func number(_ random: inout FuzzRandom, range: ClosedRange<Double>) -> String {
        let value = Double.random(in: range, using: &random)
        switch Int.random(in: 0..<6, using: &random) {
        case 0: return "\(Int(value))"
        case 1: return String(format: "%.3e", value)
        case 2: return String(format: "%.20f", value)
        case 3: return random.pick(["-0", "0.0", "1E2", "1e+1", "2.5E-3", "0e0"])
        case 4: return String(format: "%.17g", value)
        default: return "\(value)"
        }
    }

    private static func key(_ name: String, _ random: inout FuzzRandom) -> String {
        random.chance(0.05)
            ? "\"\(name.prefix(1))\\u00\(String(format: "%02x", name.utf8.dropFirst().first!))\(name.dropFirst(2))\"" : "\"\(name)\""
    }

    /// `text` as a JSON string, sometimes with escapes JSON allows.
    private static func string(_ text: String, _ random: inout FuzzRandom) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "/" where random.chance(0.5): out += "\\/"
            case _ where random.chance(0.05): out += String(format: "\\u%04X", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        if random.chance(0.03) { out += random.pick(["\\n", "\\t", "\\\\", "\\ud83d\\ude00", "😀", "\\ud83d", "\\x"]) }
        return "\"\(out)\""
    }

    private static func space(_ random: inout FuzzRandom) -> String {
        random.chance(0.8) ? "" : random.pick([" ", "\n", "\t ", "\r\n  "])
    }

    /// `text` with one byte dropped, doubled or replaced.
    private static func corrupt(_ text: String, _ random: inout FuzzRandom) -> String {
        var bytes = Array(text.utf8)
        guard !bytes.isEmpty else { return text }
        let at = Int.random(in: 0..<bytes.count, using: &random)
        switch Int.random(in: 0..<3, using: &random) {
        case 0: bytes.remove(at: at)
        case 1: bytes.insert(bytes[at], at: at)
        default: bytes[at] = random.pick(Array("{}[],:\"0 x\u{1}".utf8))
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
