import Foundation

extension TrackingMode {
    /// The mode names an app, a bridge call or the command line may give.
    public static let names = [
        "manual", "significant", "move", "interval", "continuous", "adaptive", "balanced", "efficient", "responsive", "stop-detect",
    ]

    /// The mode called `name`, with optional parameters; a parameter left `nil` takes the mode's default
    /// (move 100 m / 300 s, interval 60 s / 500 m in the background / 50 m in the foreground, continuous best
    /// accuracy and no filter).
    /// - Parameters:
    ///   - distance: move mode's metres between records, or continuous mode's distance filter.
    ///   - interval: seconds between records (move, interval).
    ///   - displacement: interval mode's minimum metres moved (in the background).
    ///   - foregroundDisplacement: interval mode's minimum metres moved in the foreground.
    ///   - accuracy: continuous mode's accuracy.
    /// - Throws: ``ValidationError`` for an unknown name, a parameter that is not a positive number, or
    ///   a parameter the named mode does not take (it would be dropped without effect).
    public static func named(
        _ name: String, distance: Double? = nil, interval: TimeInterval? = nil, displacement: Double? = nil,
        foregroundDisplacement: Double? = nil, accuracy: LocationAccuracy? = nil
    ) throws(ValidationError) -> TrackingMode {
        let parameters = [
            ("distance", distance), ("interval", interval), ("displacement", displacement),
            ("foregroundDisplacement", foregroundDisplacement),
        ]
        for (field, value) in parameters {
            if let value, !(value.isFinite && value > 0) {
                throw ValidationError(
                    field: field, value: "\(value)", problem: "is not a positive number",
                    fix: "give \(field) in \(field == "interval" ? "seconds" : "metres"), greater than 0, or leave it out for the default")
            }
        }
        guard let taken = parametersTaken[name] else {
            throw ValidationError(
                field: "mode", value: "\"\(name)\"", problem: "is not a tracking mode", fix: "use one of \(names.joined(separator: ", "))")
        }
        let given =
            parameters.compactMap { field, value in value.map { (field, "\($0)") } } + (accuracy.map { [("accuracy", $0.rawValue)] } ?? [])
        if let (field, value) = given.first(where: { !taken.contains($0.0) }) {
            let takers = names.filter { parametersTaken[$0]?.contains(field) == true }
            throw ValidationError(
                field: field, value: value, problem: "is not a parameter of \(name) mode, which would ignore it",
                fix: "leave it out, or use a mode that takes it: \(takers.joined(separator: ", "))")
        }
        switch name {
        case "manual": return .manual
        case "significant": return .significant
        case "move": return .move(distance: distance ?? 100, interval: interval ?? 300)
        case "interval":
            return .interval(interval: interval ?? 60, displacement: displacement ?? 500, foregroundDisplacement: foregroundDisplacement)
        case "continuous": return .continuous(accuracy: accuracy ?? .best, distanceFilter: distance)
        case "adaptive", "balanced": return .adaptive(.adaptive)
        case "efficient": return .adaptive(.efficient)
        case "responsive": return .adaptive(.responsive)
        default: return .adaptive(.stopDetect)  // "stop-detect", the last of the names
        }
    }

    /// The parameters each mode name takes.
    private static let parametersTaken: [String: Set<String>] = Dictionary(
        uniqueKeysWithValues: names.map { name in
            switch name {
            case "move": (name, ["distance", "interval"])
            case "interval": (name, ["interval", "displacement", "foregroundDisplacement"])
            case "continuous": (name, ["distance", "accuracy"])
            default: (name, [])
            }
        })
}
