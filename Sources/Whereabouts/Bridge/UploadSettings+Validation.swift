import Foundation
import WhereaboutsCore

extension UploadSettings {
    /// The settings when every field `kind` needs is there and can work: every URL http or https
    /// with a host, no required name empty, and no device or user name that would change the path
    /// the records go to. Every problem is named in one message, each with its fix.
    func validated() throws(ArgumentProblem) -> UploadSettings {
        var problems: [String] = []
        for (name, value) in [("url", url), ("tokenUrl", tokenUrl)] {
            guard let value else { continue }
            if !["http", "https"].contains(value.scheme?.lowercased() ?? "") {
                problems.append("upload.\(name) \"\(value.absoluteString)\" is not an http or https URL")
            } else if (value.host ?? "").isEmpty {
                problems.append(
                    "upload.\(name) \"\(value.absoluteString)\" has no host; pass the server's address, such as https://tracks.example.com")
            }
        }
        let required: [(String, Any?)] =
            switch kind {
            case .whereabouts: [("url", url), ("device", device)]
            case .owntracks: [("url", url), ("user", user), ("device", device)]
            case .firestore: [("project", project), ("apiKey", apiKey)]
            }
        for (name, value) in required {
            guard let value else {
                problems.append("upload.\(name) is missing, and \(kind.rawValue) uploads need it")
                continue
            }
            guard let text = value as? String else { continue }
            if text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                problems.append("upload.\(name) is empty; pass the \(Self.meaning(of: name)), which \(kind.rawValue) uploads need")
            } else if ["device", "user"].contains(name), text.contains("/") || text.contains("..") {
                problems.append(
                    "upload.\(name) \"\(text)\" contains \"/\" or \"..\", which would send the records to another path on the server; "
                        + "pass a name without them")
            }
        }
        if !problems.isEmpty { throw ArgumentProblem(problems.joined(separator: "; ")) }
        return self
    }

    /// What a required field holds, in words.
    private static func meaning(of field: String) -> String {
        switch field {
        case "device": "device's name (such as \"phone-1\")"
        case "user": "user's name"
        case "project": "Firebase project id"
        case "apiKey": "Firebase web API key"
        default: field
        }
    }
}
