import HTTPTypes
import NIOCore

/// When the request on a connection must have been read by, as a value: the handler reports what
/// happens and performs the ``Action`` it gets back.
///
/// A request's header must be complete ``headerTimeout`` after its first byte, and its body
/// ``bodyTimeout`` after its header; otherwise it is answered 408 (when no answer is being written)
/// and the connection is closed. An answer written before its request's body was read in full ends
/// the connection, so a refused upload is never read to its end; so does the answer to CONNECT,
/// after which a client may take the stream for a tunnel.
struct RequestDeadlines {
    /// What the handler does next.
    enum Action: Equatable {
        case none
        /// Arm the timer for this deadline, replacing any other.
        case schedule(NIODeadline)
        /// A request was read in full: stop the timer; the next bytes start another request.
        case awaitNextRequest
        /// Answer 408 with `Connection: close`, then close.
        case answerTimeoutAndClose
        /// Close the connection at once: a deadline passed while an answer was being written.
        case close
    }

    private enum Reading: Equatable {
        case waiting
        case header(deadline: NIODeadline)
        case body(deadline: NIODeadline)
    }

    /// Time from a request's first byte to the end of its header.
    let headerTimeout: TimeAmount
    /// Time from a request's header to the end of its body.
    let bodyTimeout: TimeAmount
    private var reading = Reading.waiting
    private var requestsRead = 0
    private var answersStarted = 0
    private var answersEnded = 0
    private var closeAfterAnswer = false

    init(headerTimeout: TimeAmount, bodyTimeout: TimeAmount) {
        self.headerTimeout = headerTimeout
        self.bodyTimeout = bodyTimeout
    }

    /// The first bytes of a request arrived.
    mutating func bytesArrived(now: NIODeadline) -> Action {
        guard reading == .waiting else { return .none }
        reading = .header(deadline: now + headerTimeout)
        return .schedule(now + headerTimeout)
    }

    /// A request's header was read.
    mutating func headerRead(method: HTTPRequest.Method, now: NIODeadline) -> Action {
        requestsRead += 1
        if method == .connect { closeAfterAnswer = true }
        reading = .body(deadline: now + bodyTimeout)
        return .schedule(now + bodyTimeout)
    }

    /// A request's body was read to its end.
    mutating func bodyRead() -> Action {
        reading = .waiting
        return .awaitNextRequest
    }

    /// An answer's head is being written; returns whether it must carry `Connection: close`.
    mutating func answerStarted() -> Bool {
        answersStarted += 1
        if case .body = reading, answersStarted == requestsRead { closeAfterAnswer = true }
        return closeAfterAnswer
    }

    /// An answer's end is being written; returns whether the connection closes once it is sent.
    mutating func answerEnded() -> Bool {
        answersEnded += 1
        return closeAfterAnswer && answersEnded == requestsRead
    }

    /// The timer fired at `now`.
    mutating func timerFired(now: NIODeadline) -> Action {
        let deadline: NIODeadline
        let readingBody: Bool
        switch reading {
        case .waiting: return .none
        case .header(let due): (deadline, readingBody) = (due, false)
        case .body(let due): (deadline, readingBody) = (due, true)
        }
        guard now >= deadline else { return .schedule(deadline) }
        let answering = answersStarted > answersEnded
        let answered = readingBody && answersStarted == requestsRead
        return answering || answered ? .close : .answerTimeoutAndClose
    }
}
