import Foundation

/// The two kinds of items a ``DeliveryMachine`` delivers: records first, then region events.
public enum DeliveryItemKind: String, Sendable, Equatable {
    /// Stored positions (``LocationRecord``).
    case record
    /// Region events (``EventRecord``), sent after the records when the endpoint takes them.
    case event
}

/// A store write a ``DeliveryMachine`` decided: what an answer settled, performed before the next step.
public enum DeliveryWrite: Sendable, Equatable {
    /// The server acknowledged these items.
    case delivered(DeliveryItemKind, [UUID])
    /// The server refused these items for good.
    case rejected(DeliveryItemKind, [UUID: Rejection], at: Date)
    /// These items were not delivered: their lease ends so a later flush sends them again.
    case release(DeliveryItemKind, [UUID])
    /// The server took the acknowledgement of these commands (or the endpoint takes none): forget them.
    case confirmAcknowledged([String])
    /// Commands the server sent back, kept until the engine carries them out.
    case keepCommands([DeviceCommand], at: Date)
}

/// The one thing a ``DeliveryMachine`` asks its runner to do next; the runner answers with the
/// ``DeliveryInput`` named on each case.
public enum DeliveryStep: Sendable, Equatable {
    /// A flush is already running: wait for its report (the new trigger is folded into it).
    case joinRunningFlush
    /// Get the current credential: answer ``DeliveryInput/credential(_:)`` or ``DeliveryInput/credentialFailed(_:)``.
    case fetchCredential
    /// Renew the credential the server refused: answer ``DeliveryInput/refreshed(_:)`` or ``DeliveryInput/refreshFailed(_:)``.
    case refreshCredential
    /// Lease up to `limit` pending items of `kind`: answer ``DeliveryInput/claimed(_:)``.
    case claim(DeliveryItemKind, limit: Int)
    /// Send these claimed items (possibly none, to carry acknowledgements alone) with these command
    /// acknowledgements and this credential: answer ``DeliveryInput/replied(_:url:)`` or ``DeliveryInput/unanswered(_:)``.
    case send(DeliveryItemKind, [UUID], acknowledging: [String], credential: Credential?)
    /// Read the server's successful answer for these items: answer ``DeliveryInput/interpreted(_:)``.
    case interpret(DeliveryItemKind, [UUID], HTTPReply)
    /// The flush is over: hand this report to whoever asked.
    case finished(FlushReport)
}

/// What a ``DeliveryMachine`` decided for one input: the store writes to perform in order, then the next step.
public struct DeliveryDecision: Sendable, Equatable {
    /// Store writes, in order, before the next step.
    public var writes: [DeliveryWrite]
    /// What the runner does next.
    public var next: DeliveryStep

    /// Creates a decision.
    public init(writes: [DeliveryWrite] = [], next: DeliveryStep) {
        self.writes = writes
        self.next = next
    }
}
