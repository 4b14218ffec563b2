import Foundation
import Testing
import Whereabouts

/// Records what JavaScript sees of a ``Bridge``: every call with its arguments and its answer, and
/// the last body of each pushed event (the last, not the first: which events come before the stream
/// is read depends on timing, while the last one is the final state). The JavaScript tests replay the recorded file against the
/// TypeScript wrapper, so a field renamed on one side fails the other.
final class BridgeTranscript: @unchecked Sendable {
    let bridge: Bridge
    private(set) var calls: [[String: Any]] = []
    private let events: AsyncStream<BridgeEvent>

    init(_ bridge: Bridge) {
        self.bridge = bridge
        events = bridge.events()
    }

    /// Calls `method`, records the call and answers the parsed reply.
    @discardableResult
    func call(_ method: String, _ arguments: String = "{}") async -> [String: Any] {
        let text = await bridge.call(method, json: arguments)
        let reply = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? ["unparsable": text]
        let parsed = (try? JSONSerialization.jsonObject(with: Data(arguments.utf8))) ?? arguments
        calls.append(["method": method, "arguments": parsed, "reply": reply])
        return reply
    }

    /// Shuts the engine down and writes (or checks) the transcript `name`.json.
    func finish(_ name: String) async throws {
        await bridge.engine.shutdown()
        var lastBodies: [String: Any] = [:]
        for await event in events {
            lastBodies[event.name.rawValue] = try JSONSerialization.jsonObject(with: event.body)
        }
        try Golden.check(["calls": calls, "events": lastBodies], as: name)
    }
}

/// The golden JSON files in `Integrations/typescript/test/transcripts`, which the TypeScript tests
/// replay. Each must exist and have the same shape (keys and JSON types; values may differ from run to
/// run); `WHEREABOUTS_RECORD_TRANSCRIPTS=1` writes them all, the only way one is written.
enum Golden {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Integrations/typescript/test/transcripts")

    static func check(_ value: [String: Any], as name: String) throws {
        let url = folder.appendingPathComponent("\(name).json")
        let data = try JSONSerialization.data(withJSONObject: value, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        let record = ProcessInfo.processInfo.environment["WHEREABOUTS_RECORD_TRANSCRIPTS"] == "1"
        if record {
            try data.write(to: url)
            return
        }
        guard FileManager.default.fileExists(atPath: url.path) else {
            Issue.record(
                "\(url.path) is missing: the TypeScript tests replay it; record it with WHEREABOUTS_RECORD_TRANSCRIPTS=1 and commit it")
            return
        }
        // A golden file that cannot be read fails the test: rewriting it would check nothing.
        let golden = try JSONDecoder().decode(Shape.self, from: Data(contentsOf: url))
        let differences = try JSONDecoder().decode(Shape.self, from: data).reduced().differences(from: golden.reduced(), at: name)
        #expect(
            differences.isEmpty,
            "\(url.path) no longer matches the bridge (change the TypeScript side too, then rerun with WHEREABOUTS_RECORD_TRANSCRIPTS=1):\n\(differences.joined(separator: "\n"))"
        )
    }
}

/// A JSON value's shape: its keys and JSON types, not its values.
indirect enum Shape: Decodable, Equatable {
    case object([String: Shape])
    case array([Shape])
    case string, number, boolean, null

    init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() {
            self = .null
        } else if (try? c.decode(Bool.self)) != nil {
            self = .boolean
        } else if (try? c.decode(Double.self)) != nil {
            self = .number
        } else if (try? c.decode(String.self)) != nil {
            self = .string
        } else if let array = try? c.decode([Shape].self) {
            self = .array(array)
        } else {
            self = .object(try c.decode([String: Shape].self))
        }
    }

    /// Arrays stand for their first element (`[]` when empty), except `calls`, whose every element
    /// counts; members keyed by record ids (the report's `items`) stand for one member keyed `<id>`.
    func reduced(every: Bool = false) -> Shape {
        switch self {
        case .object(let members):
            .object(
                members.sorted { $0.key < $1.key }.reduce(into: [:]) {
                    $0[UUID(uuidString: $1.key) == nil ? $1.key : "<id>"] = $1.value.reduced(every: $1.key == "calls")
                })
        case .array(let elements) where every: .array(elements.map { $0.reduced() })
        case .array(let elements): .array(elements.prefix(1).map { $0.reduced() })
        default: self
        }
    }

    /// Where `self` and `golden` differ, one line each.
    func differences(from golden: Shape, at path: String) -> [String] {
        switch (self, golden) {
        case (.object(let a), .object(let b)):
            return Set(a.keys).union(b.keys).sorted().flatMap { key -> [String] in
                switch (a[key], b[key]) {
                case (let x?, let y?): x.differences(from: y, at: "\(path).\(key)")
                case (_?, nil): ["\(path).\(key): sent now, absent from the golden file"]
                default: ["\(path).\(key): in the golden file, no longer sent"]
                }
            }
        case (.array(let a), .array(let b)):
            guard a.count == b.count else { return ["\(path): \(a.count) elements now, \(b.count) in the golden file"] }
            return zip(a, b).enumerated().flatMap { $1.0.differences(from: $1.1, at: "\(path)[\($0)]") }
        default:
            return self == golden ? [] : ["\(path): \(self) now, \(golden) in the golden file"]
        }
    }
}
