import Foundation
import Testing
import WhereaboutsServer

@Suite("device and admin tokens")
struct TokensTests {
    @Test("tokens are 43 base64url characters, all different, and none starts with '-' (which a command line reads as an option)")
    func shape() {
        // Without the redraw, about one token in 64 starts with '-': 4,000 would hold some 62.
        let tokens = (0..<4000).map { _ in Tokens.generate() }
        let alphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        #expect(tokens.allSatisfy { $0.count == 43 && $0.allSatisfy(alphabet.contains) })
        #expect(!tokens.contains { $0.hasPrefix("-") })
        #expect(Set(tokens).count == tokens.count)
    }
}
