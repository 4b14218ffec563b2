import WhereaboutsCore

/// A numeric parameter of the adaptive strategies (of their policy, or `flushInterval`, the
/// configuration's ``TrackerConfiguration/minimumFlushInterval``) that `simulate --set` and the fold
/// sweep may change.
public enum PolicyParameter: String, CaseIterable, Sendable, Hashable, Comparable {
    case lead, maximumCruise, fineRadius, stopTimeout, stopRadius, stationaryRadius, raisedAccuracyHold, distanceFilter, watchDistance
    case osTrustRadius
    /// ``MotionPolicy/undecidedDepth``: a fraction of the hysteresis band, 0 to 1.
    case undecidedDepth
    case flushInterval
    /// ``MotionPolicy/placesStops``: 1 places stops, 0 does not.
    case placesStops
    /// ``MotionPolicy/stillSensing``: 1 keeps the app running on motion activity while still, 0 does not.
    case stillSensing

    /// Whether the parameter is a switch, 0 (off) or 1 (on), rather than seconds or metres.
    var isSwitch: Bool { self == .placesStops || self == .stillSensing }

    /// The parameter's value in `configuration`.
    public func value(in configuration: TrackerConfiguration) -> Double {
        guard case .adaptive(let policy) = configuration.mode else { return 0 }
        switch self {
        case .flushInterval: return configuration.flushInterval
        default: return value(in: policy)
        }
    }

    /// Sets the parameter in `configuration` to `value`.
    public func set(_ value: Double, in configuration: inout TrackerConfiguration) {
        guard case .adaptive(var policy) = configuration.mode else { return }
        switch self {
        case .flushInterval: configuration.minimumFlushInterval = value
        default:
            set(value, in: &policy)
            configuration.mode = .adaptive(policy)
        }
    }

    private func value(in policy: MotionPolicy) -> Double {
        switch self {
        case .flushInterval: 0
        case .lead: policy.lead
        case .maximumCruise: policy.maximumCruise
        case .fineRadius: policy.fineRadius
        case .stopTimeout: policy.stopTimeout
        case .stopRadius: policy.stopRadius
        case .stationaryRadius: policy.stationaryRadius
        case .raisedAccuracyHold: policy.raisedAccuracyHold
        case .distanceFilter: policy.distanceFilter
        case .watchDistance: policy.watchDistance
        case .osTrustRadius: policy.osTrustRadius
        case .undecidedDepth: policy.undecidedDepth
        case .placesStops: policy.placesStops ? 1 : 0
        case .stillSensing: policy.stillSensing ? 1 : 0
        }
    }

    private func set(_ value: Double, in policy: inout MotionPolicy) {
        switch self {
        case .flushInterval: break
        case .lead: policy.lead = value
        case .maximumCruise: policy.maximumCruise = value
        case .fineRadius: policy.fineRadius = value
        case .stopTimeout: policy.stopTimeout = value
        case .stopRadius: policy.stopRadius = value
        case .stationaryRadius: policy.stationaryRadius = value
        case .raisedAccuracyHold: policy.raisedAccuracyHold = value
        case .distanceFilter: policy.distanceFilter = value
        case .watchDistance: policy.watchDistance = value
        case .osTrustRadius: policy.osTrustRadius = value
        case .undecidedDepth: policy.undecidedDepth = value
        case .placesStops: policy.placesStops = value != 0
        case .stillSensing: policy.stillSensing = value != 0
        }
    }

    /// Parses `name=value`, e.g. `lead=30`.
    /// - Throws: ``ValidationError`` naming the text, what is wrong and the names allowed.
    public static func setting(_ text: String) throws(ValidationError) -> PolicySetting {
        let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2, let parameter = PolicyParameter(rawValue: parts[0]) else {
            throw ValidationError(
                field: "--set", value: "\"\(text)\"", problem: "is not name=value with a known name",
                fix: "use one of \(allCases.map(\.rawValue).joined(separator: ", ")), e.g. lead=30")
        }
        guard let value = Double(parts[1]), value.isFinite, value >= 0 else {
            throw ValidationError(
                field: "--set \(parameter.rawValue)", value: "\"\(parts[1])\"", problem: "is not a non-negative number",
                fix:
                    "give seconds or metres as a number, e.g. \(parameter.rawValue)=\(Int(parameter.value(in: Strategy.adaptive.configuration)))"
            )
        }
        if parameter == .undecidedDepth, value > 1 {
            throw ValidationError(
                field: "--set undecidedDepth", value: "\"\(parts[1])\"", problem: "is more than 1 (the whole hysteresis band)",
                fix: "give a fraction of the band from 0 (the outline) to 1 (the band's far edge), e.g. undecidedDepth=0.5")
        }
        if parameter.isSwitch, value != 0 && value != 1 {
            throw ValidationError(
                field: "--set \(parameter.rawValue)", value: "\"\(parts[1])\"", problem: "is neither 0 nor 1",
                fix: "give \(parameter.rawValue)=1 to turn it on, \(parameter.rawValue)=0 to turn it off")
        }
        return PolicySetting(parameter: parameter, value: value)
    }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

extension Strategy {
    /// The strategy with `settings` applied to its adaptive policy, renamed `name`; a strategy without
    /// one is returned as it is.
    public func with(_ settings: [PolicySetting], name: String? = nil) -> Strategy {
        guard case .adaptive = configuration.mode, !settings.isEmpty else { return self }
        var configuration = configuration
        for setting in settings { setting.parameter.set(setting.value, in: &configuration) }
        return Strategy(name: name ?? self.name, summary: summary, configuration: configuration)
    }
}
