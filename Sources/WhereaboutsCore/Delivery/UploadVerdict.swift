import Foundation

/// What to do with a request's records after the server answered (or did not).
public enum UploadVerdict: Sendable, Equatable {
    /// 2xx, or 409 "already have it": read the answer and mark the records delivered.
    case delivered
    /// 401: refresh the credential once and resend.
    case refreshCredential
    /// 413: the batch is too large; send it in halves.
    case split
    /// 408, 429, 5xx, 400 `unreadable_body` or no answer: keep the records and try later, no sooner than `after` seconds
    /// when the server said so.
    case retry(after: TimeInterval?)
    /// 404 or 405: the URL names no upload endpoint (a wrong URL, a proxy in the way, a server of
    /// another kind). The records are not at fault: keep them pending and pause until the URL is fixed.
    case misconfigured(status: Int)
    /// 400 `bad_device_id`: the server refused the device id in the request's path. The request is at
    /// fault, not its records: keep them pending and pause until the id is fixed. `reason` is the
    /// server's message.
    case badDevice(reason: String)
    /// 403: the credential is known but may not write here (our server's admin token, another
    /// device's token, Firestore's security rules). The records are not at fault: keep them pending
    /// and pause until the credential or the rules are fixed. `reason` is the server's message.
    case forbidden(reason: String)
    /// Any other 4xx: the server will never take these records; keep them as rejected.
    case reject(Rejection)

    /// Classifies a server's answer. `now` resolves an HTTP-date `Retry-After`.
    public static func classify(_ reply: HTTPReply, now: Date) -> UploadVerdict {
        switch reply.status {
        case 200..<300, 409: return .delivered
        case 401: return .refreshCredential
        case 413: return .split
        case 408, 425, 429, 500...599:
            return .retry(after: reply.headers["retry-after"].flatMap { retryAfter($0, now: now) })
        case 404, 405: return .misconfigured(status: reply.status)
        case 403: return .forbidden(reason: errorMessage(reply.body) ?? reply.bodyPrefix)
        // A body the server could not read whole (its framing broke on the way) is sent again.
        case 400 where errorCode(reply.body) == "unreadable_body": return .retry(after: nil)
        case 400 where errorCode(reply.body) == "bad_device_id":
            return .badDevice(reason: errorMessage(reply.body) ?? reply.bodyPrefix)
        case 400..<500: return .reject(Rejection(status: reply.status, reason: reply.bodyPrefix))
        default:
            return .retry(after: nil)
        }
    }

    /// The `error` member of a JSON error body, if it has one.
    static func errorCode(_ body: Data) -> String? { errorMember("error", of: body) }

    /// The `message` member of a JSON error body, if it has one.
    static func errorMessage(_ body: Data) -> String? { errorMember("message", of: body) }

    private static func errorMember(_ name: String, of body: Data) -> String? {
        (try? JSONSerialization.jsonObject(with: body.prefix(4096)) as? [String: Any])?[name] as? String
    }

    /// The longest wait a `Retry-After` imposes: a proxy's answer of a year would otherwise hold
    /// every upload, manual ones too, for the life of the process.
    public static let longestRetryAfter: TimeInterval = 86_400

    /// Parses `Retry-After`: delay seconds or an HTTP-date, at most ``longestRetryAfter``; `nil` when unreadable.
    public static func retryAfter(_ value: String, now: Date) -> TimeInterval? {
        let text = value.trimmingCharacters(in: .whitespaces)
        if let seconds = Double(text), seconds.isFinite, seconds >= 0 { return min(seconds, longestRetryAfter) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: text) else { return nil }
        return min(max(0, date.timeIntervalSince(now)), longestRetryAfter)
    }
}
