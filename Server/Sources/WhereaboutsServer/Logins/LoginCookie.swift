import Foundation
import HTTPTypes
import Hummingbird

/// The login cookie of the HTML pages: a random secret (only its SHA-256 is stored), `HttpOnly` so
/// page scripts never see it, `SameSite=Strict` so no other site's page sends it, and `Secure` when
/// the request came through a TLS proxy.
enum LoginCookie {
    /// The cookie's name, as earlier servers set it, so a login outlives an upgrade.
    static let name = "whereabouts_session"

    /// The cookie's value in the request's `Cookie` headers, if any.
    static func value(in request: Request) -> String? {
        for header in request.headers[values: .cookie] {
            for pair in header.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                if parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == name {
                    return parts[1].trimmingCharacters(in: .whitespaces)
                }
            }
        }
        return nil
    }

    /// The `Set-Cookie` value that stores `value` for `lifetime` seconds.
    static func setting(_ value: String, lifetime: Double, secure: Bool) -> String {
        "\(name)=\(value); Path=/; Max-Age=\(Int(lifetime)); HttpOnly; SameSite=Strict\(secure ? "; Secure" : "")"
    }

    /// The `Set-Cookie` value that makes the browser forget the cookie.
    static func clearing(secure: Bool) -> String { setting("", lifetime: 0, secure: secure) }
}
