import Foundation
import WhereaboutsCore

extension UploadSettings {
    /// The settings when every field `kind` needs is there and every URL is http or https.
    func validated() throws(ArgumentProblem) -> UploadSettings {
        for (name, value) in [("url", url), ("tokenUrl", tokenUrl)] {
            if let value, !["http", "https"].contains(value.scheme?.lowercased() ?? "") {
                throw ArgumentProblem("upload.\(name) \"\(value.absoluteString)\" is not an http or https URL")
            }
        }
        let required: [(String, Any?)] =
            switch kind {
            case .whereabouts: [("url", url), ("device", device)]
            case .owntracks: [("url", url), ("user", user), ("device", device)]
            case .firestore: [("project", project), ("apiKey", apiKey)]
            }
        if let missing = required.first(where: { $0.1 == nil }) {
            throw ArgumentProblem("upload.\(missing.0) is missing, and \(kind.rawValue) uploads need it")
        }
        return self
    }
}
