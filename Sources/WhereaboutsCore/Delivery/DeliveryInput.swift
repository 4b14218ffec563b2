import Foundation

/// What a ``DeliveryMachine`` is told: a flush asked for, or the result of the step it asked for last.
public enum DeliveryInput: Sendable, Equatable {
    /// Something asks for a flush, for this reason, with the ids of the commands carried out and not
    /// yet acknowledged to the server (``Session/unacknowledgedCommands``).
    case flush(UploadTrigger, acknowledging: [String])
    /// The current credential state.
    case credential(CredentialState)
    /// No credential could be had; the text says why.
    case credentialFailed(String)
    /// The renewed credential state after the server refused the previous one.
    case refreshed(CredentialState)
    /// The credential could not be renewed; the text says why.
    case refreshFailed(String)
    /// The ids of the items leased for this request, in order (none when nothing is pending).
    case claimed([UUID])
    /// The server's answer to the request, sent to `url`.
    case replied(HTTPReply, url: String)
    /// No answer: the request could not be built or sent, or timed out; the text says why.
    case unanswered(String)
    /// What the server's successful answer says about each item.
    case interpreted(DeliveryOutcome)
    /// The store could not be read or written; the text says why.
    case storeFailed(String)
    /// A drain's deadline passed before the next claim or request: nothing more is claimed or sent.
    case outOfTime
}
