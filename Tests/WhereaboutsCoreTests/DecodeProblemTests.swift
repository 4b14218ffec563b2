import Foundation
import Testing
import WhereaboutsCore

@Suite("Decoding errors in words")
struct DecodeProblemTests {
    private struct Item: Decodable {
        let minutes: Int?
        let name: String?
    }

    /// Decodes each element on its own, as the server's lenient batch decoding does.
    private struct Each: Decodable {
        let problem: DecodeProblem?
        init(from decoder: any Decoder) throws {
            do {
                _ = try Item(from: decoder)
                problem = nil
            } catch {
                problem = DecodeProblem(error)
            }
        }
    }

    private func problem(_ text: [UInt8]) -> DecodeProblem? {
        let data = Data(text)
        do {
            _ = try JSONDecoder().decode(Item.self, from: data)
            return nil
        } catch {
            return DecodeProblem(error, in: data)
        }
    }

    @Test("a body that is not JSON says why: empty, too deep, not UTF-8, NaN; only NaN and Infinity mention them")
    func syntax() throws {
        let empty = try #require(problem(Array("  ".utf8)))
        #expect(empty.reason == "is empty; it should be JSON text" && empty.isSyntax)
        let deep = try #require(problem(Array((String(repeating: "[", count: 600) + String(repeating: "]", count: 600)).utf8)))
        #expect(deep.reason.contains("nested") && !deep.reason.contains("NaN"), "\(deep.reason)")
        let utf8 = try #require(problem(Array(#"{"name":""#.utf8) + [0xFF, 0xFE] + Array(#""}"#.utf8)))
        #expect(utf8.reason.contains("UTF-8") && !utf8.reason.contains("NaN"), "\(utf8.reason)")
        let nan = try #require(problem(Array(#"{"minutes":NaN}"#.utf8)))
        #expect(nan.reason.contains("NaN and Infinity are not JSON numbers"), "\(nan.reason)")
    }

    @Test("an item's problem names no Swift internals; a validation message names its field once")
    func items() throws {
        let text = Array(#"[{"minutes":1e400},{"name":""#.utf8) + [0xFF] + Array(#""}]"#.utf8)
        let reasons = try JSONDecoder().decode([Each].self, from: Data(text)).map { $0.problem?.reason ?? "" }
        #expect(reasons[0] == "holds the number 1e400, which is out of range or not a whole number where one is needed", "\(reasons)")
        #expect(reasons[1] == "holds a string that is not valid UTF-8", "\(reasons)")
        do {
            _ = try JSONDecoder().decode(ServerCommand.self, from: Data(#"{"type":"startActiveTracking","minutes":-5}"#.utf8))
            Issue.record("minutes -5 was accepted")
        } catch {
            let problem = DecodeProblem(error)
            #expect(problem.reason.hasPrefix("minutes -5 is not in 1...1440") && !problem.isSyntax, "\(problem.reason)")
        }
    }
}
