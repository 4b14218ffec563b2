import WhereaboutsCore

/// Why the engine refused a call: the session's `Refusal`, with a stable code an
/// app (or JavaScript) can switch on and a message naming the input, the problem and the fix.
public typealias EngineError = Refusal

extension Refusal {
    /// The refusal for a store that could not do `action`.
    static func store(_ error: any Error, doing action: String) -> Refusal {
        Refusal(.storeFailure, "could not \(action): \(error)")
    }
}
