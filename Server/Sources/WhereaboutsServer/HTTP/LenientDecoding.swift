import Foundation
import WhereaboutsCore

/// Decodes a batch item by item, so one item of the wrong shape is rejected alone.
struct Lenient<Item: Decodable>: Decodable {
    let result: Result<Item, DecodeProblem>

    init(from decoder: any Decoder) throws {
        do {
            result = .success(try Item(from: decoder))
        } catch {
            result = .failure(DecodeProblem(error))
        }
    }
}

/// A decoding error in words: which field, and what it should have been.
struct DecodeProblem: Error {
    let reason: String

    init(_ error: any Error) {
        func field(_ context: DecodingError.Context) -> String { context.codingPath.last?.stringValue ?? "the top level" }
        switch error {
        case DecodingError.dataCorrupted: reason = "is not valid JSON (NaN and Infinity are not JSON numbers)"
        case DecodingError.keyNotFound(let key, _): reason = "\"\(key.stringValue)\" is missing"
        case DecodingError.typeMismatch(let type, let context): reason = "\(field(context)) is not \(Self.describe(type))"
        case DecodingError.valueNotFound(_, let context): reason = "\(field(context)) is null"
        default: reason = "could not be read"
        }
    }

    private static func describe(_ type: Any.Type) -> String {
        if type == Double.self || type == Int.self { return "a number" }
        if type == String.self { return "a string" }
        if type == Bool.self { return "true or false" }
        return "\(type)".hasPrefix("Array") ? "an array" : "an object"
    }
}

/// `{"locations": [...]}` read leniently.
struct LenientLocationBatch: Decodable {
    let locations: [Lenient<WireLocation>]
}

/// `{"events": [...]}` read leniently.
struct LenientEventBatch: Decodable {
    let events: [Lenient<WireEvent>]
}
