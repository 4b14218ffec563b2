import ArgumentParser

/// The record ids the bench's load generator sends.
enum BenchIDs: String, Sendable, CaseIterable, ExpressibleByArgument {
    /// Version 7 ids (time-ordered) as our own clients mint them: the clock's milliseconds, then a
    /// counter, so each device's new ids reach the index at its right-hand edge.
    case ordered
    /// Version 4 ids spread over the index as random UUIDs are (other clients, ours before version 7).
    case random

    /// The id written into the request template, and the digits after which each id's slot starts.
    var template: (id: String, marker: String) {
        switch self {
        case .ordered: ("00000000-0000-7000-8000-000000000000", "-7000-8000-")
        case .random: ("00000000-0000-4000-8000-000000000000", "-4000-8000-")
        }
    }
}
