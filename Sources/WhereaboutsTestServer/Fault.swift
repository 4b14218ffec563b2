import Foundation

/// A failure the test server plays for one request, in the order they were scripted.
public enum Fault: Sendable, Equatable {
    /// Answer with this status (and `Retry-After` when given) without touching the data.
    case status(Int, retryAfter: String? = nil, body: String = "{\"error\":\"injected\"}")
    /// Wait this many seconds, then handle the request normally (the client has usually given up).
    case hang(TimeInterval)
    /// Store the request's records, then close the connection without an answer.
    case dropAfterStore
    /// Store the request's records, then answer 200 with a 100-byte body sent one byte every this
    /// many seconds: a server too slow for any client's timeout that never goes quiet for long.
    case trickle(TimeInterval)
}
