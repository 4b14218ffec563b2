import Foundation

/// What to do with a request's records after the server answered (or did not).
public enum UploadVerdict: Sendable, Equatable {
    /// 2xx, or 409 "already have it": read the answer and mark the records delivered.
    case delivered
    /// 401: refresh the credential once and resend.
    case refreshCredential
    /// 413: the batch is too large; send it in halves.
    case split
    /// 408, 429, 5xx or no answer: keep the records and try later, no sooner than `after` seconds
    /// when the server said so.
    case retry(after: TimeInterval?)
    /// 404 or 405: the URL names no upload endpoint (a wrong URL, a proxy in the way, a server of
    /// another kind). The records are not at fault: keep them pending and pause until the URL is fixed.
    case misconfigured(status: Int)
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
        case 400..<500: return .reject(Rejection(status: reply.status, reason: reply.bodyPrefix))
        default:
            return .retry(after: nil)
        }
    }

    /// Parses `Retry-After`: delay seconds or an HTTP-date; `nil` when unreadable.
    public static func retryAfter(_ value: String, now: Date) -> TimeInterval? {
        let text = value.trimmingCharacters(in: .whitespaces)
        if let seconds = Double(text), seconds.isFinite, seconds >= 0 { return seconds }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: text) else { return nil }
        return max(0, date.timeIntervalSince(now))
    }
}

/// Exponential back-off with jitter, capped, never sooner than the server asked.
public struct Backoff: Sendable, Equatable {
    /// The first delay in seconds.
    public var initial: TimeInterval
    /// The growth per failed attempt.
    public var multiplier: Double
    /// The longest delay in seconds.
    public var maximum: TimeInterval
    /// The share of each delay that is random: 0.5 draws from [d/2, d].
    public var jitter: Double

    /// Creates a policy.
    public init(initial: TimeInterval = 2, multiplier: Double = 2, maximum: TimeInterval = 600, jitter: Double = 0.5) {
        self.initial = initial
        self.multiplier = multiplier
        self.maximum = maximum
        self.jitter = min(1, max(0, jitter))
    }

    /// The delay before attempt `failures + 1`, given `unit`, a random number in [0, 1), and the
    /// server's `Retry-After` if any. A `Retry-After` beyond `maximum` is still honoured.
    public func delay(afterFailures failures: Int, retryAfter: TimeInterval?, unit: Double) -> TimeInterval {
        let exponent = Double(max(0, failures - 1))
        let full = min(maximum, initial * pow(multiplier, exponent))
        let jittered = full * (1 - jitter * min(max(unit, 0), 1))
        return max(jittered, retryAfter ?? 0)
    }
}
