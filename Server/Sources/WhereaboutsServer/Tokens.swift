import Crypto
import Foundation

/// Device and admin tokens: random, shown once, stored only as SHA-256, compared in constant time.
public enum Tokens {
    /// A new token: 32 random bytes, base64url without padding (43 characters), never starting with
    /// `-`: a command line would read such a token, given as its own argument (`--token TOKEN`), as
    /// an option. One draw in 64 starts with it and is drawn again, which costs under 0.03 of the
    /// token's 256 bits.
    public static func generate() -> String {
        var generator = SystemRandomNumberGenerator()
        while true {
            let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let token = Data(bytes).base64EncodedString()
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
            if !token.hasPrefix("-") { return token }
        }
    }

    /// SHA-256 of the token's UTF-8 bytes.
    public static func hash(_ token: String) -> Data { Data(SHA256.hash(data: Data(token.utf8))) }

    /// Compares two hashes in time that depends only on their length.
    public static func equal(_ a: Data, _ b: Data) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for (x, y) in zip(a, b) { difference |= x ^ y }
        return difference == 0
    }
}
